"""`chronicle serve`: the service, on the embedded default or on $REDIS_URL.

With no REDIS_URL it starts a real redis-server child (AOF, appendfsync always) with its data
under the data directory, plus RQ worker children, and serves HTTP through gunicorn. A child
that dies is restarted (with backoff), so one crash does not take the rest down; meanwhile the
API answers what it can (503 with Retry-After while Redis is away). Ctrl-C or SIGTERM stops
every child: the web server first, then the workers, then Redis.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import fcntl
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from service.config import Settings
from store.server import RedisServer, redis_server_binary, redis_server_version

LOCK_NAME = "serve.lock"
WORKER_CONNECTIONS = 4000
"""Connections one web process holds at once (each a greenlet: idle streams cost memory, not
threads)."""
HEADER_TIMEOUT_S = 5
"""Seconds a client has to send a request's line and headers (also the keep-alive wait)."""


@dataclass(frozen=True)
class Setting:
    """One setting: its environment variable (the README's settings table) and its flag."""

    env: str
    flag: str
    help: str
    type: Callable[[str], Any] = str
    metavar: str | None = None


SETTINGS = (
    Setting(
        "REDIS_URL",
        "--redis-url",
        "use this Redis and start none (redis://host:6379/0, unix:///path.sock, or a Redis "
        "Cluster: redis+cluster://host1:7000,host2:7001); default: an embedded redis-server",
        metavar="URL",
    ),
    Setting(
        "CHRONICLE_QUEUE_REDIS_URL",
        "--queue-redis-url",
        "a plain Redis for the RQ jobs (required when REDIS_URL is a cluster); default: REDIS_URL",
        metavar="URL",
    ),
    Setting(
        "CHRONICLE_REDIS_WAIT_REPLICAS",
        "--redis-wait-replicas",
        "replicas that must acknowledge an append (Redis WAIT) before it is answered; "
        "fewer in time: 503 (default 0: answered once the master has it)",
        int,
        "N",
    ),
    Setting(
        "CHRONICLE_REDIS_WAIT_TIMEOUT_MS",
        "--redis-wait-timeout-ms",
        "how long an append waits for those replicas (default 1000)",
        int,
        "MS",
    ),
    Setting(
        "CHRONICLE_DATA_DIR",
        "--data-dir",
        "where the embedded Redis keeps its AOF (default .chronicle); one server at a time: "
        f"the directory's {LOCK_NAME} is locked while it runs",
        Path,
        "DIR",
    ),
    Setting("CHRONICLE_HOST", "--host", "address to listen on (default 127.0.0.1)", metavar="HOST"),
    Setting("CHRONICLE_PORT", "--port", "HTTP port (default 8000)", int, "PORT"),
    Setting(
        "CHRONICLE_REDIS_PORT",
        "--redis-port",
        "embedded Redis TCP port (default 0: a free one)",
        int,
        "PORT",
    ),
    Setting(
        "CHRONICLE_REDIS_FSYNC",
        "--redis-fsync",
        "embedded Redis appendfsync: always or everysec (default always)",
        metavar="{always,everysec}",
    ),
    Setting("CHRONICLE_WORKERS", "--workers", "RQ worker processes (default 1)", int, "N"),
    Setting(
        "CHRONICLE_WEB_WORKERS", "--web-workers", "gunicorn worker processes (default 2)", int, "N"
    ),
    Setting("CHRONICLE_QUEUE", "--queue", "RQ queue name (default chronicle)", metavar="NAME"),
    Setting(
        "CHRONICLE_RULESET_MODULES",
        "--ruleset-modules",
        "extra modules to import that register rulesets (comma list; default none)",
        metavar="MODULES",
    ),
    Setting(
        "CHRONICLE_SNAPSHOT_EVERY",
        "--snapshot-every",
        "events between snapshots written by the worker, also at every epoch close (default 200)",
        int,
        "N",
    ),
    Setting(
        "CHRONICLE_SYSTEM_STEPS",
        "--system-steps",
        "worker: epoch closes run in RQ; inline: inside the request (default worker)",
        metavar="{worker,inline}",
    ),
    Setting(
        "CHRONICLE_BUSY_HOLD_MS",
        "--busy-hold-ms",
        "how long a command that finds an epoch closing waits for it before it is a 409 "
        "game_busy (default 250)",
        int,
        "MS",
    ),
    Setting(
        "CHRONICLE_SWEEP_EVERY_S",
        "--sweep-every-s",
        "seconds between the worker's sweeps for games stuck closing (default 30)",
        float,
        "SECONDS",
    ),
    Setting(
        "CHRONICLE_CORS_ORIGINS",
        "--cors-origins",
        "browser origins allowed to call the API (comma list, or *; default none)",
        metavar="ORIGINS",
    ),
    Setting(
        "CHRONICLE_UNSTARTED_TTL_S",
        "--unstarted-ttl-s",
        "seconds after which a game no seat has acted in is deleted by the worker's sweep "
        "(default 604800, a week; 0: never)",
        float,
        "SECONDS",
    ),
    Setting(
        "CHRONICLE_RATE_LIMITS",
        "--rate-limits",
        "on or off: rate limits and quotas (default on)",
        metavar="{on,off}",
    ),
    Setting(
        "CHRONICLE_LIMIT_CREATE",
        "--limit-create",
        "games (and sandboxes) one client address may create (default 30/minute;500/day)",
        metavar="LIMITS",
    ),
    Setting(
        "CHRONICLE_LIMIT_STORE",
        "--limit-store",
        "players, webhooks, invitations and replay jobs one client address may make "
        "(default 30/minute;500/day)",
        metavar="LIMITS",
    ),
    Setting(
        "CHRONICLE_PLAYER_TTL_S",
        "--player-ttl-s",
        "seconds after its last use that a player (its key, games list, notifications and "
        "webhooks) is forgotten (default 7776000, 90 days; 0: never)",
        float,
        "SECONDS",
    ),
    Setting(
        "CHRONICLE_LIMIT_TOKEN",
        "--limit-token",
        "requests one token may make (default 50/second;1200/minute)",
        metavar="LIMITS",
    ),
    Setting(
        "CHRONICLE_LIMIT_ADDRESS",
        "--limit-address",
        "requests one client address may make (default 100/second)",
        metavar="LIMITS",
    ),
    Setting(
        "CHRONICLE_LIMIT_HEALTH",
        "--limit-health",
        "requests for /healthz one client address may make, counted apart from its others "
        "(default 20/second)",
        metavar="LIMITS",
    ),
    Setting(
        "CHRONICLE_SSE_HEARTBEAT_S",
        "--sse-heartbeat-s",
        "seconds between keep-alive comments on a quiet event stream (default 15)",
        float,
        "S",
    ),
    Setting(
        "CHRONICLE_STREAMS_PER_CLIENT",
        "--streams-per-client",
        "live event streams one client address may hold open at once (default 20)",
        int,
        "N",
    ),
    Setting(
        "CHRONICLE_SOCKET_TIMEOUT_S",
        "--socket-timeout-s",
        "seconds any single read or write on a client connection may wait (default 30)",
        float,
        "SECONDS",
    ),
    Setting(
        "CHRONICLE_BODY_DEADLINE_S",
        "--body-deadline-s",
        "seconds a request's whole body may take to arrive before it is a 408 and the "
        "connection is closed (default 15)",
        float,
        "SECONDS",
    ),
    Setting(
        "CHRONICLE_CONNECTIONS_PER_ADDRESS",
        "--connections-per-address",
        "connections one client address may hold at once in each web process; past it: 503 "
        "(default 100; off behind trusted proxies unless set; 0: no cap)",
        int,
        "N",
    ),
    Setting(
        "CHRONICLE_WEBHOOK_ALLOW_PRIVATE",
        "--webhook-allow-private",
        "on: webhooks may point at loopback, private and link-local addresses (a receiver on "
        "your own network; default off)",
        metavar="{on,off}",
    ),
    Setting(
        "CHRONICLE_TRUSTED_PROXIES",
        "--trusted-proxies",
        "reverse proxies in front whose X-Forwarded-For names the client (default 0)",
        int,
        "N",
    ),
)
CHOICES = {
    "--redis-fsync": ("always", "everysec"),
    "--system-steps": ("worker", "inline"),
    "--rate-limits": ("on", "off"),
    "--webhook-allow-private": ("on", "off"),
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the HTTP service (and embedded Redis)",
        description="Run the HTTP service: gunicorn, RQ workers and, unless a Redis is given, "
        "an embedded redis-server. Every setting is a flag or an environment variable (the "
        "flag wins).",
    )
    for setting in SETTINGS:
        parser.add_argument(
            setting.flag,
            dest=setting.env.lower(),
            type=setting.type,
            choices=CHOICES.get(setting.flag),
            metavar=setting.metavar,
            help=f"{setting.help} [env {setting.env}]",
        )
    parser.set_defaults(func=run)


def environment(args: argparse.Namespace, base: Mapping[str, str]) -> dict[str, str]:
    """The environment with the flags given on the command line applied over it."""
    env = dict(base)
    for setting in SETTINGS:
        value = getattr(args, setting.env.lower(), None)
        if value is not None:
            env[setting.env] = str(value)
    return env


class DataDirInUse(Exception):
    pass


class IncompatibleRedis(Exception):
    pass


PASSWORD_FILE = "redis.password"
VERSION_FILE = "redis-version"


def private_data_dir(data_dir: Path) -> None:
    """The data directory and everything in it readable by this user only (a directory made
    by an older Chronicle may have been readable by all: its AOF holds every game's seed)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    os.chmod(data_dir, 0o700)
    for root, dirs, files in os.walk(data_dir):
        for name in dirs:
            os.chmod(Path(root) / name, 0o700)
        for name in files:
            path = Path(root) / name
            if not path.is_socket():
                os.chmod(path, 0o600)


def data_dir_password(data_dir: Path) -> str:
    """The embedded Redis's password: made once per data directory (256 bits), kept in a 0600
    file there, so that nobody else on the machine can read the seeds or forge stream tickets
    through Redis."""
    path = data_dir / PASSWORD_FILE
    if path.exists():
        password = path.read_text(encoding="ascii").strip()
        if password:
            return password
    password = secrets.token_urlsafe(32)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(password + "\n")
    return password


def version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".")[:2] if part.isdigit())


def check_redis_version(data_dir: Path, running: str) -> str | None:
    """Refuse a redis-server older than the one that last wrote the data directory: Redis reads
    the files of its own and older versions, not newer ones (7.0 turns the AOF into a directory
    of parts that 6.2 does not see, and starts empty). Records the version on first use and
    after an upgrade; returns a line to print when it changed."""
    path = data_dir / VERSION_FILE
    recorded = path.read_text(encoding="ascii").strip() if path.exists() else None
    if recorded and version_tuple(running) < version_tuple(recorded):
        raise IncompatibleRedis(
            f"the data directory {data_dir} was last written by redis-server {recorded}, and "
            f"the redis-server found now ({redis_server_binary()}) is {running}, which cannot "
            f"read it (it would start with an empty database). Put redis-server {recorded} or "
            "newer first on PATH, or give another --data-dir."
        )
    if recorded == running:
        return None
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(running + "\n")
    if recorded is None:
        return None
    return (
        f"the data directory moves from redis-server {recorded} to {running}; "
        f"{recorded} cannot read it from now on"
    )


PR_SET_PDEATHSIG = 1
"""prctl(2): the signal a process gets when its parent dies."""


def die_with(parent: int, signum: int = signal.SIGTERM) -> Callable[[], None]:
    """What a child runs before it execs: it is sent `signum` when `parent` dies, however it
    dies (a kill -9 of `chronicle serve` included), so no child outlives it. Linux only; a
    child that finds its parent gone already exits."""

    def arrange() -> None:
        if sys.platform.startswith("linux"):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return arrange


ORPHANS_WAIT_S = 20.0
"""How long a start waits for the data directory's lock when the server that took it is dead
(its children, told by the kernel, are still stopping: redis-server flushing its AOF)."""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def lock_data_dir(data_dir: Path) -> int:
    """Lock the data directory for this server's life (an fcntl lock on its `serve.lock`, which
    the embedded redis-server inherits, so that even an orphaned one keeps it): a second
    `chronicle serve` on it must not open the same AOF. Returns the lock's file descriptor.
    When the server that holds it is dead, its children are stopping with it: the lock is
    waited for, up to `ORPHANS_WAIT_S`."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + ORPHANS_WAIT_S
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip()
            if holder.isdigit() and not alive(int(holder)) and time.monotonic() < deadline:
                time.sleep(0.1)
                continue
        os.close(fd)
        raise DataDirInUse(
            f"the data directory {data_dir} is in use by another chronicle serve"
            + (f" (pid {holder})" if holder else "")
            + f": its lock {path} is held. Stop that server, or give another --data-dir."
        )
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


BACKOFF_FIRST_S = 0.5
BACKOFF_MAX_S = 30.0
HEALTHY_AFTER_S = 30.0
"""A child that ran this long before dying is restarted at once; one that keeps dying sooner
waits twice as long each time (0.5 s, 1 s, 2 s ... up to 30 s)."""


@dataclass
class Child:
    name: str
    argv: list[str]
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    failures: int = 0
    restart_at: float | None = None


def kill_group(pid: int, sig: int = signal.SIGKILL) -> None:
    """Signal every process of the group `pid` leads (a child started in its own session):
    whatever it forked (RQ's scheduler, gunicorn's workers) goes with it, even once the
    leader is dead."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


class Supervisor:
    """Starts children, each in a process group of its own, and keeps them running: a child
    that dies is restarted with backoff (and whatever it had forked is killed first, so nothing
    is orphaned); the embedded redis-server too, on the same data and port. Stops them all in
    reverse order when told to."""

    def __init__(self) -> None:
        self.children: list[Child] = []
        self.redis: RedisServer | None = None
        self.redis_child = Child("redis-server", [], {})
        self.stopping = False

    def spawn(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        child = Child(name, argv, env)
        self._start(child)
        self.children.append(child)

    def _start(self, child: Child) -> None:
        child.process = subprocess.Popen(
            child.argv,
            env=child.env,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=die_with(os.getpid()),
        )
        child.started_at = time.monotonic()
        child.restart_at = None

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopping = True

    @staticmethod
    def _schedule(child: Child, returncode: int | None) -> None:
        now = time.monotonic()
        child.failures = child.failures + 1 if now - child.started_at < HEALTHY_AFTER_S else 0
        delay = min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2**child.failures) if child.failures else 0
        child.restart_at = now + delay
        print(
            f"chronicle serve: {child.name} exited with {returncode}; restarting in {delay:g} s",
            flush=True,
        )

    def check(self) -> None:
        """One round of supervision: notice dead children, restart those that are due."""
        now = time.monotonic()
        for child in self.children:
            process = child.process
            if process is not None and child.restart_at is None and process.poll() is not None:
                kill_group(process.pid)
                self._schedule(child, process.returncode)
            if child.restart_at is not None and now >= child.restart_at and not self.stopping:
                self._start(child)
        server = self.redis
        if server is None or server.process is None:
            return
        redis_child = self.redis_child
        if redis_child.restart_at is None and server.process.poll() is not None:
            kill_group(server.process.pid)
            self._schedule(redis_child, server.process.returncode)
        if redis_child.restart_at is not None and now >= redis_child.restart_at:
            try:
                server.start()
                redis_child.started_at = time.monotonic()
                redis_child.restart_at = None
            except RuntimeError as exc:  # it would not start: try again later
                print(f"chronicle serve: redis-server did not restart: {exc}", flush=True)
                self._schedule(redis_child, None)

    def watch(self) -> int:
        while not self.stopping:
            self.check()
            time.sleep(0.2)
        return 0

    def stop_all(self) -> None:
        self.stopping = True
        running = [c.process for c in reversed(self.children) if c.process is not None]
        for process in running:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in running:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            kill_group(process.pid)
        if self.redis is not None:
            self.redis.stop()
            if self.redis.process is not None:
                kill_group(self.redis.process.pid)


def run(args: argparse.Namespace) -> int:
    env = environment(args, os.environ)
    settings = Settings.from_env(env)
    host, port = settings.host, settings.port
    lock: int | None = None
    if not settings.redis_url:
        try:
            lock = lock_data_dir(settings.data_dir)
        except DataDirInUse as exc:
            print(f"chronicle serve: {exc}", file=sys.stderr, flush=True)
            return 1
    supervisor = Supervisor()
    signal.signal(signal.SIGINT, supervisor.request_stop)
    signal.signal(signal.SIGTERM, supervisor.request_stop)
    try:
        if settings.redis_url:
            url = settings.redis_url
            print(f"chronicle serve: using Redis at {url}", flush=True)
        else:
            data_dir = settings.data_dir
            private_data_dir(data_dir)
            try:
                change = check_redis_version(data_dir, redis_server_version())
            except IncompatibleRedis as exc:
                print(f"chronicle serve: {exc}", file=sys.stderr, flush=True)
                return 1
            if change:
                print(f"chronicle serve: {change}", flush=True)
            supervisor.redis = RedisServer(
                data_dir=data_dir / "redis",
                port=settings.redis_port,
                fsync=settings.redis_fsync,
                inherited_fds=(lock,) if lock is not None else (),
                password=data_dir_password(data_dir),
                before_exec=die_with(os.getpid()),
            ).start()
            url = supervisor.redis.url
            shown = url.replace(f":{supervisor.redis.password}@", ":***@")
            print(
                f"chronicle serve: embedded redis-server at {shown}, data in {data_dir}", flush=True
            )
        env["REDIS_URL"] = url
        for i in range(settings.workers):
            supervisor.spawn(f"worker-{i}", [sys.executable, "-m", "cli.main", "worker"], env)
        supervisor.spawn(
            "gunicorn",
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--bind",
                f"{host}:{port}",
                "--workers",
                str(settings.web_workers),
                "--worker-class",
                "api.guarded.GuardedWorker",
                "--worker-connections",
                str(WORKER_CONNECTIONS),
                "--keep-alive",
                str(HEADER_TIMEOUT_S),
                "--graceful-timeout",
                "10",
                "api.wsgi:app",
            ],
            env,
        )
        print(f"chronicle serve: http://{host}:{port}/healthz", flush=True)
        return supervisor.watch()
    finally:
        supervisor.stop_all()
        if lock is not None:
            os.close(lock)
