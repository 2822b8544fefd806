"""Building the service from a Redis URL, once per process, and the scheduler that runs what
follows a command inside the request that made it due."""

from __future__ import annotations

import logging
import os
import threading
from functools import lru_cache

import redis

from service.games import GameService
from service.tables import deliver, play_bots
from store.connect import client_from_url, queue_url
from store.credentials import SecretVault, TokenHashes
from store.redis_store import EventStore

_lock = threading.Lock()
log = logging.getLogger("chronicle.service")


MAX_CONNECTIONS = 10_000
"""Connections one process may open to Redis: each live event stream holds one while it waits
(`XREAD BLOCK`), and an evented web process may hold thousands of streams (redis-py's own
default, 100, would refuse the 101st stream with a 503)."""


@lru_cache(maxsize=8)
def redis_client(url: str) -> redis.Redis:
    """The events' Redis: a plain one, or a Redis Cluster for `redis+cluster://` URLs."""
    return client_from_url(url, health_check_interval=30, max_connections=MAX_CONNECTIONS)


@lru_cache(maxsize=8)
def raw_redis_client(url: str) -> redis.Redis:
    """For RQ (a plain Redis: see `workers.queue.queue_connection`), which stores pickled
    bytes and needs responses undecoded."""
    return redis.Redis.from_url(url)


def wait_options(env: dict[str, str] | None = None) -> dict[str, int]:
    """How many replicas must acknowledge an append before it is answered, and for how long
    to wait for them (`CHRONICLE_REDIS_WAIT_REPLICAS`, `CHRONICLE_REDIS_WAIT_TIMEOUT_MS`)."""
    env = dict(os.environ if env is None else env)
    return {
        "wait_replicas": int(env.get("CHRONICLE_REDIS_WAIT_REPLICAS", "0")),
        "wait_timeout_ms": int(env.get("CHRONICLE_REDIS_WAIT_TIMEOUT_MS", "1000")),
    }


@lru_cache(maxsize=8)
def game_service(url: str) -> GameService:
    client = redis_client(url)
    return GameService(EventStore(client, **wait_options()), SecretVault(client))


@lru_cache(maxsize=8)
def token_hashes(url: str) -> TokenHashes:
    return TokenHashes(redis_client(url))


def check_redis_url(url: str) -> None:
    """Refuse, at start, a Redis URL the service cannot run on (a cluster without a plain
    Redis for RQ: set $CHRONICLE_QUEUE_REDIS_URL)."""
    queue_url(url)


class _Playing(threading.local):
    def __init__(self) -> None:
        self.games: set[str] = set()


_playing = _Playing()


class InlineScheduler:
    """Runs the steps and writes the snapshots in the calling process."""

    steps_elsewhere = False

    def __init__(self, service: GameService) -> None:
        self.service = service

    def system_steps(self, game_id: str, version: int) -> None:
        self.service.run_system_steps(game_id)

    def snapshot(self, game_id: str, version: int) -> None:
        self.service.write_snapshot(game_id)

    def bots(self, game_id: str, version: int) -> None:
        if game_id in _playing.games:
            return  # the bots' own moves ask again: the running loop plays them
        _playing.games.add(game_id)
        try:
            play_bots(self.service, game_id, delay_s=0)
        finally:
            _playing.games.discard(game_id)

    def deliver(self, owner: str, hook_id: str, payload: str, notice_id: str = "") -> None:
        try:
            deliver(self.service, owner, hook_id, payload, 1)
        except Exception:  # inline: one attempt, logged in the delivery log
            log.warning("webhook %s of %s failed", hook_id, owner, exc_info=True)
