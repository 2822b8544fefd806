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


def median_ms(action: Callable[[], Any], runs: int) -> float:
    for _ in range(max(5, runs // 5)):  # warm: connections, caches, the interpreter's paths
        action()
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        action()
        times.append((time.perf_counter() - began) * 1000)
    return round(statistics.median(times), 3)


def timings(url: str, runs: int) -> dict[str, float]:
    from api.app import create_app
    from workers.scheduling import sweep_closing_games

    app = create_app(url, RATE_LIMITS=False, CORS_ORIGINS=())
    found: dict[str, float] = {}
    with app.test_client() as client:
        for name, path in QUERIES.items():
            assert client.get(path).status_code == 200
            found[f"list_{name}_ms"] = median_ms(lambda p=path: client.get(p), runs)  # type: ignore[misc]
    queue = f"bench-scale-{uuid.uuid4().hex[:8]}"
    sweep_closing_games(url, queue, 30)
    found["sweep_ms"] = median_ms(lambda: sweep_closing_games(url, queue, 30), max(5, runs // 4))
    return found


def run(quick: bool = False, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    say = progress or (lambda message: None)
    small, large = 1_000, 10_000 if quick else 100_000
    results: dict[str, Any] = {"scale_games_small": small, "scale_games_large": large}
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-scale-") as tmp:
        server = RedisServer(
            data_dir=Path(tmp), unix_socket=Path(tmp) / "redis.sock", fsync="no"
        ).start()
        try:
            store = EventStore.from_url(server.url)
            say(f"scale: {small:,} games")
            fill(store, 0, small)
            at_small = timings(server.url, 100)
            say(f"scale: {large:,} games (writing {large - small:,} more)")
            began = time.perf_counter()
            fill(store, small, large)
            results["scale_fill_s"] = round(time.perf_counter() - began, 1)
            at_large = timings(server.url, 100)
        finally:
            server.stop()
    for key, value in at_small.items():
        results[f"scale_{key}_at_small"] = value
        results[f"scale_{key}_at_large"] = at_large[key]
        results[f"scale_{key}_ratio"] = round(at_large[key] / value, 2) if value else None
    return results
