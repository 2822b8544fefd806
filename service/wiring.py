"""Building the service from a Redis URL, once per process."""

from __future__ import annotations

import threading
from functools import lru_cache

import redis

from service.games import GameService
from store.redis_store import EventStore, SecretVault, TokenHashes

_lock = threading.Lock()


@lru_cache(maxsize=8)
def redis_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, decode_responses=True, health_check_interval=30)


@lru_cache(maxsize=8)
def raw_redis_client(url: str) -> redis.Redis:
    """For RQ, which stores pickled bytes and needs responses undecoded."""
    return redis.Redis.from_url(url)


@lru_cache(maxsize=8)
def game_service(url: str) -> GameService:
    client = redis_client(url)
    return GameService(EventStore(client), SecretVault(client))


@lru_cache(maxsize=8)
def token_hashes(url: str) -> TokenHashes:
    return TokenHashes(redis_client(url))
