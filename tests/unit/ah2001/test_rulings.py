"""The Avalon Hill 2001 rulings an audit found departing from the text (issue 32), each fixed in
a revision of its own: the text's reading holds in new games, and games created under an earlier
revision keep the ruling they were played with."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.core.chance import Chance, ScriptedFaces
from domain.core.kernel import Game, decide
from domain.core.messages import Command, Event
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.model import Ah2001State, Cell
from domain.hotw.editions.ah2001.revisions import WALL_ONE_SIDED
from tests.unit.ah2001.test_engine import RULES, SETUP, of, playing


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
    """"If the Difficult Terrain is on the attacker's Land, then there is no defender bonus."
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
