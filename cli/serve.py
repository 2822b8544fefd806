"""`chronicle serve`: the service, on the embedded default or on $REDIS_URL.

With no REDIS_URL it starts a real redis-server child (AOF, appendfsync always) with its data
under the data directory, plus RQ worker children, and serves HTTP through gunicorn. Ctrl-C or
SIGTERM stops every child: the web server first, then the workers, then Redis.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

from service.config import Settings
from store.server import RedisServer


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("serve", help="run the HTTP service (and embedded Redis)")
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="HTTP port (default 8000)")
    parser.add_argument("--data-dir", type=Path, help="embedded Redis data (default .chronicle)")
    parser.add_argument("--redis-port", type=int, help="embedded Redis port (default: a free one)")
    parser.add_argument("--workers", type=int, help="RQ worker processes (default 1)")
    parser.add_argument("--web-workers", type=int, help="gunicorn worker processes (default 2)")
    parser.set_defaults(func=run)


class Supervisor:
    """Starts children, and stops them all in reverse order when told to or when one dies."""

    def __init__(self) -> None:
        self.children: list[tuple[str, subprocess.Popen[bytes]]] = []
        self.redis: RedisServer | None = None
        self.stopping = False

    def spawn(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        self.children.append((name, subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL)))

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopping = True

    def watch(self) -> int:
        while not self.stopping:
            for name, child in self.children:
                if child.poll() is not None:
                    print(f"chronicle serve: {name} exited with {child.returncode}", flush=True)
                    return 1
            if self.redis and self.redis.process and self.redis.process.poll() is not None:
                print("chronicle serve: redis-server exited", flush=True)
                return 1
            time.sleep(0.2)
        return 0

    def stop_all(self) -> None:
        for _name, child in reversed(self.children):
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for _name, child in reversed(self.children):
            try:
                child.wait(15)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        if self.redis is not None:
            self.redis.stop()


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    host = args.host or settings.host
    port = args.port or settings.port
    supervisor = Supervisor()
    signal.signal(signal.SIGINT, supervisor.request_stop)
    signal.signal(signal.SIGTERM, supervisor.request_stop)
    env = dict(os.environ)
    try:
        if settings.redis_url:
            url = settings.redis_url
            print(f"chronicle serve: using Redis at {url}", flush=True)
        else:
            data_dir = (args.data_dir or settings.data_dir).resolve()
            supervisor.redis = RedisServer(
                data_dir=data_dir / "redis",
                port=args.redis_port if args.redis_port is not None else settings.redis_port,
                fsync=settings.redis_fsync,
            ).start()
            url = supervisor.redis.url
            print(
                f"chronicle serve: embedded redis-server at {url}, data in {data_dir}", flush=True
            )
        env["REDIS_URL"] = url
        for i in range(args.workers if args.workers is not None else settings.workers):
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
                str(args.web_workers or settings.web_workers),
                "--worker-class",
                "gthread",
                "--threads",
                "8",
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
