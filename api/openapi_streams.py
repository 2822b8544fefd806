"""The document's components of the streams: a Server-Sent Events frame, and each stream's
NDJSON lines by `kind`."""

from __future__ import annotations

from typing import Any

from schemas.streams import (
    NOTIFICATION_KINDS,
    NOTIFICATIONS,
    GameStreamEventSchema,
    StreamErrorSchema,
    StreamHeartbeatSchema,
    StreamOpeningSchema,
)
from service.following import HEARTBEAT_S

STREAM_FRAME = {
    "type": "object",
    "description": "One Server-Sent Events frame of the stream (the wire form is `id:`, `event:`, "
    "`retry:` and `data:` lines ended by a blank line; a comment line `:` keeps the connection "
    "open). The first frame is a comment with an `id` and no `data`: it fires no event, but an "
    "EventSource keeps its id and sends it back on a reconnection before any event came.",
    "properties": {
        "id": {
            "type": "string",
            "pattern": "^[0-9]+$",
            "description": "The event's version (in the first frame, the version the stream "
            "starts after): send it back as `Last-Event-ID` to resume.",
        },
        "event": {
            "type": "string",
            "description": "The event's type (as `Event.type`), or `error` for the last frame "
            "of a stream that cannot go on.",
        },
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": {
                "oneOf": [
                    {"$ref": "#/components/schemas/Event"},
                    {"$ref": "#/components/schemas/Error"},
                ]
            },
            "description": "The event as the caller may see it (an `Event`), or for `error` the "
            "one error body.",
        },
        "retry": {
            "type": "integer",
            "description": "Milliseconds to wait before reconnecting (with an `error` frame).",
        },
    },
}


EVENT_STREAM = {
    "description": "Server-Sent Events. Read whole, the body is text: frames of `id:`, `event:`, "
    "`retry:` and `data:` lines, each ended by a blank line, and comment lines (`:`) that keep "
    "the connection open. Read frame by frame (as an EventSource does), each frame is a "
    "`StreamFrame`: `id` the event's version (send it back as `Last-Event-ID` to resume), "
    "`event` its type, `data` the event as the caller may see it (an `Event` in JSON); a "
    "stream that cannot go on ends with an `error` frame carrying the one error body.",
    "oneOf": [
        {"type": "string", "description": "The stream read as text."},
        {"$ref": "#/components/schemas/StreamFrame"},
    ],
}

NOTIFICATION_FRAME = {
    "type": "object",
    "description": "One frame of a player's notification stream.",
    "properties": {
        "id": {
            "type": "string",
            "pattern": "^[0-9]+-[0-9]+$",
            "description": "The notification's id: send it back as `Last-Event-ID` (or "
            "`after`) to resume.",
        },
        "event": {"type": "string", "description": "The notification's kind."},
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": {"$ref": "#/components/schemas/Notification"},
        },
    },
    "required": ["id", "event", "data"],
}

NOTIFICATION_STREAM = {
    "description": "Server-Sent Events: frames of `id:`, `event:` and `data:` lines, each ended "
    "by a blank line, and comment lines (`:`) that keep the connection open; each frame a "
    "`NotificationFrame`.",
    "oneOf": [
        {"type": "string", "description": "The stream read as text."},
        {"$ref": "#/components/schemas/NotificationFrame"},
    ],
}

STREAM_LINES = {
    "StreamOpening": StreamOpeningSchema,
    "StreamHeartbeat": StreamHeartbeatSchema,
    "StreamError": StreamErrorSchema,
    "GameStreamEvent": GameStreamEventSchema,
    **NOTIFICATIONS,
}
STREAM_LINE_KINDS = {
    "GameStreamLine": {
        "opening": "StreamOpening",
        "event": "GameStreamEvent",
        "heartbeat": "StreamHeartbeat",
        "error": "StreamError",
    },
    "Notification": {kind: f"Notification_{kind}" for kind in NOTIFICATION_KINDS},
    "NotificationStreamLine": {
        "opening": "StreamOpening",
        **{kind: f"Notification_{kind}" for kind in NOTIFICATION_KINDS},
        "heartbeat": "StreamHeartbeat",
        "error": "StreamError",
    },
}
"""Each stream's NDJSON lines: by `kind`, the component of that line."""
STREAM_LINE_TEXT = {
    "Notification": "One notification of a player, by `kind`: the game it is about, and per "
    "kind the seat (`your_turn`), the game's version, its ruleset and a private table's "
    "`invitation` (`invitation`).",
    "GameStreamLine": "One line of a game's stream read as NDJSON (`format=ndjson`), by "
    "`kind`: the `opening` (the version it starts after), each `event`, a `heartbeat` every "
    f"{HEARTBEAT_S:g} s of quiet, and a last `error` when it cannot go on.",
    "NotificationStreamLine": "One line of your notification stream read as NDJSON "
    "(`format=ndjson`), by `kind`: the `opening` (the id it starts after; a live stream only), "
    "each notification (`your_turn`, `game_started`, `game_finished`, `invitation`), a "
    f"`heartbeat` every {HEARTBEAT_S:g} s of quiet, and a last `error` when it cannot go on.",
}


def one_of_by_kind(name: str, kinds: dict[str, str]) -> dict[str, Any]:
    members = list(dict.fromkeys(kinds.values()))
    return {
        "description": STREAM_LINE_TEXT[name],
        "oneOf": [{"$ref": f"#/components/schemas/{m}"} for m in members],
        "discriminator": {
            "propertyName": "kind",
            "mapping": {k: f"#/components/schemas/{m}" for k, m in kinds.items()},
        },
    }
