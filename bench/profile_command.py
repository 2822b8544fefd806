"""Where one command's time goes in the web process: scripted games of a ruleset played through
the Flask app in process (epoch closes and snapshots inline), with the Redis commands each POST
sends counted from `INFO commandstats` and the views profiled with cProfile on CPU time.

    python -m bench.profile_command [--ruleset NAME] [--games N] [--top N] [--no-profile]
                                    [--sections]

`--sections`: instead of cProfile, the CPU of each layer a command passes through
(`bench.sections`), and after it the floor app's (`bench.floor_app`) for the same requests
through the same test client.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import tempfile
import time
from collections import Counter
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import redis

from api.app import create_app
from bench.measure import game_service_for, players_for, scripted_game
from bench.sections import counted, table
from service.rulesets import ruleset
from store.redis_store import EventStore
from store.server import RedisServer


def command_counts(client: redis.Redis) -> dict[str, int]:
    return {
        name.removeprefix("cmdstat_"): int(stats["calls"])
        for name, stats in client.info("commandstats").items()
    }


def redis_cpu_s(client: redis.Redis) -> float:
    stats = client.info("cpu")
    return float(stats["used_cpu_user"]) + float(stats["used_cpu_sys"])


Request = tuple[str, bytes, dict[str, str]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_command")
    parser.add_argument("--ruleset", default="hotw-2024")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument("--sections", action="store_true")
    args = parser.parse_args(argv)
    profiling = not (args.no_profile or args.sections)
    rules = ruleset(args.ruleset)
    scripts = [scripted_game(rules, players_for(rules, 4), seed) for seed in range(args.games)]
    with tempfile.TemporaryDirectory(prefix="chronicle-profile-") as tmp:
        server = RedisServer(data_dir=Path(tmp), unix_socket=Path(tmp) / "redis.sock").start()
        try:
            client = redis.Redis.from_url(server.url, decode_responses=True)
            app = create_app(server.url, SYSTEM_STEPS="inline", CORS_ORIGINS=(), RATE_LIMITS=False)
            service = game_service_for(EventStore(client))
            games = [(service.create_game(s.ruleset, s.names, seed=s.secret), s) for s in scripts]
            requests: list[Request] = [
                (
                    f"/games/{created.game_id}/commands",
                    body,
                    {
                        "Authorization": f"Bearer {created.tokens.seats[seat]}",
                        "Content-Type": "application/json",
                    },
                )
                for created, script in games
                for seat, body in script.commands
            ]
            profiler = cProfile.Profile(time.process_time) if profiling else None
            before, redis_before = command_counts(client), redis_cpu_s(client)
            sections: AbstractContextManager[Counter[str]] = (
                counted() if args.sections else nullcontext(Counter())
            )
            cpu = time.process_time()
            with sections as spent:
                post_all(app.test_client(), requests, profiler)
            cpu = time.process_time() - cpu
            commands = len(requests)
            redis_cpu = redis_cpu_s(client) - redis_before
            after = command_counts(client)
            per: dict[str, Any] = {
                name: round((after[name] - before.get(name, 0)) / commands, 2)
                for name in sorted(after)
                if after[name] - before.get(name, 0) and name not in ("info",)
            }
            print(
                f"{commands} commands: {1000 * cpu / commands:.3f} ms CPU a command in process, "
                f"Redis {1000 * redis_cpu / commands:.3f} ms"
            )
            print(f"Redis commands a command: {sum(per.values()):.2f} {per}")
            if args.sections:
                print("\n".join(table(spent, commands)))
                print_floor(server.url, requests)
            if profiler is not None:
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.top)
        finally:
            server.stop()
    return 0


def post_all(web: Any, requests: list[Request], profiler: cProfile.Profile | None) -> None:
    """Each command in turn (a `game_busy` refusal asked again), profiled if asked."""
    for url, body, headers in requests:
        if profiler is not None:
            profiler.enable()
        answer = web.post(url, data=body, headers=headers)
        if profiler is not None:
            profiler.disable()
        while answer.status_code == 409:
            answer = web.post(url, data=body, headers=headers)
        assert answer.status_code == 201, answer.get_data(as_text=True)


def print_floor(url: str, requests: list[Request]) -> None:
    """The floor app's CPU for the same requests, by the same sections."""
    os.environ["REDIS_URL"] = url
    from bench.floor_app import app as floor

    web = floor.test_client()
    cpu = time.process_time()
    with counted() as spent:
        for path, body, headers in requests:
            web.post(path, data=body, headers=headers)
    cpu = time.process_time() - cpu
    print(f"the floor app: {1000 * cpu / len(requests):.3f} ms CPU a command in process")
    print("\n".join(table(spent, len(requests))))


if __name__ == "__main__":
    raise SystemExit(main())
