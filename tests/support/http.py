"""`chronicle serve` as a child process on a given Redis, for tests that talk real HTTP."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

from store.server import free_port

REPO_ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def serving(redis_url: str, *, web_workers: int = 1, **env: str) -> Iterator[str]:
    """Run `chronicle serve` (gunicorn and one RQ worker on its own queue) on `redis_url`;
    yields the base URL once /healthz answers, and stops the server (SIGTERM) afterwards."""
    port = free_port()
    environment = {
        **os.environ,
        "REDIS_URL": redis_url,
        "PYTHONPATH": str(REPO_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "CHRONICLE_QUEUE": f"http-{uuid.uuid4().hex[:8]}",
        **env,
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli.main",
            "serve",
            "--port",
            str(port),
            "--web-workers",
            str(web_workers),
        ],
        env=environment,
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, process.stderr.read().decode()[-2000:]  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the server did not come up"
            try:
                if requests.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:  # not listening yet, or still starting up
                pass
            time.sleep(0.1)
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
