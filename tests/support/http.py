"""`chronicle serve` as a child process on a given Redis, for tests that talk real HTTP."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import deque
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
    with serving_logged(redis_url, web_workers=web_workers, **env) as (base, _):
        yield base


@contextmanager
def serving_logged(
    redis_url: str, *, web_workers: int = 1, **env: str
) -> Iterator[tuple[str, deque[bytes]]]:
    """`serving`, yielding with the base URL the last lines the server wrote to its stderr."""
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
    said = drained(process)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                time.sleep(0.2)  # what it said last, read
                raise AssertionError(b"".join(said).decode(errors="replace")[-2000:])
            assert time.monotonic() < deadline, "the server did not come up"
            try:
                if requests.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:  # not listening yet, or still starting up
                pass
            time.sleep(0.1)
        yield base, said
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def drained(process: subprocess.Popen[bytes]) -> deque[bytes]:
    """The last lines the server wrote to its stderr, read as they come by a thread of their
    own: a pipe nobody reads fills up (64 KB) and then stops whichever of the server's threads
    logs next, which once froze a worker's table watch in the middle of a test."""
    said: deque[bytes] = deque(maxlen=200)

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            said.append(line)

    threading.Thread(target=read, name="server-stderr", daemon=True).start()
    return said
