"""The lines of the live streams read as NDJSON (`format=ndjson`), one schema per kind of line;
`api.openapi` joins each stream's kinds in a `oneOf` keyed by `kind` (`GameStreamLine`,
`NotificationStreamLine`), so that a generated client reads every line as a typed object.
Each is built by hand on the wire (service.queries, api.players); tests check both agree."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from schemas.common import ErrorSchema

EVENT_ID_PATTERN = r"^[0-9]{1,16}$"
"""A game stream's ids: the event's version."""
NOTIFICATION_ID_PATTERN = r"^[0-9]{1,20}(-[0-9]{1,20})?$"
"""A player stream's ids: the notification's id in the player's inbox, such as
`1764610000000-0` (`0`: from the oldest)."""
NOTIFICATION_KINDS = ("your_turn", "game_started", "game_finished", "invitation")


def kind(value: str, text: str) -> fields.Field:
    """A line's `kind`, the key its stream's `oneOf` picks its schema by."""
    return fields.String(
        required=True, validate=validate.OneOf([value]), metadata={"description": text}
    )


class StreamOpeningSchema(Schema):
    kind = kind("opening", "The first line: where the stream starts.")
    id = fields.String(
        required=True,
        validate=validate.Regexp(NOTIFICATION_ID_PATTERN),
        metadata={
            "description": "The id the stream starts after (a game's version, or a player's "
            "notification id): resume after it with `Last-Event-ID` when nothing came yet.",
            "pattern": NOTIFICATION_ID_PATTERN,
        },
    )


class StreamHeartbeatSchema(Schema):
    kind = kind("heartbeat", "A keep-alive, sent while nothing happens: nothing to do.")


class StreamErrorSchema(Schema):
    kind = kind("error", "The last line of a stream that cannot go on: follow it again later.")
    error = fields.Nested(ErrorSchema, required=True)
    retry_ms = fields.Integer(
        metadata={"description": "Milliseconds to wait before following again, when told."}
    )


class GameStreamEventSchema(Schema):
    kind = kind("event", "An event of the game, as the caller may see it.")
    id = fields.String(
        required=True,
        validate=validate.Regexp(EVENT_ID_PATTERN),
        metadata={
            "description": "The event's version: send it back as `Last-Event-ID` to resume.",
            "pattern": EVENT_ID_PATTERN,
        },
    )
    event = fields.Raw(required=True, metadata={"component": "Event"})


class NotificationSchema(Schema):
    kind = fields.String(
        required=True,
        validate=validate.OneOf(NOTIFICATION_KINDS),
        metadata={"description": "What happened."},
    )
    game_id = fields.String(required=True, metadata={"description": "The game it is about."})
    notification_id = fields.String(
        metadata={
            "description": "The notification's own name, `<game>:<version>:<n>` (every kind "
            "but `invitation`): the same in the stream and in a webhook's delivery, so that a "
            "client that gets both acts once."
        },
    )
    ruleset = fields.String()
    version = fields.Integer(metadata={"description": "The game's version it is about."})
    seat = fields.Integer(
        validate=validate.Range(min=0), metadata={"description": "`your_turn`: your seat."}
    )
    invitation = fields.String(
        allow_none=True, metadata={"description": "`invitation`: the private table's invitation."}
    )
    id = fields.String(
        validate=validate.Regexp(NOTIFICATION_ID_PATTERN),
        metadata={
            "description": "In NDJSON: the notification's id in your inbox (such as "
            "`1764610000000-0`): send it back as `Last-Event-ID` (or `after`) to resume.",
            "pattern": NOTIFICATION_ID_PATTERN,
        },
    )


NOTIFICATION_TEXT = {
    "your_turn": "It is your turn in a game (`seat`: your seat).",
    "game_started": "A game of yours started.",
    "game_finished": "A game of yours finished.",
    "invitation": "You are invited to a private table (`invitation`).",
}


def notification_of(kind_name: str) -> type[Schema]:
    """The schema of one kind of notification: `NotificationSchema` with its `kind` fixed."""
    fixed = {"kind": kind(kind_name, NOTIFICATION_TEXT[kind_name])}
    return type(f"Notification_{kind_name}Schema", (NotificationSchema,), fixed)


NOTIFICATIONS = {f"Notification_{name}": notification_of(name) for name in NOTIFICATION_KINDS}
"""Each kind of notification's schema, by component name."""
