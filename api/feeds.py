"""A game's events: paged, exported, streamed live and explained, as the caller may see them."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, url_for
from flask.typing import ResponseReturnValue

from api import streams
from api.context import access, games, queries
from api.docs import Header, route
from api.inputs import bearer_token, cursor_after, last_event_id, negotiated, paged, query
from schemas.api import (
    ExplanationSchema,
    FeedQuerySchema,
    FeedSchema,
    NarrativeSchema,
    StreamQuerySchema,
    StreamTicketSchema,
)
from schemas.instances import one
from service import tickets
from service.access import Caller, NotAuthenticated
from service.auth import seat_role
from service.errors import GameNotFound
from service.following import HEARTBEAT_S
from service.queries import VERSION_KEY, Frame

bp = Blueprint("feeds", __name__)

TAGS = ("events",)
TEXT = ("text/plain",)


@route(
    bp,
    "/games/<game_id>/events",
    "GET",
    summary="A page of the game's events",
    query=FeedQuerySchema,
    response="Feed",
    errors=(400, 401, 403, 404, 422),
    auth="optional",
    tags=TAGS,
)
def list_events(game_id: str) -> ResponseReturnValue:
    """Events from the start, or after the `cursor` given (a page's `next_cursor`; `from`, a
    version, is deprecated), at most `limit` of them; the next page is the answer's
    `next_cursor` (and its `Link: rel="next"` header). Another seat's private events show only
    their redacted form."""
    caller = access().identify(game_id, bearer_token())
    args = query(FeedQuerySchema)
    page = queries().feed(game_id, caller.viewer, first_version(args), args["limit"])
    return paged(one(FeedSchema).dump(page), page["next_cursor"])


@route(
    bp,
    "/games/<game_id>/narrative",
    "GET",
    summary="A page of the game's events, in words",
    query=FeedQuerySchema,
    response=NarrativeSchema,
    errors=(400, 401, 403, 404, 422),
    auth="optional",
    tags=TAGS,
)
def narrative(game_id: str) -> ResponseReturnValue:
    """The events from version `from` (at most `limit`), each told in a sentence by the
    ruleset, with the rule it applied, that rule's rulebook page and paraphrase, and the chance
    draws behind it: what a replay shows a person. Filtered like the feed (another seat's
    private event shows its redacted form, in words that say so)."""
    caller = access().identify(game_id, bearer_token())
    args = query(FeedQuerySchema)
    page = queries().narrative(game_id, caller.viewer, first_version(args), args["limit"])
    return paged(one(NarrativeSchema).dump(page), page["next_cursor"])


def first_version(args: dict[str, Any]) -> int:
    """Where a page of events starts: its `cursor`'s version, else the deprecated `from`."""
    at = cursor_after({**args, "from": args.get("from_")}, old="from", key=VERSION_KEY)
    return int(at[0]) if at is not None else int(args.get("from_", 1))


@route(
    bp,
    "/games/<game_id>/export",
    "GET",
    summary="Export the game's events as NDJSON",
    media_type="application/x-ndjson",
    alternates=TEXT,
    success_text="One event per line (each an `Event`), as the caller may see it (as "
    "`text/plain` when `Accept` prefers it).",
    errors=(401, 403, 404),
    auth="optional",
    tags=TAGS,
)
def export_events(game_id: str) -> ResponseReturnValue:
    """Every event of the game so far, one JSON document per line, filtered like the feed."""
    caller = access().identify(game_id, bearer_token())
    lines = queries().export(game_id, caller.viewer)
    return Response(
        lines,
        mimetype=negotiated("application/x-ndjson", TEXT),
        headers={"Content-Disposition": f'attachment; filename="{game_id}.ndjson"'},
    )


@route(
    bp,
    "/games/<game_id>/stream",
    "GET",
    summary="Follow the game's events live (Server-Sent Events or NDJSON)",
    query=StreamQuerySchema,
    media_type="text/event-stream",
    alternates=("application/x-ndjson",),
    success_text="Server-Sent Events: `id` is the version, `event` the event type, `data` the "
    "event as the caller may see it. The first frame, a comment, has as its `id` the version the "
    "stream starts after, and no `data`: an EventSource that got no event yet still reconnects "
    f"with `Last-Event-ID`. A comment line every {HEARTBEAT_S:g} s while nothing happens keeps "
    "the connection open. If the stream cannot go on (the store became unreachable), a last "
    "`error` event carries the error body (and, for `store_unavailable`, a `retry` delay) and "
    "the stream ends: reconnect with `Last-Event-ID`. With `format=ndjson` (or `Accept: "
    "application/x-ndjson`), one `GameStreamLine` per line instead: an `event` (its `id` and "
    f"the `Event`), a `heartbeat` every {HEARTBEAT_S:g} s of quiet, or a last `error`.",
    errors=(400, 401, 403, 404, 429),
    auth="optional",
    headers=(
        Header("Last-Event-ID", "Resume after this version (sent by EventSource on reconnect)."),
    ),
    tags=TAGS,
    line_schema="GameStreamLine",
)
def stream_events(game_id: str) -> ResponseReturnValue:
    """Sends each event once and in order, from version `from` (default 1) or after the
    `Last-Event-ID` header, then each new event as it is appended. The stream ends once the
    game is finished and every event has been sent. A seat's private feed: its token as a
    bearer token, or a stream ticket as `?ticket=` (for EventSource): a ticket opens one stream,
    once, within 60 seconds of its issue, and that stream's EventSource reconnecting to the same
    URL (with `Last-Event-ID`) reopens it for an hour after that, unless the seat's token was
    re-issued: from the address that opened it, resuming no earlier than the last event the
    ticket's stream sent, in its place (the stream it replaces ends). Otherwise (a 401), get a
    new ticket and open the new `stream_url`."""
    args = query(StreamQuerySchema)
    resume = last_event_id()
    caller, named = stream_caller(game_id, args.get("ticket"), reconnect=resume is not None)
    after = resume if resume is not None else max(args.get("from_", 1) - 1, 0)
    pages = queries().stream_pages(
        game_id, caller.viewer, after, current_app.config["SSE_HEARTBEAT_S"]
    )
    if named is not None:
        pages = streams.ticketed(
            args["ticket"], named.expires_at, str(after), resume, pages, last_id, settled_id
        )
    held = streams.held_place(streams.ending_cleanly(pages, failed_page))
    if streams.stream_format(args.get("format")) == "ndjson":
        return streams.stream_response(("".join(f.line for f in page) for page in held), "ndjson")
    return streams.stream_response(("".join(f.text for f in page) for page in held), "sse")


def last_id(page: list[Frame]) -> str | None:
    """The id a follower resumes after once it has the page (None: a page of keep-alives)."""
    return next((frame.id for frame in reversed(page) if frame.id), None)


def settled_id(page: list[Frame]) -> str | None:
    """The id before the page's last one (None: it has at most one)."""
    ids = [frame.id for frame in page if frame.id]
    return ids[-2] if len(ids) >= 2 else None


def failed_page(data: str, retry_ms: int | None) -> list[Frame]:
    return [Frame.error(data, retry_ms)]


def stream_caller(
    game_id: str, ticket: str | None, reconnect: bool = False
) -> tuple[Caller, tickets.Ticket | None]:
    """Who follows the stream: the bearer token's caller, or the seat a valid ticket names (on
    a reconnect, a ticket up to `RECONNECT_GRACE_SECONDS` past its expiry), and that ticket."""
    token = bearer_token()
    if ticket is None:
        return access().identify(game_id, token), None
    if token is not None:
        raise NotAuthenticated("send a bearer token or a stream ticket, not both")
    hashes = access().tokens.of(game_id)
    if not hashes:
        raise GameNotFound(game_id)
    try:
        grace = tickets.RECONNECT_GRACE_SECONDS if reconnect else 0
        named = tickets.check(ticket, game_id, games().vault.seed, grace_s=grace)
    except tickets.TicketRefused as refused:
        raise NotAuthenticated(str(refused)) from None
    if named.binding != tickets.binding(hashes.get(seat_role(named.seat), "")):
        raise NotAuthenticated("the stream ticket's seat token has been replaced: ask again")
    return Caller("seat", named.seat), named


@route(
    bp,
    "/games/<game_id>/stream-tickets",
    "POST",
    summary="Get a short-lived ticket to follow the stream from a browser",
    response=StreamTicketSchema,
    status=201,
    errors=(401, 403, 404),
    auth=True,
    tags=TAGS,
)
def issue_stream_ticket(game_id: str) -> ResponseReturnValue:
    """For a seat: a ticket that opens this seat's private stream once, within 60 seconds, to
    pass as `?ticket=` where no Authorization header can be sent (a browser's EventSource). That
    stream's EventSource reconnecting to the same URL (sending `Last-Event-ID`) is let in for an
    hour more, from the same address and going on from where it was; past that, after a 401, or
    once the seat's token is re-issued, ask for a new ticket. The seat token itself never goes
    into a URL."""
    caller = access().seat(game_id, bearer_token())
    assert caller.seat is not None
    token_hash = access().tokens.of(game_id).get(seat_role(caller.seat), "")
    ticket, expires_at = tickets.issue(
        games().vault.seed(game_id), game_id, caller.seat, token_hash
    )
    stream_url = url_for("feeds.stream_events", game_id=game_id, ticket=ticket)
    body = {"ticket": ticket, "expires_at": expires_at, "seat": caller.seat}
    return one(StreamTicketSchema).dump(body | {"stream_url": stream_url}), 201


@route(
    bp,
    "/games/<game_id>/events/<int:version>/explain",
    "GET",
    summary="Explain an event",
    response=ExplanationSchema,
    errors=(401, 403, 404),
    auth="optional",
    tags=TAGS,
)
def explain_event(game_id: str, version: int) -> ResponseReturnValue:
    """The rule an event applied, its rules-catalogue entry (page and paraphrase) when the
    ruleset has a catalogue, and the inputs that decided it (its data and chance draws, as the
    caller may see them), with the public facts of the position just before it."""
    caller = access().identify(game_id, bearer_token())
    return one(ExplanationSchema).dump(queries().explain(game_id, version, caller.viewer))
