"""Queueing the steps no seat takes (closing an epoch), and the sweeper that re-queues games
left in `closing` by a lost job or a killed worker.

Running a step twice is harmless: each is appended only at the version it was decided at
(the store's compare-and-set), so a duplicate finds nothing due and appends nothing.
"""

from __future__ import annotations

import logging
import threading
import time

from service.jobs import enqueue_system_steps, system_job_id
from service.wiring import game_service, redis_client
from store.redis_store import EventStore

__all__ = ["enqueue_system_steps", "start_sweeper", "sweep_closing_games", "system_job_id"]

log = logging.getLogger("chronicle.sweeper")


def sweep_closing_games(url: str, queue_name: str | None, every_s: float) -> list[str]:
    """Queue the steps of every game still `closing`, and reveal the seed of any finished game
    whose reveal was lost (a crash between the last command and the reveal); returns their ids.
    """
    store = EventStore(redis_client(url))
    stuck, _ = store.list_games(status="closing", limit=1_000_000)
    attempt = f"-sweep-{int(time.time() // max(every_s, 1))}"
    for meta in stuck:
        enqueue_system_steps(url, queue_name, meta.game_id, meta.version, attempt)
    finished, _ = store.list_games(status="finished", limit=1_000_000)
    unrevealed = [m for m in finished if m.extra.get("seed_revealed") == "false"]
    for meta in unrevealed:
        game_service(url).reveal_seed(meta.game_id)
    return [meta.game_id for meta in (*stuck, *unrevealed)]


def start_sweeper(url: str, queue_name: str | None, every_s: float) -> threading.Thread:
    """A daemon thread of the worker process that sweeps every `every_s` seconds."""

    def sweep_forever() -> None:
        while True:
            try:
                swept = sweep_closing_games(url, queue_name, every_s)
                if swept:
                    log.info("re-queued the closing step of %d game(s)", len(swept))
            except Exception:  # the next sweep tries again
                log.warning("sweep failed", exc_info=True)
            time.sleep(every_s)

    thread = threading.Thread(target=sweep_forever, name="chronicle-sweeper", daemon=True)
    thread.start()
    return thread
