"""`chronicle serve` on the embedded default: real redis-server, RQ worker and gunicorn."""

from __future__ import annotations

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
                response = requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                health = response.json()
                if response.status_code == 200 and health["rq_workers"] >= 1:
                    break
            except requests.ConnectionError:
                pass
            time.sleep(0.3)
        assert process.poll() is None, process.stdout.read().decode()
        assert health is not None and health["status"] == "ok"
        assert health["redis_version"].startswith(("6.", "7.", "8."))
        assert health["rq_workers"] >= 1
        assert health["store"] == "ok"
        assert (tmp_path / "data" / "redis" / "chronicle.aof").exists() or any(
            (tmp_path / "data" / "redis").glob("*.aof*")
        ), "AOF is on"
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
