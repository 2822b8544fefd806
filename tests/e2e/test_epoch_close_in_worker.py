"""Steps no seat takes (closing an epoch, here a toy round) run in RQ workers, exactly once:
a duplicate job appends nothing, and a worker killed mid-close is made good by the sweeper."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from rq.registry import FinishedJobRegistry, StartedJobRegistry

from domain.core.messages import Command
from service.errors import GameBusy
from service.faults import BEFORE_WORKER_APPEND
from service.games import GameService
from store import keys
from tests.support.faults import command as fault_injected
from tests.support.toy import SealedBidsClosedBySystem
from workers.queue import urgent_queue
from workers.scheduling import enqueue_system_steps

REPO_ROOT = Path(__file__).resolve().parents[2]


def start_worker(
    toy_env, queue_name: str, faults: dict[str, float] | None = None, **env: str
) -> subprocess.Popen[bytes]:
    """`chronicle worker` on its own queue (`faults`: its pauses, tests/support/faults.py)."""
    return subprocess.Popen(
        fault_injected(faults or {}, "cli.main", "worker"),
        env={**toy_env, "CHRONICLE_QUEUE": queue_name, **env},
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
    process.wait(20)


def wait_until(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture()
def closing_game(store, vault):
    service = GameService(store, vault, rulesets=lambda name: SealedBidsClosedBySystem())
    created = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 2})
    service.handle(created.game_id, 0, Command.of("bid", chips=1))
    service.handle(created.game_id, 1, Command.of("bid", chips=1))
    return service, created.game_id


def closes(service: GameService, game_id: str) -> list[int]:
    return [r.event.round for r in service.events(game_id) if r.event.type == "ToyRoundClosed"]


def test_a_game_whose_round_must_close_is_closing_and_refuses_seats(closing_game):
    service, game_id = closing_game
    assert service.store.meta(game_id).status == "closing"
    with pytest.raises(GameBusy):
        service.handle(game_id, 0, Command.of("bid", chips=0))


def test_a_duplicate_close_job_appends_nothing(closing_game, redis_url, toy_env):
    service, game_id = closing_game
    name = f"close-{uuid.uuid4().hex[:8]}"
    version = service.store.version(game_id)
    enqueue_system_steps(redis_url, name, game_id, version)
    enqueue_system_steps(redis_url, name, game_id, version, "-again")
    worker = start_worker(toy_env, name, CHRONICLE_SWEEP_EVERY_S="0")
    try:
        registry = FinishedJobRegistry(queue=urgent_queue(redis_url, name))
        wait_until(lambda: len(registry.get_job_ids()) == 2, 30, "both jobs finish")
    finally:
        stop(worker)
    assert closes(service, game_id) == [1]
    assert f"system-{game_id}-{version}" in registry.get_job_ids(), "visible in RQ's registry"
    assert service.store.meta(game_id).status == "active"
    assert [r.version for r in service.events(game_id)] == list(range(1, version + 2))


def test_a_worker_killed_mid_close_leaves_nothing_half_done_and_the_round_closes_once(
    closing_game, redis_url, toy_env
):
    service, game_id = closing_game
    name = f"close-{uuid.uuid4().hex[:8]}"
    version = service.store.version(game_id)
    doomed = start_worker(
        toy_env,
        name,
        CHRONICLE_SWEEP_EVERY_S="0",
        faults={BEFORE_WORKER_APPEND: 60.0},
    )
    try:
        job = enqueue_system_steps(redis_url, name, game_id, version)
        started = StartedJobRegistry(queue=urgent_queue(redis_url, name))
        wait_until(lambda: job.id in started.get_job_ids(), 30, "the worker takes the job")
        time.sleep(1.0)  # the job has decided the close and now waits before appending
    finally:
        stop(doomed, signal.SIGKILL)
    assert service.store.version(game_id) == version, "no partial close is visible"
    assert service.store.meta(game_id).status == "closing"
    rescuer = start_worker(toy_env, name, CHRONICLE_SWEEP_EVERY_S="0.5")
    try:
        wait_until(lambda: service.store.meta(game_id).status != "closing", 60, "swept and closed")
        time.sleep(1.5)  # more sweeps and the retried job may run; none may close it again
    finally:
        stop(rescuer)
    assert closes(service, game_id) == [1]
    assert service.store.version(game_id) == version + 1


def test_the_sweeper_reveals_the_seed_of_a_finished_game_whose_reveal_was_lost(
    store, vault, redis_url
):
    from service.codec import envelope_payload
    from workers.scheduling import sweep_closing_games

    service = GameService(store, vault, rulesets=lambda name: SealedBidsClosedBySystem())
    created = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 1})
    service.handle(created.game_id, 0, Command.of("bid", chips=0))
    service.handle(created.game_id, 1, Command.of("bid", chips=0))
    rules, game = service.load(created.game_id)
    closing = rules.decide_system(game.state, rules.system_action(game.state), None)
    # the last command lands, and the process dies before it can reveal the seed
    store.append(
        created.game_id,
        [envelope_payload(e, "worker", "lost", "2026-01-01T00:00:00Z") for e in closing],
        expected_version=game.version,
        meta={"status": "finished", "seed_revealed": False, "awaiting": []},
    )
    assert "SeedRevealed" not in [r.event.type for r in service.events(created.game_id)]
    assert created.game_id in sweep_closing_games(redis_url, "unused", 1)
    types = [r.event.type for r in service.events(created.game_id)]
    assert types[-1] == "SeedRevealed" and types.count("SeedRevealed") == 1
    assert created.game_id not in sweep_closing_games(redis_url, "unused", 1)


def test_a_sweep_leaves_a_closing_game_of_a_ruleset_this_service_lacks_as_it_is(
    store, vault, redis_url, caplog
):
    from workers.scheduling import sweep_closing_games

    service = GameService(store, vault, rulesets=lambda name: SealedBidsClosedBySystem())
    created = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 1})
    service.handle(created.game_id, 0, Command.of("bid", chips=0))
    service.handle(created.game_id, 1, Command.of("bid", chips=0))
    assert store.meta(created.game_id).status == "closing"
    store.redis.hset(keys.meta(created.game_id), "ruleset", "toy-removed-since")
    version = store.version(created.game_id)
    with caplog.at_level("WARNING", logger="chronicle.sweeper"):
        assert created.game_id not in sweep_closing_games(redis_url, "unused", 1)
        assert created.game_id not in sweep_closing_games(redis_url, "unused", 1)
    told = [r.getMessage() for r in caplog.records if created.game_id in r.getMessage()]
    assert told == [
        f"game {created.game_id} plays toy-removed-since, which this service lacks: left as it is"
    ]
    assert (store.meta(created.game_id).status, store.version(created.game_id)) == (
        "closing",
        version,
    )
