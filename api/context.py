"""The services a request uses, built once per process from the app's Redis URL."""

from __future__ import annotations

from flask import current_app

from service.access import Access
from service.games import GameService
from service.jobs import QueueScheduler
from service.queries import GameQueries
from service.scheduler import Scheduler
from service.tables import player_seat_finder
from service.wiring import InlineScheduler, game_service, token_hashes


def games() -> GameService:
    """The service, with what follows a command (due steps, snapshots) handed to the app's
    scheduler: the worker's queue, or (`SYSTEM_STEPS = "inline"`) the request itself."""
    found: GameService | None = current_app.extensions.get("chronicle.games")
    if found is None:
        config = current_app.config
        base = game_service(config["REDIS_URL"])
        every = int(config["SNAPSHOT_EVERY"])
        scheduler: Scheduler
        if config["SYSTEM_STEPS"] == "inline":
            scheduler = InlineScheduler(base)
        else:
            scheduler = QueueScheduler(config["REDIS_URL"], config["QUEUE"], every)
        found = base.scheduled(scheduler, every, int(config["BUSY_HOLD_MS"]) / 1000)
        current_app.extensions["chronicle.games"] = found
    return found


def queries() -> GameQueries:
    return GameQueries(games())


def access() -> Access:
    return Access(token_hashes(current_app.config["REDIS_URL"]), player_seat_finder(games()))
