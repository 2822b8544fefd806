"""Undo in Patchistory (contracts §7, the kernel's undo under patchistory.round.phases): a seat
takes back its own commands within its turn of a phase, and its own sealed choice while the
others still choose; never another seat's, never past a draw or a reveal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.core.errors import IllegalAction
from domain.core.kernel import replay
from domain.core.messages import Command, Recorded
from domain.core.table import is_barrier
from domain.core.undo import can_undo, undo_step
from domain.patchistory.vote import VotesRevealed
from service.rulesets import ruleset
from tests.support.table import Table, folded_one_by_one

RULES: Any = ruleset("patchistory")
UNDO = Command.of("undo")
NAMES = ("gandhi", "alexander", "yi-sun-sin", "bismarck")
ENDINGS = {"pass", "end_diplomacy", "end_management", "end_movement", "end_chichen", "decline"}


def new_table(players: int, seed: str) -> Table:
    return Table(RULES, NAMES[:players], seed.encode().ljust(32, b"\0"), capital_side="equality")


def play_randomly_until(table: Table, rng: random.Random, wanted: Any, limit: int = 4000) -> None:
    """Random legal play, preferring to get on with a phase, until `wanted(table)` holds."""
    for _ in range(limit):
        if wanted(table):
            return
        assert not RULES.is_over(table.state), "the game ended first"
        if RULES.system_action(table.state) is not None:
            table.resolve()
            continue
        seat = rng.choice(sorted(table.awaited()))
        table.play(seat, rng.choice(list(RULES.legal_actions(table.state, seat))))
    raise AssertionError("never reached")


def management_turn_with_a_choice(table: Table) -> bool:
    state = table.state
    if state.phase != "management" or RULES.system_action(state) is not None:
        return False
    (seat,) = table.awaited()
    return any(c.type not in ENDINGS for c in RULES.legal_actions(state, seat))


def test_a_player_takes_back_their_own_management_actions_until_they_end_their_management():
    rng = random.Random("management")
    table = new_table(3, "management")
    play_randomly_until(table, rng, management_turn_with_a_choice)
    (seat,) = table.awaited()
    before = table.state
    spent = next(c for c in RULES.legal_actions(before, seat) if c.type not in ENDINGS)
    table.play(seat, spent)
    assert table.state != before
    assert can_undo(RULES, table.game, seat)
    assert not any(can_undo(RULES, table.game, other) for other in range(3) if other != seat)
    with pytest.raises(IllegalAction):
        table.play((seat + 1) % 3, UNDO)
    table.play(seat, UNDO)
    assert table.state == before
    assert replay(RULES, table.log) == table.game
    table.play(seat, Command.of("end_management"))
    assert not can_undo(RULES, table.game, seat), "the turn has passed on"


def votes_being_sealed(table: Table) -> bool:
    state = table.state
    return state.phase == "vote" and len(table.awaited()) == state.players


def test_a_seat_takes_back_its_own_sealed_votes_while_the_others_still_vote_and_never_after():
    rng = random.Random("vote")
    table = new_table(3, "vote")
    play_randomly_until(table, rng, votes_being_sealed)
    opened = table.state
    first, second, last = 2, 0, 1
    table.play(first, RULES.legal_actions(table.state, first)[0])
    table.play(second, RULES.legal_actions(table.state, second)[-1])
    assert can_undo(RULES, table.game, first) and can_undo(RULES, table.game, second)
    assert not can_undo(RULES, table.game, last)
    assert undo_step(RULES, table.game, first).seat == first  # its own, under the other's
    table.play(first, UNDO)
    assert table.awaited() == {first, last}
    assert table.state.sealed_map().keys() == {second}
    table.play(first, RULES.legal_actions(table.state, first)[0])
    revealed = table.play(last, RULES.legal_actions(table.state, last)[0])
    assert any(isinstance(r.event, VotesRevealed) for r in revealed)
    assert not any(can_undo(RULES, table.game, seat) for seat in range(3))
    assert opened.phase == "vote"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_with_undos_returns_each_time_to_the_state_before_the_command(players):
    """Whatever is undone, the game is as it was before that command; the log with its undos
    replays to the game built command by command; no undo reaches past a draw or reveal."""
    rng = random.Random(f"undo-{players}")
    table = new_table(players, f"undo-{players}")
    state_at: dict[int, Any] = {table.game.version: table.state}
    undone_in: set[str] = set()
    while not RULES.is_over(table.state):
        assert len(table.log) < 20_000
        if RULES.system_action(table.state) is not None:
            table.resolve()
            state_at[table.game.version] = table.state
            continue
        undoers = [s for s in range(players) if can_undo(RULES, table.game, s)]
        if undoers and rng.random() < 0.35:
            seat = rng.choice(undoers)
            step = undo_step(RULES, table.game, seat)
            assert step is not None and step.seat == seat
            taken_back = [r for r in table.log if step.from_version <= r.version <= step.to_version]
            assert {r.actor for r in taken_back} == {seat}
            assert not any(is_barrier(r) for r in taken_back), "undone past a draw or reveal"
            phase = table.state.phase
            table.play(seat, UNDO)
            if not RULES.at_once.seats(state_at[step.from_version - 1]):
                assert table.state == state_at[step.from_version - 1]
            undone_in.add(phase)
        else:
            seat = rng.choice(sorted(table.awaited()))
            table.play(seat, rng.choice(list(RULES.legal_actions(table.state, seat))))
        state_at[table.game.version] = table.state
        if _ends_with_a_barrier(table.log):
            assert not any(can_undo(RULES, table.game, s) for s in range(players))
    assert replay(RULES, table.log) == table.game
    assert folded_one_by_one(RULES, table.log) == table.game
    assert {"management", "movement", "vote", "vote-card"} <= undone_in, undone_in


def _ends_with_a_barrier(log: list[Recorded]) -> bool:
    last = log[-1].command_id
    return any(is_barrier(r) for r in log if r.command_id == last)
