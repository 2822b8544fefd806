"""Every event of random games of the Avalon Hill 2001 edition (its options and the
simultaneous-empires variant), A Brief History of the World and Patchistory, at every player
count, is checked by that ruleset's independent oracle (tests/oracle/ah2001.py, brief.py,
patchistory.py), the games explored as the conformance kit explores them (tests/oracle/
explore.py: odd games choose a command type first, so wars, negotiations, Minor Empires and
Treachery are played).

Nothing is skipped. Where today's engine departs from the text on a ruling the lead is fixing
under issue 32, the oracle tags the disagreement `[issue32.N]` and its module lists the tag in
`AWAITING_LEAD_FIX`: those departures are expected here by name, and any other disagreement
fails the test. Once a fix is merged, its tag is removed from the list, and this test then
fails if the departure is still there.

The suite plays a few games of every configuration; `chronicle oracle --ruleset NAME --games
1000` plays the issue's thousand per ruleset (cli/oracle.py)."""

from __future__ import annotations

import importlib

import pytest

from tests.oracle.explore import run_oracle, tag_of
from tests.support import conformance as kit

GAMES = {"hotw-ah2001": 112, "brief-2009": 40, "patchistory": 12}
"""Enough for every (player count, option set) pair of each ruleset (checked below)."""
LOOKED_AT = {
    "hotw-ah2001": (
        "BattleFought",
        "RevoltFought",
        "LandSacked",
        "TurnScored",
        "EmpireTerminated",
        "PreEminenceTaken",
        "NavalBattleFought",
        "GameEnded",
    ),
    "brief-2009": (
        "InvasionRolled",
        "InvasionAbandoned",
        "LandOverrun",
        "OverrunEnded",
        "Surrendered",
        "LandReduced",
        "GoldCollected",
    ),
    "patchistory": (
        "BidPlaced",
        "BidsRevealed",
        "TileWon",
        "ProsperityScored",
        "ProsperityDiscarded",
        "GoodsProduced",
        "Maintained",
        "a Worker stopped on an occupied square",
    ),
}
MODULES = {
    "hotw-ah2001": "tests.oracle.ah2001",
    "brief-2009": "tests.oracle.brief",
    "patchistory": "tests.oracle.patchistory",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_event_of_random_games_agrees_with_the_rule_text(name: str) -> None:
    awaiting = importlib.import_module(MODULES[name]).AWAITING_LEAD_FIX
    run = run_oracle(name, range(GAMES[name]))
    findings = [p for p in run.problems if tag_of(p) not in awaiting]
    assert findings == [], "\n".join(findings[:20])
    for kind in LOOKED_AT[name]:
        assert run.checked[kind] > 0, (kind, dict(run.checked))
    assert run.games == GAMES[name]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_player_count_meets_every_option_set(name: str) -> None:
    rules = kit.subject(name).rules
    played = {
        (count, repr(sorted(options.items())))
        for count, options in (kit.configuration(rules, i) for i in range(GAMES[name]))
    }
    every = {
        (count, repr(sorted(options.items())))
        for count, options in (kit.configuration(rules, i) for i in range(1000))
    }
    assert played == every
    if name == "hotw-ah2001":
        variant = {count for count, options in played if "simultaneous_empires" in options}
        assert variant == {3, 4, 5, 6}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_an_oracle_imports_nothing_of_the_engine_it_checks(name: str) -> None:
    """Written from the rule text: no module of `domain/` (nor the service or the packs) is
    imported; it reads the states and events it is shown and the pack's printed tables."""
    import ast
    from pathlib import Path

    path = Path(importlib.import_module(MODULES[name]).__file__ or "")
    imported: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    assert not {m for m in imported if m.split(".")[0] in {"domain", "service", "packs"}}
