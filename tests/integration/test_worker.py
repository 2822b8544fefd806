"""A real RQ worker runs jobs with the same service as the API."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import redis
from rq.job import JobStatus
from rq.scheduler import RQScheduler

from domain.core.messages import Command
from service.games import GameService
from tests.conftest import REPO_ROOT
from tests.support.toy import SealedBids
from workers.queue import queue
from workers.schedulers import InProcessWorker, SpawnedScheduler, keep_a_scheduler


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
    worker = InProcessWorker([q], connection=q.connection)
    worker.scheduler = SpawnedScheduler([q], connection=q.connection, interval=1)
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


def test_a_job_queued_just_after_the_worker_was_killed_waits_in_the_queue(toy_env, redis_url):
    """`kill -9` of a worker ends its wait for jobs: its scheduler, a process of its own, holds
    no copy of the worker's connection, so Redis hands the next job to nobody dead, and the
    scheduler stops, releasing its lock."""
    name = f"test-killed-{uuid.uuid4().hex[:8]}"
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "worker"],
        env={**toy_env, "CHRONICLE_QUEUE": name},
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    connection = redis.Redis.from_url(redis_url)
    lock = RQScheduler.get_locking_key(name)
    try:
        wait_for(lambda: connection.get(lock), "the worker's scheduler holds its lock")
        wait_for(lambda: waiting_on(connection, name), "the worker waits for jobs")
        (scheduler,) = schedulers_of(process.pid)
        process.kill()
        process.wait(10)
        queue(redis_url, name).enqueue("workers.jobs.write_snapshot", "nobody")
        time.sleep(0.5)
        assert connection.llen(f"rq:queue:{name}") == 1, "a dead worker's wait took the job"
        wait_for(lambda: not alive(int(scheduler)), "the scheduler stopped with its worker")
        assert connection.get(lock) is None
    finally:
        os.killpg(process.pid, signal.SIGKILL)


def waiting_on(connection: redis.Redis, name: str) -> bool:
    """Whether a worker of queue `name` is in its `BLPOP`."""
    workers = {key.decode().rsplit(":", 1)[-1] for key in connection.smembers(f"rq:workers:{name}")}
    return any(
        client.get("name") in workers and client.get("cmd") == "blpop"
        for client in connection.client_list()
    )


def schedulers_of(pid: int) -> list[str]:
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [child for child in children.split() if b"resource_tracker" not in cmdline(child)]


def cmdline(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def alive(pid: int) -> bool:
    state = Path(f"/proc/{pid}/stat")
    return state.exists() and state.read_text().split(") ")[-1][:1] not in ("Z", "X")
