"""`chronicle replay GAME --verify` / `--export FILE`: fold a stored game from event 1."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from service.config import Settings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("replay", help="verify a stored game or export its replay")
    parser.add_argument("game_id")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--verify", action="store_true", help="fold from event 1, check snapshots")
    action.add_argument("--export", metavar="FILE", help="write a self-contained HTML replay")
    parser.add_argument("--redis-url", help="Redis holding the game (default: $REDIS_URL)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def progress_bar(total_hint: int | None, quiet: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total_hint, unit="event", disable=quiet, file=sys.stderr, leave=False)


def run(args: argparse.Namespace) -> int:
    url = args.redis_url or Settings.from_env().redis_url
    if not url:
        print("chronicle replay: set REDIS_URL or pass --redis-url", file=sys.stderr)
        return 2
    from service.replays import verify_game
    from service.wiring import game_service
    from store.redis_store import GameNotFound

    service = game_service(url)
    try:
        total = service.store.version(args.game_id)
    except GameNotFound:
        print(f"chronicle replay: no game {args.game_id}", file=sys.stderr)
        return 2
    bar = progress_bar(total, args.quiet)

    def advance(done: int, _total: int) -> None:
        bar.update(done - bar.n)

    if args.export:
        from service.replay_html import export_html

        path = export_html(service, args.game_id, args.export, progress=advance)
        bar.close()
        print(
            json.dumps({"game_id": args.game_id, "file": str(path)})
            if args.json
            else f"wrote {path}"
        )
        return 0
    report = verify_game(service, args.game_id, progress=advance)
    bar.close()
    if args.json:
        print(json.dumps(report.as_dict()))
    elif report.ok:
        print(
            f"{args.game_id}: {report.events} events folded, "
            f"{report.snapshots_checked} snapshot(s) agree, state hash {report.final_hash}"
        )
    else:
        first = report.first_divergence
        assert first is not None
        print(
            f"{args.game_id}: DIVERGENCE at version {first.version}: snapshot "
            f"{first.snapshot_hash} but replay {first.replay_hash}"
        )
    return 0 if report.ok else 1
