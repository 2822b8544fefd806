"""Liveness and readiness: the Redis server's version and the RQ workers alive on the queue."""

from __future__ import annotations

import os
import socket
from typing import Any

import redis
from rq import Queue, Worker

from service.jobs import queue_connection
from service.wiring import redis_client


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


def health(url: str, queue_name: str) -> dict[str, Any]:
    """The service's health; raises whatever reaching Redis raised when it cannot be reached."""
    info = redis_client(url).info("server")
    workers = live_workers(queue_connection(url), queue_name)
    return {
        "status": "ok",
        "redis_version": info["redis_version"],
        "rq_workers": workers,
        "store": "ok",
    }
