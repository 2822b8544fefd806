"""`chronicle serve` keeps its children running: the RQ worker, redis-server or gunicorn killed
with SIGKILL is restarted (nothing else stops), whatever the dead one had forked is gone (no
orphan), and the service answers again on its own; SIGTERM stops everything it started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from bench.processes import descendants
from store.server import free_port
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def group_of(pid: int) -> set[int]:
    """The live processes of the process group `pid` leads."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pid and fields[0] != "Z":
                found.add(int(entry.name))
    return found


def child(serve: subprocess.Popen[bytes], marker: str) -> int:
    """The direct child of `chronicle serve` whose command line holds `marker`."""
    for pid in descendants(serve.pid):
        if marker in cmdline(pid) and f"PPid:\t{serve.pid}\n" in Path(
            f"/proc/{pid}/status"
        ).read_text(errors="replace"):
            return pid
    raise LookupError(marker)


def wait_for(test: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        try:
            value = test()
        except (LookupError, OSError, requests.RequestException):
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


@pytest.fixture()
def serve(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        "CHRONICLE_DATA_DIR": str(tmp_path / "data"),
        "CHRONICLE_QUEUE": f"supervised-{port}",
    }
    env.pop("REDIS_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--web-workers", "1"],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: requests.get(f"{base}/healthz", timeout=2).json()["rq_workers"], 60, "up")
        yield process, base
    finally:
        started = descendants(process.pid)
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(40)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for pid in started:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def healthy(base: str) -> bool:
    answer = requests.get(f"{base}/healthz", timeout=2)
    return answer.status_code == 200 and answer.json()["rq_workers"] == 1


def test_a_killed_worker_is_restarted_and_leaves_no_orphan(serve) -> None:
    process, base = serve
    worker = wait_for(lambda: child(process, "cli.main worker"), 30, "the worker")
    forked = wait_for(lambda: group_of(worker), 30, "the worker's group")
    os.kill(worker, signal.SIGKILL)
    replacement = wait_for(
        lambda: (pid := child(process, "cli.main worker")) != worker and pid, 30, "a new worker"
    )
    assert replacement != worker
    wait_for(lambda: not any(alive(pid) for pid in forked), 10, "the old worker's children gone")
    wait_for(lambda: healthy(base), 30, "one live worker counted")
    assert process.poll() is None, "serve stopped"


def test_a_killed_redis_is_restarted_with_its_data_and_answers_503_meanwhile(serve) -> None:
    process, base = serve
    created = requests.post(
        f"{base}/games", json={"ruleset": "hotw-2024", "players": ["ann", "bob", "cy"]}
    )
    assert created.status_code == 201
    game = created.json()["game_id"]
    server = child(process, "redis-server")
    os.kill(server, signal.SIGKILL)
    seen = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer = requests.get(f"{base}/games/{game}", timeout=5)
        seen.add(answer.status_code)
        if answer.status_code == 503:
            assert answer.headers["Retry-After"].isdigit()
            assert answer.json()["code"] == "store_unavailable"
        else:
            assert answer.status_code == 200, answer.text
            if child(process, "redis-server") != server:
                break
        time.sleep(0.05)
    assert child(process, "redis-server") != server, "redis-server was not restarted"
    assert requests.get(f"{base}/games/{game}", timeout=5).status_code == 200
    wait_for(lambda: healthy(base), 60, "the service whole again")
    assert process.poll() is None, "serve stopped"


def test_a_killed_gunicorn_is_restarted_and_its_workers_do_not_linger(serve) -> None:
    process, base = serve
    master = child(process, "gunicorn")
    workers = group_of(master) - {master}
    os.kill(master, signal.SIGKILL)
    wait_for(lambda: child(process, "gunicorn") != master, 30, "a new gunicorn")
    wait_for(lambda: not any(alive(pid) for pid in workers), 10, "the old web workers gone")
    wait_for(lambda: healthy(base), 30, "HTTP again")
    assert process.poll() is None


def test_sigterm_stops_everything_serve_started(tmp_path: Path, serve) -> None:
    process, _ = serve
    started = descendants(process.pid)
    assert len(started) >= 3
    process.send_signal(signal.SIGTERM)
    assert process.wait(40) == 0
    wait_for(lambda: not any(alive(pid) for pid in started), 10, "every child gone")
