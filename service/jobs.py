"""The RQ queue the service hands background work to (closing epochs, snapshots, replay jobs),
and `QueueScheduler`, the scheduler that runs a game's due steps and snapshots on a worker.

RQ needs a plain Redis (no Cluster): `CHRONICLE_QUEUE_REDIS_URL`, else the events' own Redis.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from typing import Any

import redis
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from service.scheduler import snapshot_due
from service.wiring import raw_redis_client
from store.connect import queue_url

DEFAULT_QUEUE = "chronicle"
RETRY = Retry(max=3, interval=[1, 5, 15])
STEP_TIMEOUT_S = 300
ASKED_AGAIN_WITHIN_S = 0.5
"""A step this process queued (or found queued) less than this long ago is not looked up again:
every seat refused while it runs asks for it, and RQ's retries are seconds apart."""
LIVE_JOB_STATES = frozenset(
    {JobStatus.QUEUED, JobStatus.STARTED, JobStatus.DEFERRED, JobStatus.SCHEDULED}
)
log = logging.getLogger("chronicle.service")


def redis_url() -> str:
    url = os.environ.get("REDIS_URL")
    if not url:
        raise RuntimeError("REDIS_URL is not set for the worker")
    return url


def queue_connection(url: str | None = None) -> redis.Redis:
    """RQ's own plain Redis for the events' Redis `url` (default $REDIS_URL):
    `CHRONICLE_QUEUE_REDIS_URL` if set, else that same Redis (which must not be a cluster)."""
    return raw_redis_client(queue_url(url or redis_url()))


def queue(url: str | None = None, name: str | None = None) -> Queue:
    """The jobs queue that goes with the events' Redis `url` (default $REDIS_URL)."""
    return Queue(
        name or os.environ.get("CHRONICLE_QUEUE", DEFAULT_QUEUE),
        connection=queue_connection(url),
    )


def urgent_queue(url: str | None = None, name: str | None = None) -> Queue:
    """The queue of the jobs a seat waits on (a game's due steps, its bots' moves), which a
    worker takes before those of `queue(url, name)` (snapshots, replays, webhooks)."""
    return queue(url, f"{name or os.environ.get('CHRONICLE_QUEUE', DEFAULT_QUEUE)}-urgent")


def system_job_id(game_id: str, version: int, attempt: str = "") -> str:
    """Derived from the game and the version the step is due at (plus the sweep, if any)."""
    return f"system-{game_id}-{version}{attempt}"


def enqueue_system_steps(
    url: str, queue_name: str | None, game_id: str, version: int, attempt: str = ""
) -> Job:
    """Queue the steps due at `version`, unless a job for them is already waiting, running or
    done: seats refused while the step runs each ask again, and enqueueing the same job id
    anew would run it twice and take it out of RQ's registry of finished jobs. A failed job
    (its retries spent) is queued again."""
    q = urgent_queue(url, queue_name)
    job_id = system_job_id(game_id, version, attempt)
    try:
        existing = Job.fetch(job_id, connection=q.connection)
    except NoSuchJobError:
        existing = None
    if existing is not None:
        status = existing.get_status(refresh=False)
        if status in LIVE_JOB_STATES or status == JobStatus.FINISHED:
            return existing
    return q.enqueue(
        "workers.jobs.run_system_steps",
        game_id,
        job_id=job_id,
        retry=RETRY,
        job_timeout=STEP_TIMEOUT_S,
    )


class QueueScheduler:
    """Runs a game's due steps and its snapshots on an RQ worker."""

    steps_elsewhere = True

    def __init__(self, url: str, queue_name: str | None, snapshot_every: int) -> None:
        self.url = url
        self.queue_name = queue_name
        self.snapshot_every = snapshot_every
        self._asked: dict[tuple[str, int], float] = {}

    def system_steps(self, game_id: str, version: int) -> None:
        now = time.monotonic()
        if now - self._asked.get((game_id, version), -ASKED_AGAIN_WITHIN_S) < ASKED_AGAIN_WITHIN_S:
            return
        enqueue_system_steps(self.url, self.queue_name, game_id, version)
        if len(self._asked) > 1000:
            self._asked = {k: t for k, t in self._asked.items() if now - t < ASKED_AGAIN_WITHIN_S}
        self._asked[(game_id, version)] = now

    def snapshot(self, game_id: str, version: int) -> None:
        every = self.snapshot_every
        queue(self.url, self.queue_name).enqueue(
            "workers.jobs.write_snapshot", game_id, job_id=f"snapshot-{game_id}-{version // every}"
        )

    def bots(self, game_id: str, version: int) -> None:
        """One bots job per game at a time: while one waits or runs (its loop plays every bot
        move due, the ones its own moves make due included), no other is queued; a move a
        finished job missed is asked for again by the worker's table watch."""
        q = urgent_queue(self.url, self.queue_name)
        job_id = f"bots-{game_id}"
        try:
            existing = Job.fetch(job_id, connection=q.connection)
        except NoSuchJobError:
            existing = None
        if existing is not None and existing.get_status(refresh=False) in LIVE_JOB_STATES:
            return
        q.enqueue("workers.jobs.play_bots", game_id, job_id=job_id, job_timeout=STEP_TIMEOUT_S)

    def deliver(self, owner: str, hook_id: str, payload: str, notice_id: str = "") -> None:
        """With `notice_id`: one job per webhook and notification, named by both, queued only
        if no job of that name is known (a catch-up after a crash asks again for what the
        crashed process may have queued already)."""
        q = queue(self.url, self.queue_name)
        job_id = None
        if notice_id:
            digest = hashlib.sha256(f"{owner}|{hook_id}|{notice_id}".encode()).hexdigest()
            job_id = f"hook-{digest[:40]}"
            if q.connection.exists(Job.key_for(job_id)):
                return
        q.enqueue(
            "workers.jobs.deliver_webhook",
            owner,
            hook_id,
            payload,
            retry=WEBHOOK_RETRY,
            job_id=job_id,
            result_ttl=DELIVERED_JOB_KEPT_S,
            failure_ttl=DELIVERED_JOB_KEPT_S,
        )


WEBHOOK_RETRY = Retry(max=5, interval=[1, 2, 4, 8, 16])
DELIVERED_JOB_KEPT_S = 24 * 3600
"""How long a webhook job is remembered after it ran (its name keeps a catch-up from queueing
the same notification for the same webhook again)."""
"""A webhook that fails is tried again after 1, 2, 4, 8 and 16 seconds."""


def enqueue_job(url: str, queue_name: str | None, function: str, *args: Any, job_id: str) -> Job:
    """Queue any job of workers.jobs (replays) under a chosen id."""
    return queue(url, queue_name).enqueue(function, *args, job_id=job_id)


__all__ = [
    "QueueScheduler",
    "enqueue_job",
    "queue",
    "queue_connection",
    "snapshot_due",
    "urgent_queue",
]
