"""`chronicle bench [--json]`: every speed and memory measurement, side by side, on this machine."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("bench", help="measure speed and memory against the targets")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--redis-url", help="use this Redis (default: a fresh embedded one)")
    parser.add_argument("--quick", action="store_true", help="smaller samples (a smoke run)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bench.measure import run as measure

    def say(message: str) -> None:
        print(f"bench: {message}", file=sys.stderr, flush=True)

    results = measure(args.redis_url, quick=args.quick, progress=say)
    if args.json:
        print(json.dumps(results))
        return 0
    for line in report_lines(results):
        print(line)
    return 0


def shown(value: Any) -> str:
    """A measurement as one cell: numbers and text as they are, a breakdown (such as the CPU
    time per command by process) as `name value` pairs."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {shown(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(shown(v) for v in value)
    return str(value)


def report_lines(results: dict[str, Any]) -> list[str]:
    """The human-readable report: each target met or missed, then every other measurement."""
    from bench.measure import TARGETS

    lines = []
    for key, (op, bound) in TARGETS.items():
        mark = "ok  " if results.get("targets", {}).get(key) else "MISS"
        lines.append(f"{mark} {key:32} {shown(results.get(key)):>14} (target {op} {bound})")
    for key, value in results.items():
        if key not in TARGETS and key not in ("targets", "machine"):
            lines.append(f"     {key:32} {shown(value):>14}")
    return lines
