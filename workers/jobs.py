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


def verify_replay(game_id: str) -> dict[str, object]:
    """Fold the game from event 1 and check every snapshot (`chronicle replay --verify`)."""
    from service.replays import verify_game

    return verify_game(game_service(redis_url()), game_id).as_dict()


def export_replay(game_id: str) -> dict[str, object]:
    """Build the self-contained HTML replay of the game (`chronicle replay --export`)."""
    from service.replay_html import replay_html

    page = replay_html(game_service(redis_url()), game_id)
    return {"game_id": game_id, "bytes": len(page.encode()), "html": page}
