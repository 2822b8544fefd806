"""The RQ queue that background jobs go through."""

from __future__ import annotations

import os

from rq import Queue

from service.wiring import raw_redis_client

DEFAULT_QUEUE = "chronicle"


def redis_url() -> str:
    url = os.environ.get("REDIS_URL")
    if not url:
        raise RuntimeError("REDIS_URL is not set for the worker")
    return url


def queue(url: str | None = None, name: str | None = None) -> Queue:
    return Queue(
        name or os.environ.get("CHRONICLE_QUEUE", DEFAULT_QUEUE),
        connection=raw_redis_client(url or redis_url()),
    )
