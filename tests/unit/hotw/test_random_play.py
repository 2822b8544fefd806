"""Seeded random play (OpenSpiel style): 500 whole games over 3-6 players, with and without
dice, each checked after every event (pieces conserved, supplies never exceeded, one army or
garrison per land, no army in a wasteland, gold never negative), replayed from its events and
round-tripped through JSON; every bot action is one `legal_actions` listed (the kernel refuses
anything else). 20 chunks of 25 games so that pytest-xdist can spread them.

Every event of every one of these games (1,500 in all) is also checked by the independent
rulings oracle of tests/oracle/rulings.py: invasion outcomes, building reduction, plunder,
revenue and Honors as the rulebook's text decides them, and Event cards that choose Enemy lands
as their words say (every 25 games stop a Liberate IV or V early: "Choose up to two", revision
2).

The Optional rules get the same treatment: 200 games for each on its own and 200 with all four,
over 3-6 players, with and without dice (Option 3 only with dice)."""

from __future__ import annotations

from collections import Counter

import pytest

from cli.selfplay import play_game
from domain.hotw.editions.hotw_2024 import Option
from tests.oracle.rulings import STOPPED_EARLY, RulingsOracle
from tests.support.hotw import PACK, RULES

CHUNKS = 20
GAMES_PER_CHUNK = 25


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_finish_with_every_invariant_kept(chunk):
    failures = []
    checked: Counter[str] = Counter()
    for offset in range(GAMES_PER_CHUNK):
        index = chunk * GAMES_PER_CHUNK + offset
        players = 3 + index % 4
        dice = (index // 4) % 2 == 0
        oracle = RulingsOracle(PACK)
        report = play_game(RULES, players, {"dice": dice}, "suite", index, observer=oracle)
        assert report.completed, report.failures
        assert report.winners
        failures += report.failures
        checked += oracle.checked
    assert failures == []
    assert_the_oracle_looked(checked)
    assert checked[f"{STOPPED_EARLY}: liberate-4"] + checked[f"{STOPPED_EARLY}: liberate-5"] > 0


def assert_the_oracle_looked(checked: Counter[str]) -> None:
    """The oracle saw invasions both ways, reductions, revenue and Honors in these games."""
    for kind in ("InvasionSucceeded", "BuildingReduced", "revenue", "HonorAwarded", "TurnEnded"):
        assert checked[kind] > 10, (kind, checked)


def test_every_players_count_and_dice_setting_is_covered():
    covered = {(3 + i % 4, (i // 4) % 2 == 0) for i in range(CHUNKS * GAMES_PER_CHUNK)}
    assert covered == {(n, d) for n in (3, 4, 5, 6) for d in (True, False)}


OPTION_SETS = {
    **{option.value: (option.value,) for option in Option},
    "all four": tuple(option.value for option in Option),
}
OPTION_GAMES = 200
OPTION_CHUNK = 50


def option_game_settings(name: str, index: int) -> tuple[int, dict[str, bool]]:
    chosen = OPTION_SETS[name]
    dice = Option.INVASION_AND_CONQUEST.value in chosen or (index // 4) % 2 == 0
    return 3 + index % 4, {"dice": dice, **dict.fromkeys(chosen, True)}


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(OPTION_GAMES // OPTION_CHUNK))
@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_random_games_with_the_optional_rules_finish_with_every_invariant_kept(name, chunk):
    failures = []
    checked: Counter[str] = Counter()
    for index in range(chunk * OPTION_CHUNK, (chunk + 1) * OPTION_CHUNK):
        players, options = option_game_settings(name, index)
        oracle = RulingsOracle(PACK)
        report = play_game(RULES, players, options, f"options:{name}", index, observer=oracle)
        assert report.completed, (options, report.failures)
        assert report.winners
        failures += report.failures
        checked += oracle.checked
    assert failures == []
    assert_the_oracle_looked(checked)
    if Option.INVASION_AND_CONQUEST.value in OPTION_SETS[name]:
        assert checked["InvasionRepulsed"] > 10 and checked["LandConquered"] > 0


def test_each_optional_rule_is_played_by_every_players_count_with_and_without_dice():
    for name, chosen in OPTION_SETS.items():
        covered = {
            (players, options["dice"])
            for players, options in (option_game_settings(name, i) for i in range(OPTION_GAMES))
        }
        dice_settings = (True,) if Option.INVASION_AND_CONQUEST.value in chosen else (True, False)
        assert covered == {(n, d) for n in (3, 4, 5, 6) for d in dice_settings}
