"""Queueing the steps no seat takes (closing an epoch), and the sweeper that re-queues games
left in `closing` by a lost job or a killed worker.

Running a step twice is harmless: each is appended only at the version it was decided at
(the store's compare-and-set), so a duplicate finds nothing due and appends nothing.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from service.errors import store_failure
from service.jobs import enqueue_system_steps, system_job_id
from service.rulesets import available
from service.wiring import game_service, redis_client
from store.redis_store import EventStore

__all__ = ["enqueue_system_steps", "start_sweeper", "sweep_closing_games", "system_job_id"]

log = logging.getLogger("chronicle.sweeper")
SWEEP_PAGE = 1000
"""At most this many games of each kind (closing, awaiting their seed's reveal, unstarted
and old) per sweep; the next sweep takes the rest."""
UNSTARTED_TTL_S = 7 * 24 * 3600.0
"""A game that no seat has acted in is deleted a week after its creation."""


def sweep_closing_games(url: str, queue_name: str | None, every_s: float) -> list[str]:
    """Queue the steps of every game still `closing`, and reveal the seed of any finished game
    whose reveal was lost (a crash between the last command and the reveal); returns their ids.
    """
    store = EventStore(redis_client(url))
    served = set(available())
    closing, _ = store.list_games(status="closing", limit=SWEEP_PAGE)
    stuck = [meta for meta in closing if _served(meta.ruleset, meta.game_id, served)]
    attempt = f"-sweep-{int(time.time() // max(every_s, 1))}"
    for meta in stuck:
        enqueue_system_steps(url, queue_name, meta.game_id, meta.version, attempt)
    unrevealed: list[str] = []
    revealed: list[str] = []
    pending = store.reveal_pending(SWEEP_PAGE)
    for meta in store.metas(pending):
        if not _served(meta.ruleset, meta.game_id, served):
            continue
        if meta.extra.get("seed_revealed") == "false":
            unrevealed.append(meta.game_id)
            game_service(url).reveal_seed(meta.game_id)
        else:
            revealed.append(meta.game_id)
    revealed += sorted(set(pending) - {*unrevealed, *revealed})  # gone since
    store.forget_reveal_pending(*revealed)
    ttl = unstarted_ttl_s()
    expired = [] if ttl == float("inf") else game_service(url).expire_unstarted(ttl, time.time())
    if expired:
        log.info("expired %d game(s) that never started", len(expired))
    return [*(meta.game_id for meta in stuck), *unrevealed]


_told_unserved: set[str] = set()


def _served(ruleset: str, game_id: str, served: set[str]) -> bool:
    """Whether this service has the game's ruleset; a game of one it lacks (a store shared with
    another deployment, or a ruleset since removed) is left as it is, said once per process."""
    if ruleset in served:
        return True
    if game_id in _told_unserved:
        return False
    _told_unserved.add(game_id)
    log.warning("game %s plays %s, which this service lacks: left as it is", game_id, ruleset)
    return False


def unstarted_ttl_s() -> float:
    """How long a game nobody has acted in is kept (`CHRONICLE_UNSTARTED_TTL_S`; 0 keeps it
    forever)."""
    ttl = float(os.environ.get("CHRONICLE_UNSTARTED_TTL_S", str(UNSTARTED_TTL_S)))
    return ttl if ttl > 0 else float("inf")


def start_sweeper(url: str, queue_name: str | None, every_s: float) -> threading.Thread:
    """A daemon thread of the worker process that sweeps every `every_s` seconds."""

    def sweep_forever() -> None:
        while True:
            try:
                swept = sweep_closing_games(url, queue_name, every_s)
                if swept:
                    log.info("re-queued the closing step of %d game(s)", len(swept))
            except Exception as exc:  # the next sweep tries again (a store failure: no traceback)
                log.warning("sweep failed: %r", exc, exc_info=store_failure(exc) is None)
            time.sleep(every_s)

    thread = threading.Thread(target=sweep_forever, name="chronicle-sweeper", daemon=True)
    thread.start()
    return thread


def start_table_watch(every_s: float) -> threading.Thread:
    """A daemon thread of the worker process that, every `every_s` seconds, fires the clocks
    that ran out (each timeout once, whichever worker sees it first) and asks again for the
    bot moves nobody took (`service.tables.watch_tables`)."""
    from service.tables import watch_tables
    from workers.jobs import table_service

    def watch_forever() -> None:
        while True:
            try:
                watch_tables(table_service(), time.time())
            except Exception as exc:  # the next round tries again (a store failure: no traceback)
                log.warning("table watch failed: %r", exc, exc_info=store_failure(exc) is None)
            time.sleep(every_s)

    thread = threading.Thread(target=watch_forever, name="chronicle-table-watch", daemon=True)
    thread.start()
    return thread
