"""RQ jobs: plain importable functions with simple arguments, using the same service as the API."""

from __future__ import annotations

from service.wiring import game_service
from workers.queue import redis_url


def write_snapshot(game_id: str) -> int:
    """Write a snapshot of the game's current state; returns the version snapshotted."""
    return game_service(redis_url()).write_snapshot(game_id)
