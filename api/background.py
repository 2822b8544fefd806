"""Work a request sets off after a command: system steps (such as closing an epoch) and
snapshots, both run through the same service as the request itself.

System steps run on an RQ worker by default (`SYSTEM_STEPS = "worker"`), or inside the request
that made them due (`"inline"`, for a single process without workers). While a step is due, seats'
commands are refused with 409 `game_busy`, and each refusal queues the step again, so a lost job
cannot stall a game.
"""

from __future__ import annotations

import logging

from flask import current_app

from api.context import games
from workers.queue import queue
from workers.scheduling import enqueue_system_steps

log = logging.getLogger("chronicle.api")


def _enqueue(function: str, game_id: str, job_id: str) -> None:
    queue(current_app.config["REDIS_URL"], current_app.config["QUEUE"]).enqueue(
        function, game_id, job_id=job_id
    )


def settle_system_steps(game_id: str, version: int, due: bool | None = None) -> None:
    """Run or queue the game's due system steps (`due`: already known to be due or not).
    Never fails the request: the command that made them due stands, and the next command will
    ask again."""
    try:
        if not (games().system_step_due(game_id) if due is None else due):
            return
        if current_app.config["SYSTEM_STEPS"] == "inline":
            games().run_system_steps(game_id)
        else:
            enqueue_system_steps(
                current_app.config["REDIS_URL"], current_app.config["QUEUE"], game_id, version
            )
    except Exception:  # logged; retried on the next command
        log.warning("could not settle the system steps of game %s", game_id, exc_info=True)


def schedule_snapshot(game_id: str, first_version: int, last_version: int) -> None:
    """Queue a snapshot when a command's events cross a multiple of SNAPSHOT_EVERY.

    Snapshots are a cache: if the queue cannot be reached the command still stands, so a
    failure is logged and nothing more.
    """
    every = int(current_app.config["SNAPSHOT_EVERY"])
    if every <= 0 or (first_version - 1) // every == last_version // every:
        return
    try:
        _enqueue(
            "workers.jobs.write_snapshot", game_id, f"snapshot-{game_id}-{last_version // every}"
        )
    except Exception:  # a missed snapshot only costs a longer replay later
        log.warning("could not queue a snapshot of game %s", game_id, exc_info=True)
