"""`chronicle data`: check a data pack, or draw its board as SVG.

chronicle data check [RULESET] [--json]
chronicle data map RULESET --svg FILE
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

DEFAULT_RULESET = "hotw-2024"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("data", help="check a data pack or draw its board")
    commands = parser.add_subparsers(dest="data_command", metavar="ACTION", required=True)

    check = commands.add_parser("check", help="validate a data pack and summarise it")
    check.add_argument("ruleset", nargs="?", default=DEFAULT_RULESET)
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.add_argument("--data-root", type=Path, default=None, help="folder holding the packs")
    check.set_defaults(func=run_check)

    draw = commands.add_parser("map", help="draw the board of a data pack")
    draw.add_argument("ruleset")
    draw.add_argument("--svg", type=Path, required=True, help="file to write the SVG to")
    draw.add_argument("--data-root", type=Path, default=None, help="folder holding the packs")
    draw.set_defaults(func=run_map)


def run_check(args: argparse.Namespace) -> int:
    from schemas.packs import check_pack

    summary = check_pack(args.ruleset, args.data_root)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(_human_summary(summary))
    return 0 if not summary["errors"] else 1


def _per_epoch(counts: dict[str, int] | None) -> str:
    if counts is None:
        return "not loaded"
    return ", ".join(f"{epoch}: {n}" for epoch, n in counts.items())


def _human_summary(summary: dict[str, Any]) -> str:
    lines = [f"data pack {summary['ruleset']}"]
    if summary["lands"] is not None:
        lines += [
            f"  board: {summary['lands']} lands, {summary['oceans']} oceans, "
            f"{summary['seas']} seas, {summary['wastelands']} wastelands",
            f"  areas: {summary['areas']} with {summary['area_tokens']} Area tokens; "
            f"{summary['paired_area_tokens']} Paired Area tokens",
        ]
        for epoch, areas in summary["areas_by_epoch"].items():
            lines.append(f"    epoch {epoch}: {', '.join(areas)}")
    lines += [
        f"  empire cards per epoch: {_per_epoch(summary['empire_cards'])}",
        f"  event cards per epoch: {_per_epoch(summary['event_cards'])}",
        f"  honors per player: {summary['honors_per_player']}",
        f"  rules catalogue entries: {summary['rules']}",
    ]
    errors = summary["errors"]
    if errors:
        lines.append(f"INVALID: {len(errors)} problem(s)")
        lines += [f"  - {_where(error)}: {error['message']}" for error in errors]
    else:
        lines.append("OK")
    return "\n".join(lines)


def _where(error: dict[str, str]) -> str:
    where = error["file"]
    if error["entry"]:
        where += f": entry '{error['entry']}'"
    if error["field"]:
        where += f", field '{error['field']}'"
    return where


def run_map(args: argparse.Namespace) -> int:
    from schemas.hotw_board import board_problems
    from schemas.pack_base import pack_dir
    from service.board_svg import board_svg

    board, problems = board_problems(pack_dir(args.ruleset, args.data_root))
    for problem in problems:
        print(problem, file=sys.stderr)
    if board is None:
        print("the board could not be built; nothing drawn", file=sys.stderr)
        return 1
    args.svg.write_text(board_svg(board), encoding="utf-8")
    print(f"wrote {args.svg}")
    return 0 if not problems else 1
