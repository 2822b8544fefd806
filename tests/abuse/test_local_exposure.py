"""What another user of the machine can reach of an embedded `chronicle serve`: its Redis asks
for a password made for its data directory (kept in a 0600 file, never on a command line), and
every file of the data directory (the AOF holds every seed) is readable by its owner only. The
data directory records the redis-server version that wrote it, and a start with an older one,
which could not read it, is refused with a message naming both."""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
import requests

from bench.processes import descendants
from store.server import free_port, redis_server_version
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow


def start(data_dir: Path, port: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "CHRONICLE_DATA_DIR": str(data_dir)}
    env.pop("REDIS_URL", None)
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--web-workers", "1"],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(40)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_up(process: subprocess.Popen[str], port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        try:
            if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise AssertionError("serve did not come up")


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_the_embedded_redis_wants_the_data_dirs_password_and_its_files_are_private(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    old = data_dir / "left-by-an-older-chronicle"
    old.write_text("x")
    os.chmod(old, 0o644)
    os.chmod(data_dir, 0o755)
    port = free_port()
    process = start(data_dir, port)
    try:
        wait_up(process, port)
        created = requests.post(
            f"http://127.0.0.1:{port}/games",
            json={"ruleset": "hotw-2024", "players": ["ann", "bob", "cy"]},
        )
        assert created.status_code == 201
        password = (data_dir / "redis.password").read_text().strip()
        assert len(password) >= 40
        children = descendants(process.pid)
        assert not any(password in cmdline(pid) for pid in children), "password on a cmdline"
        redis_pid = next(pid for pid in children if "redis-server" in cmdline(pid))
        redis_port = int(re.search(r":(\d+)", cmdline(redis_pid)).group(1))  # type: ignore[union-attr]
        stranger = redis.Redis(port=redis_port)
        with pytest.raises(redis.AuthenticationError):
            stranger.ping()
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=redis_port, password="guess").ping()
        assert redis.Redis(port=redis_port, password=password).ping()
        for path in [data_dir, *data_dir.rglob("*")]:
            mode = stat.S_IMODE(path.stat().st_mode)
            if path.is_socket():
                continue
            assert mode & 0o077 == 0, f"{path} is {oct(mode)}"
        assert (data_dir / "redis-version").read_text().strip() == redis_server_version()
    finally:
        stop(process)


def test_a_redis_older_than_the_data_dirs_is_refused_with_both_versions(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "redis-version").write_text("99.1.0\n")
    process = start(data_dir, free_port())
    try:
        code = process.wait(60)
        message = process.stderr.read() if process.stderr else ""
    finally:
        if process.poll() is None:
            stop(process)
    assert code != 0
    assert "99.1.0" in message and redis_server_version() in message, message
    assert "cannot" in message and "--data-dir" in message, message
    assert not (data_dir / "redis").exists(), "no redis-server was started on it"
