"""The Avalon Hill 2001 Event cards that bring armies of their own: Minor Empires, the Crusade,
Civil War, Barbarians, and the Plague's chain; the Minor Empires option; and the Mongols'
play example with its Leader, each with the rulebook's dice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.core.chance import Chance, ScriptedFaces
from domain.core.messages import Command
from domain.core.ruleset import Setup
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.model import Cell
from tests.unit.ah2001.test_engine import RULES, act, before_expansion, of


def targets(state: object) -> set[str]:
    return {
        str(c.arg("target")) for c in RULES.legal_actions(state, 0) if c.type == "choose_target"
    }


def places(state: object) -> set[tuple[str, str]]:
    return {
        (str(c.arg("land")), str(c.arg("via")))
        for c in RULES.legal_actions(state, 0)
        if c.type == "place_army"
    }


@pytest.mark.rulebook_example("ah2001.example.mongols-great-wall")
def test_the_mongols_with_a_leader_lose_to_the_fort_tie_and_take_wei_river_capital_a_city() -> None:
    """ah2001.example.mongols-great-wall, with the example's Leader and every die it rolls."""
    state = before_expansion("mongols", 5, ("leader",))
    state = replace(state, lands={"wei-river": Cell(1, 3, frozenset({"capital", "fort"}))})
    _, state = act(state, Command.of("play_event", card="leader"))
    _, state = act(state, Command.of("begin_expansion"))
    assert state.land("mongolia").owner == 0
    attack = Command.of("place_army", land="wei-river", via="land")
    events, state = act(state, attack, dice=[4, 6, 6, 1, 6])
    (first,) = of(events, ev.BattleFought)
    assert (first.attack_dice, first.defence_dice) == ((4, 6, 6), (1, 6))
    assert (first.attack, first.defence, first.result) == (6, 7, "attacker_lost")
    assert {"ah2001.events.leader", "ah2001.combat.difficult-terrain"} <= set(first.cites)
    assert "ah2001.combat.attacker-bonus" in first.cites  # the Leader's third die
    events, state = act(state, attack, dice=[2, 4, 5, 3, 4])
    (second,) = of(events, ev.BattleFought)
    assert (second.attack, second.defence, second.result) == (5, 5, "fort_and_attacker_lost")
    events, state = act(state, attack, dice=[1, 2, 6, 2, 5])
    (third,) = of(events, ev.BattleFought)
    assert (third.attack, third.defence, third.result) == (6, 5, "defender_lost")
    assert state.land("wei-river") == Cell(0, 5, frozenset({"city"}))


def test_a_minor_empire_plays_its_own_small_empire_before_the_first_army() -> None:
    """ah2001.events.minor-empire: the Mayans (Strength 2, Central America, capital) expand with
    their own figures; the Leader played the same turn does not help them (.unaffected), their
    lands give the Active Empire no monuments, and the Active Empire's turn then goes on."""
    state = before_expansion("romans", 3, ("leader", "mayans"))
    _, state = act(state, Command.of("play_event", card="leader"))
    events, state = act(state, Command.of("play_event", card="mayans"))
    (began,) = of(events, ev.CardEmpireBegan)
    assert (began.armies, began.capital, began.fleets) == (2, True, ())
    assert began.rule == "ah2001.events.minor-empire"
    assert began.cites == ("ah2001.events.minor-empire.unaffected", "ah2001.events.far-epoch")
    assert began.figure == 7  # a far epoch's figure: distinct from the Romans'
    assert state.land("central-america") == Cell(0, 7, frozenset({"capital"}))
    assert state.turn is not None and state.turn.card == "mayans"
    assert not state.turn.leader  # the Leader was played for the Active Empire only
    assert places(state) == {
        ("appalachia", "land"),
        ("mexican-valley", "land"),
        ("northern-andes", "land"),
    }
    assert not [c for c in RULES.legal_actions(state, 0) if c.type == "play_event"]
    events, state = act(state, Command.of("place_army", land="mexican-valley", via="land"))
    (ended,) = of(events, ev.CardEmpireEnded)  # the pool is empty: the Minor Empire is done
    assert ended.cites == ("ah2001.events.minor-empire.scored-after",)
    assert state.land("mexican-valley") == Cell(0, 7)
    assert state.turn is not None and state.turn.card is None and state.turn.leader
    assert state.turn.lands == ()  # the Minor Empire's lands are not the Active Empire's
    assert state.supply["capitals_and_cities"] == RULES.tables.pieces.capitals_and_cities - 1
    legal = RULES.legal_actions(state, 0)
    assert [c.type for c in legal] == ["begin_expansion"]  # two cards played already


def test_a_minor_empire_is_playable_only_in_its_own_epoch() -> None:
    state = before_expansion("romans", 3, ("japan", "mayans"))
    plays = {c.arg("card") for c in RULES.legal_actions(state, 0) if c.type == "play_event"}
    assert plays == {"mayans"}


def test_with_the_minor_empires_option_each_player_is_dealt_one_minor_empire_and_two_greater() -> (
    None
):
    setup = Setup("hotw-ah2001", ("a", "b", "c", "d"), {"minor_empires": True}, "")
    state = RULES.initial_state(setup)
    events = RULES.set_up(state, Chance(ScriptedFaces([6, 5, 4, 3, 2, 1, 1, 1]), 0))
    dealt = of(events, ev.EventCardsDealt)
    kinds = {c.id: (c.deck, c.kind) for c in RULES.tables.events}
    for hand in dealt:
        assert hand.rule == "ah2001.option.minor-empires"
        greater = [kinds[c][1] for c in hand.cards if kinds[c][0] == "greater"]
        assert sorted(k == "minor-empire" for k in greater) == [False, False, True]
        assert len(hand.cards) == 3 + RULES.tables.pieces.lesser_dealt
    minors = [c for hand in dealt for c in hand.cards if kinds[c][1] == "minor-empire"]
    assert len(set(minors)) == 4


def test_the_crusaders_expand_from_the_eastern_mediterranean_with_one_added_to_each_die() -> None:
    """ah2001.events.crusade: three Epoch I armies in the Eastern Mediterranean; taking
    Palestine gives it a fort and a city."""
    state = before_expansion("franks", 5, ("crusade",))
    state = replace(state, lands={"palestine": Cell(1, 4), "levant": Cell(2, 4)})
    events, state = act(state, Command.of("play_event", card="crusade"))
    (began,) = of(events, ev.CardEmpireBegan)
    assert began.rule == "ah2001.events.crusade"
    assert (began.armies, began.figure, began.at_sea, began.bonus) == (
        3,
        1,
        "eastern-mediterranean",
        True,
    )
    assert ("palestine", "sea") in places(state) and ("crete", "sea") in places(state)
    events, state = act(
        state, Command.of("place_army", land="palestine", via="sea"), dice=[5, 3, 2, 4, 1]
    )
    (battle,) = of(events, ev.BattleFought)
    assert (battle.attack, battle.defence, battle.result) == (6, 4, "defender_lost")
    assert "ah2001.combat.from-sea" in battle.cites  # three dice against a landing
    (fortified,) = of(events, ev.CrusadersFortified)
    assert (fortified.fort, fortified.city, fortified.rule) == (True, True, "ah2001.events.crusade")
    assert state.land("palestine") == Cell(0, 1, frozenset({"fort", "city"}))
    assert ("levant", "land") in places(state)  # expanding on by land, normally


def test_civil_war_attacks_three_lands_of_one_enemy_empire_without_terrain_penalty() -> None:
    """ah2001.events.civil-war: two dice for each army (the card names no more), one die for
    the defender even in the mountains, the fort still adding one."""
    state = before_expansion("romans", 3, ("civil-war",))
    lands = {
        "morea": Cell(1, 2),
        "pindus": Cell(1, 2, frozenset({"fort"})),
        "balkans": Cell(1, 2),
        "danubia": Cell(1, 1),
        "crete": Cell(2, 2),
    }
    state = replace(state, lands=lands)
    _, state = act(state, Command.of("play_event", card="civil-war"))
    assert targets(state) == {"morea", "pindus", "balkans", "danubia", "crete"}
    _, state = act(state, Command.of("choose_target", target="morea"))
    assert targets(state) == {"pindus", "balkans"}  # the same Empire: player 1's Epoch II
    _, state = act(state, Command.of("choose_target", target="pindus"))
    events, state = act(
        state, Command.of("choose_target", target="balkans"), dice=[4, 2, 3, 6, 1, 5, 2, 3, 3]
    )
    fights = [
        (f.land, f.attack_dice, f.defence_dice, f.result) for f in of(events, ev.RevoltFought)
    ]
    assert fights == [
        ("morea", (4, 2), (3,), "defender_lost"),  # one die in the mountains: no penalty
        ("pindus", (6, 1), (5,), "fort_and_attacker_lost"),  # 6 against 5 + 1 ties
        ("balkans", (2, 3), (3,), "both_lost"),
    ]
    assert all(f.rule == "ah2001.events.civil-war" for f in of(events, ev.RevoltFought))
    assert state.land("morea") == Cell(0, 7)
    assert state.land("pindus") == Cell(1, 2)
    assert "balkans" not in state.lands
    assert state.turn is not None and state.turn.pending is None


def test_barbarians_attack_out_of_a_barren_land_until_one_is_defeated() -> None:
    """ah2001.events.barbarians: from the Gobi into Mongolia (won), then over the Great Wall
    into Wei River (two defending dice: lost), which ends the invasion."""
    state = before_expansion("romans", 3, ("barbarians",))
    lands = {"mongolia": Cell(1, 2), "wei-river": Cell(2, 2), "takla-makan": Cell(0, 2)}
    state = replace(state, lands=lands)
    _, state = act(state, Command.of("play_event", card="barbarians"))
    assert "gobi" in targets(state) and "rub-al-khali" not in targets(state)
    _, state = act(state, Command.of("choose_target", target="gobi"))
    assert targets(state) == {"mongolia", "wei-river"}  # never the player's own Takla Makan
    events, state = act(state, Command.of("choose_target", target="mongolia"), dice=[5, 2, 4])
    (won,) = of(events, ev.RevoltFought)
    assert (won.attack_dice, won.defence_dice, won.result) == ((5, 2), (4,), "defender_lost")
    assert won.rule == "ah2001.events.barbarians"
    assert state.land("mongolia") == Cell(0, 7)
    assert targets(state) == {"wei-river"}
    events, state = act(state, Command.of("choose_target", target="wei-river"), dice=[3, 2, 5, 1])
    (lost,) = of(events, ev.RevoltFought)
    assert (lost.attack_dice, lost.defence_dice, lost.result) == ((3, 2), (5, 1), "attacker_lost")
    assert "ah2001.combat.difficult-terrain" in lost.cites
    assert of(events, ev.CardResolved) and state.turn is not None and state.turn.pending is None


def test_the_plague_spreads_from_each_army_it_kills_until_one_survives() -> None:
    """ah2001.events.plague: four dice in the chosen land, three in each land it spreads to."""
    state = before_expansion("romans", 3, ("plague",))
    lands = {
        "palestine": Cell(1, 2, frozenset({"fort"})),
        "levant": Cell(2, 2),
        "nile-delta": Cell(1, 1),
    }
    state = replace(state, lands=lands)
    _, state = act(state, Command.of("play_event", card="plague"))
    events, state = act(state, Command.of("choose_target", target="palestine"), dice=[3, 1, 6, 5])
    (struck,) = of(events, ev.ArmiesStruck)
    assert (struck.rolls, struck.destroyed) == (((3, 1, 6, 5),), ("palestine",))
    assert struck.rule == "ah2001.events.plague"
    assert "palestine" not in state.lands  # the army and its fort
    assert targets(state) == {"levant", "nile-delta"}
    events, state = act(state, Command.of("choose_target", target="levant"), dice=[2, 4, 6])
    (struck,) = of(events, ev.ArmiesStruck)
    assert (struck.rolls, struck.destroyed) == (((2, 4, 6),), ())
    assert state.land("levant") == Cell(2, 2)
    assert of(events, ev.CardResolved)  # the army survived: the plague stops
    assert state.land("nile-delta") == Cell(1, 1)


def test_with_multiple_armies_a_land_holds_three_figures_and_the_extra_ones_absorb_losses() -> None:
    """ah2001.option.multiple-armies: up to three figures (armies, or two armies and a fort);
    the defender still rolls its normal dice, each loss costs one figure."""
    from tests.unit.ah2001.test_engine import playing

    state = playing(
        "romans",
        3,
        {"southern-apennines": Cell(0, 3), "northern-apennines": Cell(1, 2, frozenset(), 2)},
    )
    state = replace(state, options=frozenset({"multiple_armies"}))
    assert ("southern-apennines", "land") in places(state)
    events, state = act(state, Command.of("place_army", land="southern-apennines", via="land"))
    (stacked,) = of(events, ev.ArmyPlaced)
    assert (stacked.stacked, stacked.rule) == (True, "ah2001.option.multiple-armies")
    assert state.land("southern-apennines").armies == 2
    _, state = act(state, Command.of("build_fort", land="southern-apennines"))
    assert ("southern-apennines", "land") not in places(state)  # two armies and a fort: full
    events, state = act(
        state,
        Command.of("place_army", land="northern-apennines", via="land"),
        dice=[5, 2, 3, 6, 1, 4],
    )
    rounds = [(b.defence_dice, b.result) for b in of(events, ev.BattleFought)]
    assert rounds == [((3,), "defender_lost"), ((4,), "defender_lost")]  # one die each round
    assert state.land("northern-apennines") == Cell(0, 3)
    without = replace(state, options=frozenset())
    assert ("southern-apennines", "land") not in places(without)
    onto_own = Command.of("place_army", land="northern-apennines", via="land")
    assert RULES.refusal(without, 0, onto_own).rule == "ah2001.expand.one-army"


def test_with_naval_control_a_manned_fleet_stays_scores_its_sea_and_must_be_fought() -> None:
    """ah2001.option.naval-control: an army from the pool on a fleet in a sea (not an ocean);
    the fleet stays after the turn and scores one point; another player's fleet entering that
    sea fights it two dice against one before any expansion; too few fleet counters take the
    oldest epoch's manned fleets back first."""
    from domain.hotw.editions.ah2001.context import Ctx
    from domain.hotw.editions.ah2001.model import SeaHeld
    from domain.hotw.editions.ah2001.turn import begin_turn
    from tests.unit.ah2001.test_engine import playing

    state = playing("egypt", 1, {"nile-delta": Cell(0, 1)}, pool=3)
    assert state.turn is not None
    turn = replace(state.turn, fleets=("eastern-mediterranean", "red-sea"))
    state = replace(state, turn=turn, options=frozenset({"naval_control"}))
    supply = dict(state.supply, counters=state.supply["counters"] - 2)
    state = replace(state, supply=supply)
    manning = {c.arg("water") for c in RULES.legal_actions(state, 0) if c.type == "man_fleet"}
    assert manning == {"eastern-mediterranean", "red-sea"}
    events, state = act(state, Command.of("man_fleet", water="red-sea"))
    assert of(events, ev.FleetManned)[0].rule == "ah2001.option.naval-control"
    assert state.seas == {"red-sea": SeaHeld(0, 1)} and state.turn is not None
    assert state.turn.pool == 2
    events, state = act(state, Command.of("end_expansion"))
    (scored,) = of(events, ev.TurnScored)
    assert scored.points["seas"] == 1
    assert state.supply["counters"] == RULES.tables.pieces.coins_and_fleets - 1  # one stays

    spec = RULES.tables.empires_by_epoch[1][1]
    assert spec.id == "egypt"
    contested = replace(
        state, turn=None, seas={"eastern-mediterranean": SeaHeld(1, 1), "red-sea": SeaHeld(2, 1)}
    )
    ctx = Ctx(RULES.tables, contested, Chance(ScriptedFaces([5, 2, 3]), 0))
    begin_turn(ctx, 2, spec)
    (battle,) = of(ctx.events, ev.NavalBattleFought)
    assert (battle.water, battle.defender, battle.attack_dice, battle.defence_dice) == (
        "eastern-mediterranean",
        1,
        (5, 2),
        (3,),
    )
    assert battle.result == "defender_lost"
    assert "eastern-mediterranean" not in ctx.state.seas
    assert ctx.state.seas == {"red-sea": SeaHeld(2, 1)}  # the player's own fleet is no foe
    assert ctx.state.turn is not None
    assert ctx.state.turn.fleets == ("eastern-mediterranean", "red-sea")

    short = replace(
        contested,
        supply=dict(contested.supply, counters=1),
        seas={"black-sea": SeaHeld(1, 2), "bay-of-bengal": SeaHeld(2, 1), "red-sea": SeaHeld(0, 3)},
    )
    ctx = Ctx(RULES.tables, short, Chance(ScriptedFaces([6, 6, 1]), 0))
    begin_turn(ctx, 1, spec)
    (reclaimed,) = of(ctx.events, ev.FleetsReclaimed)
    assert reclaimed.waters == ("bay-of-bengal",)  # Epoch I's fleet goes first
    assert ctx.state.turn is not None and len(ctx.state.turn.fleets) == 2
