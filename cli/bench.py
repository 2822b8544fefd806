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
    parser.add_argument(
        "--ruleset",
        default="hotw-2024",
        metavar="NAME",
        help="the registered ruleset whose games are played and folded (default hotw-2024), "
        "or `all`: every registered ruleset one after another, judged target by target",
    )
    parser.add_argument(
        "--only",
        choices=("scale", "streams", "client"),
        help="one measurement alone: scale (listing and the sweep, 1,000 vs 100,000 games), "
        "streams (command p50 with 1,000 idle event streams open against none) or client (the "
        "Python client generated from the document: its lines, import time, and the time to "
        "parse 500 events of each ruleset; needs the test extras)",
    )
    parser.add_argument(
        "--spec",
        metavar="PATH",
        help="with --only client: the OpenAPI document to generate from (default openapi.yaml)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bench.measure import run as measure
    from service.rulesets import available

    if args.ruleset != "all" and args.ruleset not in available():
        print(
            f"chronicle bench: no ruleset {args.ruleset!r}; registered: {', '.join(available())}",
            file=sys.stderr,
        )
        return 2

    def say(message: str) -> None:
        print(f"bench: {message}", file=sys.stderr, flush=True)

    if args.only == "scale":
        from bench.scale import run as measure_scale

        results = measure_scale(quick=args.quick, progress=say)
    elif args.only == "streams":
        from bench.streams import run as measure_streams

        results = measure_streams(quick=args.quick, progress=say)
    elif args.only == "client":
        from pathlib import Path

        from bench.generated_client import DEFAULT_SPEC
        from bench.generated_client import run as measure_client

        spec = Path(args.spec) if args.spec else DEFAULT_SPEC
        results = measure_client(quick=args.quick, progress=say, spec=spec)
    elif args.ruleset == "all":
        from bench.measure import run_all

        results = run_all(sorted(available()), args.redis_url, quick=args.quick, progress=say)
    else:
        results = measure(args.redis_url, quick=args.quick, progress=say, ruleset_name=args.ruleset)
    if args.json:
        print(json.dumps(results))
        return 0
    if "rulesets" in results:
        for one_ruleset in results["rulesets"].values():
            print("\n".join(report_lines(one_ruleset)))
        print("every target met on every ruleset" if results["all_met"] else "some target MISSED")
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
    """The human-readable report: one line per target (met or missed, with its ratio), then
    every measurement."""
    lines = [f"ruleset {results.get('ruleset')}", *results.get("target_lines", ()), ""]
    for key, value in results.items():
        if key not in ("targets", "target_lines", "machine", "ruleset"):
            lines.append(f"  {key:36} {shown(value):>14}")
    return lines
