"""Liveness and readiness."""

from __future__ import annotations

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue

from api.docs import route
from api.errors import store_unavailable
from schemas.common import HealthSchema
from schemas.instances import one
from service.health import health

bp = Blueprint("health", __name__)


@route(
    bp,
    "/healthz",
    "GET",
    summary="Health of the service",
    response=HealthSchema,
    errors=(503,),
    tags=("service",),
)
def healthz() -> ResponseReturnValue:
    """Reports the Redis server's version, how many RQ workers are alive and the store's status.
    Answers 503 when Redis cannot be reached."""
    try:
        report = health(current_app.config["REDIS_URL"], current_app.config["QUEUE"])
    except Exception as exc:  # any failure to reach Redis means "not ready"
        raise store_unavailable(exc) from None
    return one(HealthSchema).dump(report)
