"""Tables that run themselves: players, open seats and invitations, the lobby, bots in seats,
resigning, clocks, a player's notifications across its games, and webhooks."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, current_app, request, url_for
from flask.typing import ResponseReturnValue

from api import streams
from api.context import access, games
from api.docs import Header, route
from api.errors import ApiError
from api.inputs import bearer_token, cursor_after, json_body, paged, query
from schemas.instances import one
from schemas.streams import NOTIFICATION_ID_PATTERN
from schemas.tables import (
    BotStrategySchema,
    ClaimedSchema,
    ClaimSchema,
    CreatedPlayerSchema,
    CreatedTableSchema,
    CreatePlayerSchema,
    CreateTableSchema,
    CreateWebhookSchema,
    DeliveriesQuerySchema,
    DeliveryLogSchema,
    InvitedSchema,
    InviteSchema,
    LobbyQuerySchema,
    LobbySchema,
    MyGamesSchema,
    PagingSchema,
    PlayerSchema,
    PlayerStreamQuerySchema,
    PlayerStreamTicketSchema,
    SeatActSchema,
    SeatingSchema,
    WebhookSchema,
)
from service import tables, tickets
from service.access import NotAuthenticated
from service.following import HEARTBEAT_S
from service.names import normalised, problems
from service.queries import HEARTBEAT_LINE, Frame, encode_cursor, error_line, opening_line

bp = Blueprint("tables", __name__)

PLAYERS = ("players",)
TABLES = ("tables",)


def next_cursor(after: tuple[float, str] | None) -> str | None:
    return None if after is None else encode_cursor(after)


def the_player() -> tables.Player:
    """The player whose key is the bearer token (401 without one, or with an unknown one)."""
    key = bearer_token()
    if key is None:
        raise NotAuthenticated("a player key is required (Authorization: Bearer <key>)")
    player = tables.player_by_key(games(), key)
    if player is None:
        raise NotAuthenticated("unknown player key")
    return player


def checked_name(name: str) -> str:
    name = normalised(name)
    found = problems([name])
    if found:
        raise ApiError(
            422, "invalid_names", found[0].message, details={"fields": {"name": [found[0].message]}}
        )
    return name


# --- players ----------------------------------------------------------------------------------


@route(
    bp,
    "/players",
    "POST",
    summary="Become a player",
    request=CreatePlayerSchema,
    response=CreatedPlayerSchema,
    status=201,
    errors=(400, 415, 422),
    tags=PLAYERS,
)
def create_player() -> ResponseReturnValue:
    """An anonymous player with a display name (no password): the answer holds its key, shown
    once. With it, claim seats, list your games and follow your notifications."""
    name = checked_name(json_body(CreatePlayerSchema)["name"])
    player, key = tables.create_player(games(), name)
    body = {"player_id": player.player_id, "name": player.name, "player_key": key}
    return one(CreatedPlayerSchema).dump(body), 201, {"Cache-Control": "no-store"}


@route(
    bp,
    "/players/me",
    "GET",
    summary="Who you are",
    response=PlayerSchema,
    errors=(401,),
    auth=True,
    tags=PLAYERS,
)
def me() -> ResponseReturnValue:
    """The player whose key is given."""
    player = the_player()
    return one(PlayerSchema).dump({"player_id": player.player_id, "name": player.name})


@route(
    bp,
    "/players/me/games",
    "GET",
    summary="Your games",
    query=PagingSchema,
    response=MyGamesSchema,
    errors=(400, 401, 422),
    auth=True,
    tags=PLAYERS,
)
def my_games() -> ResponseReturnValue:
    """The games where you hold a seat, newest first, each saying whether it awaits you; page
    on with `next_cursor` (or the `Link: rel="next"` header). `offset` is deprecated."""
    player = the_player()
    args = query(PagingSchema)
    page = tables.my_games(games(), player, args["offset"], args["limit"], cursor_after(args))
    return paged(one(MyGamesSchema).dump(page), next_cursor(page.pop("next_after")))


@route(
    bp,
    "/players/me/stream",
    "GET",
    summary="Follow your notifications across your games",
    query=PlayerStreamQuerySchema,
    media_type="text/event-stream",
    alternates=("application/x-ndjson",),
    success_text="Server-Sent Events (`id`: the notification's id, `event`: its kind, `data`: "
    "its JSON), or with `format=ndjson` one `NotificationStreamLine` per line (a notification "
    "with its `id`). Kinds: `your_turn`, `game_started`, `game_finished`, `invitation`. While "
    f"nothing comes, a keep-alive every {HEARTBEAT_S:g} s (an SSE comment line; in NDJSON a "
    "`heartbeat` line); a stream that cannot go on ends with an `error` event (a line of kind "
    "`error`) carrying the one error body: follow again with `Last-Event-ID`.",
    errors=(400, 401, 429),
    auth="optional",
    headers=(
        Header(
            "Last-Event-ID",
            "Resume after this notification id (such as `1764610000000-0`).",
            NOTIFICATION_ID_PATTERN,
        ),
    ),
    tags=PLAYERS,
    stream_schema="NotificationStream",
    line_schema="NotificationStreamLine",
)
def my_stream() -> ResponseReturnValue:
    """Every notification after `after` (or the `Last-Event-ID` header), then each new one as
    it comes: resumable from any id a client saw. The player's key as a bearer token, or (a
    browser's EventSource, which sends no header) a stream ticket from
    `POST /players/me/stream-tickets` as `?ticket=`: it opens one stream, once, within 60
    seconds of its issue, and that stream's EventSource reconnecting to the same URL (with
    `Last-Event-ID`) for an hour after that, from the same address, resuming no earlier than
    what the ticket's stream sent, in its place."""
    args = query(PlayerStreamQuerySchema)
    resumed = request.headers.get("Last-Event-ID")
    player, named = stream_player(args.get("ticket"), reconnect=resumed is not None)
    after = resumed or args["after"]
    if not _is_stream_id(after):
        raise ApiError(400, "invalid_request", "Last-Event-ID is not a notification id")
    heartbeat = float(current_app.config["SSE_HEARTBEAT_S"])
    entries = tables.player_notifications(games(), player, after, args["follow"], heartbeat)
    if named is not None:
        entries = streams.ticketed(
            args["ticket"], named.expires_at, after, resumed, entries, lambda e: e and e[0]
        )
    form = streams.stream_format(args.get("format"))
    chunks = (
        _ndjson(after if args["follow"] else None, entries)
        if form == "ndjson"
        else _sse(after, entries)
    )
    told = streams.ending_cleanly(chunks, error_line if form == "ndjson" else _sse_error)
    if args["follow"]:  # a live stream takes one of the client's places, like a game's stream
        told = streams.held_place(told)
    return streams.stream_response(told, form)


def stream_player(
    ticket: str | None, reconnect: bool
) -> tuple[tables.Player, tickets.PlayerTicket | None]:
    """Who follows the notification stream: the bearer key's player, or the one a valid
    stream ticket names (and that ticket)."""
    if ticket is None:
        return the_player(), None
    if bearer_token() is not None:
        raise NotAuthenticated("send a player key or a stream ticket, not both")
    try:
        return tables.player_by_ticket(games(), ticket, reconnect)
    except tickets.TicketRefused as refused:
        raise NotAuthenticated(str(refused)) from None


@route(
    bp,
    "/players/me/stream-tickets",
    "POST",
    summary="Get a short-lived ticket to follow your notifications from a browser",
    response=PlayerStreamTicketSchema,
    status=201,
    errors=(401,),
    auth=True,
    tags=PLAYERS,
)
def issue_player_stream_ticket() -> ResponseReturnValue:
    """For a player: a ticket that opens your notification stream once, within 60 seconds, to
    pass as `?ticket=` where no Authorization header can be sent (a browser's EventSource). That
    stream's EventSource reconnecting to the same URL (sending `Last-Event-ID`) is let in for an
    hour more, from the same address and going on from where it was; past that, or after a
    401, ask for a new ticket. The player key itself never goes into a URL."""
    player = the_player()
    ticket, expires_at = tables.player_stream_ticket(games(), player)
    stream_url = url_for("tables.my_stream", ticket=ticket)
    body = {"ticket": ticket, "expires_at": expires_at, "stream_url": stream_url}
    return one(PlayerStreamTicketSchema).dump(body), 201


def _is_stream_id(value: str) -> bool:
    """An inbox id as the stream sends them, by the pattern the document states."""
    return re.fullmatch(NOTIFICATION_ID_PATTERN, value) is not None


def _sse(after: str, entries: Iterator[tuple[str, str, str] | None]) -> Iterator[str]:
    """The first frame, a comment, has as its `id` where the stream starts: an EventSource that
    got nothing yet still reconnects with `Last-Event-ID` (a stream ticket lets it back in)."""
    yield f": your notifications\nid: {after}\n\n"
    for entry in entries:
        if entry is None:
            yield ": keep-alive\n\n"
            continue
        entry_id, kind, body = entry
        yield f"id: {entry_id}\nevent: {kind}\ndata: {body}\n\n"


def _sse_error(data: str, retry_ms: int | None) -> str:
    return Frame.error(data, retry_ms).text


def _ndjson(after: str | None, entries: Iterator[tuple[str, str, str] | None]) -> Iterator[str]:
    """A live stream (`after` given) opens with a line at once, a page of the inbox does not."""
    if after is not None:
        yield opening_line(after)
    for entry in entries:
        if entry is None:
            yield HEARTBEAT_LINE
            continue
        entry_id, _, body = entry
        yield json.dumps({"id": entry_id, **json.loads(body)}, sort_keys=True) + "\n"


# --- webhooks ---------------------------------------------------------------------------------


def _new_webhook(owner: str) -> ResponseReturnValue:
    body = json_body(CreateWebhookSchema)
    own = [request.host, f"{request.host}:80" if ":" not in request.host else request.host]
    allow_private = bool(current_app.config.get("WEBHOOK_ALLOW_PRIVATE", False))
    try:
        tables.check_webhook_url(body["url"], own, allow_private)
    except tables.WebhookRefused as refused:
        raise ApiError(
            422, "webhook_url_refused", str(refused), details={"fields": {"url": [str(refused)]}}
        ) from None
    hook = tables.add_webhook(games(), owner, body["url"], body["events"], allow_private)
    return one(WebhookSchema).dump(hook), 201, {"Cache-Control": "no-store"}


DELIVERY_KEY = re.compile(r"^d$")


def _deliveries(owner: str, webhook_id: str) -> ResponseReturnValue:
    """A page of a webhook's delivery log, newest first (by each attempt's time)."""
    args = query(DeliveriesQuerySchema)
    after = cursor_after(args, key=DELIVERY_KEY)
    if webhook_id not in tables.players_of(games()).webhooks(owner):
        raise ApiError(404, "webhook_not_found", "no such webhook")
    log = tables.players_of(games()).deliveries(owner, webhook_id)
    if after is not None:
        log = [entry for entry in log if entry["at"] < after[0]]
    shown = log[: args["limit"]]
    more = len(log) > len(shown)
    page = {"webhook_id": webhook_id, "deliveries": shown}
    return paged(
        one(DeliveryLogSchema).dump(page),
        next_cursor((shown[-1]["at"], "d") if more and shown else None),
    )


@route(
    bp,
    "/players/me/webhooks",
    "POST",
    summary="Register a webhook for your notifications",
    request=CreateWebhookSchema,
    response=WebhookSchema,
    status=201,
    errors=(400, 401, 415, 422),
    auth=True,
    tags=PLAYERS,
)
def add_player_webhook() -> ResponseReturnValue:
    """Chronicle POSTs each of your notifications of the kinds chosen to `url`, signed with
    `X-Chronicle-Signature: sha256=<hex HMAC-SHA256 of the body>` under the secret answered
    here (shown once), retrying a failure with backoff. Only http(s) URLs; never this server
    itself or a loopback, private or reserved address (422 `webhook_url_refused`)."""
    return _new_webhook(the_player().player_id)


@route(
    bp,
    "/players/me/webhooks/<webhook_id>/deliveries",
    "GET",
    summary="Your webhook's delivery log",
    query=DeliveriesQuerySchema,
    response=DeliveryLogSchema,
    errors=(400, 401, 404, 422),
    auth=True,
    tags=PLAYERS,
)
def player_webhook_deliveries(webhook_id: str) -> ResponseReturnValue:
    """Each attempt, newest first: when, which attempt, the HTTP status or the error; page on
    with `next_cursor` (or the `Link: rel="next"` header)."""
    return _deliveries(the_player().player_id, webhook_id)


@route(
    bp,
    "/games/<game_id>/webhooks",
    "POST",
    summary="Register a webhook for a game",
    request=CreateWebhookSchema,
    response=WebhookSchema,
    status=201,
    errors=(400, 401, 403, 404, 415, 422),
    auth=True,
    tags=TABLES,
)
def add_game_webhook(game_id: str) -> ResponseReturnValue:
    """As the game's admin: its notifications (a seat's turn, the start, the end) POSTed to
    `url`, signed and retried like a player's."""
    access().admin(game_id, bearer_token())
    return _new_webhook(tables.game_owner(game_id))


@route(
    bp,
    "/games/<game_id>/webhooks/<webhook_id>/deliveries",
    "GET",
    summary="A game webhook's delivery log",
    query=DeliveriesQuerySchema,
    response=DeliveryLogSchema,
    errors=(400, 401, 403, 404, 422),
    auth=True,
    tags=TABLES,
)
def game_webhook_deliveries(game_id: str, webhook_id: str) -> ResponseReturnValue:
    """As the game's admin."""
    access().admin(game_id, bearer_token())
    return _deliveries(tables.game_owner(game_id), webhook_id)


# --- open tables ------------------------------------------------------------------------------


@route(
    bp,
    "/tables",
    "POST",
    summary="Open a table",
    request="CreateTable",
    response=CreatedTableSchema,
    status=201,
    errors=(400, 401, 404, 415, 422),
    auth=True,
    tags=TABLES,
)
def create_table() -> ResponseReturnValue:
    """As a player: a game whose seats wait to be claimed (you hold `seat`, if given), listed
    in the lobby (`public`) or reachable only by its invitation (`private`), with an optional
    clock and what a timeout does. With `bots`, it starts at once with bots in every other
    seat: a game against bots in one request."""
    player = the_player()
    body = json_body(CreateTableSchema)
    from api.games import checked_options, checked_players  # the same rules as POST /games

    labels = checked_players(body["players"])
    checked_options(body["ruleset"], body["options"])
    seat = body["seat"]
    if seat is not None and seat >= len(labels):
        raise ApiError(
            422,
            "invalid_seat",
            f"there is no seat {seat}",
            details={"fields": {"seat": ["No such seat."]}},
        )
    made = tables.create_table(
        games(),
        body["ruleset"],
        labels,
        body["options"],
        listing=body["listing"],
        creator=player,
        creator_seat=seat,
        clock=body["clock"],
        on_timeout=body["on_timeout"],
    )
    version = made.created.version
    if "bots" in body:
        version = tables.start_table(games(), made.created.game_id, body["bots"])
    status = games().store.meta(made.created.game_id).status
    answer = {
        "game_id": made.created.game_id,
        "ruleset": made.created.ruleset,
        "admin_token": made.created.tokens.admin,
        "seat": made.seat,
        "seat_token": made.seat_token,
        "invitation": made.invitation,
        "invitation_url": None
        if made.invitation is None
        else f"{request.host_url}#join={made.created.game_id}&invitation={made.invitation}",
        "status": status,
        "version": version,
    }
    return one(CreatedTableSchema).dump(answer), 201, {"Cache-Control": "no-store"}


@route(
    bp,
    "/tables",
    "GET",
    summary="The lobby: public tables with open seats",
    query=LobbyQuerySchema,
    response=LobbySchema,
    errors=(400, 422),
    tags=TABLES,
)
def lobby() -> ResponseReturnValue:
    """Public tables that still have open seats, newest first, a page of the lobby's index,
    each with its options; page on with `next_cursor` (or the `Link: rel="next"` header).
    `offset` is deprecated."""
    args = query(LobbyQuerySchema)
    page = tables.lobby(
        games(), args.get("ruleset"), args["offset"], args["limit"], cursor_after(args)
    )
    return paged(one(LobbySchema).dump(page), next_cursor(page.pop("next_after")))


@route(
    bp,
    "/games/<game_id>/claims",
    "POST",
    summary="Claim a seat",
    request=ClaimSchema,
    response=ClaimedSchema,
    status=201,
    errors=(400, 401, 403, 404, 409, 415, 422),
    auth=True,
    tags=TABLES,
)
def claim_seat(game_id: str) -> ResponseReturnValue:
    """As a player: take an open seat (`seat`, or the first open one), with the invitation for
    a private table. The answer holds that seat's token (your player key acts for it too). A
    seat already taken, a second seat at one table, or a table already started is a 422; a
    missing or wrong invitation a 403."""
    player = the_player()
    body = json_body(ClaimSchema)
    try:
        seat, token = tables.claim_seat(games(), game_id, player, body["seat"], body["invitation"])
    except tables.InvitationRefused as refused:
        raise ApiError(403, "invitation_refused", str(refused)) from None
    status = games().store.meta(game_id).status
    body = {"game_id": game_id, "seat": seat, "seat_token": token, "status": status}
    return one(ClaimedSchema).dump(body), 201, {"Cache-Control": "no-store"}


@route(
    bp,
    "/games/<game_id>/start",
    "POST",
    summary="Start a table with bots in its open seats",
    request=BotStrategySchema,
    response=SeatActSchema,
    errors=(400, 401, 403, 404, 409, 415, 422),
    auth=True,
    tags=TABLES,
)
def start(game_id: str) -> ResponseReturnValue:
    """As the table's creator (player key) or admin: start now, bots of `strategy` taking the
    seats still open."""
    token = bearer_token()
    player = tables.player_by_key(games(), token) if token else None
    if not tables.may_start(games(), game_id, player):
        access().admin(game_id, token)
    body = json_body(BotStrategySchema)
    version = tables.start_table(games(), game_id, body["strategy"])
    return _acted(game_id, version)


@route(
    bp,
    "/games/<game_id>/invitations",
    "POST",
    summary="Invite a player to your table",
    request=InviteSchema,
    response=InvitedSchema,
    status=201,
    errors=(400, 401, 403, 404, 415),
    auth=True,
    tags=TABLES,
)
def invite(game_id: str) -> ResponseReturnValue:
    """As the table's creator: an `invitation` notification (with a private table's
    invitation) on the invited player's stream and webhooks."""
    player = the_player()
    if not tables.may_start(games(), game_id, player):
        raise ApiError(403, "forbidden", "only the table's creator may invite to it")
    body = json_body(InviteSchema)
    invitation = tables.invitation_of(games(), game_id)
    if not tables.invite(games(), game_id, body["player_id"], invitation):
        raise ApiError(404, "player_not_found", "no such player")
    return one(InvitedSchema).dump({"game_id": game_id, "player_id": body["player_id"]}), 201


def _acted(game_id: str, version: int) -> ResponseReturnValue:
    status = games().store.meta(game_id).status
    return one(SeatActSchema).dump({"game_id": game_id, "version": version, "status": status})


def _seat_act(game_id: str, kind: str, **args: Any) -> ResponseReturnValue:
    caller = access().seat(game_id, bearer_token())
    assert caller.seat is not None
    outcome = games().play(game_id, caller.seat, {"type": kind, **args})
    return _acted(game_id, outcome.version)


@route(
    bp,
    "/games/<game_id>/bot",
    "POST",
    summary="Hand your seat to a bot",
    request=BotStrategySchema,
    response=SeatActSchema,
    errors=(400, 401, 403, 404, 409, 415, 422),
    auth=True,
    tags=TABLES,
)
def hand_to_bot(game_id: str) -> ResponseReturnValue:
    """As a seat: a server-side bot of `strategy` plays your seat (through the same command
    path as you) until you take it back."""
    body = json_body(BotStrategySchema)
    return _seat_act(game_id, "hand_to_bot", strategy=body["strategy"])


@route(
    bp,
    "/games/<game_id>/bot",
    "DELETE",
    summary="Take your seat back from its bot",
    response=SeatActSchema,
    errors=(401, 403, 404, 409, 422),
    auth=True,
    tags=TABLES,
)
def take_back(game_id: str) -> ResponseReturnValue:
    """As a seat a bot plays for you: play it yourself again."""
    return _seat_act(game_id, "take_back_seat")


@route(
    bp,
    "/games/<game_id>/resign",
    "POST",
    summary="Resign your seat",
    response=SeatActSchema,
    errors=(401, 403, 404, 409, 422),
    auth=True,
    tags=TABLES,
)
def resign(game_id: str) -> ResponseReturnValue:
    """As a seat: leave the game. Your pieces stay and a bot plays for them (the ruleset's
    reading); the result ranks you last. When no person is left, the game ends."""
    return _seat_act(game_id, "resign_seat")


@route(
    bp,
    "/games/<game_id>/seating",
    "GET",
    summary="Who sits where, and the clocks",
    response=SeatingSchema,
    errors=(404,),
    tags=TABLES,
)
def seating(game_id: str) -> ResponseReturnValue:
    """Each seat: its label, its claiming player's name, whether a bot plays it, whether it
    left (resigned or timed out), and, under a clock, its bank and the deadline of its move."""
    return one(SeatingSchema).dump(tables.seating_view(games(), game_id))
