"""`chronicle oracle`: the independent rulings oracles (tests/oracle/) against random games.

    chronicle oracle --ruleset hotw-ah2001 --games 1000 [--start 0] [--json]

Game i of ruleset R is explored as the conformance kit explores it (every player count, every
option set, every other game choosing a command type first) from the chance seed
SHA-256("oracle:R:i") (tests/oracle/explore.py), so a disagreement names a game that can be
played again alone. Every event is shown to the ruleset's oracle, written from the rulebook's
text. The summary counts the games, events and rulings checked, the departures the lead is
fixing under issue 32 (each oracle's `AWAITING_LEAD_FIX`, by tag, with the first example) and
any other disagreement (a finding). The exit code is 1 when there is a finding.

The oracles live with the tests, so the command runs from a source checkout (the repository's
root is put on the import path)."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

RULESETS = {
    "hotw-ah2001": "tests.oracle.ah2001",
    "brief-2009": "tests.oracle.brief",
    "patchistory": "tests.oracle.patchistory",
}


def _import_oracles() -> None:
    root = Path(__file__).resolve().parent.parent
    if not (root / "tests" / "oracle").is_dir():
        raise SystemExit("chronicle oracle: run it from a source checkout (tests/oracle/)")
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))


def summary(name: str, games: int, start: int) -> dict[str, Any]:
    _import_oracles()
    from tests.oracle.explore import run_oracle, tag_of

    awaiting = importlib.import_module(RULESETS[name]).AWAITING_LEAD_FIX
    run = run_oracle(name, range(start, start + games))
    departures: dict[str, list[str]] = {}
    findings: list[str] = []
    for problem in run.problems:
        tag = tag_of(problem)
        if tag is not None and tag in awaiting:
            departures.setdefault(tag, []).append(problem)
        else:
            findings.append(problem)
    return {
        "ruleset": name,
        "games": run.games,
        "first_game": start,
        "events": run.events,
        "seconds": round(run.seconds, 1),
        "checked": dict(sorted(run.checked.items())),
        "configurations": len(run.configurations),
        "departures_awaiting_fix": {
            tag: {
                "count": len(found),
                "games": len({p.split(" (")[0] for p in found}),
                "first": found[0],
            }
            for tag, found in sorted(departures.items())
        },
        "awaited_but_not_seen": sorted(set(awaiting) - set(departures)),
        "findings": len(findings),
        "first_findings": findings[:20],
    }


def run(args: argparse.Namespace) -> int:
    names = list(RULESETS) if args.ruleset == "all" else [args.ruleset]
    code = 0
    for name in names:
        result = summary(name, args.games, args.start)
        code |= 1 if result["findings"] else 0
        if args.json:
            print(json.dumps(result))
            continue
        print(
            f"{name}: {result['games']} games (from {result['first_game']}, "
            f"{result['configurations']} configurations), {result['events']} events, "
            f"{result['seconds']} s"
        )
        checked: Counter[str] = Counter(result["checked"])
        print("  rulings checked: " + ", ".join(f"{k} {v}" for k, v in checked.most_common()))
        for tag, seen in result["departures_awaiting_fix"].items():
            print(f"  {tag} (awaiting the lead's fix): {seen['count']} in {seen['games']} games")
            print(f"    first: {seen['first']}")
        for tag in result["awaited_but_not_seen"]:
            print(f"  {tag} (awaiting the lead's fix): not seen")
        print(f"  findings (other disagreements): {result['findings']}")
        for finding in result["first_findings"]:
            print(f"    {finding}")
    return code


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "oracle", help="check random games against the independent rulings oracles"
    )
    parser.add_argument("--ruleset", choices=[*RULESETS, "all"], default="all")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0, help="the first game's index")
    parser.add_argument("--json", action="store_true", help="one JSON object per ruleset")
    parser.set_defaults(func=run)
