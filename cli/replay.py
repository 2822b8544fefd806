"""`chronicle replay GAME --verify` / `--export FILE`: fold a stored game from event 1, from
Redis (`--redis-url`, default $REDIS_URL) or through a running server (`--url` with `--token`,
a seat or admin token of the game: the server's worker runs the replay job)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from service.config import Settings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("replay", help="verify a stored game or export its replay")
    parser.add_argument("game_id")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--verify", action="store_true", help="fold from event 1, check snapshots")
    action.add_argument("--export", metavar="FILE", help="write a self-contained HTML replay")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--redis-url", help="Redis holding the game (default: $REDIS_URL)")
    where.add_argument("--url", help="a running Chronicle server: POST /games/{id}/replays")
    parser.add_argument("--token", help="with --url: a seat or admin token of the game")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def progress_bar(total_hint: int | None, quiet: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total_hint, unit="event", disable=quiet, file=sys.stderr, leave=False)


def run(args: argparse.Namespace) -> int:
    if args.url:
        return run_over_http(args)
    url = args.redis_url or Settings.from_env().redis_url
    if not url:
        print("chronicle replay: set REDIS_URL or pass --redis-url (or --url)", file=sys.stderr)
        return 2
    from service.replays import verify_game
    from service.wiring import game_service
    from store.errors import GameNotFound

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
        print_export(args, path)
        return 0
    report = verify_game(service, args.game_id, progress=advance)
    bar.close()
    return print_verify(args, report.as_dict())


def print_export(args: argparse.Namespace, path: Path) -> None:
    print(
        json.dumps({"game_id": args.game_id, "file": str(path)}) if args.json else f"wrote {path}"
    )


def print_verify(args: argparse.Namespace, report: dict[str, Any]) -> int:
    if args.json:
        print(json.dumps(report))
    elif report["ok"]:
        print(
            f"{args.game_id}: {report['events']} events folded under {report.get('ruleset')} "
            f"revision {report.get('revision')}, {report['snapshots_checked']} snapshot(s) "
            f"agree, state hash {report['final_hash']}"
        )
    else:
        first = report["first_divergence"]
        print(
            f"{args.game_id}: DIVERGENCE at version {first['version']}: snapshot "
            f"{first['snapshot_hash']} but replay {first['replay_hash']}"
        )
    return 0 if report["ok"] else 1


def run_over_http(args: argparse.Namespace) -> int:
    """Post a replay job, poll it until the worker has run it, then report (verify) or
    download the page (export)."""
    import requests

    from cli.http import ApiClient, ApiError

    if not args.token:
        print("chronicle replay: --url needs --token (a seat or admin token)", file=sys.stderr)
        return 2
    api = ApiClient(args.url)
    kind = "export" if args.export else "verify"
    try:
        job = api.post(f"/games/{args.game_id}/replays", {"kind": kind}, args.token)
        job = api.poll_job(job["status_url"])
        if job["status"] != "finished":
            error = job.get("error") or job["status"]
            print(f"chronicle replay: the {kind} job did not finish: {error}", file=sys.stderr)
            return 2
        if kind == "verify":
            return print_verify(args, job["result"])
        page = api.text(job["result"]["html_url"])
    except ApiError as exc:
        print(f"chronicle replay: {exc}", file=sys.stderr)
        return 2
    except (requests.RequestException, TimeoutError) as exc:
        print(f"chronicle replay: {args.url}: {exc}", file=sys.stderr)
        return 2
    path = Path(args.export)
    path.write_text(page, encoding="utf-8")
    print_export(args, path)
    return 0
