"""Players: becoming one (a name, a key shown once), who you are, your games, and your
notifications across your games as a stream (Server-Sent Events or NDJSON)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from flask import Blueprint, current_app, request, url_for
from flask.typing import ResponseReturnValue

from api import streams
from api.context import games
from api.docs import Header, route
from api.errors import ApiError
from api.inputs import bearer_token, cursor_after, json_body, paged, query
from schemas.instances import one
from schemas.streams import NOTIFICATION_ID_PATTERN
from schemas.tables import (
    CreatedPlayerSchema,
    CreatePlayerSchema,
    MyGamesSchema,
    PagingSchema,
    PlayerSchema,
    PlayerStreamQuerySchema,
    PlayerStreamTicketSchema,
)
from service import tables, tickets
from service.access import NotAuthenticated
from service.following import HEARTBEAT_S
from service.names import normalised, problems
from service.queries import HEARTBEAT_LINE, Frame, encode_cursor, error_line, opening_line

bp = Blueprint("players", __name__)

PLAYERS = ("players",)


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
    stream_url = url_for("players.my_stream", ticket=ticket)
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
