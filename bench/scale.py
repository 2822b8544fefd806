"""Listing and sweeping with many games stored: `GET /games` filtered by status and ruleset, and
the worker's sweep, timed with 1,000 games in Redis and again with 100,000 (10,000 with
`--quick`). The indexes make both cost O(page) and O(stuck games); the ratio of the two
timings says whether they stay flat.

The games are written straight through the store (a creation script each, as the API does,
with a small log), on a Redis of their own with `appendfsync no`: what is measured is reading,
not writing. The same 10 games are `closing` at both sizes, so the sweep has the same work.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from store.redis_store import EventStore
from store.server import RedisServer

RULESETS = ("hotw-2024", "hotw-ah2001", "brief-2009", "patchistory")
CLOSING = 10
QUERIES = {
    "active": "/games?status=active&limit=50",
    "closing": "/games?status=closing&limit=50",
    "ruleset_active": "/games?status=active&ruleset=brief-2009&limit=50",
    "ruleset": "/games?ruleset=patchistory&limit=50&offset=100",
    "all": "/games?limit=50",
}


def status_of(n: int) -> str:
    if n < CLOSING:
        return "closing"
    return "active" if n % 10 == 0 else "finished"


def fill(store: EventStore, start: int, stop: int) -> None:
    def one(n: int) -> None:
        game_id = uuid.uuid4().hex
        event = json.dumps({"type": "GameCreated", "data": {"n": n}, "actor": "system"})
        store.create(
            game_id,
            ruleset=RULESETS[n % len(RULESETS)],
            players=["ann", "bob", "cy"],
            status=status_of(n),
            events=[event],
            seed=b"s" * 32,
            token_hashes={"admin": "x"},
            extra={"awaiting": "[]", "seed_revealed": "true"},
        )

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(one, range(start, stop)))


def alternated_ms(
    small: Callable[[], Any], large: Callable[[], Any], runs: int
) -> tuple[float, float]:
    """Median times of two actions run turn about, so that whatever else the machine does
    meanwhile falls on both alike."""
    for _ in range(max(5, runs // 5)):  # warm: connections, caches, the interpreter's paths
        small()
        large()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for action, kept in ((small, times[0]), (large, times[1])):
            began = time.perf_counter()
            action()
            kept.append((time.perf_counter() - began) * 1000)
    return round(statistics.median(times[0]), 3), round(statistics.median(times[1]), 3)


def timings(small_url: str, large_url: str, runs: int) -> dict[str, tuple[float, float]]:
    from api.app import create_app
    from workers.scheduling import sweep_closing_games

    apps = [create_app(url, RATE_LIMITS=False, CORS_ORIGINS=()) for url in (small_url, large_url)]
    clients = [app.test_client() for app in apps]
    found: dict[str, tuple[float, float]] = {}
    for name, path in QUERIES.items():
        assert all(client.get(path).status_code == 200 for client in clients)
        found[f"list_{name}_ms"] = alternated_ms(
            lambda p=path: clients[0].get(p),  # type: ignore[misc]
            lambda p=path: clients[1].get(p),  # type: ignore[misc]
            runs,
        )
    queue = f"bench-scale-{uuid.uuid4().hex[:8]}"
    found["sweep_ms"] = alternated_ms(
        lambda: sweep_closing_games(small_url, queue, 30),
        lambda: sweep_closing_games(large_url, queue, 30),
        max(10, runs // 4),
    )
    return found


def run(quick: bool = False, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    say = progress or (lambda message: None)
    small, large = 1_000, 10_000 if quick else 100_000
    results: dict[str, Any] = {"scale_games_small": small, "scale_games_large": large}
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-scale-") as tmp:
        servers = [
            RedisServer(
                data_dir=Path(tmp) / name, unix_socket=Path(tmp) / f"{name}.sock", fsync="no"
            ).start()
            for name in ("small", "large")
        ]
        try:
            say(f"scale: writing {small:,} games to one Redis and {large:,} to another")
            began = time.perf_counter()
            fill(EventStore.from_url(servers[0].url), 0, small)
            fill(EventStore.from_url(servers[1].url), 0, large)
            results["scale_fill_s"] = round(time.perf_counter() - began, 1)
            say("scale: listing and sweeping both, turn about")
            measured = timings(servers[0].url, servers[1].url, 100)
        finally:
            for server in servers:
                server.stop()
    for key, (at_small, at_large) in measured.items():
        results[f"scale_{key}_at_small"] = at_small
        results[f"scale_{key}_at_large"] = at_large
        results[f"scale_{key}_ratio"] = round(at_large / at_small, 2) if at_small else None
    return results
