"""The Brief History of the World rulings an audit found narrowing the text in the two-player
game (issue 32, ruling 10), each fixed in a revision of its own: games created before a fix keep
the ruling they were played with."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from domain.core.chance import Chance, ScriptedFaces
from domain.core.kernel import Game, decide
from domain.core.messages import Command, Event
from domain.hotw.editions.brief2009 import events as ev
from domain.hotw.editions.brief2009.gold import collection, friends_of
from domain.hotw.editions.brief2009.model import BriefState, Turn
from domain.hotw.editions.brief2009.revisions import (
    FRANCE_ALONE,
    OVERRUNS_BY_PLAYER,
    OWN_COLOURS_NOT_RIVALS,
    RED_CARDS_AT_TURN_START,
)
from tests.unit.brief.helpers import RULES, TABLES, expand, of, playing, resigned, setup, standing
from tests.unit.brief.helpers import table as laid_out


def act_at(
    revision: int, state: BriefState, command: Command, dice: Iterable[int] = ()
) -> tuple[list[Event], BriefState]:
    rules: Any = RULES.at_revision(revision)
    (seat,) = rules.awaited_seats(state)
    game = Game(setup(len(state.players)), 1, 0, state)
    events = decide(rules, game, seat, command, Chance(ScriptedFaces(dice), 0))
    for event in events:
        state = rules.evolve(state, event)
    return events, state


def two_player_invasion(revision: int) -> list[Command]:
    """Two players: seat 0's colour 0 invades Persia, held by seat 1's colour 1, with three
    points to spare; Zagros beside it is held by seat 1's other colour, 3."""
    lands = {"tigris": standing(0), "persia": resigned(1), "zagros": resigned(3)}
    state = playing(laid_out(lands, players=2), 0, "sumerians")
    assert state.colours[1].seat == state.colours[3].seat == 1
    _, state = act_at(revision, state, expand("persia"), [6, 1, 2])
    rules: Any = RULES.at_revision(revision)
    return [c for c in rules.legal_actions(state, 0) if c.type == "overrun"]


def test_overrun_lands_must_belong_to_the_same_defending_player_whichever_colour() -> None:
    """Overruns: "Must belong to same defending player"; two players: "Each player controls two
    colors"."""
    assert two_player_invasion(OVERRUNS_BY_PLAYER) == [Command.of("overrun", land="zagros")]


def test_games_created_before_the_fix_overran_only_the_invaded_lands_colour() -> None:
    assert two_player_invasion(OVERRUNS_BY_PLAYER - 1) == []


def test_a_players_other_colour_is_no_rival_for_control() -> None:
    """Two players: colour 0 holds two lands of the Middle East, its player's other colour 2
    holds two more: colour 0 has dominance there, not mere presence."""
    armies = {"tigris": 0, "euphrates": 0, "zagros": 2, "persia": 2, "levant": 1}
    state = laid_out({land: standing(c) for land, c in armies.items()}, players=2)
    areas = {land: TABLES.board.lands[land].area for land in armies}
    value = {"middle-east": 3}
    tables = RULES.at_revision(OWN_COLOURS_NOT_RIVALS).tables
    friends = friends_of(tables, state, 0)
    assert friends == {2}
    now = collection(0, armies, {}, areas, TABLES.spiral, value, TABLES.numbers.gold, friends)
    assert now == [("middle-east", 6)]
    before = friends_of(RULES.at_revision(OWN_COLOURS_NOT_RIVALS - 1).tables, state, 0)
    old = collection(0, armies, {}, areas, TABLES.spiral, value, TABLES.numbers.gold, before)
    assert old == [("middle-east", 3)]


def test_the_army_overrun_goes_back_to_its_own_colours_supply() -> None:
    lands = {"tigris": standing(0), "persia": resigned(1), "zagros": resigned(3)}
    state = playing(laid_out(lands, players=2), 0, "sumerians")
    _, state = act_at(OVERRUNS_BY_PLAYER, state, expand("persia"), [6, 1, 2])
    supply = state.colours[3].supply
    events, state = act_at(OVERRUNS_BY_PLAYER, state, Command.of("overrun", land="zagros"))
    (overrun,) = of(events, ev.LandOverrun)
    assert "brief.overrun.same-defender" in overrun.cites and state.land("zagros").colour == 0
    assert overrun.defender == 3 and state.colours[3].supply == supply + 1  # its own colour's
    assert RULES.invariant_failures(state) == []


# --- 11. France's Feature; red cards in the two-player game -------------------------------------


def taking_gaul(revision: int, empire: str, epoch: int) -> BriefState:
    lands = {"italia": standing(0), "gaul": resigned(1, "monument")}
    state = playing(laid_out(lands, epoch=epoch), 0, empire)
    _, state = act_at(revision, state, expand("gaul"), [6, 1, 1])
    return state


def test_frances_feature_is_frances_alone() -> None:
    """France's Feature: "Monuments not reduced on invasion or in Gaul": another Empire taking
    Gaul reduces its monument as anywhere else; France spares it."""
    assert taking_gaul(FRANCE_ALONE, "ottomans", 5).land("gaul").buildings == set()
    assert taking_gaul(FRANCE_ALONE, "france", 6).land("gaul").buildings == {"monument"}


def test_games_created_before_the_fix_spared_every_monument_in_gaul() -> None:
    assert taking_gaul(FRANCE_ALONE - 1, "ottomans", 5).land("gaul").buildings == {"monument"}


def opening_with_a_red_card(players: int) -> BriefState:
    state = laid_out({}, players=players, gold=(10,) * (2 * players if players == 2 else players))
    hands = list(state.players)
    hands[0] = replace(hands[0], hand=("kingdom-of-elam",))
    return replace(state, players=tuple(hands), turn=Turn(0, "sumerians"))


def test_a_red_card_not_played_at_the_start_of_the_turn_is_discarded_then() -> None:
    """Red cards: "must play at start of turn, before establishing empire; else discard": in
    the two-player game it does not survive to the player's second colour's turn."""
    state = opening_with_a_red_card(2)
    events, state = act_at(RED_CARDS_AT_TURN_START, state, Command.of("establish"))
    (discarded,) = of(events, ev.RedCardsDiscarded)
    assert discarded.cards == ("kingdom-of-elam",) and discarded.rule == "brief.events.red"
    assert state.players[0].hand == ()


def test_games_created_before_the_fix_kept_red_cards_to_the_epochs_end() -> None:
    state = opening_with_a_red_card(2)
    events, state = act_at(RED_CARDS_AT_TURN_START - 1, state, Command.of("establish"))
    assert not of(events, ev.RedCardsDiscarded) and state.players[0].hand == ("kingdom-of-elam",)
