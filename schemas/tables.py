"""Schemas of players, open tables, seats at them, clocks and webhooks."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from schemas.api import (
    GAME_STATUSES,
    SCALAR,
    STATUS_TEXT,
    cursor_field,
    next_cursor_field,
    offset_field,
)
from schemas.common import StrictSchema

STRATEGIES = ("random", "greedy")
LISTINGS = ("public", "private")
ON_TIMEOUT = ("bot", "resign")
LEFT = ("resigned", "timed_out")
NOTIFICATION_KINDS = ("your_turn", "game_started", "game_finished", "invitation")
MAX_CLOCK_MS = 60 * 24 * 3600 * 1000
"""Sixty days: the longest time bank or per-move deadline a table may set."""


class CreatePlayerSchema(StrictSchema):
    name = fields.String(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "The name other players see."},
    )


class PlayerSchema(StrictSchema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)


class CreatedPlayerSchema(PlayerSchema):
    player_key = fields.String(
        required=True,
        metadata={
            "description": "Shown once: the player's bearer key (Chronicle keeps only its "
            "hash). It also acts for every seat the player holds."
        },
    )


class ClockSchema(StrictSchema):
    """`bank`: each seat has `initial_ms` and gains `increment_ms` after each of its moves.
    `move`: every move must come within `per_move_ms` (hours or days for slow games)."""

    kind = fields.String(required=True, validate=validate.OneOf(("none", "bank", "move")))
    initial_ms = fields.Integer(validate=validate.Range(min=1000, max=MAX_CLOCK_MS))
    increment_ms = fields.Integer(validate=validate.Range(min=0, max=MAX_CLOCK_MS))
    per_move_ms = fields.Integer(validate=validate.Range(min=1000, max=MAX_CLOCK_MS))

    @validates_schema
    def check_kind(self, data: dict[str, Any], **_: Any) -> None:
        kind = data["kind"]
        if kind == "bank" and "initial_ms" not in data:
            raise ValidationError("a time bank needs initial_ms", "initial_ms")
        if kind == "move" and "per_move_ms" not in data:
            raise ValidationError("a per-move clock needs per_move_ms", "per_move_ms")
        extra = {"bank": {"per_move_ms"}, "move": {"initial_ms", "increment_ms"}}.get(
            kind, {"initial_ms", "increment_ms", "per_move_ms"}
        )
        given = sorted(extra & set(data))
        if given:
            raise ValidationError(f"not for a `{kind}` clock", given[0])


class CreateTableSchema(StrictSchema):
    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=100))
    players = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        required=True,
        validate=validate.Length(min=1, max=32),
        metadata={"description": "The seats' labels in seat order (how many seats)."},
    )
    options = fields.Dict(
        keys=fields.String(), values=fields.Raw(allow_none=True), load_default=dict
    )
    listing = fields.String(
        load_default="public",
        validate=validate.OneOf(LISTINGS),
        metadata={"description": "`public`: in the lobby; `private`: only by invitation."},
    )
    seat = fields.Integer(
        allow_none=True,
        load_default=0,
        validate=validate.Range(min=0, max=31),
        metadata={"description": "The creator's own seat (null: the creator does not play)."},
    )
    clock = fields.Nested(ClockSchema, load_default=lambda: {"kind": "none"})
    on_timeout = fields.String(load_default="bot", validate=validate.OneOf(ON_TIMEOUT))
    bots = fields.String(
        validate=validate.OneOf(STRATEGIES),
        metadata={"description": "Start at once with bots of this strategy in the other seats."},
    )


class CreatedTableSchema(StrictSchema):
    game_id = fields.String(required=True)
    ruleset = fields.String(required=True)
    admin_token = fields.String(required=True, metadata={"description": "Shown once."})
    seat = fields.Integer(allow_none=True, required=True)
    seat_token = fields.String(allow_none=True, required=True)
    invitation = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "A private table's invitation: pass it to claim a seat."},
    )
    invitation_url = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The web table's link that claims a seat with the invitation."},
    )
    status = fields.String(
        required=True, validate=validate.OneOf(GAME_STATUSES), metadata={"description": STATUS_TEXT}
    )
    version = fields.Integer(required=True)


class ClaimSchema(StrictSchema):
    seat = fields.Integer(
        allow_none=True, load_default=None, validate=validate.Range(min=0, max=31)
    )
    invitation = fields.String(
        allow_none=True, load_default=None, validate=validate.Length(min=1, max=200)
    )


class ClaimedSchema(StrictSchema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    seat_token = fields.String(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(GAME_STATUSES), metadata={"description": STATUS_TEXT}
    )


class BotStrategySchema(StrictSchema):
    strategy = fields.String(load_default="random", validate=validate.OneOf(STRATEGIES))


class SeatActSchema(StrictSchema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(GAME_STATUSES), metadata={"description": STATUS_TEXT}
    )


class SeatStateSchema(StrictSchema):
    seat = fields.Integer(required=True)
    label = fields.String(required=True)
    name = fields.String(required=True, metadata={"description": "The claiming player's name."})
    claimed = fields.Boolean(required=True)
    bot = fields.String(
        allow_none=True,
        required=True,
        validate=validate.OneOf(STRATEGIES),
        metadata={"description": "The strategy of the bot playing the seat (null: a person)."},
    )
    person = fields.Boolean(
        required=True,
        metadata={
            "description": "A person's seat still in the game (even while a bot plays it for"
            " them): when the last one resigns, the table is abandoned and the game ends."
        },
    )
    left = fields.String(
        allow_none=True,
        required=True,
        validate=validate.OneOf(LEFT),
        metadata={"description": "How the seat left the game (null: it has not)."},
    )
    deadline_ms = fields.Integer(allow_none=True, required=True)
    bank_ms = fields.Integer(allow_none=True, required=True)


class SeatingSchema(StrictSchema):
    game_id = fields.String(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(GAME_STATUSES), metadata={"description": STATUS_TEXT}
    )
    listing = fields.String(required=True)
    started = fields.Boolean(required=True)
    clock = fields.Dict(required=True)
    on_timeout = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatStateSchema), required=True)
    now_ms = fields.Integer(required=True)


class LobbyQuerySchema(StrictSchema):
    ruleset = fields.String(validate=validate.Length(min=1, max=100))
    offset = offset_field()
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = cursor_field()


class LobbyGameSchema(StrictSchema):
    game_id = fields.String(required=True)
    ruleset = fields.String(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(GAME_STATUSES), metadata={"description": STATUS_TEXT}
    )
    players = fields.List(fields.String(), required=True)
    open_seats = fields.List(fields.Integer(), required=True)
    options = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(metadata=SCALAR),
        required=True,
        metadata={
            "description": "The game's options, every one of its ruleset's (those left out "
            "at the creation with their defaults): `Options_<ruleset>` says what each means."
        },
    )
    version = fields.Integer(required=True)


class LobbySchema(StrictSchema):
    games = fields.List(fields.Nested(LobbyGameSchema), required=True)
    total = fields.Integer(required=True)
    offset = fields.Integer(
        required=True, metadata={"description": "Deprecated: the `offset` asked for."}
    )
    limit = fields.Integer(required=True)
    next_cursor = next_cursor_field()


class PlaceSchema(StrictSchema):
    seat = fields.Integer(required=True)
    player = fields.String(required=True)
    place = fields.Integer(required=True, metadata={"description": "1 for the winner; ties share."})
    score = fields.Raw(required=True, metadata={"description": "The score the ruleset ranks by."})


class MyGameSchema(StrictSchema):
    game_id = fields.String(required=True)
    ruleset = fields.String(required=True)
    title = fields.String(required=True, metadata={"description": "The ruleset's title."})
    status = fields.String(
        required=True, validate=validate.OneOf(GAME_STATUSES), metadata={"description": STATUS_TEXT}
    )
    seat = fields.Integer(allow_none=True, required=True)
    players = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Each seat's name: its player's once claimed, else its label."},
    )
    bots = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "The seats bots took when the table started."},
    )
    created_at = fields.String(required=True, metadata={"description": "ISO 8601, UTC."})
    awaits_you = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    ranking = fields.List(
        fields.Nested(PlaceSchema),
        required=True,
        allow_none=True,
        metadata={"description": "Once the game is over, its places (best first); else null."},
    )


class MyGamesSchema(StrictSchema):
    games = fields.List(fields.Nested(MyGameSchema), required=True)
    total = fields.Integer(required=True)
    offset = fields.Integer(
        required=True, metadata={"description": "Deprecated: the `offset` asked for."}
    )
    limit = fields.Integer(required=True)
    next_cursor = next_cursor_field()


class PagingSchema(StrictSchema):
    offset = offset_field()
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = cursor_field()


class PlayerStreamQuerySchema(StrictSchema):
    after = fields.String(
        load_default="0",
        validate=validate.Regexp(r"^\d{1,20}(-\d{1,20})?$"),
        metadata={"description": "Resume after this notification id (`0`: from the oldest)."},
    )
    format = fields.String(
        validate=validate.OneOf(("sse", "ndjson")),
        metadata={
            "description": "`sse` (EventSource) or `ndjson` (one JSON line each); left out, "
            "what `Accept` prefers (SSE by default)."
        },
    )
    follow = fields.Boolean(
        load_default=True,
        metadata={"description": "Keep the stream open for new notifications."},
    )
    ticket = fields.String(
        validate=validate.Length(min=1, max=1000),
        metadata={
            "description": "A stream ticket (`POST /players/me/stream-tickets`) instead of the "
            "player key, for a browser's EventSource (which sends no Authorization header)."
        },
    )


class PlayerStreamTicketSchema(StrictSchema):
    ticket = fields.String(required=True, metadata={"description": "Pass as `?ticket=`."})
    expires_at = fields.Float(
        required=True, metadata={"description": "Unix time after which it opens nothing."}
    )
    stream_url = fields.String(
        required=True, metadata={"description": "Your notification stream, ticketed."}
    )


class CreateWebhookSchema(StrictSchema):
    url = fields.String(required=True, validate=validate.Length(min=1, max=2000))
    events = fields.List(
        fields.String(validate=validate.OneOf(NOTIFICATION_KINDS)),
        load_default=lambda: list(NOTIFICATION_KINDS),
        validate=validate.Length(min=1, max=len(NOTIFICATION_KINDS)),
    )


class WebhookSchema(StrictSchema):
    webhook_id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(), required=True)
    secret = fields.String(
        required=True,
        metadata={
            "description": "Shown once: the key of the `X-Chronicle-Signature` header, "
            "`sha256=` + hex HMAC-SHA256 of the request body."
        },
    )


class DeliverySchema(StrictSchema):
    at = fields.Float(required=True)
    attempt = fields.Integer(required=True)
    ok = fields.Boolean(required=True)
    status = fields.Integer(
        validate=validate.Range(min=100, max=599),
        metadata={"description": "The HTTP status the webhook's URL answered (absent: none)."},
    )
    error = fields.String()
    payload = fields.Dict(required=True)


class DeliveriesQuerySchema(StrictSchema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = cursor_field()


class DeliveryLogSchema(StrictSchema):
    webhook_id = fields.String(required=True)
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)
    next_cursor = next_cursor_field()


class InviteSchema(StrictSchema):
    player_id = fields.String(
        required=True,
        validate=validate.Regexp(r"^[0-9a-f]{32}$"),
        metadata={"description": "The invited player's id (`GET /players/me` tells a player)."},
    )


class InvitedSchema(StrictSchema):
    game_id = fields.String(required=True)
    player_id = fields.String(required=True)
