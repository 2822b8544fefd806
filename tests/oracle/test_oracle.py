"""The rulings oracle is a real check: fed a game whose events were tampered with (a ruling the
rulebook forbids), it names the event. The untampered games it agrees with are checked in
tests/unit/hotw/test_random_play.py (1,500 random games)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from bench.measure import recorded_game
from domain.core.kernel import fold
from domain.hotw.editions.hotw_2024.events import (
    BuildingReduced,
    BuildingsPlundered,
    GoldCollected,
    HonorAwarded,
    InvasionFrustrated,
    InvasionSucceeded,
)
from tests.oracle.rulings import STOPPED_EARLY, RulingsOracle, land_gold, reduction
from tests.support.hotw import PACK, RULES

Steps = list[tuple[Any, Any, Any]]


@cache
def played(seed: int) -> tuple[tuple[Any, Any, Any], ...]:
    """(state before, event, state after) for every event of a random 4-player game."""
    log = recorded_game(RULES, 4, seed)
    steps = []
    game = None
    for recorded in log:
        before = game.state if game is not None else None
        game = fold(RULES, game, recorded)
        steps.append((before, recorded.event, game.state))
    return tuple(steps)


def problems(steps: Steps) -> list[str]:
    oracle = RulingsOracle(PACK)
    found = []
    for before, event, after in steps:
        if before is not None:
            found += oracle.observe(before, event, after)
    return found + oracle.finish()


def tampered(match: Callable[[Any], bool], change: Callable[[Any], Any]) -> tuple[Steps, str]:
    """A game with the first event that `match`es replaced by `change(event)`."""
    for seed in range(40):
        steps = list(played(seed))
        for index, (before, event, after) in enumerate(steps):
            if before is not None and match(event):
                steps[index] = (before, change(event), after)
                return steps, type(event).__name__
    raise AssertionError("no game had such an event")


def test_the_untampered_games_agree_with_the_oracle() -> None:
    for seed in range(3):
        assert problems(list(played(seed))) == []


def flip_to_a_certain_loss(event: Any) -> Any:
    return replace(event, empire_dice=(1, 1), enemy_dice=(6,) * len(event.enemy_dice))


CASES: dict[str, tuple[Callable[[Any], bool], Callable[[Any], Any], str]] = {
    "a success the dice deny": (
        lambda e: isinstance(e, InvasionSucceeded) and bool(e.empire_dice),
        flip_to_a_certain_loss,
        "should be frustrated",
    ),
    "a frustration the dice deny": (
        lambda e: isinstance(e, InvasionFrustrated) and bool(e.empire_dice),
        lambda e: replace(e, empire_dice=(6, 6), enemy_dice=(1,) * len(e.enemy_dice)),
        "should succeed",
    ),
    "a die too few for the Enemy": (
        lambda e: isinstance(e, InvasionSucceeded) and bool(e.enemy_dice),
        lambda e: replace(e, enemy_dice=(*e.enemy_dice, 1)),
        "the rulebook gives",
    ),
    "revenue one gold too much": (
        lambda e: isinstance(e, GoldCollected) and e.reason.startswith("lands:"),
        lambda e: replace(e, amount=e.amount + 1),
        "revenue",
    ),
    "a reduction that takes two steps": (
        lambda e: isinstance(e, BuildingReduced) and "capital" in e.removed,
        lambda e: replace(e, removed=(*e.removed, "monument"), city_added=False),
        "reduced to",
    ),
    "the frustrating Enemy's Honor given to another seat": (
        lambda e: isinstance(e, HonorAwarded) and e.rule == "hotw24.honors.award.frustrated",
        lambda e: replace(e, seat=(e.seat + 1) % 4),
        "went to seat",
    ),
    "plunder worth a gold more": (
        lambda e: isinstance(e, BuildingsPlundered),
        lambda e: replace(e, gold=e.gold + 1),
        "plunders",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_oracle_names_a_ruling_the_rulebook_forbids(case: str) -> None:
    match, change, words = CASES[case]
    steps, _ = tampered(match, change)
    found = problems(steps)
    assert found, f"the oracle missed {case}"
    assert any(words in problem for problem in found), found


def test_a_missing_building_reduction_is_noticed() -> None:
    for seed in range(40):
        steps = list(played(seed))
        reductions = [i for i, (_, e, _) in enumerate(steps) if isinstance(e, BuildingReduced)]
        if reductions:
            del steps[reductions[0]]
            assert any("no building reduction" in p for p in problems(steps))
            return
    raise AssertionError("no game had a building reduction")


def test_the_levels_of_control_pay_as_play_examples_six_to_eight_say() -> None:
    assert land_gold(1, 0, [0, 0]) == 2  # example 6: presence
    assert land_gold(2, 0, [1, 1]) == 4  # example 7: dominance
    assert land_gold(3, 0, [0, 0]) == 6  # example 8: mastery
    assert land_gold(2, 2, [0]) == 2  # no more Empire lands than Friendly ones: presence only


def test_building_reduction_takes_the_fort_and_one_step() -> None:
    assert reduction({"fort", "capital", "monument"}, True) == ({"fort", "capital"}, True)
    assert reduction({"capital", "city"}, True) == ({"capital"}, False)
    assert reduction({"monument"}, True) == ({"monument"}, False)


def liberated_after_one_land(pack: Any) -> list[str]:
    """Red reveals Liberate IV with two Blue garrisons next to its Friendly Tigris, chooses
    Euphrates and stops: what the oracle reading `pack` finds in those events."""
    from domain.core.messages import Command
    from tests.unit.hotw.test_liberate_up_to_two import liberating, play

    state = liberating(RULES, "liberate-4")
    oracle = RulingsOracle(pack)
    found: list[str] = []
    for command in (Command.of("choose_land", land="euphrates"), Command.of("stop_choosing")):
        events, _ = play(RULES, state, command)
        for event in events:
            after = RULES.evolve(state, event)
            found += oracle.observe(state, event, after)
            state = after
    return [*found, f"checked {oracle.checked[STOPPED_EARLY]}"]


def test_choose_up_to_two_lets_the_player_stop_after_one_land_as_the_oracle_reads_it() -> None:
    assert liberated_after_one_land(PACK) == ["checked 1"]


def test_the_oracle_names_a_stop_where_the_words_say_choose_two() -> None:
    """The words decide: a Liberate IV printed "Choose two Enemy lands" may not stop at one."""
    card = PACK.cards.event("liberate-4")
    exact = replace(card, text=card.text.replace("Choose up to two", "Choose two"))
    by_epoch = {
        epoch: tuple(exact if c.id == card.id else c for c in cards)
        for epoch, cards in PACK.cards.events_by_epoch.items()
    }
    pack = replace(PACK, cards=replace(PACK.cards, events_by_epoch=by_epoch))
    found = liberated_after_one_land(pack)
    assert any("reads 'Choose two Enemy lands next to your Friendly lands'" in p for p in found)
    assert any("['zagros'] left" in p for p in found), found
