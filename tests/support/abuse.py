"""Helpers for the abuse tests (tests/abuse): a gunicorn server we can kill -9, a redis-server
of our own, the one error body, and reading a game's log straight from the store."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis
import requests

from store.redis_store import EventStore
from store.server import RedisServer, free_port
from tests.support.faults import command as fault_injected

REPO_ROOT = Path(__file__).resolve().parents[2]
TOY = "toy-sealed-bids"
TOY_CLOSING = "toy-sealed-bids-closing"
ERROR_KEYS = {"code", "message", "rule", "details", "current_version"}


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def error_body(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The response is `status` with the one error body (and `code`, if given); returns it.
    Works for `requests` and Flask test-client responses alike."""
    text = response.text if hasattr(response, "text") else response.get_data(as_text=True)
    assert response.status_code == status, (response.status_code, text[:500])
    assert response.headers["Content-Type"].startswith("application/json"), text[:500]
    body = json.loads(text)
    assert isinstance(body, dict) and set(body) <= ERROR_KEYS, body
    assert isinstance(body["code"], str) and body["code"], body
    assert isinstance(body["message"], str) and body["message"], body
    if "rule" in body:
        assert isinstance(body["rule"], str), body
    if "details" in body:
        assert isinstance(body["details"], dict), body
    if "current_version" in body:
        assert isinstance(body["current_version"], int), body
    if code is not None:
        assert body["code"] == code, body
    return body


def wait_until(condition: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.02)


class Gunicorn:
    """`gunicorn api.wsgi:app` with gthread workers, as `chronicle serve` runs it, in its own
    process group (so that kill() is a kill -9 of the master and every worker at once). Its
    stderr is collected, so a test can wait for a fault-injection line (`faults`: the pauses,
    point to seconds, it runs with: tests/support/faults.py)."""

    def __init__(
        self,
        redis_url: str,
        *,
        workers: int = 2,
        threads: int = 8,
        faults: Mapping[str, float] | None = None,
        **env: str,
    ) -> None:
        self.redis_url = redis_url
        self.faults = dict(faults or {})
        self.workers = workers
        self.threads = threads
        self.env = env
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.lines: list[str] = []
        self._reader: threading.Thread | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> Gunicorn:
        self.port = free_port()
        environment = {
            **os.environ,
            "REDIS_URL": self.redis_url,
            "PYTHONPATH": str(REPO_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "CHRONICLE_RULESET_MODULES": "tests.support.toy",
            "CHRONICLE_QUEUE": f"abuse-{uuid.uuid4().hex[:8]}",
            "CHRONICLE_SNAPSHOT_EVERY": "0",
            "CHRONICLE_SYSTEM_STEPS": "inline",
            **self.env,
        }
        self.lines = []
        self.process = subprocess.Popen(
            fault_injected(
                self.faults,
                "gunicorn",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(self.workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(self.threads),
                "--graceful-timeout",
                "5",
                "api.wsgi:app",
            ),
            env=environment,
            cwd=REPO_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._reader.start()
        try:
            return self._wait_until_up(timeout)
        except AssertionError:  # never left running: a server that did not come up is killed
            self.kill()
            raise

    def _wait_until_up(self, timeout: float) -> Gunicorn:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while True:
            assert self.process.poll() is None, "gunicorn exited:\n" + "".join(self.lines[-40:])
            assert time.monotonic() < deadline, "gunicorn did not come up:\n" + "".join(
                self.lines[-40:]
            )
            try:
                if requests.get(self.base + "/healthz", timeout=2).status_code == 200:
                    return self
            except requests.RequestException:  # not listening yet
                pass
            time.sleep(0.05)

    def _read_stderr(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        for raw in iter(self.process.stderr.readline, b""):
            self.lines.append(raw.decode(errors="replace"))

    def wait_for_line(self, fragment: str, seconds: float = 20.0) -> str:
        def found() -> str | None:
            return next((line for line in self.lines if fragment in line), None)

        line: str = wait_until(found, seconds, f"gunicorn's stderr says {fragment!r}")
        return line

    def kill(self) -> None:
        """kill -9 of the whole server: the gunicorn master and all its workers."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)


@contextmanager
def gunicorn(redis_url: str, **options: Any) -> Iterator[Gunicorn]:
    server = Gunicorn(redis_url, **options).start()
    try:
        yield server
    finally:
        server.kill()


@contextmanager
def own_redis() -> Iterator[RedisServer]:
    """A redis-server of the test's own (AOF, appendfsync always) on a unix socket in a short
    temp dir, so that killing it leaves the session's redis-server alone."""
    with tempfile.TemporaryDirectory(prefix="chronicle-abuse-") as tmp:
        server = RedisServer(data_dir=Path(tmp), unix_socket=Path(tmp) / "redis.sock").start()
        try:
            yield server
        finally:
            server.kill()


def store_on(url: str) -> EventStore:
    return EventStore(redis.Redis.from_url(url, decode_responses=True))


def log_of(store: EventStore, game_id: str) -> list[dict[str, Any]]:
    """Every stored event of the game, decoded, in stream order (nothing filtered)."""
    return [stored.decoded() for stored in store.read(game_id)]


def assert_gapless(log: list[dict[str, Any]], version: int) -> None:
    assert [e["version"] for e in log] == list(range(1, version + 1))


def events_by_command(log: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for event in log:
        grouped.setdefault(event["command_id"], []).append(event)
    return grouped


def assert_accepted_exactly_once(
    log: list[dict[str, Any]], accepted: Mapping[str, dict[str, Any]]
) -> None:
    """Each accepted answer (by the Idempotency-Key that is its command id) is in the log once:
    the same events, at the same versions, contiguous, and no other events of that command."""
    grouped = events_by_command(log)
    for key, answer in accepted.items():
        stored = grouped.get(key, [])
        assert [(e["version"], e["type"]) for e in stored] == [
            (e["version"], e["type"]) for e in answer["events"]
        ], key
        versions = [e["version"] for e in stored]
        assert versions == list(range(versions[0], versions[0] + len(versions))), key
        assert answer["version"] == versions[-1], key


def play_turn(
    session: requests.Session, base: str, game: dict[str, Any], pick: Callable[[list[Any]], Any]
) -> requests.Response | None:
    """One command by the first awaited seat, chosen by `pick` among its legal actions; None when
    the game is finished."""
    game_id = game["game_id"]
    summary = session.get(f"{base}/games/{game_id}", timeout=10).json()
    if summary["status"] == "finished":
        return None
    seat = summary["awaiting"][0]
    token = game["seat_tokens"][seat]
    legal = session.get(
        f"{base}/games/{game_id}/legal-actions", headers=bearer(token), timeout=10
    ).json()
    return session.post(
        f"{base}/games/{game_id}/commands",
        json=pick(legal["actions"]),
        headers={**bearer(token), "Idempotency-Key": uuid.uuid4().hex},
        timeout=10,
    )


PLAYER_NAME_FORMAT = "player-name"
"""openapi.yaml's format of a player name (api/openapi.py): one people can tell apart."""


def player_names() -> Any:
    """Names of the `player-name` format for schemathesis to generate: lower-case letters,
    some accented, and Han characters, none folding onto another (service/names.py), so that
    a list of different ones (`uniqueItems`) is a list people can tell apart."""
    from hypothesis import strategies as st

    return st.from_regex(r"\A[a-zàéîøñç李王张]{1,12}\Z")


def register_player_names() -> None:
    """Teach schemathesis the document's `player-name` format."""
    import schemathesis

    schemathesis.openapi.format(PLAYER_NAME_FORMAT, player_names())
