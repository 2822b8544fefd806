"""RQ's scheduler (which runs the jobs retried "after 2 s" and those enqueued for later) after a
worker was killed: the dead worker's scheduler still holds the queue's lock in Redis for a
minute, and a new worker tries for it only at its start and then at RQ's maintenance, every
10 minutes, so retries due in seconds ran minutes late. A worker of `chronicle worker` frees a
lock whose holder is a dead process on this host, and keeps trying for the locks its scheduler
lacks every few seconds."""

from __future__ import annotations

import logging
import multiprocessing
import os
import socket
import threading
from collections.abc import Iterable
from typing import Any

import redis
from rq import SimpleWorker, Worker
from rq.defaults import DEFAULT_LOGGING_DATE_FORMAT, DEFAULT_LOGGING_FORMAT
from rq.scheduler import SCHEDULER_KEY_TEMPLATE, RQScheduler
from rq.scheduler import run as run_scheduler
from rq.scripts import release_lock

log = logging.getLogger("chronicle.schedulers")
TRY_EVERY_S = 2.0


class SpawnedScheduler(RQScheduler):
    """RQ's scheduler in a process of its own, spawned, not forked from the worker. A fork holds
    a copy of every socket the worker had open, the one the worker waits for jobs on (`BLPOP`)
    among them: after `kill -9` of the worker, Redis still saw that wait alive while the fork
    lived, handed it the next job, and the job was lost, left `queued` in no queue. The
    spawned scheduler also stops once the worker that started it is gone, releasing its locks
    to the worker started in its place."""

    def start(self) -> Any:
        self._status = self.Status.STARTED
        self._connection = None
        self.worker_pid = os.getpid()
        process = multiprocessing.get_context("spawn").Process(
            target=run_scheduler, args=(self,), name="Scheduler"
        )
        process.start()
        self._process = process
        return process

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_process"] = None  # a process handle cannot go to the child, nor need it
        return state

    def heartbeat(self) -> None:
        if os.getppid() != self.worker_pid:
            self.log.info("Scheduler: the worker that started it is gone, stopping")
            self.request_stop()
        super().heartbeat()


class SpawnsItsScheduler:
    """A worker whose scheduler is a `SpawnedScheduler` (RQ's `_start_scheduler`, but for the
    class of the scheduler)."""

    def _start_scheduler(
        self: Any,
        burst: bool = False,
        logging_level: str | int | None = None,
        date_format: str = DEFAULT_LOGGING_DATE_FORMAT,
        log_format: str = DEFAULT_LOGGING_FORMAT,
    ) -> None:
        self.scheduler = SpawnedScheduler(
            self.queues,
            connection=self.connection,
            logging_level=logging_level if logging_level is not None else self.log.level,
            date_format=date_format,
            log_format=log_format,
            serializer=self.serializer,
        )
        self.scheduler.acquire_locks()
        if not self.scheduler.acquired_locks:
            return
        if not burst:
            self.scheduler.start()
            return
        try:
            self.scheduler.register_birth()
            self.scheduler.enqueue_scheduled_jobs()
        finally:
            self.scheduler.release_locks()
            self.scheduler.register_death()


class InProcessWorker(SpawnsItsScheduler, SimpleWorker):
    """Runs each job in the worker's own process (its game cache stays warm)."""


class ForkingWorker(SpawnsItsScheduler, Worker):
    """Runs each job in a forked child (RQ's default)."""


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
