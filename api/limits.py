"""Rate limits and quotas, counted in Redis so that every API process shares them (the `limits`
library, moving windows).

- Creating games (sandboxes and tables too: each is a game), per client address:
  `CHRONICLE_LIMIT_CREATE` (default `30/minute;500/day`: the day's figure is the quota).
- Everything else a request stores (players, webhooks, invitations, replay jobs), per client
  address: `CHRONICLE_LIMIT_STORE` (default `30/minute;500/day`).
- Every request that carries a token (a seat's or an admin's), per token:
  `CHRONICLE_LIMIT_TOKEN` (default `50/second;1200/minute`).
- Every request, per client address: `CHRONICLE_LIMIT_ADDRESS` (default `100/second`), but
  `/healthz`, which has a bucket of its own (`CHRONICLE_LIMIT_HEALTH`, default `20/second`):
  a monitor on a busy address is not told 429 for the address's other traffic.

A refused request is a 429 with the one error body and `Retry-After` (seconds). The client
address is the connection's peer; behind a reverse proxy, set `CHRONICLE_TRUSTED_PROXIES` to the
number of proxies whose `X-Forwarded-For` to believe. `CHRONICLE_RATE_LIMITS=off` switches the
limits off (the test suite does, apart from the tests of the limits; so does `chronicle
bench`). While Redis cannot count, no request is refused for it.
"""

from __future__ import annotations

import hashlib
import logging
import os

from flask import Flask, request

from api.errors import ApiError
from service.errors import STORE_FAILURES
from service.rate_limits import RateCounter, RateLimited

log = logging.getLogger("chronicle.limits")

DEFAULTS = {
    "CHRONICLE_LIMIT_CREATE": "30/minute;500/day",
    "CHRONICLE_LIMIT_TOKEN": "50/second;1200/minute",
    "CHRONICLE_LIMIT_ADDRESS": "100/second",
    "CHRONICLE_LIMIT_STORE": "30/minute;500/day",
    "CHRONICLE_LIMIT_HEALTH": "20/second",
}
HEALTH = frozenset({"health.healthz"})
CREATING = frozenset({"games.create_game", "games.create_sandbox", "tables.create_table"})
"""The views that create a game."""
STORING = frozenset(
    {
        "players.create_player",
        "webhooks.add_player_webhook",
        "webhooks.add_game_webhook",
        "tables.invite",
        "trust.start_replay",
    }
)
"""The views that store something else that stays (a player, a webhook, a notification in
another player's inbox, a replay job's result)."""


def enabled_by_env() -> bool:
    return os.environ.get("CHRONICLE_RATE_LIMITS", "on").lower() not in ("off", "0", "no")


def client_address() -> str:
    return request.remote_addr or "unknown"


def token_key() -> str:
    """The credential's hash (tokens themselves are never written to Redis)."""
    header = request.headers.get("Authorization", "")
    return hashlib.sha256(header.encode("utf-8", "replace")).hexdigest()


def install(app: Flask) -> None:
    for name, default in DEFAULTS.items():
        app.config.setdefault(name, os.environ.get(name, default))
    app.config.setdefault("RATE_LIMITS", enabled_by_env())
    proxies = int(os.environ.get("CHRONICLE_TRUSTED_PROXIES", "0"))
    if proxies:  # the client's address, for the limits and for the cap on streams alike
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]
    if not app.config["RATE_LIMITS"]:
        return
    counter = RateCounter(
        app.config["REDIS_URL"],
        {
            "address": app.config["CHRONICLE_LIMIT_ADDRESS"],
            "create": app.config["CHRONICLE_LIMIT_CREATE"],
            "store": app.config["CHRONICLE_LIMIT_STORE"],
            "health": app.config["CHRONICLE_LIMIT_HEALTH"],
            "token": app.config["CHRONICLE_LIMIT_TOKEN"],
        },
    )

    def within(scope: str, key: str) -> None:
        try:
            counter.hit(scope, key)
        except RateLimited as exc:
            raise ApiError(
                429,
                "rate_limited",
                str(exc),
                details={"limit": exc.limit, "retry_after_s": exc.wait_s},
                headers={"Retry-After": str(exc.wait_s)},
            ) from None

    @app.before_request
    def limit() -> None:
        if request.method == "OPTIONS":
            return
        address = client_address()
        try:
            within("health" if request.endpoint in HEALTH else "address", address)
            if request.endpoint in CREATING and request.method == "POST":
                within("create", address)
            if request.endpoint in STORING and request.method == "POST":
                within("store", address)
            if "Authorization" in request.headers:
                within("token", token_key())
        except STORE_FAILURES:
            log.warning("rate limits not counted: the store cannot be reached")
