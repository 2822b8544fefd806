"""The RQ queue that background jobs go through."""

from __future__ import annotations

import os

import redis
from rq import Queue

from service.wiring import raw_redis_client
from store.connect import queue_url

DEFAULT_QUEUE = "chronicle"


def redis_url() -> str:
    url = os.environ.get("REDIS_URL")
    if not url:
        raise RuntimeError("REDIS_URL is not set for the worker")
    return url


def queue_connection(url: str | None = None) -> redis.Redis:
    """RQ's own plain Redis for the events' Redis `url` (default $REDIS_URL):
    `CHRONICLE_QUEUE_REDIS_URL` if set, else that same Redis (which must not be a cluster)."""
    return raw_redis_client(queue_url(url or redis_url()))


def queue(url: str | None = None, name: str | None = None) -> Queue:
    """The jobs queue that goes with the events' Redis `url` (default $REDIS_URL)."""
    return Queue(
        name or os.environ.get("CHRONICLE_QUEUE", DEFAULT_QUEUE),
        connection=queue_connection(url),
    )
