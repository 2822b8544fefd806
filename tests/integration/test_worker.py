"""A real RQ worker runs jobs with the same service as the API."""

from __future__ import annotations

import time

from rq.job import JobStatus

from domain.core.messages import Command
from service.games import GameService
from tests.support.toy import SealedBids
from workers.queue import queue


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
