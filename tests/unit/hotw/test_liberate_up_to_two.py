"""Liberate reads alike in Epochs III, IV and V (issue 49, 4): "Choose up to two Enemy lands next
to your Friendly lands; remove their garrisons (each owner gains an Honor) and place one of your
armies in each." Since revision 2 every Liberate lets its player stop after one land or none;
games of revision 1 keep Liberate IV and V as exactly two lands."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.core.chance import Chance
from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.kernel import Game, decide
from domain.core.messages import Command, Event
from domain.core.ruleset import Setup
from domain.hotw.editions.hotw_2024 import actions
from domain.hotw.editions.hotw_2024.context import Ctx
from domain.hotw.editions.hotw_2024.engine import Hotw2024
from domain.hotw.editions.hotw_2024.events import ArmyPlaced, GarrisonRemoved, HonorAwarded
from domain.hotw.editions.hotw_2024.model import Control, HotwState
from domain.hotw.editions.hotw_2024.revisions import LIBERATE_UP_TO_TWO
from packs.base import PackError
from packs.hotw import load_pack
from tests.support.hotw import BLUE, RED, RULES, ScriptedDice, garrison, of_type, position
from tests.unit.test_hotw_board_pack import broken_pack

EPOCH_OF = {"liberate-3": 3, "liberate-4": 4, "liberate-5": 5}
EMPIRE_OF = {3: "celts", 4: "franks", 5: "spain"}
STOP = Command.of("stop_choosing")


def liberating(rules: Hotw2024, card: str) -> HotwState:
    """Red's Friendly Tigris has Blue garrisons in Euphrates and Zagros next to it; Red's turn
    reveals `card`."""
    epoch = EPOCH_OF[card]
    state = position(
        {"tigris": garrison(RED), "euphrates": garrison(BLUE), "zagros": garrison(BLUE)},
        epoch=epoch,
        card=EMPIRE_OF[epoch],
    )
    players = list(state.players)
    players[RED] = evolved(players[RED], event_card=card)
    fresh = evolved(state, players=tuple(players), turn=None, turn_index=0)
    ctx = Ctx(rules, fresh, Chance(ScriptedDice([]), 0))
    actions.proceed(ctx)
    return ctx.state


def play(rules: Hotw2024, state: HotwState, command: Command) -> tuple[list[Event], HotwState]:
    game = Game(Setup("hotw-2024", (), {}, "", revision=rules.revision), 1, 0, state)
    events = decide(rules, game, RED, command, Chance(ScriptedDice([]), 0))
    for ev in events:
        state = rules.evolve(state, ev)
    return events, state


@pytest.mark.parametrize("card", sorted(EPOCH_OF))
def test_choose_up_to_two_enemy_lands_lets_every_liberate_stop_after_one_land(card: str) -> None:
    """ "Choose up to two": after Euphrates the player chooses no more; Zagros stays Blue's,
    Blue gains one Honor only, and Red places its one army in Euphrates."""
    state = liberating(RULES, card)
    assert STOP in RULES.legal_actions(state, RED)
    events, state = play(RULES, state, Command.of("choose_land", land="euphrates"))
    assert [e.land for e in of_type(events, GarrisonRemoved)] == ["euphrates"]
    assert STOP in RULES.legal_actions(state, RED)
    more, state = play(RULES, state, STOP)
    events += more
    assert [e.seat for e in of_type(events, HonorAwarded)] == [BLUE]
    assert [e.land for e in of_type(events, ArmyPlaced) if e.pool == "event"] == ["euphrates"]
    assert state.control_of("euphrates", RED) is Control.FRIENDLY
    assert state.control_of("zagros", RED) is Control.ENEMY


@pytest.mark.parametrize("card", ["liberate-4", "liberate-5"])
def test_choose_up_to_two_lets_liberate_iv_and_v_choose_no_land_at_all(card: str) -> None:
    events, state = play(RULES, liberating(RULES, card), STOP)
    assert not of_type(events, GarrisonRemoved) and not of_type(events, HonorAwarded)
    assert state.control_of("euphrates", RED) is Control.ENEMY
    assert not state.agenda


@pytest.mark.parametrize("card", ["liberate-4", "liberate-5"])
def test_games_of_revision_one_keep_liberate_iv_and_v_to_exactly_two_lands(card: str) -> None:
    """Old games are played as they were: revision 1 refuses the stop and the second land
    follows (its golden games reproduce under it)."""
    old = RULES.at_revision(LIBERATE_UP_TO_TWO - 1)
    assert isinstance(old, Hotw2024)
    state = liberating(old, card)
    _, state = play(old, state, Command.of("choose_land", land="euphrates"))
    assert STOP not in old.legal_actions(state, RED)
    with pytest.raises(RuleViolation):
        play(old, state, STOP)
    assert RULES.pack.cards.event(card).effects[0].up_to
    assert not old.pack.cards.event(card).effects[0].up_to
    assert old.pack.cards.event("liberate-3").effects[0].up_to


def test_the_newest_revision_is_the_one_liberate_iv_and_v_read_up_to_two() -> None:
    assert RULES.revision == LIBERATE_UP_TO_TWO
    described = RULES.describe()["revisions"][-1]
    assert described["revision"] == LIBERATE_UP_TO_TWO
    assert "Choose up to two" in described["summary"]
    assert described["rules"] == ["hotw24.events.effects"]


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"event": "liberate-9"}, "event", "no such Event card"),
        ({"effect": 5}, "effect", "effect(s)"),
        ({"field": "upto"}, "field", "no field 'upto'"),
        ({"value": True}, "value", "reads this already"),
        ({"revision": 7}, "revision", "Must be one of"),
    ],
)
def test_an_earlier_value_that_names_nothing_the_pack_has_is_refused_by_name(
    tmp_path: Path, change: dict[str, object], field: str, message: str
) -> None:
    """revisions.yaml is checked like every file of the pack: the file, entry and field named."""
    pack = broken_pack(tmp_path, "revisions.yaml", lambda d: d["earlier"][0].update(change))
    with pytest.raises(PackError) as caught:
        load_pack("hotw-2024", pack.parent)
    found = [p for p in caught.value.problems if p.file == "revisions.yaml"]
    assert [p.field for p in found] == [field]
    assert message in found[0].message
