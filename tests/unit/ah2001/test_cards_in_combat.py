"""The Avalon Hill 2001 Event cards that change the Active Empire's combats (Chapter IV and the
card texts), played through the rules with the Guptas of Epoch IV from Eastern Deccan: each
battle's dice and result, and the clause its event cites."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.core.messages import Command
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.context import card as ah2001_card
from domain.hotw.editions.ah2001.model import Cell
from tests.unit.ah2001.test_engine import RULES, act, before_expansion, of

ENEMIES = {
    "eastern-ghats": Cell(1, 3),
    "ganges-valley": Cell(1, 3),
    "western-deccan": Cell(1, 3),
    "western-ghats": Cell(1, 3),  # mountains
}


def guptas_with(*cards: str, **enemies: Cell) -> Any:
    """The Guptas have played `cards` and placed their start in Eastern Deccan."""
    state = before_expansion("guptas", 4, cards)
    state = replace(state, lands={**ENEMIES, **enemies})
    for card in cards:
        events, state = act(state, Command.of("play_event", card=card))
        (played,) = of(events, ev.EventCardPlayed)
        assert played.rule == f"ah2001.events.{ah2001_card(RULES.tables, card).kind}"
    _, state = act(state, Command.of("begin_expansion"))
    assert state.land("eastern-deccan").owner == 0
    return state


def attack(state: Any, land: str, dice: list[int], via: str = "land") -> tuple[Any, Any]:
    events, state = act(state, Command.of("place_army", land=land, via=via), dice=dice)
    (battle,) = of(events, ev.BattleFought)
    return battle, state


def test_weaponry_adds_one_to_the_active_empires_roll() -> None:
    state = guptas_with("weaponry")
    battle, _ = attack(state, "eastern-ghats", [4, 2, 5])
    assert (battle.attack, battle.defence, battle.result) == (5, 5, "both_lost")
    assert "ah2001.events.weaponry" in battle.cites


def test_siegecraft_adds_one_once_against_a_fort_and_takes_fort_and_army_together() -> None:
    walled = Cell(1, 3, frozenset({"fort", "capital"}))
    state = guptas_with("siegecraft", **{"eastern-ghats": walled})
    battle, state = attack(state, "eastern-ghats", [5, 2, 4])
    assert (battle.attack, battle.defence) == (6, 5)  # +1 once, fort and capital alike
    assert battle.result == "fort_and_defender_lost"
    assert {"ah2001.events.siegecraft", "ah2001.combat.fort"} <= set(battle.cites)
    assert state.land("eastern-ghats") == Cell(0, 4, frozenset({"city"}))
    open_land, _ = attack(state, "ganges-valley", [5, 2, 4])
    assert open_land.attack == 5 and "ah2001.events.siegecraft" not in open_land.cites


def test_elite_troops_win_every_tie_until_an_army_is_lost() -> None:
    state = guptas_with("elite-troops")
    won, state = attack(state, "eastern-ghats", [3, 5, 5])
    assert (won.attack, won.defence, won.result) == (5, 5, "defender_lost")
    assert "ah2001.events.elite-troops" in won.cites
    lost, state = attack(state, "ganges-valley", [1, 2, 6])
    assert lost.result == "attacker_lost"
    tie, _ = attack(state, "ganges-valley", [4, 4, 4])
    assert tie.result == "both_lost" and "ah2001.events.elite-troops" not in tie.cites


def test_a_jihad_attacks_with_three_dice_until_its_first_loss_and_wins_ties_until_its_second() -> (
    None
):
    state = guptas_with("jihad")
    first, state = attack(state, "eastern-ghats", [2, 3, 1, 3])
    assert (first.attack_dice, first.defence_dice, first.result) == (
        (2, 3, 1),
        (3,),
        "defender_lost",
    )
    assert {"ah2001.events.jihad", "ah2001.combat.attacker-bonus"} <= set(first.cites)
    lost, state = attack(state, "ganges-valley", [1, 1, 2, 4])
    assert (len(lost.attack_dice), lost.result) == (3, "attacker_lost")
    tie_won, state = attack(state, "ganges-valley", [4, 2, 4])
    assert (tie_won.attack_dice, tie_won.result) == ((4, 2), "defender_lost")
    assert "ah2001.events.jihad" in tie_won.cites
    lost_again, state = attack(state, "western-deccan", [1, 2, 5])
    assert lost_again.result == "attacker_lost"
    tie, _ = attack(state, "western-deccan", [3, 1, 3])
    assert tie.result == "both_lost" and "ah2001.events.jihad" not in tie.cites


def test_expert_troops_take_the_defenders_extra_die_in_their_terrain() -> None:
    state = guptas_with("expert-troops-mountains")
    battle, _ = attack(state, "western-ghats", [5, 1, 4])
    assert (battle.defence_dice, battle.result) == ((4,), "defender_lost")  # one die, not two
    assert "ah2001.events.expert-troops" in battle.cites


def test_naval_power_leaves_the_defender_two_dice_against_a_landing() -> None:
    state = guptas_with("naval-power", **{"ceylon": Cell(1, 3)})
    state = replace(state, turn=replace(state.turn, fleets=("bay-of-bengal",)))
    landing = Command.of("place_army", land="ceylon", via="sea")
    assert landing in RULES.legal_actions(state, 0)
    battle, _ = attack(state, "ceylon", [6, 1, 2, 5], via="sea")
    assert (battle.defence_dice, battle.result) == ((2, 5), "defender_lost")
    assert "ah2001.events.naval-power" in battle.cites


def test_civil_service_gives_a_coin_one_more_with_a_capital_one_more_with_navigation() -> None:
    guptas = before_expansion("guptas", 4, ("civil-service",))  # capital, the Bay of Bengal
    events, state = act(guptas, Command.of("play_event", card="civil-service"))
    (played,) = of(events, ev.EventCardPlayed)
    assert (played.rule, played.coins) == ("ah2001.events.civil-service", 3)
    assert state.turn is not None and state.turn.coins == 3
    huns = before_expansion("huns", 4, ("civil-service",))  # neither
    events, _ = act(huns, Command.of("play_event", card="civil-service"))
    assert of(events, ev.EventCardPlayed)[0].coins == 1


def test_pestilence_rolls_three_dice_in_the_land_and_two_in_each_land_next_to_it() -> None:
    state = before_expansion("guptas", 4, ("pestilence",))
    lands = {"eastern-ghats": Cell(1, 3, frozenset({"fort"})), "ceylon": Cell(2, 3)}
    lands |= {"western-ghats": Cell(2, 3), "ganges-delta": Cell(1, 3)}
    state = replace(state, lands=lands)
    _, state = act(state, Command.of("play_event", card="pestilence"))
    events, state = act(
        state, Command.of("choose_target", target="eastern-ghats"), dice=[2, 1, 6, 3, 4, 5, 1]
    )
    (struck,) = of(events, ev.ArmiesStruck)
    assert struck.rule == "ah2001.events.pestilence"
    assert struck.lands == ("ceylon", "eastern-ghats", "western-ghats")  # ganges-delta: no border
    assert struck.rolls == ((2, 1), (6, 3, 4), (5, 1))
    assert struck.destroyed == ("ceylon", "western-ghats")
    assert state.land("eastern-ghats") == Cell(1, 3, frozenset({"fort"}))
    assert "ceylon" not in state.lands


def test_the_black_death_strikes_every_army_of_two_adjacent_areas() -> None:
    state = before_expansion("ottoman-turks", 6, ("black-death",))
    lands = {"morea": Cell(1, 5, frozenset({"fort"})), "palestine": Cell(2, 5)}
    lands |= {"nile-delta": Cell(1, 5), "balkans": Cell(2, 4)}
    state = replace(state, lands=lands)
    _, state = act(state, Command.of("play_event", card="black-death"))
    _, state = act(state, Command.of("choose_target", target="southern-europe"))
    assert "africa" not in {
        c.arg("target") for c in RULES.legal_actions(state, 0) if c.type == "choose_target"
    }
    events, state = act(state, Command.of("choose_target", target="middle-east"), dice=[3, 1, 1, 6])
    (struck,) = of(events, ev.ArmiesStruck)
    assert struck.rule == "ah2001.events.black-death"
    assert RULES.tables.board.lands["balkans"].area == "southern-europe"
    assert (struck.lands, struck.destroyed) == (
        ("balkans", "morea", "palestine"),
        ("morea", "palestine"),
    )
    assert state.land("nile-delta") == Cell(1, 5)  # North Africa was not named
    assert "morea" not in state.lands  # the army and its fort
