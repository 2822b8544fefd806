"""`chronicle serve` on the embedded default: real redis-server, RQ worker and gunicorn."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import requests

from bench.processes import descendants
from store.server import free_port

REPO_ROOT = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_serve_brings_up_redis_a_worker_and_http_and_stops_them_all(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["CHRONICLE_DATA_DIR"] = str(tmp_path / "data")
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--web-workers", "1"],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        health = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            try:
                response = requests.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
                health = response.json()
                if response.status_code == 200 and health["rq_workers"] >= 1:
                    break
            # not listening yet, or listening while its worker still boots (the request waits
            # in the backlog longer than the timeout)
            except requests.RequestException:
                pass
            time.sleep(0.3)
        assert process.poll() is None, process.stdout.read().decode()
        assert health is not None and health["status"] == "ok"
        assert health["redis_version"].startswith(("6.", "7.", "8."))
        assert health["rq_workers"] >= 1
        assert health["store"] == "ok"
        # Redis 6 writes chronicle.aof; Redis 7 (Debian's) files under appendonlydir/
        assert any((tmp_path / "data" / "redis").rglob("chronicle.aof*")), "AOF is on"
        unknown = requests.get(f"http://127.0.0.1:{port}/no-such-thing", timeout=2)
        assert unknown.status_code == 404
        assert set(unknown.json()) >= {"code", "message"}
        started = descendants(process.pid)
        assert len(started) >= 3, "redis-server, a worker and gunicorn"
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in started if alive(pid)], "every child stopped"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def start_serve(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["CHRONICLE_DATA_DIR"] = str(data_dir)
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--web-workers", "1"],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def wait_healthy(process: subprocess.Popen[bytes], port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read().decode()[-2000:]
        try:
            if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                return
        except requests.RequestException:  # not listening yet, or too busy starting to answer
            pass
        time.sleep(0.3)
    raise AssertionError("the first server did not come up")


def test_a_second_serve_on_the_same_data_directory_fails_at_once_naming_the_lock(tmp_path):
    data_dir = tmp_path / "data"
    first_port, second_port = free_port(), free_port()
    first = start_serve(data_dir, first_port)
    second: subprocess.Popen[bytes] | None = None
    try:
        wait_healthy(first, first_port)
        game = requests.post(
            f"http://127.0.0.1:{first_port}/games",
            json={"ruleset": "hotw-2024", "players": ["ann", "bob", "cy"]},
            timeout=30,
        )
        assert game.status_code == 201, game.text
        started = time.monotonic()
        second = start_serve(data_dir, second_port)
        _, err = second.communicate(timeout=20)
        assert second.returncode != 0
        assert time.monotonic() - started < 15, "it fails at once, without starting anything"
        message = err.decode()
        assert str(data_dir / "serve.lock") in message and "in use" in message, message
        assert f"pid {first.pid}" in message, message
        summary = requests.get(
            f"http://127.0.0.1:{first_port}/games/{game.json()['game_id']}", timeout=10
        )
        assert summary.status_code == 200, "the first server and its data are untouched"
        first.send_signal(signal.SIGTERM)
        assert first.wait(30) == 0
        with open(data_dir / "serve.lock", "a") as lock:  # released once the server stopped
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
