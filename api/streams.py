"""What every live stream of the API shares: its format (SSE or NDJSON, by `format` or what
`Accept` prefers), its place among the client's streams, and its end when it cannot go on (an
`error` frame or line with the one error body, never a traceback or a connection cut short)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TypeVar

from flask import Response, current_app, request

from api.errors import translate
from service import stream_places
from service.access import NotAuthenticated
from service.tickets import TicketRefused, TicketUses
from service.wiring import redis_client

T = TypeVar("T")
SSE = "text/event-stream"
NDJSON = "application/x-ndjson"


def stream_format(given: str | None) -> str:
    """`format`, else what `Accept` prefers: NDJSON only when asked for (SSE by default)."""
    if given:
        return given
    best = request.accept_mimetypes.best_match([SSE, NDJSON])
    return "ndjson" if best == NDJSON else "sse"


def ending_cleanly(items: Iterator[T], failed: Callable[[str, int | None], T]) -> Iterator[T]:
    """The stream's items until it fails midway (Redis stopped while a client follows it):
    then `failed(error body as JSON, retry delay in ms or None)`, and the end of the stream."""
    try:
        yield from items
    except Exception as exc:  # the response has begun: the error can only be told in the stream
        error = translate(exc)
        retry_s = error.headers.get("Retry-After")
        yield failed(
            json.dumps(error.body(), separators=(",", ":")),
            int(retry_s) * 1000 if retry_s is not None else None,
        )


def held_place(items: Iterator[T]) -> Iterator[T]:
    """`items`, holding one of the client address's places for live streams while they run
    (`TooManyStreams`, a 429, when it holds them all)."""
    address = request.remote_addr or "unknown"
    client = redis_client(current_app.config["REDIS_URL"])
    place = stream_places.opened(client, address, current_app.config.get("STREAMS_PER_CLIENT"))
    return stream_places.held(client, address, place, items)


def ticketed(
    ticket: str,
    expires_at: float,
    after: str,
    resume: object,
    items: Iterator[T],
    id_of: Callable[[T], str | None],
    settled_of: Callable[[T], str | None] | None = None,
) -> Iterator[T]:
    """`items` as the one stream `ticket` follows (`service.tickets.TicketUses`): refused with
    a 401 when the ticket was used already, or the reconnection (`resume`: its Last-Event-ID)
    is from another address or goes back before what the ticket's stream sent."""
    uses = TicketUses(redis_client(current_app.config["REDIS_URL"]))
    address = request.remote_addr or "unknown"
    resumed = None if resume is None else str(resume)
    try:
        holder = uses.claim(ticket, expires_at, address, after, resumed)
    except TicketRefused as refused:
        raise NotAuthenticated(str(refused)) from None
    return uses.followed(ticket, holder, items, id_of, settled_of)


def stream_response(chunks: Iterator[str], form: str) -> Response:
    mimetype = NDJSON if form == "ndjson" else SSE
    return Response(
        chunks, mimetype=mimetype, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )
