"""`chronicle audit GAME [--json]`: recompute every recorded chance outcome from the seed."""

from __future__ import annotations

import argparse
import json
import sys

from service.config import Settings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("audit", help="re-verify every roll and draw of a game")
    parser.add_argument("game_id")
    parser.add_argument("--redis-url", help="Redis holding the game (default: $REDIS_URL)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    url = args.redis_url or Settings.from_env().redis_url
    if not url:
        print("chronicle audit: set REDIS_URL or pass --redis-url", file=sys.stderr)
        return 2
    from service.audit import SeedNotRevealed, audit_events
    from service.wiring import game_service
    from store.redis_store import GameNotFound

    service = game_service(url)
    try:
        report = audit_events(args.game_id, service.events(args.game_id))
    except GameNotFound:
        print(f"chronicle audit: no game {args.game_id}", file=sys.stderr)
        return 2
    except SeedNotRevealed as exc:
        print(f"chronicle audit: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        verdict = "clean" if report.clean else f"{len(report.mismatches)} MISMATCH(ES)"
        print(
            f"{args.game_id}: {report.outcomes_checked} outcomes checked, commitment "
            f"{'verified' if report.commitment_verified else 'FAILED'}: {verdict}"
        )
        for m in report.mismatches:
            print(
                f"  version {m.version} ({m.event_type}): draw {m.k} of {m.n} "
                f"recorded {m.recorded}, seed gives {m.expected}"
            )
    return 0 if report.clean else 1
