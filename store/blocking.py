"""How long a blocking read (`XREAD BLOCK`) may wait, decided here for every stream of the service:
a game's events, a player's notifications, the web lobby's feed, in SSE and in NDJSON alike.

A blocking read must give up before the Redis client's socket timeout (redis-py 8 gives a
connection made from a URL its own default of 5 s): a longer wait is cut short by the client with
a `TimeoutError`, which a stream would tell its follower as a failure. So a wait is capped at the
socket timeout less `MARGIN_MS`, and a stream that wants to wait longer (its keep-alive is due
later) simply reads again. Should the server be slower still (paused, or swapping), the read's
`TimeoutError` is a wait in which nothing arrived, not a failure of the stream.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TypeVar

import redis
from redis.cluster import RedisCluster

T = TypeVar("T")
MARGIN_MS = 250
"""How much sooner than the socket timeout a blocking read gives up."""

_timeouts: weakref.WeakKeyDictionary[redis.Redis, float | None] = weakref.WeakKeyDictionary()


def socket_timeout_of(client: redis.Redis) -> float | None:
    """The socket timeout of `client`'s connections, in seconds (None: no timeout). It is not
    always in the pool's kwargs (redis-py 8 gives a connection made from a URL its own default),
    so it is read once from a connection of the pool."""
    if client not in _timeouts:
        plain = client
        if isinstance(client, RedisCluster):
            plain = client.get_redis_connection(client.get_default_node())
        pool = plain.connection_pool
        connection = pool.get_connection()
        try:
            _timeouts[client] = connection.socket_timeout
        finally:
            pool.release(connection)
    return _timeouts[client]


def block_ms(client: redis.Redis, wanted_ms: float) -> int:
    """How long a blocking read on `client` may wait when its caller would wait `wanted_ms`:
    at least 1 ms (`BLOCK 0` would wait for ever), and less than the socket timeout."""
    wait = max(1, int(wanted_ms))
    timeout = socket_timeout_of(client)
    if timeout:
        wait = max(1, min(wait, int(timeout * 1000) - MARGIN_MS))
    return wait


def blocking_read(client: redis.Redis, wanted_ms: float, read: Callable[[int], T], nothing: T) -> T:
    """`read(ms)` with `ms` from `block_ms`; `nothing` when the server answered later than the
    socket timeout (the wait came back empty-handed, the stream goes on)."""
    try:
        return read(block_ms(client, wanted_ms))
    except redis.exceptions.TimeoutError:
        return nothing
