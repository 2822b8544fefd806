"""The simultaneous-empires rulings an audit found departing from the variant's text (issue 32,
rulings 6-9), each fixed in a revision of the Avalon Hill 2001 rules of its own; games created
before a fix keep the ruling they were played with. Epoch I: Sumeria (seat 0), Egypt (seat 1)
and the Minoans (seat 2)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from domain.core.chance import Chance, ScriptedFaces
from domain.core.kernel import Game, decide
from domain.core.messages import Command, Event
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.context import Ctx
from domain.hotw.editions.ah2001.model import Ah2001State, Cell
from domain.hotw.editions.ah2001.revisions import (
    LOST_LANDS_NOT_HELD,
    MINOR_BEFORE_OR_AFTER,
    POINTS_ONCE_PER_EPOCH,
    TERMINATION_CHOSEN,
)
from tests.unit.ah2001.test_engine import RULES, of
from tests.unit.ah2001.test_simultaneous import HOLDERS, SETUP, epoch_one


class At:
    """The rules of one revision, played as the tests of the variant play them."""

    def __init__(self, revision: int) -> None:
        self.rules: Any = RULES.at_revision(revision)

    def act(
        self, state: Ah2001State, command: Command, dice: Iterable[int] = ()
    ) -> tuple[list[Event], Ah2001State]:
        seat = min(self.rules.awaited_seats(state))
        game = Game(replace(SETUP, revision=self.rules.revision), 1, 0, state)
        events = decide(self.rules, game, seat, command, Chance(ScriptedFaces(dice), 0))
        for event in events:
            state = self.rules.evolve(state, event)
        return events, state

    def settle(self, state: Ah2001State) -> Ah2001State:
        ctx = Ctx(self.rules.tables, state, Chance(ScriptedFaces(()), 0))
        self.rules.proceed(ctx)
        return ctx.state

    def started(self, hands: dict[int, tuple[str, ...]] | None = None) -> Ah2001State:
        """Every Empire has placed its start; Sumeria's first round is on."""
        _, state = epoch_one(hands=hands)
        state = self.settle(state)
        for _ in HOLDERS:
            _, state = self.act(state, Command.of("begin_expansion"))
            _, state = self.act(state, Command.of("end_round"))
        return state

    def actions(self, state: Ah2001State) -> set[tuple[str, str]]:
        seat = min(self.rules.awaited_seats(state))
        return {
            (c.type, str(c.arg("land") if c.type == "place_army" else ""))
            for c in self.rules.legal_actions(state, seat)
        }

    def attempt(self, state: Ah2001State, dice: Iterable[int] = (6, 6, 1)) -> Ah2001State:
        """The active Empire attempts the first expansion it is offered, then ends its move."""
        seat = min(self.rules.awaited_seats(state))
        held = set(state.turn.lands)
        (first, *_) = [
            c
            for c in self.rules.legal_actions(state, seat)
            if c.type == "place_army" and c.arg("land") not in held
        ]
        _, state = self.act(state, first, dice)
        _, state = self.act(state, Command.of("end_round"))
        return state


# --- 6. Rule 3: lands lost between rounds -------------------------------------------------------


def sumeria_lost_levant(at: At) -> Ah2001State:
    """Sumeria took Middle Tigris and the Levant; Egypt has since taken the Levant from it."""
    state = at.started()
    assert state.turn.empire == "sumeria"
    _, state = at.act(state, Command.of("end_round"))
    parked = list(state.parked)
    parked[0] = replace(parked[0], lands=(*parked[0].lands, "middle-tigris", "levant"))
    lands = {**state.lands, "middle-tigris": Cell(0, 1), "levant": Cell(1, 1)}
    state = replace(state, parked=tuple(parked), lands=lands)
    state = at.attempt(state)  # Egypt
    state = at.attempt(state)  # the Minoans
    assert state.turn.empire == "sumeria"
    return state


def test_rule_3_a_land_lost_between_rounds_may_be_attacked_again_and_leads_nowhere() -> None:
    """Rule 3: the active Empire expands "using normal expansion and combat rules": a land it
    lost is an enemy's land again, and no expansion starts from it."""
    at = At(LOST_LANDS_NOT_HELD)
    state = sumeria_lost_levant(at)
    assert "levant" not in state.turn.lands
    offered = at.actions(state)
    assert ("place_army", "levant") in offered and ("place_army", "palestine") not in offered
    enemy = state.land("levant").owner
    events, _ = at.act(state, Command.of("place_army", land="levant", via="land"), [6, 6, 1])
    (battle,) = of(events, ev.BattleFought)
    assert battle.defender == enemy != 0


def test_games_created_before_the_fix_still_counted_the_lost_land_as_held() -> None:
    at = At(LOST_LANDS_NOT_HELD - 1)
    state = sumeria_lost_levant(at)
    assert "levant" in state.turn.lands
    assert ("place_army", "palestine") in at.actions(state)


# --- 7. Rule 9: points once per epoch -----------------------------------------------------------


def two_empires_for_sumeria(at: At) -> Ah2001State:
    """Seat 0 holds two Empires this epoch (as with the shared Incas/Aztecs card): Sumeria and
    Egypt; seat 2 the Minoans."""
    state = at.started()
    parked = tuple(replace(t, seat=0) if t.empire == "egypt" else t for t in state.parked)
    lands = {land: replace(c, owner=0) if c.owner == 1 else c for land, c in state.lands.items()}
    return replace(state, parked=parked, lands=lands)


def test_rule_9_a_player_counts_the_epochs_points_once_when_the_last_of_its_empires_ends() -> None:
    """Rule 9: "he may only count victory points once per epoch"."""
    at = At(POINTS_ONCE_PER_EPOCH)
    state = two_empires_for_sumeria(at)
    events, state = at.act(state, Command.of("terminate_empire"))  # Sumeria
    (first,) = of(events, ev.EmpireTerminated)
    assert first.total == 0 and state.players[0].points == 0
    _, state = at.act(state, Command.of("terminate_empire"))  # Egypt, seat 0's other Empire
    counted = state.players[0].points
    assert counted > 0
    events, state = at.act(state, Command.of("terminate_empire"))  # the Minoans
    assert state.players[0].points == counted


def test_games_created_before_the_fix_counted_each_empires_termination() -> None:
    at = At(POINTS_ONCE_PER_EPOCH - 1)
    state = two_empires_for_sumeria(at)
    events, state = at.act(state, Command.of("terminate_empire"))
    (first,) = of(events, ev.EmpireTerminated)
    assert first.total > 0 and state.players[0].points == first.total


# --- 8. Rules 4 and 9: termination is the player's choice ---------------------------------------


def test_rules_4_and_9_a_round_without_attempts_terminates_no_empire_with_strength_left() -> None:
    """Rule 9: a player "MAY terminate his empire", and "MUST count ... as soon as his empire's
    strength points run out": passing a round ends nothing."""
    at = At(TERMINATION_CHOSEN)
    state = at.started()
    for _ in range(6):  # two whole rounds, every Empire passing
        events, state = at.act(state, Command.of("end_round"))
        assert not of(events, ev.EmpireTerminated)
    assert state.turn.empire == "sumeria" and state.epoch == 1


def everything_reachable_from(land: str) -> set[str]:
    """Every land an army could ever reach overland from `land` (barren lands stop armies)."""
    board = RULES.tables.board
    reached, frontier = {land}, [land]
    while frontier:
        for other in board.adjacent(frontier.pop()):
            if other not in reached and not board.lands[other].barren:
                reached.add(other)
                frontier.append(other)
    return reached


def test_an_empire_passing_with_no_expansion_left_terminates() -> None:
    """The epoch still ends: an Empire with strength left that can no longer attempt any
    expansion (its strength could only fortify) ends when it passes."""
    at = At(TERMINATION_CHOSEN)
    state = at.started()
    everywhere = everything_reachable_from("lower-tigris")
    lands = {**state.lands, **{land: Cell(0, 1) for land in everywhere}}
    state = replace(state, lands=lands, turn=replace(state.turn, lands=tuple(sorted(everywhere))))
    assert state.turn.pool > 0
    assert not {a for a in at.actions(state) if a[0] == "place_army"}
    events, state = at.act(state, Command.of("end_round"))
    (ended,) = of(events, ev.EmpireTerminated)
    assert ended.empire == "sumeria" and ended.rule == "ah2001.variant.terminate"
    assert state.parked[0].terminated


def test_games_created_before_the_fix_ended_every_empire_after_a_round_without_attempts() -> None:
    at = At(TERMINATION_CHOSEN - 1)
    state = at.started()
    events: list[Event] = []
    for _ in range(3):
        events, state = at.act(state, Command.of("end_round"))
    assert [e.empire for e in of(events, ev.EmpireTerminated)] == ["sumeria", "egypt", "minoans"]


# --- 9. Rule 10: the Minor Empire moves before or after its main Empire -------------------------


def hittites_beside_sumeria(at: At) -> Ah2001State:
    """Seat 0 played the Hittites (a Minor Empire) with Sumeria; every Empire has started and
    the Hittites, just before Sumeria in the calling order, are the active Empire."""
    _, state = epoch_one(hands={0: ("hittites",)})
    state = at.settle(state)
    _, state = at.act(state, Command.of("play_event", card="hittites"))
    _, state = at.act(state, Command.of("end_round"))  # the Hittites' start
    for _ in HOLDERS:
        _, state = at.act(state, Command.of("begin_expansion"))
        _, state = at.act(state, Command.of("end_round"))
    assert (state.turn.card, state.turn.seat) == ("hittites", 0)
    return state


def test_rule_10_the_minor_empire_may_move_after_its_main_empires_move() -> None:
    """Rule 10: "The player may make one expansion attempt with the minor empire IN ADDITION to
    his one attempt with his normal empire, either before OR after the normal empire's move.\""""
    at = At(MINOR_BEFORE_OR_AFTER)
    state = hittites_beside_sumeria(at)
    assert ("move_after_main", "") in at.actions(state)
    events, state = at.act(state, Command.of("move_after_main"))
    assert of(events, ev.MinorEmpireWaits)[0].rule == "ah2001.variant.minor-empire"
    assert (state.turn.empire, state.turn.card) == ("sumeria", None)
    state = at.attempt(state)  # Sumeria's own attempt, then its move ends
    assert (state.turn.card, state.turn.order) == ("hittites", "after")
    assert ("move_after_main", "") not in at.actions(state)
    assert any(kind == "place_army" for kind, _ in at.actions(state))
    state = at.attempt(state)  # the Hittites' attempt of this round
    assert state.turn.empire == "egypt"
    assert all(t.order == "" for t in state.parked)


def test_games_created_before_the_fix_made_the_minor_empire_move_first() -> None:
    at = At(MINOR_BEFORE_OR_AFTER - 1)
    state = hittites_beside_sumeria(at)
    assert ("move_after_main", "") not in at.actions(state)
