"""The Avalon Hill 2001 oracle (tests/oracle/ah2001.py) is a real check: fed a game whose
events were tampered with (a ruling the rulebook forbids), it names the event; and its rulings
reproduce the rulebook's worked examples. Its agreement with untampered random games of every
option, the simultaneous-empires variant and every player count is checked in
tests/oracle/test_oracle_agreement.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from domain.hotw.editions.ah2001.combat import BattleFought
from domain.hotw.editions.ah2001.event_cards import CoinSpent, EventCardPlayed
from domain.hotw.editions.ah2001.model import Ah2001State, Cell, Player, Stage, Turn
from domain.hotw.editions.ah2001.optional import FleetsReclaimed
from service.rulesets import ruleset
from tests.oracle.ah2001 import (
    ATTACKER_LOST,
    BOTH_LOST,
    DEFENDER_LOST,
    FORT_AND_ATTACKER_LOST,
    Ah2001Oracle,
    level,
    round_result,
    sacked,
)
from tests.oracle.tampering import tampered_problems

NAME = "hotw-ah2001"
TABLES = ruleset(NAME).pack.tables


def battle(result: str | None = None, **more: Any) -> Callable[[Any, Any], bool]:
    def match(before: Any, event: Any) -> bool:
        if type(event).__name__ != "BattleFought" or not event.attack_dice:
            return False
        if result is not None and event.result != result:
            return False
        return all(predicate(before, event) for predicate in more.values())

    return match


def kind(name: str) -> Callable[[Any, Any], bool]:
    return lambda before, event: type(event).__name__ == name


def clear_land(before: Any, event: Any) -> bool:
    return event.via == "land" and len(event.defence_dice) == 1


def in_fort(before: Any, event: Any) -> bool:
    return "fort" in before.land(event.land).buildings


def scored_points(before: Any, event: Any) -> Any:
    points = dict(event.points)
    key = next(iter(points), "buildings")
    points[key] = points.get(key, 0) + 1
    return replace(event, points=points, total=event.total + 1)


CASES: dict[str, tuple[Callable[[Any, Any], bool], Callable[[Any, Any], Any], str]] = {
    "the higher number wins: a defender's win given to the attacker": (
        battle(ATTACKER_LOST),
        lambda b, e: replace(e, result=DEFENDER_LOST),
        f"the text gives {ATTACKER_LOST}",
    ),
    "in the case of a tie both armies are removed: not the attacker's alone": (
        battle(BOTH_LOST),
        lambda b, e: replace(e, result=ATTACKER_LOST),
        f"the text gives {BOTH_LOST}",
    ),
    "the defender rolls one die: not two over clear terrain": (
        battle(clear=clear_land),
        lambda b, e: replace(e, defence_dice=(*e.defence_dice, 1)),
        "the text gives 1",
    ),
    "the attacker rolls two dice: not three without a Leader or a Jihad": (
        battle(plain=lambda b, e: len(e.attack_dice) == 2),
        lambda b, e: replace(e, attack_dice=(*e.attack_dice, 1)),
        "the attacker rolled 3 dice",
    ),
    "a defender in a fort adds one to the die roll he keeps": (
        battle(fort=in_fort),
        lambda b, e: replace(e, defence=e.defence - 1),
        "scores",
    ),
    "the capital is turned over and becomes a city: not kept": (
        lambda b, e: type(e).__name__ == "LandSacked" and "city" in e.buildings,
        lambda b, e: replace(e, buildings=tuple(sorted({*e.buildings, "capital"} - {"city"}))),
        "sacked to",
    ),
    "whenever your army takes over a land containing a city the city is sacked": (
        kind("LandSacked"),
        lambda b, e: None,
        "not sacked",
    ),
    "you score for all your pieces on the board: not a point more": (
        kind("TurnScored"),
        scored_points,
        "the text gives",
    ),
    "variant rule 9: upon terminating, the player counts the points the rules give": (
        lambda b, e: type(e).__name__ == "EmpireTerminated" and e.card is None and e.total > 0,
        scored_points,
        "the text gives",
    ),
    "the player with the most victory points takes the pre-eminence marker": (
        kind("PreEminenceTaken"),
        lambda b, e: replace(e, seat=(e.seat + 1) % len(b.players)),
        "the pre-eminent player is",
    ),
    "after epoch vii the player with the most victory points wins": (
        lambda b, e: type(e).__name__ == "GameEnded" and len(e.ranking) > 1,
        lambda b, e: replace(e, ranking=(e.ranking[1], e.ranking[0], *e.ranking[2:])),
        "winners",
    ),
    "fleet combat is handled normally: the attacker's higher die wins at sea": (
        lambda b, e: type(e).__name__ == "NavalBattleFought" and e.result == DEFENDER_LOST,
        lambda b, e: replace(e, result=ATTACKER_LOST),
        "at sea, the text gives",
    ),
    "naval control: the active empire decides which fleets to take within this epoch": (
        kind("FleetReclaimed"),
        lambda b, e: FleetsReclaimed(rule=e.rule, waters=(e.water,)),
        "within an epoch the Active Empire decides",
    ),
    "migrants: place two armies in any two vacant lands, not one": (
        lambda b, e: type(e).__name__ == "ArmiesLanded" and len(e.lands) == 2,
        lambda b, e: replace(e, lands=e.lands[:1]),
        "Migrants placed 1 armies",
    ),
    "the first round of an attack costs a pool army, a later one none": (
        battle(continuing=lambda b, e: not e.first_round),
        lambda b, e: replace(e, first_round=True),
        "continues an attack",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_oracle_names_a_ruling_the_rulebook_forbids(case: str) -> None:
    match, change, words = CASES[case]
    found = tampered_problems(NAME, match, change)
    assert any(words in problem for problem in found), found


def position(held: dict[str, int], lands: tuple[str, ...], **turn: Any) -> Ah2001State:
    return Ah2001State(
        epoch=5,
        stage=Stage.TURNS,
        players=(Player("a"), Player("b")),
        lands={land: Cell(owner=owner) for land, owner in held.items()},
        turn=Turn(seat=0, empire="test", lands=lands, **turn),
    )


def defence_dice(held: dict[str, int], source: str, land: str, **turn: Any) -> int:
    oracle = Ah2001Oracle(TABLES)
    attack = SimpleNamespace(via="land", land=land, seat=0)
    dice, _ = oracle._defence_dice(position(held, (source,), **turn), attack)
    return dice


def test_the_guptas_four_battles_roll_one_two_two_and_one_defending_dice() -> None:
    held = {"eastern-deccan": 0, "eastern-ghats": 0, "ceylon": 1, "western-ghats": 1}
    assert defence_dice({**held, "eastern-ghats": 1}, "eastern-deccan", "eastern-ghats") == 1
    assert defence_dice(held, "eastern-ghats", "ceylon") == 2  # a strait
    assert defence_dice(held, "eastern-ghats", "western-ghats") == 2  # mountains
    assert defence_dice({**held, "ganges-delta": 1}, "eastern-deccan", "ganges-delta") == 1


def test_if_the_difficult_terrain_is_on_the_attackers_land_there_is_no_defender_bonus() -> None:
    assert defence_dice({"mongolia": 0, "wei-river": 1}, "mongolia", "wei-river") == 2
    assert defence_dice({"wei-river": 0, "mongolia": 1}, "wei-river", "mongolia") == 1


def test_expert_troops_suffer_no_difficult_terrain_penalty_across_straits() -> None:
    held = {"eastern-ghats": 0, "ceylon": 1}
    assert defence_dice(held, "eastern-ghats", "ceylon", expert=frozenset({"strait"})) == 1


def test_the_mongols_at_the_great_wall_lose_then_tie_with_the_fort_then_win() -> None:
    assert round_result(6, 6 + 1, True, False, False) == ATTACKER_LOST
    assert round_result(5, 4 + 1, True, False, False) == FORT_AND_ATTACKER_LOST
    assert round_result(6, 5, False, False, False) == DEFENDER_LOST
    assert sacked(frozenset({"capital"})) == frozenset({"city"})


def test_the_purple_players_areas_score_dominance_presence_and_control() -> None:
    assert 2 * level(2, [1]) == 4  # North Africa: dominance doubles the base 2
    assert 3 * level(2, [3]) == 3  # Middle East: two against three is presence
    assert 2 * level(4, []) == 6  # India: control triples the base 2


def test_armies_bought_with_the_allies_coins_may_not_be_used_to_attack() -> None:
    """Allies: "any armies bought with the coins may only be used to expand into unoccupied
    Lands. These armies may not be used to attack": the oracle counts the army a coin of
    Allies returned to the pool, and names an attack made with it."""
    oracle = Ah2001Oracle(TABLES)
    before = position({"southern-apennines": 0, "northern-apennines": 1}, ("southern-apennines",))
    played = EventCardPlayed(rule="ah2001.events.allies", seat=0, card="allies", coins=2)
    assert oracle.observe(before, played, before) == []
    saved = CoinSpent(rule="ah2001.events.coins.save-army", seat=0, for_fort=False)
    assert oracle.observe(before, saved, before) == []
    one_left = replace(before, turn=replace(before.turn, pool=1))
    attack = BattleFought(
        rule="ah2001.combat.when",
        seat=0,
        land="northern-apennines",
        defender=1,
        via="land",
        attack_dice=(6, 2),
        defence_dice=(1,),
        attack=6,
        defence=1,
        result=DEFENDER_LOST,
    )
    found = oracle.observe(one_left, attack, one_left)
    assert any("bought with Allies' coins" in problem for problem in found), found
