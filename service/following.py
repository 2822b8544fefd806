"""Following a live stream: new entries as they come, and a keep-alive whenever the stream has
been quiet for a heartbeat interval. Every stream of the service (a game's events, a player's
notifications, in SSE and NDJSON) keeps this one schedule; how long each wait in it may block on
Redis is `store.blocking`'s to decide.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import redis

T = TypeVar("T")

HEARTBEAT_S = 15.0
"""Seconds between keep-alives on a quiet stream, as the document promises
(`CHRONICLE_SSE_HEARTBEAT_S` changes it)."""


def followed(
    read: Callable[[float | None], Sequence[T]],
    heartbeat_s: float,
    ended: Callable[[], bool] = lambda: False,
) -> Iterator[Sequence[T] | None]:
    """Each page `read` finds, as it comes; None (a keep-alive) every `heartbeat_s` without one.

    `read(None)` reads what is there now; `read(ms)` waits up to `ms` for something new (and may
    give up sooner: a wait is capped below the Redis client's socket timeout, and the schedule
    reads again until the keep-alive is due). A read that Redis answers later than its client's
    socket timeout found nothing: the stream goes on (a store that cannot be reached at all ends
    it). Ends when nothing is new and `ended()` says the stream has nothing more to come."""
    quiet_since = time.monotonic()
    while True:
        try:
            page = read(None)
            if not page:
                if ended():
                    return
                page = read((heartbeat_s - (time.monotonic() - quiet_since)) * 1000)
        except redis.exceptions.TimeoutError:
            page = []  # Redis answered later than its client waits: nothing came meanwhile
        if page:
            yield page
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= heartbeat_s:
            yield None
            quiet_since = time.monotonic()
