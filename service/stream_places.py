"""How many live streams one client may hold open at once (`CHRONICLE_STREAMS_PER_CLIENT`,
default 20), counted in Redis so that every API process sees them all.

Each open stream is a member of a sorted set per client address, scored with the time it is
good until; a stream renews its own entry as it runs and removes it when it ends, and an entry
whose stream died with its process lapses by itself.
"""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from collections.abc import Iterator
from typing import TypeVar

import redis

from service.errors import STORE_FAILURES
from store.keys import PREFIX

T = TypeVar("T")
DEFAULT_PER_CLIENT = 20
LEASE_S = 120.0
"""How long an entry lasts unless its stream renews it (at every frame it sends)."""
RETRY_AFTER_S = 10


class TooManyStreams(Exception):
    """The client already holds as many open streams as it may."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"this client already follows {limit} streams, the most it may hold open at once; "
            "close one first"
        )
        self.limit = limit
        self.retry_after_s = RETRY_AFTER_S


def per_client(configured: int | None = None) -> int:
    if configured is None:
        configured = int(os.environ.get("CHRONICLE_STREAMS_PER_CLIENT", DEFAULT_PER_CLIENT))
    return int(configured)


def key_of(address: str) -> str:
    return f"{PREFIX}:streams:{address}"


def opened(client: redis.Redis, address: str, configured: int | None = None) -> str:
    """Take a place for a new stream of `address`, or refuse (`TooManyStreams`) when it holds
    its limit (`configured`, else $CHRONICLE_STREAMS_PER_CLIENT, else 20)."""
    limit = per_client(configured)
    key, now, member = key_of(address), time.time(), uuid.uuid4().hex
    pipe = client.pipeline(transaction=False)
    pipe.zremrangebyscore(key, "-inf", now)
    pipe.zadd(key, {member: now + LEASE_S})
    pipe.zcard(key)
    pipe.expire(key, int(LEASE_S) + 60)
    _, _, count, _ = pipe.execute()
    if int(count) > limit:
        client.zrem(key, member)
        raise TooManyStreams(limit)
    return member


def held(client: redis.Redis, address: str, member: str, frames: Iterator[T]) -> Iterator[T]:
    """The stream's frames, its place renewed as they go and given back when it ends (the
    client went away, the game ended, or the stream failed)."""
    key = key_of(address)
    renewed = time.monotonic()
    try:
        for frame in frames:
            if time.monotonic() - renewed > LEASE_S / 4:
                renewed = time.monotonic()
                # a store failure here: the stream itself will tell it
                with contextlib.suppress(*STORE_FAILURES):
                    client.zadd(key, {member: time.time() + LEASE_S}, xx=True)
            yield frame
    finally:
        with contextlib.suppress(*STORE_FAILURES):  # else the entry lapses by itself
            client.zrem(key, member)
