"""A Brief History of the World from creating the game to its end, each clause checked against
the event or refusal that cites it: the player count and options, the supply the game starts
with, the board the manual describes, who may act, an Empire's Feature, dominance along the
spiral, and the two-player variant's winner by combined gold."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from domain.core.chance import Chance, ScriptedFaces
from domain.core.errors import InvalidOptions, InvalidPlayerCount, NotYourTurn
from domain.core.kernel import Game, GameCreated, creation_events, decide
from domain.core.messages import Command
from domain.hotw.editions.brief2009 import events as ev
from domain.hotw.editions.brief2009.model import Turn
from tests.unit.brief.helpers import (
    RULES,
    TABLES,
    act,
    of,
    playing,
    resigned,
    setup,
    standing,
    table,
)

CATALOGUE = Path(__file__).resolve().parents[3] / "data" / "brief-2009" / "rules.yaml"
BOARD = "brief.components.board"


def created(players: int) -> list[object]:
    names = tuple("abcdef"[:players])
    return creation_events(RULES, names, {}, "", Chance(ScriptedFaces([]), 0))


def test_two_to_six_players_play_and_one_is_refused() -> None:
    assert RULES.player_counts == (2, 3, 4, 5, 6)
    with pytest.raises(InvalidPlayerCount) as refused:
        created(1)
    assert refused.value.rule == "brief.setup.player-count"


def test_the_edition_has_no_optional_rules() -> None:
    assert RULES.options == ()
    with pytest.raises(InvalidOptions) as refused:
        RULES.check_options({"multiple_armies": True})
    assert refused.value.rule == "brief.setup.options"


def test_every_piece_starts_in_the_supply() -> None:
    (game,) = of(created(3), GameCreated)
    assert game.cites == ("brief.setup.supply",)
    state = RULES.initial_state(setup(3))
    supply = TABLES.numbers.supply
    assert state.supply == {
        "capitals_and_cities": supply["capitals_and_cities"],
        "monuments": supply["monuments"],
        "forts": supply["forts"],
        "fleets": supply["fleets"],
    }
    assert state.lands == {}
    assert [c.supply for c in state.colours] == [supply["armies_per_colour"]] * 3


def test_the_board_is_the_reconstruction_its_reading_describes() -> None:
    entries = yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))["rules"]
    readings = {e["id"]: e.get("reading", "") for e in entries}
    assert "70 lands in 14 areas, 4 oceans, 7 seas" in readings[BOARD]
    lands = TABLES.board.lands.values()
    assert len(TABLES.board.lands) == 70
    assert len({land.area for land in lands if land.area}) == len(TABLES.spiral) == 14
    kinds = [water.kind for water in TABLES.board.waters.values()]
    assert (kinds.count("ocean"), kinds.count("sea")) == (4, 7)
    assert (TABLES.spiral[0], TABLES.spiral[-1]) == ("northern-europe", "south-america")


def test_only_the_seat_the_phase_calls_may_act() -> None:
    state = playing(table({"tigris": standing(0)}), 0, "sumerians", array=2)
    game = Game(setup(3), 1, 0, state)
    end = Command.of("end_expansion")
    with pytest.raises(NotYourTurn) as refused:
        decide(RULES, game, 1, end, Chance(ScriptedFaces([]), 0))
    assert refused.value.rule == "brief.table.procedure"
    assert RULES.refusal(state, 0, Command.of("no_such_move")).rule == "brief.table.procedure"


def test_an_empire_with_a_feature_is_established_with_it() -> None:
    state = replace(table({}), turn=Turn(0, "assyrians"))
    events, state = act(state, Command.of("establish"))
    (established,) = of(events, ev.EmpireEstablished)
    assert TABLES.empire("assyrians").feature == "fear"
    assert established.cites[-3:] == (
        "brief.establish.feature",
        "brief.features.use",
        "brief.features.fear",
    )
    assert state.turn.active.feature == "fear"


def test_two_armies_more_than_any_rival_pay_an_area_twice_its_value() -> None:
    lands = {"tigris": standing(0), "euphrates": standing(0), "zagros": resigned(1)}
    state = playing(table(lands, gold=[3, 30, 40]), 0, "sumerians", array=0)
    events, state = act(state, Command.of("end_expansion"))
    (collected,) = of(events, ev.GoldCollected)
    value = state.area_values["middle-east"]
    assert collected.items == (("middle-east", 2 * value),)
    assert collected.cites == ("brief.gold.dominance",)


def test_with_two_players_the_highest_combined_gold_of_both_colours_wins() -> None:
    """Colours 0 and 2 are seat 0's, 1 and 3 seat 1's: seat 0 has less gold on its best colour
    (40 against 50) but more on both together."""
    empire = TABLES.empires_by_epoch[6][-1]
    state = table({empire.start_land: standing(0)}, players=2, epoch=6, gold=[40, 50, 30, 5])
    assert [state.owner(c) for c in range(4)] == [0, 1, 0, 1]
    colours = (replace(state.colours[0], empire=empire.id), *state.colours[1:])
    state = playing(replace(state, colours=colours, call_index=7), 0, empire.id, array=0)
    events, state = act(state, Command.of("end_expansion"))
    while RULES.awaited_seats(state):
        seat = min(RULES.awaited_seats(state))
        more, state = act(state, next(iter(RULES.legal_actions(state, seat))), seat=seat)
        events += more
    (ended,) = of(events, ev.GameEnded)
    assert ended.cites[-1] == "brief.two-player.combined-gold"
    assert ended.scores == (ended.gold[0] + ended.gold[2], ended.gold[1] + ended.gold[3])
    assert max(ended.gold[:2]) == ended.gold[1] and ended.scores[0] > ended.scores[1]
    assert ended.ranking == ((0,), (1,))
