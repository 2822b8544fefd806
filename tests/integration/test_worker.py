"""A real RQ worker runs jobs with the same service as the API."""

from __future__ import annotations

import time
import uuid

from rq import SimpleWorker
from rq.job import JobStatus
from rq.scheduler import RQScheduler

from domain.core.messages import Command
from service.games import GameService
from tests.support.toy import SealedBids
from workers.queue import queue
from workers.schedulers import keep_a_scheduler


def test_a_worker_job_writes_a_snapshot_through_the_shared_service(
    store, vault, redis_url, rq_worker
):
    service = GameService(store, vault, rulesets=lambda name: SealedBids())
    created = service.create_game("toy-sealed-bids", ["a", "b"])
    service.handle(created.game_id, 0, Command.of("bid", chips=2))
    job = queue(redis_url, rq_worker.queue_name).enqueue(
        "workers.jobs.write_snapshot", created.game_id
    )
    deadline = time.monotonic() + 30
    while job.get_status(refresh=True) not in (JobStatus.FINISHED, JobStatus.FAILED):
        assert rq_worker.poll() is None, rq_worker.stderr.read().decode()[-2000:]
        assert time.monotonic() < deadline, "the worker did not finish the job"
        time.sleep(0.1)
    assert job.get_status() == JobStatus.FINISHED, job.latest_result()
    assert job.return_value() == 3
    assert store.snapshot_versions(created.game_id) == [3]


def test_a_stopped_worker_leaves_no_scheduler_running_and_starts_none_after(redis_url):
    """The keeper restarts the worker's scheduler when its process is gone. Once the worker is
    stopping it must start none: a scheduler started then got no signal, and the worker's exit
    waited on it for ever (multiprocessing joins its children at exit)."""
    name = f"test-keeper-{uuid.uuid4().hex[:8]}"
    q = queue(redis_url, name)
    worker = SimpleWorker([q], connection=q.connection)
    worker.scheduler = RQScheduler([q], connection=q.connection, interval=1)
    keeper = keep_a_scheduler(worker, every_s=0.05)
    try:
        first = wait_for(lambda: worker.scheduler._process, "the keeper started a scheduler")
        first.terminate()  # as a signal to the worker's process group ends it
        first.join(5)
        second = wait_for(
            lambda: worker.scheduler._process is not first and worker.scheduler._process,
            "the keeper started the scheduler again",
        )
        assert second.is_alive()
    finally:
        keeper.stop()
    assert not second.is_alive() and not keeper.thread.is_alive()
    time.sleep(0.3)  # six rounds of the keeper, had it gone on
    assert worker.scheduler._process is second


def wait_for(found, what: str, seconds: float = 10):
    deadline = time.monotonic() + seconds
    while not (value := found()):
        assert time.monotonic() < deadline, what
        time.sleep(0.02)
    return value
