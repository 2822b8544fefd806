"""The Brief History oracle (tests/oracle/brief.py) is a real check: fed a game whose events
were tampered with (a ruling the manual forbids), it names the event. Its agreement with
untampered random games of every player count (two included) is checked in
tests/oracle/test_oracle_agreement.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from service.rulesets import ruleset
from tests.oracle.brief import area_level, reduced
from tests.oracle.tampering import tampered_problems

NAME = "brief-2009"
BOARD = ruleset(NAME).pack.tables.board


def kind(name: str, also: Callable[[Any, Any], bool] = lambda b, e: True) -> Any:
    return lambda before, event: type(event).__name__ == name and also(before, event)


def far_from(land: str) -> str:
    """A land that borders neither `land` nor its neighbours."""
    near = {land, *BOARD.lands[land].neighbours}
    return next(
        other
        for other in sorted(BOARD.lands)
        if other not in near and not (BOARD.lands[other].neighbours & near)
    )


def other_players_colour(before: Any, event: Any) -> int:
    seat = before.colours[event.colour].seat
    return next(c for c, colour in enumerate(before.colours) if colour.seat != seat)


CASES: dict[str, tuple[Callable[[Any, Any], bool], Callable[[Any, Any], Any], str]] = {
    "to defeat the defender takes 1 point in clear land: a failed roll turned to success": (
        kind("InvasionRolled", lambda b, e: not e.success and e.points == 0),
        lambda b, e: replace(e, success=True),
        "should fail",
    ),
    "abandoning invasion resets dial to 0: a new invasion does not start at +1": (
        kind("InvasionRolled", lambda b, e: not e.continued),
        lambda b, e: replace(e, dial=1),
        "dial +1, the text gives +0",
    ),
    "the attacker increases the invasion dial by +1: never by two": (
        kind("InvasionRolled", lambda b, e: e.continued),
        lambda b, e: replace(e, dial=e.dial + 1),
        "the text gives",
    ),
    "defender: 1 die, 2 dice if in fort": (
        kind("InvasionRolled", lambda b, e: len(e.defence) == 1),
        lambda b, e: replace(e, defence=(*e.defence, 1)),
        "the defender rolled 2 dice",
    ),
    "an overrun costs 2 points in mountain or forest, 1 in clear land": (
        kind("LandOverrun"),
        lambda b, e: replace(e, cost=e.cost + 1),
        "the text gives",
    ),
    "an overrun land must be adjacent to the last captured land": (
        kind("LandOverrun"),
        lambda b, e: replace(e, land=far_from(e.land)),
        "does not border",
    ),
    "if both capital or city and monument stand, only the capital or city is reduced": (
        kind("LandReduced", lambda b, e: "monument" in e.buildings and e.reductions),
        lambda b, e: replace(e, buildings=tuple(x for x in e.buildings if x != "monument")),
        "reduced to",
    ),
    "taking control of a land with a city removes the city": (
        kind("LandReduced"),
        lambda b, e: None,
        "not reduced",
    ),
    "barbarian empires earn 1 gold per reduction: not more": (
        kind("LandReduced"),
        lambda b, e: replace(e, gold=e.gold + 1),
        "paid",
    ),
    "place active army on own resigned army: never another player's": (
        kind("Surrendered"),
        lambda b, e: replace(e, from_colour=other_players_colour(b, e)),
        "another player's",
    ),
    "2 gold per capital, 1 per city and monument, and each area by its level": (
        kind("GoldCollected"),
        lambda b, e: replace(e, items=(*e.items, ("extra", 1)), total=e.total + 1),
        "collected",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_oracle_names_a_ruling_the_manual_forbids(case: str) -> None:
    match, change, words = CASES[case]
    found = tampered_problems(NAME, match, change, games=60)
    assert any(words in problem for problem in found), found


def test_presence_dominance_and_mastery_pay_one_two_and_three_times_the_area_value() -> None:
    assert area_level(1, [3]) == 1
    assert area_level(2, [1, 1]) == 2
    assert area_level(2, [2]) == 1  # not more than any other
    assert area_level(3, []) == 3
    assert area_level(3, [1]) == 2  # not sole control


def test_capital_replaced_with_city_city_removed_monument_removed_fort_always_removed() -> None:
    assert reduced(frozenset({"capital", "monument", "fort"}), False) == (
        frozenset({"city", "monument"}),
        1,
    )
    assert reduced(frozenset({"city"}), False) == (frozenset(), 1)
    assert reduced(frozenset({"monument"}), False) == (frozenset(), 1)
    assert reduced(frozenset({"monument"}), True) == (frozenset({"monument"}), 0)  # France
    assert reduced(frozenset({"fort"}), False) == (frozenset(), 0)
