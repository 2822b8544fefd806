"""Webhooks: a player's notifications, or a game's, POSTed to a URL of its owner's, signed and
retried, with the log of each delivery."""

from __future__ import annotations

import re

from flask import Blueprint, current_app, request
from flask.typing import ResponseReturnValue

from api.context import access, games
from api.docs import route
from api.errors import ApiError
from api.inputs import bearer_token, cursor_after, json_body, paged, query
from api.players import PLAYERS, next_cursor, the_player
from api.tables import TABLES
from schemas.instances import one
from schemas.tables import (
    CreateWebhookSchema,
    DeliveriesQuerySchema,
    DeliveryLogSchema,
    WebhookSchema,
)
from service import tables

bp = Blueprint("webhooks", __name__)


def _new_webhook(owner: str) -> ResponseReturnValue:
    body = json_body(CreateWebhookSchema)
    own = [request.host, f"{request.host}:80" if ":" not in request.host else request.host]
    allow_private = bool(current_app.config.get("WEBHOOK_ALLOW_PRIVATE", False))
    try:
        tables.check_webhook_url(body["url"], own, allow_private)
    except tables.WebhookRefused as refused:
        raise ApiError(
            422, "webhook_url_refused", str(refused), details={"fields": {"url": [str(refused)]}}
        ) from None
    hook = tables.add_webhook(games(), owner, body["url"], body["events"], allow_private)
    return one(WebhookSchema).dump(hook), 201, {"Cache-Control": "no-store"}


DELIVERY_KEY = re.compile(r"^d$")


def _deliveries(owner: str, webhook_id: str) -> ResponseReturnValue:
    """A page of a webhook's delivery log, newest first (by each attempt's time)."""
    args = query(DeliveriesQuerySchema)
    after = cursor_after(args, key=DELIVERY_KEY)
    if webhook_id not in tables.players_of(games()).webhooks(owner):
        raise ApiError(404, "webhook_not_found", "no such webhook")
    log = tables.players_of(games()).deliveries(owner, webhook_id)
    if after is not None:
        log = [entry for entry in log if entry["at"] < after[0]]
    shown = log[: args["limit"]]
    more = len(log) > len(shown)
    page = {"webhook_id": webhook_id, "deliveries": shown}
    return paged(
        one(DeliveryLogSchema).dump(page),
        next_cursor((shown[-1]["at"], "d") if more and shown else None),
    )


@route(
    bp,
    "/players/me/webhooks",
    "POST",
    summary="Register a webhook for your notifications",
    request=CreateWebhookSchema,
    response=WebhookSchema,
    status=201,
    errors=(400, 401, 415, 422),
    auth=True,
    tags=PLAYERS,
)
def add_player_webhook() -> ResponseReturnValue:
    """Chronicle POSTs each of your notifications of the kinds chosen to `url`, signed with
    `X-Chronicle-Signature: sha256=<hex HMAC-SHA256 of the body>` under the secret answered
    here (shown once), retrying a failure with backoff. Only http(s) URLs; never this server
    itself or a loopback, private or reserved address (422 `webhook_url_refused`)."""
    return _new_webhook(the_player().player_id)


@route(
    bp,
    "/players/me/webhooks/<webhook_id>/deliveries",
    "GET",
    summary="Your webhook's delivery log",
    query=DeliveriesQuerySchema,
    response=DeliveryLogSchema,
    errors=(400, 401, 404, 422),
    auth=True,
    tags=PLAYERS,
)
def player_webhook_deliveries(webhook_id: str) -> ResponseReturnValue:
    """Each attempt, newest first: when, which attempt, the HTTP status or the error; page on
    with `next_cursor` (or the `Link: rel="next"` header)."""
    return _deliveries(the_player().player_id, webhook_id)


@route(
    bp,
    "/games/<game_id>/webhooks",
    "POST",
    summary="Register a webhook for a game",
    request=CreateWebhookSchema,
    response=WebhookSchema,
    status=201,
    errors=(400, 401, 403, 404, 415, 422),
    auth=True,
    tags=TABLES,
)
def add_game_webhook(game_id: str) -> ResponseReturnValue:
    """As the game's admin: its notifications (a seat's turn, the start, the end) POSTed to
    `url`, signed and retried like a player's."""
    access().admin(game_id, bearer_token())
    return _new_webhook(tables.game_owner(game_id))


@route(
    bp,
    "/games/<game_id>/webhooks/<webhook_id>/deliveries",
    "GET",
    summary="A game webhook's delivery log",
    query=DeliveriesQuerySchema,
    response=DeliveryLogSchema,
    errors=(400, 401, 403, 404, 422),
    auth=True,
    tags=TABLES,
)
def game_webhook_deliveries(game_id: str, webhook_id: str) -> ResponseReturnValue:
    """As the game's admin."""
    access().admin(game_id, bearer_token())
    return _deliveries(tables.game_owner(game_id), webhook_id)
