"""What idle event streams cost the commands: one client plays commands against `chronicle
serve` (gevent workers, 2 processes) with no stream open, then with 1,000 streams open (idle
subscribers of 50 other games, as browser tabs left open), then with none again. The target:
the median command with the streams open within 2x of the median without.
"""

from __future__ import annotations

import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

from cli.http import polite_session
from store.server import RedisServer, free_port

PLAYERS = ["ann", "bob", "cy", "dee"]
REPO_ROOT = Path(__file__).resolve().parents[1]


def serve(redis_url: str, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "CHRONICLE_RATE_LIMITS": "off",
        "CHRONICLE_STREAMS_PER_CLIENT": "100000",
        "CHRONICLE_CONNECTIONS_PER_ADDRESS": "100000",  # its streams all come from one address
        "CHRONICLE_QUEUE": f"bench-streams-{port}",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--web-workers", "2"],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


class Player:
    """One client playing random legal commands of a game (a new one when it ends)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = polite_session()
        self.rng = random.Random(5)
        self.game: dict[str, Any] = {}
        self.new_game()

    def new_game(self) -> None:
        made = self.http.post(
            f"{self.base}/games", json={"ruleset": "hotw-2024", "players": PLAYERS}
        )
        self.game = made.json()

    def command_ms(self) -> float | None:
        """One timed command (None when there was nothing to time: the game awaited nobody)."""
        gid = self.game["game_id"]
        summary = self.http.get(f"{self.base}/games/{gid}").json()
        if summary["status"] == "finished":
            self.new_game()
            return None
        if not summary["awaiting"]:
            time.sleep(0.01)
            return None
        seat = summary["awaiting"][0]
        auth = {"Authorization": f"Bearer {self.game['seat_tokens'][seat]}"}
        actions = self.http.get(f"{self.base}/games/{gid}/legal-actions", headers=auth).json()
        action = self.rng.choice(actions["actions"])
        began = time.perf_counter()
        answer = self.http.post(f"{self.base}/games/{gid}/commands", json=action, headers=auth)
        took = (time.perf_counter() - began) * 1000
        return took if answer.status_code == 201 else None

    def median_ms(self, commands: int) -> float:
        times: list[float] = []
        while len(times) < commands:
            took = self.command_ms()
            if took is not None:
                times.append(took)
        return statistics.median(times)


def open_streams(base: str, port: int, count: int, games: list[str]) -> list[socket.socket]:
    held = []
    for n in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        path = f"/games/{games[n % len(games)]}/stream"
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        head = sock.recv(4096)
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"stream {n} refused: {head[:120]!r}")
        held.append(sock)
    return held


def run(quick: bool = False, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    say = progress or (lambda message: None)
    streams = 300 if quick else 1000
    commands = 60 if quick else 200
    results: dict[str, Any] = {"streams_open": streams}
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-streams-") as tmp:
        server = RedisServer(data_dir=Path(tmp), unix_socket=Path(tmp) / "redis.sock").start()
        port = free_port()
        process = serve(server.url, port)
        base = f"http://127.0.0.1:{port}"
        held: list[socket.socket] = []
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if requests.get(f"{base}/healthz", timeout=2).status_code == 200:
                        break
                except requests.RequestException:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("chronicle serve did not come up")
                time.sleep(0.2)
            player = Player(base)
            player.median_ms(20)  # warm
            say("streams: commands with no stream open")
            before = player.median_ms(commands)
            idle = [
                player.http.post(
                    f"{base}/games", json={"ruleset": "hotw-2024", "players": PLAYERS}
                ).json()["game_id"]
                for _ in range(50)
            ]
            say(f"streams: opening {streams} streams")
            held = open_streams(base, port, streams, idle)
            say(f"streams: commands with {streams} streams open")
            during = player.median_ms(commands)
            for sock in held:
                sock.close()
            held = []
            time.sleep(1.0)
            say("streams: commands with the streams closed again")
            after = player.median_ms(commands)
        finally:
            for sock in held:
                sock.close()
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
            server.stop()
    without = (before + after) / 2
    results["streams_cmd_p50_ms_without"] = round(without, 3)
    results["streams_cmd_p50_ms_with"] = round(during, 3)
    results["streams_cmd_p50_ratio"] = round(during / without, 3)
    return results
