"""The Flask application: thin views that parse, authorise, call the service and serialise."""

from __future__ import annotations

import os
from typing import Any

from flask import Flask

from api import (
    cors,
    errors,
    feeds,
    games,
    headers,
    health,
    limits,
    players,
    reference,
    rulesets,
    tables,
    trust,
    web,
    webhooks,
)
from service.config import Settings
from service.following import HEARTBEAT_S
from service.wiring import check_redis_url

MAX_BODY_BYTES = 2 * 1024 * 1024
BUSY_HOLD_MS = 250
"""How long a command that finds a step due (an epoch closing on the worker, 5-25 ms) waits
for it before it is refused as `game_busy`."""


def create_app(redis_url: str | None = None, **config: Any) -> Flask:
    """The app on `redis_url` (default $REDIS_URL); `config` overrides settings (for tests)."""
    settings = Settings.from_env()
    app = Flask("chronicle")
    app.config["REDIS_URL"] = redis_url or os.environ.get("REDIS_URL")
    if not app.config["REDIS_URL"]:
        raise RuntimeError("REDIS_URL is not set")
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        CORS_ORIGINS=settings.cors_origins,
        SNAPSHOT_EVERY=settings.snapshot_every,
        QUEUE=settings.queue,
        SSE_HEARTBEAT_S=float(os.environ.get("CHRONICLE_SSE_HEARTBEAT_S", HEARTBEAT_S)),
        SYSTEM_STEPS=os.environ.get("CHRONICLE_SYSTEM_STEPS", "worker"),
        BUSY_HOLD_MS=int(os.environ.get("CHRONICLE_BUSY_HOLD_MS", BUSY_HOLD_MS)),
        WEBHOOK_ALLOW_PRIVATE=os.environ.get("CHRONICLE_WEBHOOK_ALLOW_PRIVATE", "off").lower()
        in ("on", "1", "yes"),
    )
    app.config.update(config)
    check_redis_url(app.config["REDIS_URL"])
    app.json.sort_keys = False  # type: ignore[attr-defined]
    errors.install(app)
    errors.refuse_large_bodies(app)
    limits.install(app)
    cors.install(app, app.config["CORS_ORIGINS"])
    headers.install(app)
    for blueprint in (
        health.bp,
        rulesets.bp,
        games.bp,
        players.bp,
        tables.bp,
        webhooks.bp,
        feeds.bp,
        trust.bp,
        reference.bp,
        web.bp,
    ):
        app.register_blueprint(blueprint)
    return app
