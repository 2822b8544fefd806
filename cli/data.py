"""`chronicle data`: check a ruleset's data pack, or draw its board as SVG.

chronicle data check [RULESET] [--json]
chronicle data map RULESET --svg FILE

Both find the ruleset in the registry (`service.rulesets`): its data pack, the pack's loader and
checker, and its `draw_board` hook (the bare board: the table before anything is placed).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from domain.core.ruleset import Ruleset, Setup

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
    from service.rulesets import check_pack

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
    if summary.get("oceans") is not None:
        lines += [
            f"  board: {summary['lands']} lands, {summary['oceans']} oceans, "
            f"{summary['seas']} seas, {summary['wastelands']} wastelands",
            f"  areas: {summary['areas']} with {summary['area_tokens']} Area tokens; "
            f"{summary['paired_area_tokens']} Paired Area tokens",
        ]
        for epoch, areas in summary["areas_by_epoch"].items():
            lines.append(f"    epoch {epoch}: {', '.join(areas)}")
    if "empire_cards" in summary:
        lines += [
            f"  empire cards per epoch: {_per_epoch(summary['empire_cards'])}",
            f"  event cards per epoch: {_per_epoch(summary['event_cards'])}",
            f"  honors per player: {summary['honors_per_player']}",
            f"  rules catalogue entries: {summary['rules']}",
        ]
    ahead = ("lands", "barren_lands", "resource_lands", "areas", "empires_by_epoch")
    ahead += ("terrain_tiles", "heroes", "wonders", "special_buildings", "capital_tiles")
    ahead += ("building_tiles", "prosperity_cards", "trade_routes", "provenance")
    for key in (*ahead, "greater_events", "lesser_events", "rules"):
        if key in summary and "empire_cards" not in summary and "oceans" not in summary:
            lines.append(f"  {key.replace('_', ' ')}: {summary[key]}")
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
    from domain.core.errors import UnknownRuleset
    from service.rulesets import bind, find

    try:
        cls = find(args.ruleset)
    except UnknownRuleset as exc:
        print(f"chronicle data map: {exc}", file=sys.stderr)
        return 2
    try:
        rules = bind(cls, args.data_root)
    except Exception as exc:  # a bad pack: the loader's words name file, entry and field
        print(exc, file=sys.stderr)
        print("the data pack could not be loaded; nothing drawn", file=sys.stderr)
        return 1
    svg = rules.draw_board(rules.initial_state(bare_setup(rules)), None)
    if svg is None:
        print(f"chronicle data map: {rules.name} draws no board", file=sys.stderr)
        return 1
    args.svg.write_text(svg, encoding="utf-8")
    print(f"wrote {args.svg}")
    return 0


def bare_setup(rules: Ruleset[Any]) -> Setup:
    """A setup of the fewest players with the default options: its initial state is the bare
    table, before anything is placed."""
    players = tuple(f"player-{n + 1}" for n in range(min(rules.player_counts)))
    return Setup(rules.name, players, rules.check_options({}), "")
