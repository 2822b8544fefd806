"""RQ's scheduler (which runs the jobs retried "after 2 s" and those enqueued for later) after a
worker was killed: the dead worker's scheduler still holds the queue's lock in Redis for a
minute, and a new worker tries for it only at its start and then at RQ's maintenance, every
10 minutes, so retries due in seconds ran minutes late. A worker of `chronicle worker` frees a
lock whose holder is a dead process on this host, and keeps trying for the locks its scheduler
lacks every few seconds."""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterable
from typing import Any

import redis
from rq.scheduler import SCHEDULER_KEY_TEMPLATE, RQScheduler
from rq.scripts import release_lock

log = logging.getLogger("chronicle.schedulers")
TRY_EVERY_S = 2.0


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def holder_is_dead(connection: redis.Redis, holder: str) -> bool:
    """Whether the scheduler named `holder` ran on this host in a process that is gone (one
    whose record expired with it is gone too)."""
    record = connection.hgetall(SCHEDULER_KEY_TEMPLATE % holder)
    if not record:
        return True
    fields = {_text(k): _text(v) for k, v in record.items()}
    if fields.get("hostname") != socket.gethostname():
        return False  # another host's: its own heartbeat, or its lock's expiry, decides
    pid = int(fields.get("pid") or 0)
    return pid > 0 and not alive(pid)


def free_dead_locks(connection: redis.Redis, queue_names: Iterable[str]) -> list[str]:
    """Release each queue's scheduler lock held by a dead scheduler; the queues freed."""
    freed = []
    for name in queue_names:
        key = RQScheduler.get_locking_key(name)
        holder = connection.get(key)
        if holder is None or not holder_is_dead(connection, _text(holder)):
            continue
        release_lock(connection, key, _text(holder))  # only if it is still that holder's
        log.info("freed the scheduler lock of %s left by a dead scheduler", name)
        freed.append(name)
    return freed


class SchedulerKeeper:
    """A daemon thread of the worker: every `every_s`, frees the locks dead schedulers left and
    starts this worker's scheduler when it holds none and can take one. `stop` ends the thread
    and the scheduler it started: a scheduler started while the worker was being stopped got
    no signal, and the worker's exit waited on it for ever (multiprocessing joins its children
    at exit)."""

    def __init__(self, worker: Any, every_s: float = TRY_EVERY_S) -> None:
        self.worker = worker
        self.every_s = every_s
        self.names = [queue.name for queue in worker.queues]
        self.stopping = threading.Event()
        self.starting = threading.Lock()
        self.thread = threading.Thread(
            target=self.keep, name="chronicle-scheduler-keeper", daemon=True
        )

    def start(self) -> SchedulerKeeper:
        self.thread.start()
        return self

    def keep(self) -> None:
        while not self.stopping.is_set():
            try:
                free_dead_locks(self.worker.connection, self.names)
                with self.starting:
                    if not self.stopping.is_set():
                        self.start_scheduler_if_none_runs()
            except Exception:  # the next round tries again
                log.warning("could not take the scheduler's lock", exc_info=True)
            self.stopping.wait(self.every_s)

    def start_scheduler_if_none_runs(self) -> None:
        scheduler = self.worker.scheduler
        if scheduler is None or self.worker._stop_requested:
            return
        process = scheduler._process
        if process is None or not process.is_alive():
            scheduler.acquire_locks(auto_start=True)

    def stop(self, wait_s: float = 5.0) -> None:
        """No scheduler is started from now on; the one running is stopped and waited for."""
        with self.starting:
            self.stopping.set()
        scheduler = self.worker.scheduler
        process = scheduler._process if scheduler is not None else None
        if process is not None and process.is_alive():
            process.terminate()
            process.join(wait_s)
            if process.is_alive():
                process.kill()
                process.join()


def keep_a_scheduler(worker: Any, every_s: float = TRY_EVERY_S) -> SchedulerKeeper:
    """Start a `SchedulerKeeper` for `worker`."""
    return SchedulerKeeper(worker, every_s).start()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
