"""Schemas of the game API's requests and responses; openapi.yaml is generated from them.

Requests are strict (unknown fields refused); responses are dumped through their schema so that
the document and the wire agree.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from schemas.commands import CommandField
from schemas.common import StrictSchema

GAME_STATUSES = ("open", "active", "closing", "finished")
"""`closing`: a step no seat takes is being run (the worker closing an epoch); a command waits
for it up to a quarter of a second, then is a 409 `game_busy` (retry after `Retry-After`)."""
STATUS_TEXT = (
    "`open` (a table whose seats wait to be claimed), `active` (seats play), "
    "`closing` (the worker is running a step no seat takes, such as "
    "closing an epoch: a command waits for it up to a quarter of a second, then gets 409 "
    "`game_busy`) or `finished`."
)

MAX_VERSION = 2**53
"""Versions above this are refused as malformed (JSON clients cannot count that high exactly)."""


class JsonInteger(fields.Integer):
    """An integer as JSON Schema means it: a JSON number with no fraction (`10867` or
    `10867.0`, as some JSON encoders write whole numbers), never a string or a boolean."""

    def _validated(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid", input=value)
        if isinstance(value, float):
            if not value.is_integer():
                raise self.make_error("invalid", input=value)
            return int(value)
        return value


def version_field(**kwargs: Any) -> fields.Integer:
    return JsonInteger(validate=validate.Range(min=0, max=MAX_VERSION), **kwargs)


def query_version(**kwargs: Any) -> fields.Integer:
    return fields.Integer(validate=validate.Range(min=0, max=MAX_VERSION), **kwargs)


CURSOR_PATTERN = r"^c1\.[A-Za-z0-9_-]{1,200}$"
PAGING_TEXT = (
    "The `next_cursor` of the page before: the entries after it in this order, none repeated "
    'or skipped however many are added meanwhile (the answer\'s `Link: <...>; rel="next"` '
    "header is the next page's URL). A cursor this server did not give out is a 422 "
    "`invalid_cursor`."
)


def cursor_field(description: str = PAGING_TEXT) -> fields.String:
    """The one way every listing pages: `cursor`, a page's `next_cursor` given back."""
    return fields.String(
        validate=validate.Regexp(CURSOR_PATTERN), metadata={"description": description}
    )


def next_cursor_field() -> fields.String:
    return fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Pass as `cursor` for the next page; null on the last page."},
    )


def offset_field() -> fields.Integer:
    """The older way to page a listing, kept working: entries to skip (not with `cursor`)."""
    return fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=10**9),
        metadata={
            "description": "Deprecated (page with `cursor`): entries to skip, not with `cursor`.",
            "deprecated": True,
        },
    )


def seats_field(description: str) -> fields.List:
    return fields.List(fields.Integer(), required=True, metadata={"description": description})


# --- rulesets ------------------------------------------------------------------------------


SCALAR = {"type": ["boolean", "integer", "string"]}
"""An option's or an argument's value: a JSON boolean, integer or string."""


class OptionSchema(Schema):
    name = fields.String(required=True)
    type = fields.String(required=True, metadata={"description": "boolean, integer or string"})
    default = fields.Raw(required=True, allow_none=True)
    allowed = fields.List(
        fields.Raw(metadata=SCALAR),
        allow_none=True,
        metadata={"description": "The values allowed, or null for any of the type."},
    )
    description = fields.String()


class RevisionSchema(Schema):
    """One revision of a ruleset's rules: a game is decided, folded and scored under the one it
    was created with, forever."""

    revision = fields.Integer(required=True)
    summary = fields.String(required=True, metadata={"description": "What changed."})
    rules = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "The rules-catalogue ids whose reading changed."},
    )


class RulesetSchema(Schema):
    name = fields.String(required=True, metadata={"description": "Pass as `ruleset` to create."})
    title = fields.String(required=True)
    player_counts = fields.List(fields.Integer(), required=True)
    options = fields.List(fields.Nested(OptionSchema), required=True)
    revision = fields.Integer(
        required=True,
        metadata={"description": "The revision of the rules new games are created under."},
    )
    revisions = fields.List(
        fields.Nested(RevisionSchema),
        required=True,
        metadata={"description": "Every revision this server keeps, oldest first."},
    )


class RulesetListSchema(Schema):
    rulesets = fields.List(fields.Nested(RulesetSchema), required=True)


class ArgumentSchema(Schema):
    name = fields.String(required=True)
    type = fields.String(required=True, metadata={"description": "boolean, integer or string"})
    description = fields.String(required=True)
    allowed = fields.List(
        fields.Raw(metadata=SCALAR),
        allow_none=True,
        metadata={"description": "The values it may take (ids of the data pack), or null."},
    )
    required = fields.Boolean(required=True)
    minimum = fields.Integer(allow_none=True)


class CommandSpecSchema(Schema):
    type = fields.String(required=True)
    description = fields.String(required=True)
    args = fields.List(fields.Nested(ArgumentSchema), required=True)


class ViewWordSchema(Schema):
    """How a field of the seat's view reads for people (from the view schema's `title`, its
    `x-words` and its seats)."""

    label = fields.String(metadata={"description": "The field's name in words."})
    value = fields.String(
        metadata={"description": "A phrase the value reads in, `{}` standing for it."}
    )
    hidden = fields.String(
        metadata={"description": "What the value `null` means: hidden from the viewer."}
    )
    seat = fields.Boolean(
        metadata={"description": "The value is a seat (or a list of seats): read by player."}
    )
    colour = fields.Boolean(
        metadata={"description": "The value is a colour (or a list of colours): read by name."}
    )


class RulesetDetailSchema(RulesetSchema):
    """A ruleset for a client that shows its games to people: its commands in words, the name
    of every id its commands and events use, and whether it draws its table."""

    commands = fields.List(
        fields.Nested(CommandSpecSchema),
        required=True,
        metadata={
            "description": "Every command a seat may post (the table procedures `undo`, "
            "`propose_rewind`, `accept_rewind` and `refuse_rewind` included), with its arguments."
        },
    )
    names = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={
            "description": "The name people read for each id of the data pack that commands "
            "and events name (lands, waters, cards...); empty when the ruleset has none."
        },
    )
    cards = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={
            "description": "What each card (tile, token) a player may hold says, in a line of "
            "our own words, by its id: a hand shown as cards; empty when the ruleset has none."
        },
    )
    view_words = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(ViewWordSchema),
        required=True,
        metadata={
            "description": "How each field of the seat's view (`GET /games/{game_id}/state`) "
            "reads for people, by its path in the view (`turn.seat`, `lands.*.owner`: `*` any "
            "key of a mapping; a list's items share its path): its label, a phrase for its "
            "value, whether it holds seats or colours; a field not here reads as its name."
        },
    )
    board = fields.Boolean(
        required=True,
        metadata={
            "description": "Whether the ruleset draws its table: `GET /games/{game_id}/board`."
        },
    )
    event_types = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "Every event type this server records, the kernel's and every "
            "ruleset's: a stream frame's `event` is one of them (an EventSource listens for "
            "each by name)."
        },
    )


# --- creating and listing games ------------------------------------------------------------


class CreateGameSchema(StrictSchema):
    ruleset = fields.String(
        required=True,
        validate=validate.Length(min=1, max=100),
        metadata={"description": "A ruleset name from `GET /rulesets`."},
    )
    players = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        required=True,
        validate=validate.Length(min=1, max=32),
        metadata={"description": "Player names in seat order: seat 0 first."},
    )
    options = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(allow_none=True),
        load_default=dict,
        metadata={
            "description": "Ruleset options; the ones left out take their defaults. Each "
            "ruleset's options, with their types and defaults, are in GET /rulesets and in this "
            "document's `Options_<ruleset>` schemas (e.g. `Options_hotw-2024`).",
        },
    )


class CreatedGameSchema(Schema):
    game_id = fields.String(required=True)
    ruleset = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    admin_token = fields.String(
        required=True, metadata={"description": "Shown once. Creates sandboxes; cannot play."}
    )
    seat_tokens = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "Shown once, one per seat in seat order; give each player theirs."
        },
    )
    seed_commitment = fields.String(
        required=True, metadata={"description": "SHA-256 of the game's secret chance seed."}
    )
    version = fields.Integer(required=True)
    sandbox_of = fields.String(
        allow_none=True, metadata={"description": "The game a sandbox was made from."}
    )


class SeatTokenSchema(Schema):
    """A seat's new token, re-issued by the admin: the seat's old token no longer works."""

    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    player = fields.String(required=True, metadata={"description": "The seat's player name."})
    seat_token = fields.String(
        required=True,
        metadata={
            "description": "Shown once: the seat's only valid token from now on (the old one, "
            "and stream tickets issued for it, are refused with 401)."
        },
    )


class GameListQuerySchema(StrictSchema):
    status = fields.String(
        validate=validate.OneOf(GAME_STATUSES), metadata={"description": STATUS_TEXT}
    )
    ruleset = fields.String(
        validate=validate.Regexp(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"),
        metadata={"description": "Only games of this ruleset (a ruleset's name)."},
    )
    offset = offset_field()
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = cursor_field()


class ListedGameSchema(Schema):
    game_id = fields.String(required=True)
    ruleset = fields.String(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(GAME_STATUSES), metadata={"description": STATUS_TEXT}
    )
    players = fields.List(fields.String(), required=True)
    version = fields.Integer(required=True)
    awaiting = seats_field("Seats the game waits for.")
    created_at = fields.String(required=True)
    sandbox_of = fields.String(allow_none=True)
    open_seats = fields.Integer(
        required=True, metadata={"description": "Seats still to be claimed (an open table's)."}
    )


class GameListSchema(Schema):
    games = fields.List(fields.Nested(ListedGameSchema), required=True)
    total = fields.Integer(required=True, metadata={"description": "Games matching the filter."})
    offset = fields.Integer(required=True)
    limit = fields.Integer(required=True)
    next_cursor = next_cursor_field()


class GameSummarySchema(Schema):
    game_id = fields.String(required=True)
    ruleset = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(GAME_STATUSES), metadata={"description": STATUS_TEXT}
    )
    players = fields.List(fields.String(), required=True)
    options = fields.Dict(required=True)
    awaiting = seats_field("Seats the game waits for now (several for simultaneous choices).")
    summary = fields.Dict(
        required=True, metadata={"description": "The ruleset's public summary: phase, round…"}
    )
    version = fields.Integer(required=True)
    revision = fields.Integer(
        required=True,
        metadata={
            "description": "The revision of the ruleset's rules the game is played under, "
            "forever (GET /rulesets/{name} lists them)."
        },
    )
    pack_digest = fields.String(
        required=True,
        metadata={
            "description": "SHA-256 of the data pack the game was created with (empty for a "
            "ruleset without one, or a game created before digests were recorded)."
        },
    )
    seed_commitment = fields.String(required=True)
    seed_revealed = fields.Boolean(
        required=True,
        metadata={"description": "Whether the seed is in the log (SeedRevealed): audit then."},
    )
    created_at = fields.String(required=True)
    sandbox_of = fields.String(allow_none=True)


# --- events --------------------------------------------------------------------------------


class EventSchema(Schema):
    """One event as the caller may see it: another seat's private event shows its redacted form
    (`redacted: true`, no draws)."""

    version = fields.Integer(required=True)
    type = fields.String(
        required=True,
        metadata={
            "description": "Past tense, namespaced by the ruleset family (hotw.ArmyPlaced); "
            "the kernel's own events are not (GameCreated)."
        },
    )
    schema_version = fields.Integer(required=True)
    data = fields.Dict(required=True)
    rule = fields.String(required=True, metadata={"description": "Rules-catalogue id."})
    visibility = fields.Dict(
        required=True, metadata={"description": "`{scope: public}` or `{scope: private, seats}`."}
    )
    draws = fields.List(
        fields.List(fields.Integer()),
        metadata={"description": "Chance draws used, each `[k, n, result]`."},
    )
    scripted = fields.Boolean(
        metadata={
            "description": "`true` when the draws came from a sandbox's chance script (a "
            "what-if), not from a committed seed (absent otherwise)."
        },
    )
    cites = fields.List(
        fields.String(),
        metadata={
            "description": "The other rules-catalogue ids that decided the event, beside `rule` "
            "(absent when none)."
        },
    )
    actor = fields.Raw(
        required=True,
        metadata={
            "component": "Actor",
            "description": "Who acted: a seat number, `system` (the rules, e.g. a game's set-up "
            "or the seed reveal), `worker` (a step no seat takes, run by the worker) or `admin` "
            "(an ordered rewind).",
        },
    )
    command_id = fields.String(required=True)
    recorded_at = fields.String(required=True)
    redacted = fields.Boolean(metadata={"description": "Present (true) when data is redacted."})


class FeedQuerySchema(StrictSchema):
    from_ = query_version(
        data_key="from",
        metadata={
            "description": "Deprecated (page with `cursor`): the first version to return "
            "(default 1), not with `cursor`.",
            "deprecated": True,
        },
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))
    cursor = cursor_field()


class FeedSchema(Schema):
    ruleset = fields.String(required=True, metadata={"description": "The game's ruleset."})
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The game's version now."})
    events = fields.List(fields.Nested(EventSchema, metadata={"component": "Event"}), required=True)
    next = fields.Integer(
        allow_none=True,
        metadata={
            "description": "Deprecated (page with `next_cursor`): `from` of the next page; "
            "null at the end.",
            "deprecated": True,
        },
    )
    next_cursor = next_cursor_field()


class StreamQuerySchema(StrictSchema):
    from_ = query_version(
        data_key="from",
        metadata={"description": "First version to send (the Last-Event-ID header wins)."},
    )
    format = fields.String(
        validate=validate.OneOf(("sse", "ndjson")),
        metadata={
            "description": "`sse` (EventSource) or `ndjson` (one JSON line each, a "
            "`GameStreamLine`); left out, what `Accept` prefers (SSE by default)."
        },
    )
    ticket = fields.String(
        validate=validate.Length(min=1, max=512),
        metadata={
            "description": "A stream ticket (POST /games/{game_id}/stream-tickets) for a "
            "browser's EventSource, which cannot send the seat token in a header; never put "
            "the token itself in a URL."
        },
    )


class StreamTicketSchema(Schema):
    ticket = fields.String(required=True, metadata={"description": "Pass as `?ticket=`."})
    expires_at = fields.Float(
        required=True, metadata={"description": "Unix time after which it opens nothing."}
    )
    seat = fields.Integer(required=True)
    stream_url = fields.String(required=True, metadata={"description": "The stream, ticketed."})


class DrawSchema(Schema):
    k = fields.Integer(required=True, metadata={"description": "The game's k-th chance draw."})
    n = fields.Integer(required=True, metadata={"description": "Drawn from 0..n-1."})
    result = fields.Integer(required=True)


class NarrativeEntrySchema(Schema):
    """One event told in words, as the caller may see it."""

    version = fields.Integer(required=True)
    type = fields.String(required=True)
    actor = fields.Raw(required=True, metadata={"component": "Actor"})
    words = fields.String(
        required=True, metadata={"description": "The event in a sentence (the ruleset's words)."}
    )
    rule = fields.String(required=True, metadata={"description": "Rules-catalogue id."})
    page = fields.String(
        required=True,
        metadata={"description": "The rulebook page of the rule (empty without a catalogue)."},
    )
    section = fields.String(required=True)
    citation = fields.String(
        required=True,
        metadata={
            "description": "Where the rulebook says it, for people: `p. 5, <section>`, or the "
            "section heading where the text prints no page (empty without a catalogue)."
        },
    )
    rule_text = fields.String(
        required=True, metadata={"description": "The rule in our own words (the catalogue's)."}
    )
    cites = fields.List(fields.String(), required=True)
    draws = fields.List(
        fields.Nested(DrawSchema),
        required=True,
        metadata={"description": "The chance draws behind the event (none when redacted)."},
    )
    scripted = fields.Boolean(
        required=True,
        metadata={
            "description": "Whether the draws came from a sandbox's chance script (a what-if) "
            "rather than a committed seed."
        },
    )
    data = fields.Dict(required=True, metadata={"description": "The event's data (as seen)."})
    redacted = fields.Boolean(required=True)
    recorded_at = fields.String(required=True)


class NarrativeSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The game's version now."})
    players = fields.List(fields.String(), required=True)
    entries = fields.List(fields.Nested(NarrativeEntrySchema), required=True)
    next = fields.Integer(
        allow_none=True,
        metadata={
            "description": "Deprecated (page with `next_cursor`): `from` of the next page; "
            "null at the end.",
            "deprecated": True,
        },
    )
    next_cursor = next_cursor_field()


class RuleEntrySchema(Schema):
    id = fields.String(required=True)
    page = fields.String(required=True)
    section = fields.String(required=True)
    citation = fields.String(
        metadata={"description": "The page (and section), or the section where no page."}
    )
    text = fields.String(required=True, metadata={"description": "The rule, in our own words."})
    reading = fields.String(
        metadata={"description": "How we read the rule where the rulebook leaves it open."}
    )
    departs_from = fields.String(
        metadata={
            "description": "The rulebook's words the reading departs from (empty when it does "
            "not depart from the text)."
        }
    )


class DepartureSchema(Schema):
    id = fields.String(required=True)
    reading = fields.String(required=True)
    departs_from = fields.String(required=True, metadata={"description": "Quoted rulebook text."})


class DataUsedSchema(Schema):
    what = fields.String(
        required=True, metadata={"description": "land, water, area, card, honor, numbers..."}
    )
    id = fields.String(required=True)
    name = fields.String(required=True)
    provenance = fields.String(required=True, metadata={"description": "As the data pack says."})
    printed = fields.Boolean(required=True, metadata={"description": "Printed in the rulebook."})
    reconstructed = fields.Boolean(
        required=True, metadata={"description": "Reconstructed (in whole or in part)."}
    )
    rule = fields.String(metadata={"description": "For numbers: the rule that prints them."})


class DataWordsSchema(Schema):
    label = fields.String(required=True, metadata={"description": "The field, in words."})
    value = fields.String(
        required=True,
        metadata={"description": "Its value in words: seats by their players, ids by names."},
    )


class InputsSchema(Schema):
    data = fields.Dict(required=True, metadata={"description": "The event's data (as seen)."})
    words = fields.List(
        fields.Nested(DataWordsSchema),
        required=True,
        metadata={"description": "Each field of `data` as people read it, in its order."},
    )
    draws = fields.List(fields.Nested(DrawSchema), required=True)
    scripted = fields.Boolean(
        required=True,
        metadata={"description": "Whether the draws came from a sandbox's chance script."},
    )
    context = fields.Raw(
        allow_none=True, metadata={"description": "The event's own `context`, if it has one."}
    )


class BeforeSchema(Schema):
    version = fields.Integer(required=True)
    awaiting = seats_field("Seats the game waited for.")
    summary = fields.Dict(required=True)


class ExplanationSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    rule = fields.String(required=True)
    rule_entry = fields.Nested(
        RuleEntrySchema,
        allow_none=True,
        metadata={"description": "Page and paraphrase, when the ruleset has a rules catalogue."},
    )
    cites = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "The other rules that decided the event."},
    )
    cited_entries = fields.List(fields.Nested(RuleEntrySchema), required=True)
    departures = fields.List(
        fields.Nested(DepartureSchema),
        required=True,
        metadata={"description": "Readings that depart from the rulebook's text and decided it."},
    )
    data_used = fields.List(
        fields.Nested(DataUsedSchema),
        required=True,
        metadata={"description": "Cards, lands and numbers used, printed or reconstructed."},
    )
    actor = fields.Raw(required=True, metadata={"component": "Actor"})
    words = fields.String(
        required=True, metadata={"description": "The event in a sentence (the ruleset's words)."}
    )
    command_id = fields.String(required=True)
    recorded_at = fields.String(required=True)
    redacted = fields.Boolean(
        required=True, metadata={"description": "True when the caller sees the redacted form."}
    )
    inputs = fields.Nested(InputsSchema, required=True)
    before = fields.Nested(
        BeforeSchema,
        allow_none=True,
        metadata={"description": "Public facts of the position just before the event."},
    )


# --- commands ------------------------------------------------------------------------------


class CommandRequestSchema(StrictSchema):
    """A command request body; every legal action is one (post it back as it is)."""

    command = CommandField(required=True)
    expected_version = version_field(
        metadata={"description": "Refuse (409) unless the game is still at this version."}
    )


class CommandResultSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The game's new version."})
    events = fields.List(
        fields.Nested(EventSchema, metadata={"component": "Event"}),
        required=True,
        metadata={"description": "The events the command produced, as the acting seat sees them."},
    )


class ActionWordsSchema(Schema):
    words = fields.String(
        required=True, metadata={"description": "The action in a sentence: `Expand: Caucasus`."}
    )
    label = fields.String(
        required=True,
        metadata={"description": "The part after its type (`Caucasus`), for a button under it."},
    )


class LegalActionsSchema(Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    your_turn = fields.Boolean(
        required=True, metadata={"description": "Whether the game waits for this seat now."}
    )
    actions = fields.List(
        fields.Nested(CommandRequestSchema),
        required=True,
        metadata={"description": "Every legal action, each a request body for the commands URL."},
    )
    action_words = fields.List(
        fields.Nested(ActionWordsSchema),
        required=True,
        metadata={
            "description": "Each legal action in words, in the order of `actions`: for people "
            "choosing among them (ids by their names, seats by their players)."
        },
    )
    table_actions = fields.List(
        fields.Nested(CommandRequestSchema),
        required=True,
        metadata={
            "description": "Table procedures open to this seat now, posted the same way: `undo` "
            "(its own last actions of this turn, back to the last chance outcome or reveal), "
            "`propose_rewind` (to the end of its previous command; any earlier command "
            "boundary may be posted as `to_version`), `accept_rewind` / `refuse_rewind`."
        },
    )


# --- views, results, positions -------------------------------------------------------------


class AtQuerySchema(StrictSchema):
    at = query_version(metadata={"description": "A past version; default: now."})


class StateSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    viewer = fields.Integer(
        required=True, allow_none=True, metadata={"description": "The seat, or null."}
    )
    status = fields.String(
        required=True, validate=validate.OneOf(GAME_STATUSES), metadata={"description": STATUS_TEXT}
    )
    awaiting = seats_field("Seats the game waits for at that version.")
    summary = fields.Dict(
        required=True,
        metadata={
            "description": "The ruleset's public summary at that version (the game's `summary`"
            " of GET /games/{game_id}): a table redrawn from this one answer needs no other."
        },
    )
    view = fields.Dict(
        required=True,
        metadata={
            "component": "View",
            "description": "The ruleset's view of the state for the caller.",
        },
    )


class StandingSchema(Schema):
    seat = fields.Integer(required=True)
    player = fields.String(required=True)
    place = fields.Integer(required=True, metadata={"description": "1 is first; ties share."})
    score = fields.Raw(required=True)
    tie_break = fields.Dict(metadata={"description": "The values that broke ties."})


class ResultSchema(Schema):
    game_id = fields.String(required=True)
    ruleset = fields.String(required=True)
    version = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True)
    scores = fields.List(fields.Raw(), required=True, metadata={"description": "One per seat."})
    ranking = fields.List(fields.Nested(StandingSchema), required=True)
    tie_breaks = fields.List(
        fields.String(), required=True, metadata={"description": "What decides ties, in order."}
    )
    details = fields.Dict(required=True)


class PositionSetupSchema(StrictSchema):
    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=100))
    players = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        required=True,
        validate=validate.Length(min=1, max=32),
    )
    options = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True), required=True)
    revision = JsonInteger(
        validate=validate.Range(min=1),
        metadata={
            "description": "The revision of the rules the position was played under; a sandbox "
            "keeps its source game's (422 ruleset_revision_unavailable for one this server "
            "lacks)."
        },
    )
    pack_digest = fields.String(
        validate=validate.Length(max=64),
        metadata={"description": "The data pack's digest (informative; ignored on input)."},
    )


class PositionSchema(StrictSchema):
    """A whole position: the setup and the ruleset's encoded state (every hidden item in it)."""

    setup = fields.Nested(PositionSetupSchema, required=True)
    state = fields.Raw(
        required=True,
        # what the field refuses (marshmallow's Raw allows no None), the document says too
        metadata={"description": "The ruleset's encoded state.", "not": {"type": "null"}},
    )
    version = JsonInteger(metadata={"description": "The version exported (ignored on input)."})
    draws = JsonInteger(metadata={"description": "Chance draws made so far (ignored on input)."})


class ChanceScriptSchema(StrictSchema):
    """A sandbox's scripted chance (a what-if: "had I rolled a 6"): draw k of the sandbox is
    entry k of the script, in order, instead of an outcome of a committed seed. Give `faces`
    (die faces, 1 to the ruleset's die; each is a draw of [0, 6) read as face - 1) or `draws`
    (`[n, result]` pairs, for shuffles and picks too), exactly one. A command needing a draw
    the script cannot give is refused, nothing recorded: 409 `chance_script_exhausted` once it
    has run out (a script never falls back to a seed), 409 `chance_script_mismatch` when the
    next entry is of another range than the draw (write it as `[n, result]`)."""

    faces = fields.List(
        JsonInteger(),
        validate=validate.Length(min=1, max=1000),
        metadata={"description": "Die faces in the order they are rolled, e.g. `[6, 2]`."},
    )
    draws = fields.List(
        fields.List(JsonInteger(), validate=validate.Length(equal=2)),
        validate=validate.Length(min=1, max=1000),
        metadata={
            "description": "Raw draws in order, each `[n, result]`: a whole number in [0, n) "
            "(a die face f of a d6 is `[6, f - 1]`)."
        },
    )


class SandboxRequestSchema(StrictSchema):
    position = fields.Nested(PositionSchema, required=True)
    chance = fields.Nested(
        ChanceScriptSchema,
        metadata={
            "description": "Scripted chance for a what-if (sandboxes only: a real game's chance "
            "is always its committed seed). Recorded at the sandbox's creation; every event "
            "decided on it carries `scripted: true`, and the sandbox's audit says `chance: "
            "scripted`. Left out: the sandbox draws from a seed of its own, committed to."
        },
    )
