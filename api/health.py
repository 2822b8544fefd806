"""Liveness and readiness."""

from __future__ import annotations

import os
import socket

import redis
from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue
from rq import Queue, Worker

from api.docs import route
from api.errors import store_unavailable
from schemas.common import HealthSchema
from schemas.instances import one
from service.wiring import redis_client
from workers.queue import queue_connection

bp = Blueprint("health", __name__)


def live_workers(connection: redis.Redis, queue_name: str) -> int:
    """The RQ workers serving this app's queue that are alive. A worker killed without
    warning stays registered until its key expires (minutes); one on this host is counted
    only while its process exists, one elsewhere while its registration lasts."""
    here = socket.gethostname()
    alive = 0
    for worker in Worker.all(queue=Queue(queue_name, connection=connection)):
        if worker.hostname == here and worker.pid is not None and not process_exists(worker.pid):
            continue
        alive += 1
    return alive


def process_exists(pid: int) -> bool:
    """Whether `pid` is a running process (not a zombie waiting to be reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):  # no /proc here: the signal check is all there is
        return True


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
    url = current_app.config["REDIS_URL"]
    try:
        info = redis_client(url).info("server")
        workers = live_workers(queue_connection(url), current_app.config["QUEUE"])
    except Exception as exc:  # any failure to reach Redis means "not ready"
        raise store_unavailable(exc) from None
    return one(HealthSchema).dump(
        {
            "status": "ok",
            "redis_version": info["redis_version"],
            "rq_workers": workers,
            "store": "ok",
        }
    )
