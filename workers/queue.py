"""The RQ queue that background jobs go through (`service.jobs`, which the service and the
worker share)."""

from __future__ import annotations

from service.jobs import DEFAULT_QUEUE, queue, queue_connection, redis_url, urgent_queue

__all__ = ["DEFAULT_QUEUE", "queue", "queue_connection", "redis_url", "urgent_queue"]
