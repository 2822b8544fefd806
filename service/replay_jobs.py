"""Replay jobs on the worker: verify a game from event 1, or export it as an HTML replay."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

from rq.exceptions import NoSuchJobError
from rq.job import Job

from service.jobs import queue, queue_connection

JOB_ID = re.compile(r"^replay-(verify|export)-([A-Za-z0-9_-]{1,64})-[0-9a-f]{32}$")
JOBS = {"verify": "workers.jobs.verify_replay", "export": "workers.jobs.export_replay"}
RESULT_TTL_S = 24 * 3600


class JobNotFound(Exception):
    """No replay job has this id (or it has expired)."""


@dataclass(frozen=True)
class ReplayJob:
    id: str
    kind: str
    game_id: str
    status: str
    value: Any
    """What the job returned, once it has finished."""

    @property
    def finished(self) -> bool:
        return self.status == "finished"


def seen(job: Job, kind: str, game_id: str) -> ReplayJob:
    status = job.get_status(refresh=True)
    text = str(status.value if status is not None else "queued")
    value = job.return_value() if text == "finished" else None
    return ReplayJob(job.id, kind, game_id, text, value)


def start_replay(url: str, queue_name: str | None, game_id: str, kind: str) -> ReplayJob:
    job_id = f"replay-{kind}-{game_id}-{uuid.uuid4().hex}"
    job = queue(url, queue_name).enqueue(
        JOBS[kind], game_id, job_id=job_id, result_ttl=RESULT_TTL_S, job_timeout=600
    )
    return seen(job, kind, game_id)


def replay_job(url: str, job_id: str) -> ReplayJob:
    match = JOB_ID.match(job_id)
    if match is None:
        raise JobNotFound(f"no replay job {job_id!r}")
    try:
        job = Job.fetch(job_id, connection=queue_connection(url))
    except NoSuchJobError:
        raise JobNotFound(f"no replay job {job_id!r}") from None
    return seen(job, match.group(1), match.group(2))
