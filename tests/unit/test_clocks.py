"""A seat's clock runs only while the game awaits that seat, from the moment it became awaited
(issue 35, clocks): another seat's command neither restarts nor charges it, in a simultaneous
phase as in turns. Played through the kernel on the toy ruleset (sealed bids by every seat at
once, then the winner's roll), with each command recorded at a chosen instant."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.core.chance import Chance
from domain.core.errors import IllegalAction
from domain.core.kernel import creation_events, decision, fold, replay
from domain.core.messages import WORKER, Command, Recorded
from domain.core.seating import (
    HAND_TO_BOT,
    NOT_AWAITED,
    TAKE_BACK_SEAT,
    TIME_OUT,
    SeatTimedOut,
    TableOpened,
    decoded_seating,
    encoded_seating,
    table_clock,
)
from service.chance import HmacSource, commitment
from tests.support.toy import SealedBids

SEED = bytes(range(32))
T0 = 1_800_000_000_000
"""The instant the table is opened and started (every seat awaited for its bid)."""


class At:
    def __init__(self, ms: int) -> None:
        self.ms = ms

    def now_ms(self) -> int:
        return self.ms


def iso(ms: int) -> str:
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.isoformat(timespec="microseconds").replace("+00:00", "Z")


class Table:
    """A toy game at a started table under a clock, played command by command at chosen
    instants (milliseconds)."""

    def __init__(self, clock: dict, players: int = 3, per_seat: bool = True) -> None:
        self.rules = SealedBids()
        names = tuple(f"p{n}" for n in range(players))
        chance = Chance(HmacSource(SEED), 0)
        events = creation_events(self.rules, names, {"rounds": 2}, commitment(SEED), chance)
        opened = TableOpened(
            rule="toy.table",
            open_seats=(),
            listing="private",
            clock=table_clock(clock) if per_seat else clock,
            on_timeout="bot",
        )
        log = [Recorded(i, e, "system", "create", iso(T0)) for i, e in enumerate(events, 1)]
        log.append(Recorded(len(log) + 1, opened, "system", "create", iso(T0)))
        self.game = replay(self.rules, log)
        self.commands = 0

    def act(self, actor: int | str, command: Command, at_ms: int) -> list:
        chance = Chance(HmacSource(SEED), self.game.draws)
        events = decision(self.rules, self.game, actor, command, chance, At(at_ms)).events
        self.commands += 1
        for event in events:
            recorded = Recorded(
                self.game.version + 1, event, actor, f"c{self.commands}", iso(at_ms)
            )
            self.game = fold(self.rules, self.game, recorded)
        return events

    def bid(self, seat: int, at_ms: int, chips: int = 0) -> None:
        self.act(seat, Command.of("bid", chips=chips), at_ms)

    def deadline(self, seat: int) -> int | None:
        assert self.game.seating is not None
        return self.game.seating.deadline_ms(seat)

    def bank(self, seat: int) -> int:
        assert self.game.seating is not None
        return self.game.seating.banks_ms[seat]

    def awaited(self) -> list[int]:
        return sorted(self.rules.awaited_seats(self.game.state))

    def time_out(self, seat: int, at_ms: int) -> list:
        return self.act(WORKER, Command.of(TIME_OUT, seat=seat), at_ms)


MOVE = {"kind": "move", "per_move_ms": 10_000}
BANK = {"kind": "bank", "initial_ms": 60_000, "increment_ms": 5_000}


def test_in_a_simultaneous_bid_another_seats_bid_does_not_extend_a_seats_move_deadline() -> None:
    table = Table(MOVE)
    assert table.awaited() == [0, 1, 2]
    assert [table.deadline(s) for s in (0, 1, 2)] == [T0 + 10_000] * 3
    table.bid(1, T0 + 6_000)
    assert table.awaited() == [0, 2]
    assert table.deadline(0) == T0 + 10_000 and table.deadline(2) == T0 + 10_000


def test_a_seat_whose_move_deadline_passed_times_out_though_another_seat_moved_meanwhile() -> None:
    table = Table(MOVE)
    table.bid(1, T0 + 6_000)
    with pytest.raises(IllegalAction):
        table.time_out(0, T0 + 9_999)
    [timed_out] = table.time_out(0, T0 + 10_000)
    assert isinstance(timed_out, SeatTimedOut)
    assert (timed_out.seat, timed_out.deadline_ms) == (0, T0 + 10_000)


def test_a_bank_is_charged_for_the_time_its_own_seat_was_awaited_not_since_anothers_move() -> None:
    table = Table(BANK)
    table.bid(1, T0 + 20_000)
    assert table.bank(1) == 60_000 - 20_000 + 5_000
    table.bid(0, T0 + 30_000)  # thought for 30 s from the start of the bidding, not 10 s
    assert table.bank(0) == 60_000 - 30_000 + 5_000
    assert table.bank(2) == 60_000  # still bidding: not charged by the others' bids
    assert table.deadline(2) == T0 + 60_000


def test_a_seat_awaited_after_anothers_move_is_timed_from_that_move() -> None:
    table = Table(MOVE)
    table.bid(0, T0 + 1_000, chips=3)
    table.bid(1, T0 + 2_000)
    table.bid(2, T0 + 4_000)  # the last bid reveals them: seat 0 rolls
    assert table.awaited() == [0]
    assert table.deadline(0) == T0 + 4_000 + 10_000


def test_a_seat_that_is_not_awaited_handing_its_seat_over_does_not_restart_the_awaited_clock() -> (
    None
):
    table = Table(BANK)
    table.bid(0, T0 + 1_000, chips=3)
    table.bid(1, T0 + 2_000)
    table.bid(2, T0 + 4_000)  # seat 0 rolls, awaited from T0 + 4 s
    bank = table.bank(0)
    table.act(1, Command.of(HAND_TO_BOT, strategy="random"), T0 + 9_000)
    table.act(1, Command.of(TAKE_BACK_SEAT), T0 + 12_000)
    assert table.deadline(0) == T0 + 4_000 + bank
    table.act(0, Command.of("roll"), T0 + 14_000)
    assert table.bank(0) == bank - 10_000 + 5_000


def test_a_seats_own_move_starts_its_next_wait_anew() -> None:
    table = Table(MOVE)
    table.bid(0, T0 + 1_000, chips=3)
    table.bid(1, T0 + 2_000)
    table.bid(2, T0 + 4_000)
    table.act(0, Command.of("roll"), T0 + 7_000)  # the second round's bidding opens
    assert table.awaited() == [0, 1, 2]
    assert [table.deadline(s) for s in (0, 1, 2)] == [T0 + 17_000] * 3


def test_a_person_taking_a_seat_back_from_a_bot_is_timed_from_then() -> None:
    table = Table(MOVE)
    table.act(2, Command.of(HAND_TO_BOT, strategy="random"), T0 + 1_000)
    assert table.deadline(2) is None
    table.act(2, Command.of(TAKE_BACK_SEAT), T0 + 8_000)
    assert table.deadline(2) == T0 + 18_000 and table.deadline(0) == T0 + 10_000


def test_a_table_opened_before_per_seat_waits_folds_as_its_log_always_did() -> None:
    """Its TableOpened records no `waits`: one wait for every seat, restarted by any command."""
    table = Table(MOVE, per_seat=False)
    table.bid(1, T0 + 6_000)
    assert table.deadline(0) == T0 + 16_000
    assert table.game.seating is not None and table.game.seating.waits_ms == ()


def test_a_snapshot_keeps_each_seats_wait_and_an_older_snapshot_still_reads() -> None:
    table = Table(BANK)
    table.bid(1, T0 + 6_000)
    seating = table.game.seating
    assert seating is not None and seating.waits_ms == (T0, NOT_AWAITED, T0)
    assert decoded_seating(encoded_seating(seating)) == seating
    older = Table(BANK, per_seat=False).game.seating
    assert older is not None
    body = encoded_seating(older)
    assert "waits_ms" not in body and len(body["clock"]) == 4
    assert decoded_seating(body) == older
