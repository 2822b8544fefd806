"""`chronicle bench [--json]`: every speed and memory measurement, side by side, on this machine."""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("bench", help="measure speed and memory against the targets")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--redis-url", help="use this Redis (default: a fresh embedded one)")
    parser.add_argument("--quick", action="store_true", help="smaller samples (a smoke run)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bench.measure import TARGETS
    from bench.measure import run as measure

    def say(message: str) -> None:
        print(f"bench: {message}", file=sys.stderr, flush=True)

    results = measure(args.redis_url, quick=args.quick, progress=say)
    if args.json:
        print(json.dumps(results))
        return 0
    for key, (op, bound) in TARGETS.items():
        mark = "ok  " if results["targets"][key] else "MISS"
        print(f"{mark} {key:32} {results[key]:>14} (target {op} {bound})")
    for key, value in results.items():
        if key not in TARGETS and key not in ("targets", "machine"):
            print(f"     {key:32} {value:>14}")
    return 0
