"""`chronicle audit GAME [--json]`: recompute every recorded chance outcome from the seed, from
Redis (`--redis-url`, default $REDIS_URL) or through a running server (`--url`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from service.config import Settings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("audit", help="re-verify every roll and draw of a game")
    parser.add_argument("game_id")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--redis-url", help="Redis holding the game (default: $REDIS_URL)")
    where.add_argument("--url", help="a running Chronicle server: GET /games/{id}/audit")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    report = audit_over_http(args) if args.url else audit_in_redis(args)
    if report is None:
        return 2
    clean = bool(report.get("clean", not report["mismatches"]))
    if args.json:
        print(json.dumps(report))
    else:
        verdict = "clean" if clean else f"{len(report['mismatches'])} MISMATCH(ES)"
        verified = "verified" if report.get("commitment_verified") else "FAILED"
        if report.get("chance") == "scripted":  # a sandbox's what-if: no seed stands behind it
            print(
                f"{args.game_id}: chance SCRIPTED (a sandbox's what-if, not committed): "
                f"{report['outcomes_checked']} outcomes checked against the script: {verdict}"
            )
        else:
            print(
                f"{args.game_id}: {report['outcomes_checked']} outcomes checked, commitment "
                f"{verified}: {verdict}"
            )
        source = "script" if report.get("chance") == "scripted" else "seed"
        for m in report["mismatches"]:
            print(
                f"  version {m['version']} ({m['event_type']}): draw {m['k']} of {m['n']} "
                f"recorded {m['recorded']}, {source} gives {m['expected']}"
            )
    return 0 if clean and not report["mismatches"] else 1


def audit_in_redis(args: argparse.Namespace) -> dict[str, Any] | None:
    url = args.redis_url or Settings.from_env().redis_url
    if not url:
        print("chronicle audit: set REDIS_URL or pass --redis-url (or --url)", file=sys.stderr)
        return None
    from service.audit import SeedNotRevealed, audit_events
    from service.wiring import game_service
    from store.errors import GameNotFound

    service = game_service(url)
    try:
        return audit_events(args.game_id, service.events(args.game_id)).as_dict()
    except GameNotFound:
        print(f"chronicle audit: no game {args.game_id}", file=sys.stderr)
    except SeedNotRevealed as exc:
        print(f"chronicle audit: {exc}", file=sys.stderr)
    return None


def audit_over_http(args: argparse.Namespace) -> dict[str, Any] | None:
    """Once the game is over, its export holds every event in full, private ones included:
    re-verify every draw here, with no token and without trusting the server's report. Before
    that (a seed revealed early by the admin), the server's audit of its own log."""
    import requests

    from cli.http import ApiClient, ApiError
    from service.audit import EventsHidden, SeedNotRevealed, audit_export

    client = ApiClient(args.url)
    try:
        response = client.request("GET", f"/games/{args.game_id}/export")
        if response.status_code != 200:
            report: dict[str, Any] = client.get(f"/games/{args.game_id}/audit")
            return report
        lines = [json.loads(line) for line in response.text.splitlines() if line.strip()]
        try:
            local = audit_export(args.game_id, lines).as_dict()
            local["verified_from"] = "export"
            return local
        except EventsHidden:
            report = client.get(f"/games/{args.game_id}/audit")
            report["verified_from"] = "server"
            return report
    except SeedNotRevealed as exc:
        print(f"chronicle audit: {exc}", file=sys.stderr)
        return None
    except ApiError as exc:
        print(f"chronicle audit: {exc}", file=sys.stderr)
        return None
    except requests.RequestException as exc:
        print(f"chronicle audit: cannot reach {args.url}: {exc}", file=sys.stderr)
        return None
