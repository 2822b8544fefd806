"""The Avalon Hill 2001 rulings an audit found departing from the text (issue 32), each fixed in
a revision of its own: the text's reading holds in new games, and games created under an earlier
revision keep the ruling they were played with."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from domain.core.chance import Chance, ScriptedFaces
from domain.core.kernel import Game, decide
from domain.core.messages import Command, Event
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.model import Ah2001State, Cell
from domain.hotw.editions.ah2001.revisions import (
    CAPITALS_FALL_TO_ANY_ENTRY,
    PESTILENCE_ANY_LAND,
    TREACHERY_ONE_ATTACK,
    WALL_ONE_SIDED,
)
from domain.hotw.editions.ah2001.sack import LandSacked
from tests.unit.ah2001.test_engine import RULES, SETUP, before_expansion, of, playing


def act_at(
    revision: int, state: Ah2001State, command: Command, dice: Iterable[int] = ()
) -> tuple[list[Event], Ah2001State]:
    """`command` of the awaited seat decided and folded by the rules of `revision`."""
    rules: Any = RULES.at_revision(revision)
    seat = min(rules.awaited_seats(state))
    game = Game(SETUP, 1, 0, state)
    events = decide(rules, game, seat, command, Chance(ScriptedFaces(dice), 0))
    for event in events:
        state = rules.evolve(state, event)
    return events, state


def battle_at(revision: int, state: Ah2001State, land: str, dice: list[int]) -> Any:
    events, _ = act_at(revision, state, Command.of("place_army", land=land, via="land"), dice)
    (battle,) = of(events, ev.BattleFought)
    return battle


# --- 1. Difficult terrain is one-sided ----------------------------------------------------------


def mongols_around_the_wall() -> Ah2001State:
    """Seat 0's Empire of Epoch V holds Wei River (behind the Wall); seat 1 holds Mongolia and
    Yellow River."""
    lands = {
        "wei-river": Cell(0, 5),
        "mongolia": Cell(1, 4),
        "yellow-river": Cell(1, 4),
    }
    return playing("mongols", 5, lands)


def test_difficult_terrain_on_the_attackers_land_gives_no_defender_bonus() -> None:
    """ "If the Difficult Terrain is on the attacker's Land, then there is no defender bonus."
    The Great Wall stands in Wei River: attacking out of it into clear Mongolia, the defender
    rolls one die."""
    battle = battle_at(WALL_ONE_SIDED, mongols_around_the_wall(), "mongolia", [6, 5, 1])
    assert len(battle.defence_dice) == 1
    assert "ah2001.combat.difficult-terrain" not in battle.cites


def test_an_attack_over_the_wall_into_the_land_it_stands_in_faces_two_dice() -> None:
    """The Mongols example: Wei River is "defended behind the Great Wall"."""
    state = playing("mongols", 5, {"mongolia": Cell(0, 5), "wei-river": Cell(1, 4)})
    battle = battle_at(WALL_ONE_SIDED, state, "wei-river", [6, 5, 1, 2])
    assert len(battle.defence_dice) == 2
    assert "ah2001.combat.difficult-terrain" in battle.cites


def test_games_created_before_the_fix_keep_the_wall_on_both_sides() -> None:
    battle = battle_at(WALL_ONE_SIDED - 1, mongols_around_the_wall(), "mongolia", [6, 5, 1, 2])
    assert len(battle.defence_dice) == 2


# --- 2. Taking over a capital or city -----------------------------------------------------------


def romans_before(target: Cell) -> Ah2001State:
    return playing(
        "romans", 3, {"southern-apennines": Cell(0, 3), "northern-apennines": target}, pool=5
    )


def test_the_army_entering_after_a_tie_turns_the_capital_over() -> None:
    """ "Whenever your army takes over a Land already containing a capital, the capital is turned
    over and becomes a city"; a tie only defers this "until an invading army successfully
    enters the Land"."""
    state = romans_before(Cell(1, 2, frozenset({"capital"})))
    attack = Command.of("place_army", land="northern-apennines", via="land")
    events, state = act_at(CAPITALS_FALL_TO_ANY_ENTRY, state, attack, [5, 1, 5])
    (tie,) = of(events, ev.BattleFought)
    assert tie.result == "both_lost" and state.land("northern-apennines").owner is None
    assert state.land("northern-apennines").buildings == {"capital"}
    events, state = act_at(CAPITALS_FALL_TO_ANY_ENTRY, state, attack)
    assert state.land("northern-apennines") == Cell(0, 3, frozenset({"city"}))
    (sacked,) = of(events, LandSacked)
    assert sacked.rule == "ah2001.combat.sack"


def test_an_army_entering_a_vacant_land_sacks_the_city_there() -> None:
    """A city "is sacked and removed" when an army takes the land over, vacant or not."""
    state = romans_before(Cell(None, 0, frozenset({"city", "monument"})))
    attack = Command.of("place_army", land="northern-apennines", via="land")
    _, state = act_at(CAPITALS_FALL_TO_ANY_ENTRY, state, attack)
    assert state.land("northern-apennines") == Cell(0, 3, frozenset({"monument"}))


def test_games_created_before_the_fix_let_the_army_after_a_tie_keep_the_capital() -> None:
    state = romans_before(Cell(None, 0, frozenset({"capital"})))
    attack = Command.of("place_army", land="northern-apennines", via="land")
    _, state = act_at(CAPITALS_FALL_TO_ANY_ENTRY - 1, state, attack)
    assert state.land("northern-apennines") == Cell(0, 3, frozenset({"capital"}))


# --- 3. Pestilence: "Choose a Land" -------------------------------------------------------------


def pestilence_played_near(empty: str) -> tuple[Ah2001State, list[str]]:
    """Seat 0 has played Pestilence; seat 1's armies stand in two lands next to the empty one."""
    state = before_expansion("romans", 3, ("pestilence",))
    nearby = sorted(RULES.tables.board.adjacent(empty))[:2]
    state = replace(state, lands={land: Cell(1, 2) for land in nearby})
    _, state = act_at(PESTILENCE_ANY_LAND, state, Command.of("play_event", card="pestilence"))
    return state, nearby


def test_pestilence_may_be_aimed_at_an_empty_land_and_the_lands_next_to_it_roll_two_dice() -> None:
    """Pestilence: "Choose a Land. Any army in that Land must roll three dice. ... All adjacent
    Lands to the first must roll two dice" (the Plague, by contrast, says "an occupied Land")."""
    state, nearby = pestilence_played_near("pindus")
    rules: Any = RULES.at_revision(PESTILENCE_ANY_LAND)
    offered = {
        str(c.arg("target")) for c in rules.legal_actions(state, 0) if c.type == "choose_target"
    }
    assert "pindus" in offered and state.land("pindus").owner is None
    events, state = act_at(
        PESTILENCE_ANY_LAND, state, Command.of("choose_target", target="pindus"), [2, 3, 1, 4]
    )
    (struck,) = of(events, ev.ArmiesStruck)
    assert struck.lands == tuple(nearby) and [len(r) for r in struck.rolls] == [2, 2]
    assert struck.destroyed == (nearby[1],)


def test_games_created_before_the_fix_offer_pestilence_only_occupied_lands() -> None:
    state, nearby = pestilence_played_near("pindus")
    rules: Any = RULES.at_revision(PESTILENCE_ANY_LAND - 1)
    offered = {
        str(c.arg("target")) for c in rules.legal_actions(state, 0) if c.type == "choose_target"
    }
    assert offered == set(nearby)


# --- 4. Treachery with Multiple Armies ----------------------------------------------------------


def treachery_named_against_a_stack(revision: int) -> Ah2001State:
    """Seat 0 (the Romans, a pool of 5) named Northern Apennines, where seat 1 stacks three."""
    state = before_expansion("romans", 3, ("treachery",))
    state = replace(
        state,
        options=frozenset({"multiple_armies"}),
        lands={"northern-apennines": Cell(1, 2, frozenset(), 3)},
    )
    _, state = act_at(revision, state, Command.of("play_event", card="treachery"))
    target = Command.of("choose_target", target="northern-apennines")
    _, state = act_at(revision, state, target)
    _, state = act_at(revision, state, Command.of("begin_expansion"))
    return state


def test_treachery_wins_the_attack_on_a_stack_for_one_army_of_the_pool() -> None:
    """Treachery: "if you attack that Land, you automatically win the attack"."""
    state = treachery_named_against_a_stack(TREACHERY_ONE_ATTACK)
    pool = state.turn.pool
    attack = Command.of("place_army", land="northern-apennines", via="land")
    events, state = act_at(TREACHERY_ONE_ATTACK, state, attack)
    assert [b.rule for b in of(events, ev.BattleFought)] == ["ah2001.events.treachery"] * 3
    assert state.land("northern-apennines").owner == 0
    assert state.turn.pool == pool - 1


def test_games_created_before_the_fix_paid_a_pool_army_for_each_army_of_the_stack() -> None:
    state = treachery_named_against_a_stack(TREACHERY_ONE_ATTACK - 1)
    pool = state.turn.pool
    attack = Command.of("place_army", land="northern-apennines", via="land")
    _, state = act_at(TREACHERY_ONE_ATTACK - 1, state, attack)
    assert state.turn.pool == pool - 3
