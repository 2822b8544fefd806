"""RQ jobs: plain importable functions with simple arguments, using the same service as the API."""

from __future__ import annotations

import os

from rq import get_current_job

from service.games import GameService
from service.jobs import QueueScheduler
from service.wiring import game_service
from workers.queue import redis_url


def table_service() -> GameService:
    """The service, with what follows a command (bots' turns, webhooks, steps) queued."""
    url = redis_url()
    every = int(os.environ.get("CHRONICLE_SNAPSHOT_EVERY", "200"))
    scheduler = QueueScheduler(url, os.environ.get("CHRONICLE_QUEUE"), every)
    return game_service(url).scheduled(scheduler, every)


def play_bots(game_id: str) -> int:
    """Play the moves of the bots that hold the awaited seats; returns how many were played."""
    from service.tables import play_bots as play

    return play(table_service(), game_id)


def deliver_webhook(owner: str, hook_id: str, payload: str) -> int:
    """POST one notification to a webhook (RQ retries a failure with backoff)."""
    from service.tables import deliver

    job = get_current_job()
    attempt = 1 if job is None else 1 + job.meta.get("attempts_before", 0)
    if job is not None:
        job.meta["attempts_before"] = attempt
        job.save_meta()
    return deliver(table_service(), owner, hook_id, payload, attempt)


def write_snapshot(game_id: str) -> int:
    """Write a snapshot of the game's current state; returns the version snapshotted."""
    return game_service(redis_url()).write_snapshot(game_id)


def run_system_steps(game_id: str) -> int:
    """Run the game's due system steps (e.g. closing an epoch); returns how many ran. A bot's
    seat the step leaves awaited is asked for at once, not by the table watch seconds later."""
    return table_service().run_system_steps(game_id)


def verify_replay(game_id: str) -> dict[str, object]:
    """Fold the game from event 1 and check every snapshot (`chronicle replay --verify`)."""
    from service.replays import verify_game

    return verify_game(game_service(redis_url()), game_id).as_dict()


def export_replay(game_id: str) -> dict[str, object]:
    """Build the self-contained HTML replay of the game (`chronicle replay --export`)."""
    from service.replay_html import replay_html

    page = replay_html(game_service(redis_url()), game_id)
    return {"game_id": game_id, "bytes": len(page.encode()), "html": page}
