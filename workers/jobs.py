"""RQ jobs: plain importable functions with simple arguments, using the same service as the API."""

from __future__ import annotations

from service.wiring import game_service
from workers.queue import redis_url


def write_snapshot(game_id: str) -> int:
    """Write a snapshot of the game's current state; returns the version snapshotted."""
    return game_service(redis_url()).write_snapshot(game_id)


def run_system_steps(game_id: str) -> int:
    """Run the game's due system steps (e.g. closing an epoch); returns how many ran."""
    return game_service(redis_url()).run_system_steps(game_id)
