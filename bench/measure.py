"""The measurements of `chronicle bench`: each one a function, all run side by side on this
machine against one redis-server and one gunicorn-served API."""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import requests

from domain.core.chance import Chance
from domain.core.kernel import creation_events, decide, fold, replay
from domain.core.messages import SYSTEM, Actor, Recorded
from domain.core.ruleset import Ruleset
from service.chance import HmacSource, commitment
from service.rulesets import ruleset
from store.redis_store import EventStore
from store.server import RedisServer, free_port

RULESET = "hotw-2024"
Progress = Callable[[str], None]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


# --- in-process: the domain alone --------------------------------------------------------


def recorded_game(rules: Ruleset[Any], players: int, seed: int) -> list[Recorded]:
    """A whole random game, played in-process; its recorded events."""
    secret = f"bench-{seed}".encode().ljust(32, b".")
    rng = random.Random(seed)
    chance = Chance(HmacSource(secret), 0)
    names = tuple(f"p{n}" for n in range(players))
    log = [
        Recorded(n, e, SYSTEM)
        for n, e in enumerate(creation_events(rules, names, {}, commitment(secret), chance), 1)
    ]
    game = replay(rules, log)
    while not rules.is_over(game.state):
        actor: Actor
        due = rules.system_action(game.state)
        if due is not None:
            actor, command = SYSTEM, due
        else:
            actor = min(rules.awaited_seats(game.state))
            command = rng.choice(list(rules.legal_actions(game.state, actor)))
        for ev in decide(rules, game, actor, command, Chance(HmacSource(secret), game.draws)):
            log.append(Recorded(game.version + 1, ev, actor, f"c{len(log)}"))
            game = fold(rules, game, log[-1])
    return log


def fold_rate(games: list[list[Recorded]], rounds: int = 3) -> float:
    """Events folded per second when replaying recorded games from their events."""
    rules = ruleset(RULESET)
    events = sum(len(g) for g in games)
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for log in games:
            replay(rules, log)
        best = min(best, time.perf_counter() - started)
    return events / best


def selfplay_seconds(players: int, games: int) -> float:
    rules = ruleset(RULESET)
    times = []
    for seed in range(games):
        started = time.perf_counter()
        recorded_game(rules, players, 10_000 + seed)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


# --- the store ---------------------------------------------------------------------------


def append_rate(store: EventStore, appends: int = 3000) -> float:
    """Raw single-client Lua compare-and-set appends per second (the store's floor)."""
    game_id = f"bench-{uuid.uuid4().hex}"
    payload = json.dumps(
        {
            "type": "ArmyPlaced",
            "schema_version": 1,
            "data": {"seat": 2, "land": "tigris", "pool": "empire"},
            "rule": "hotw24.expand.outcome.uncontrolled",
            "visibility": {"scope": "public"},
            "actor": 2,
            "command_id": uuid.uuid4().hex,
            "recorded_at": "2026-01-01T00:00:00Z",
        }
    )
    store.create(
        game_id, ruleset="bench", players=["a"], status="active", events=[payload], seed=b"s" * 32
    )
    started = time.perf_counter()
    for i in range(appends):
        store.append(
            game_id, [payload], expected_version=1 + i, idempotency_key=f"k{i}", fingerprint="f"
        )
    return appends / (time.perf_counter() - started)


def game_bytes(store: EventStore, game_id: str) -> int:
    """Redis memory of every key of one game (stream, meta, idempotency, snapshots, secrets)."""
    keys = store.redis.keys(f"chronicle:game:{{{game_id}}}:*")
    return sum(int(store.redis.memory_usage(key, samples=0) or 0) for key in keys)


# --- the API -----------------------------------------------------------------------------


@contextmanager
def api_server(redis_url: str, web_workers: int, threads: int) -> Iterator[str]:
    """gunicorn (gthread) serving the API, and one RQ worker, on `redis_url`."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "CHRONICLE_SWEEP_EVERY_S": "5"}
    web = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(web_workers),
            "--worker-class",
            "gthread",
            "--threads",
            str(threads),
            "--log-level",
            "warning",
            "api.wsgi:app",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "worker"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if requests.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the API did not come up")
            time.sleep(0.1)
        yield url
    finally:
        for process in (web, worker):
            process.terminate()
        for process in (web, worker):
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()


class Client:
    """One HTTP client playing whole hotw-2024 games with random legal actions; it times only
    its command posts."""

    def __init__(self, url: str, players: int, seed: int) -> None:
        self.url = url
        self.players = players
        self.rng = random.Random(seed)
        self.http = requests.Session()
        self.latencies: list[float] = []
        self.game: dict[str, Any] = {}
        self.game_ids: list[str] = []
        self.new_game()

    def new_game(self) -> None:
        names = [f"p{n}" for n in range(self.players)]
        response = self.http.post(f"{self.url}/games", json={"ruleset": RULESET, "players": names})
        response.raise_for_status()
        self.game = response.json()
        self.game_ids.append(self.game["game_id"])

    def step(self) -> bool:
        """Post one command (a new game when this one ends); False when it had to wait."""
        game_id = self.game["game_id"]
        summary = self.http.get(f"{self.url}/games/{game_id}").json()
        if summary["status"] == "finished":
            self.new_game()
            return False
        if not summary["awaiting"]:
            time.sleep(0.002)
            return False
        seat = summary["awaiting"][0]
        headers = {"Authorization": f"Bearer {self.game['seat_tokens'][seat]}"}
        listed = self.http.get(f"{self.url}/games/{game_id}/legal-actions", headers=headers).json()
        if not listed.get("actions"):
            return False
        body = self.rng.choice(listed["actions"])
        started = time.perf_counter()
        response = self.http.post(
            f"{self.url}/games/{game_id}/commands", json=body, headers=headers
        )
        elapsed = time.perf_counter() - started
        if response.status_code == 201:
            self.latencies.append(elapsed)
            return True
        if response.status_code == 409:
            return False
        raise RuntimeError(f"command refused: {response.status_code} {response.text[:300]}")


def single_client(url: str, commands: int) -> dict[str, float]:
    client = Client(url, 4, 1)
    started = time.perf_counter()
    while len(client.latencies) < commands:
        client.step()
    posting = sum(client.latencies)
    return {
        "api_single_client_cmds_per_s": len(client.latencies) / posting,
        "api_single_client_wall_cmds_per_s": len(client.latencies)
        / (time.perf_counter() - started),
        "api_p50_ms": 1000 * statistics.median(client.latencies),
        "api_p99_ms": 1000 * percentile(client.latencies, 0.99),
    }


def concurrent_clients(url: str, clients: int, seconds: float) -> dict[str, float]:
    crowd = [Client(url, 4, 100 + n) for n in range(clients)]
    stop = threading.Event()

    def play(client: Client) -> None:
        while not stop.is_set():
            client.step()

    threads = [threading.Thread(target=play, args=(c,)) for c in crowd]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    latencies = [lat for c in crowd for lat in c.latencies]
    return {
        "api_concurrent_cmds_per_s": len(latencies) / elapsed,
        "api_concurrent_p99_ms": 1000 * percentile(latencies, 0.99),
        "api_concurrent_p50_ms": 1000 * statistics.median(latencies),
    }


def long_game(url: str, players: int, seed: int) -> dict[str, Any]:
    """A whole game played through the API (the worker closes its epochs and snapshots it)."""
    client = Client(url, players, seed)
    first = client.game["game_id"]
    while client.game["game_id"] == first:
        client.step()
    return {"game_id": first, "tokens": client.game}


def state_at_version(url: str, game_id: str, samples: int = 200) -> float:
    version = requests.get(f"{url}/games/{game_id}").json()["version"]
    rng = random.Random(7)
    http = requests.Session()
    times = []
    for _ in range(samples):
        at = rng.randint(1, version)
        started = time.perf_counter()
        response = http.get(f"{url}/games/{game_id}/state", params={"at": at})
        times.append(time.perf_counter() - started)
        response.raise_for_status()
    return 1000 * statistics.median(times)


def machine() -> dict[str, Any]:
    import platform

    memory = ""
    with suppress(OSError):
        memory = Path("/proc/meminfo").read_text().splitlines()[0].split(":")[1].strip()
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "memory": memory,
    }


def run(
    redis_url: str | None = None,
    quick: bool = False,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Every measurement, side by side; returns the JSON object `chronicle bench` prints."""
    say = progress or (lambda message: None)
    results: dict[str, Any] = {"machine": machine()}
    rules = ruleset(RULESET)
    say("recording 6-player games")
    games = [recorded_game(rules, 6, seed) for seed in range(2 if quick else 5)]
    say("folding")
    results["fold_events_per_s"] = round(fold_rate(games))
    results["fold_events"] = sum(len(g) for g in games)
    say("self-play, 4 players")
    results["selfplay_4p_game_s"] = round(selfplay_seconds(4, 3 if quick else 10), 4)
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-") as tmp:
        server = None
        if redis_url is None:
            server = RedisServer(data_dir=Path(tmp), unix_socket=Path(tmp) / "redis.sock").start()
            redis_url = server.url
        try:
            store = EventStore.from_url(redis_url)
            say("raw Lua CAS appends")
            results["redis_append_per_s"] = round(append_rate(store, 500 if quick else 3000))
            results["redis_fsync"] = store.redis.config_get("appendfsync").get("appendfsync")
            with api_server(redis_url, web_workers=2, threads=8) as url:
                say("one API client")
                results.update(single_client(url, 100 if quick else 600))
                say("32 API clients over 32 games")
                results.update(concurrent_clients(url, 32, 5 if quick else 20))
                say("a long 6-player game through the API")
                played = long_game(url, 6, 3)
                time.sleep(1.0)  # let the worker's snapshot jobs land
                results["state_at_version_ms"] = round(state_at_version(url, played["game_id"]), 3)
                results["redis_bytes_per_game"] = game_bytes(store, played["game_id"])
                results["long_game_events"] = store.version(played["game_id"])
                results["long_game_snapshots"] = len(store.snapshot_versions(played["game_id"]))
        finally:
            if server is not None:
                server.stop()
    results["single_client_vs_append"] = round(
        results["api_single_client_cmds_per_s"] / results["redis_append_per_s"], 3
    )
    for key in (
        "api_single_client_cmds_per_s",
        "api_single_client_wall_cmds_per_s",
        "api_p50_ms",
        "api_p99_ms",
        "api_concurrent_cmds_per_s",
        "api_concurrent_p99_ms",
        "api_concurrent_p50_ms",
    ):
        results[key] = round(results[key], 3)
    results["targets"] = targets(results)
    return results


TARGETS = {
    "fold_events_per_s": (">=", 100_000),
    "selfplay_4p_game_s": ("<=", 0.5),
    "single_client_vs_append": (">=", 0.2),
    "api_concurrent_cmds_per_s": (">=", 1000),
    "api_concurrent_p99_ms": ("<=", 25),
    "state_at_version_ms": ("<=", 20),
    "redis_bytes_per_game": ("<=", 300_000),
}


def targets(results: dict[str, Any]) -> dict[str, bool]:
    met = {}
    for key, (op, bound) in TARGETS.items():
        value = results[key]
        met[key] = value >= bound if op == ">=" else value <= bound
    return met
