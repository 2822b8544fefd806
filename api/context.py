"""The services a request uses, built once per process from the app's Redis URL."""

from __future__ import annotations

from flask import current_app

from service.access import Access
from service.games import GameService
from service.queries import GameQueries
from service.wiring import game_service, token_hashes


def games() -> GameService:
    return game_service(current_app.config["REDIS_URL"])


def queries() -> GameQueries:
    return GameQueries(games())


def access() -> Access:
    return Access(token_hashes(current_app.config["REDIS_URL"]))
