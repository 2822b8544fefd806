"""The seating's pure parts (domain.core.seating): time read from recorded instants and a
Timepiece only, banks charged once per command, timeouts decided only once the deadline passed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.core.errors import IllegalAction
from domain.core.messages import Command
from domain.core.seating import (
    RESIGN,
    TIME_OUT,
    SeatHandedToBot,
    SeatResigned,
    SeatTimedOut,
    TableAbandoned,
    TableOpened,
    TableStarted,
    clock_after_command,
    decide_seating,
    instant_ms,
    ranked_last,
    seating_after,
)


@dataclass
class FixedTime:
    at: int

    def now_ms(self) -> int:
        return self.at


@given(st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(2200, 1, 1)))
def test_an_instant_reads_as_the_milliseconds_datetime_gives(moment: datetime) -> None:
    moment = moment.replace(tzinfo=UTC)
    iso = moment.isoformat(timespec="microseconds").replace("+00:00", "Z")
    assert instant_ms(iso) == int(moment.timestamp()) * 1000 + moment.microsecond // 1000


def test_an_instant_that_is_not_one_reads_as_zero() -> None:
    assert instant_ms("") == 0 and instant_ms("yesterday") == 0


def opened(clock: dict, on_timeout: str = "bot"):
    ev = TableOpened(rule="r", open_seats=(), listing="private", clock=clock, on_timeout=on_timeout)
    return seating_after(None, 2, ev)


def test_a_bank_loses_the_time_taken_and_gains_the_increment() -> None:
    seating = opened({"kind": "bank", "initial_ms": 10_000, "increment_ms": 2_000})
    seating = clock_after_command(seating, None, 1_000_000)  # awaited from here
    seating = clock_after_command(seating, 0, 1_003_000)  # seat 0 took 3 s
    assert seating.banks_ms == (9_000, 10_000)
    assert seating.deadline_ms(1) == 1_003_000 + 10_000


def test_a_timeout_is_refused_before_the_deadline_and_decided_after_it() -> None:
    seating = clock_after_command(opened({"kind": "move", "per_move_ms": 5_000}), None, 100_000)
    command = Command.of(TIME_OUT, seat=1)
    with pytest.raises(IllegalAction):
        decide_seating(seating, 2, "worker", command, "r", [0, 1], FixedTime(104_999))
    with pytest.raises(IllegalAction):  # a seat not awaited never times out
        decide_seating(seating, 2, "worker", command, "r", [0], FixedTime(200_000))
    [ev] = decide_seating(seating, 2, "worker", command, "r", [0, 1], FixedTime(105_000))
    assert isinstance(ev, SeatTimedOut) and (ev.deadline_ms, ev.noticed_ms) == (105_000, 105_000)
    after = seating_after(seating, 2, ev)
    assert after.controllers[1] == "random" and after.deadline_ms(1) is None


def test_resigning_by_timeout_with_no_person_left_abandons_the_table() -> None:
    seating = opened({"kind": "move", "per_move_ms": 1_000}, on_timeout="resign")
    seating = clock_after_command(seating, None, 0)
    first = decide_seating(
        seating, 2, "worker", Command.of(TIME_OUT, seat=0), "r", [0, 1], FixedTime(5_000)
    )
    seating = seating_after(seating, 2, first[0])
    assert [type(e) for e in first] == [SeatTimedOut]
    second = decide_seating(
        seating, 2, "worker", Command.of(TIME_OUT, seat=1), "r", [1], FixedTime(5_000)
    )
    assert [type(e) for e in second] == [SeatTimedOut, TableAbandoned]
    for ev in second:
        seating = seating_after(seating, 2, ev)
    assert seating.abandoned and ranked_last([1, 0], seating) == [1, 0]


def test_time_is_never_imported_by_the_seating() -> None:
    import domain.core.seating as seating

    source = Path(seating.__file__).read_text(encoding="utf-8")
    assert "import time" not in source and "datetime" not in source


def test_a_seat_handed_to_a_bot_is_still_a_person_and_seated_bots_are_not() -> None:
    seating = opened({"kind": "none"})
    seating = seating_after(seating, 2, SeatHandedToBot(rule="r", seat=0, strategy="random"))
    [resigned] = decide_seating(seating, 2, 1, Command.of(RESIGN), "r", [0, 1])
    assert isinstance(resigned, SeatResigned)  # seat 0's person is still at the table
    table = seating_after(
        None,
        3,
        TableOpened(rule="r", open_seats=(1, 2), listing="public", clock={}, on_timeout="bot"),
    )
    table = seating_after(table, 3, TableStarted(rule="r", bot_seats=(1, 2), strategy="random"))
    events = decide_seating(table, 3, 0, Command.of(RESIGN), "r", [0])
    assert [type(e) for e in events] == [SeatResigned, TableAbandoned]  # only bots stay


@pytest.mark.parametrize(
    ("name", "reading"),
    [
        ("hotw-2024", "hotw24.table.seats"),
        ("hotw-ah2001", "ah2001.table.seats"),
        ("brief-2009", "brief.table.seats"),
        ("patchistory", "patchistory.table.seats"),
    ],
)
def test_a_seat_resigning_cites_its_rulesets_reading_of_what_its_pieces_do(
    name: str, reading: str
) -> None:
    """Each ruleset says what a resigned seat's pieces do (its catalogue's `table.seats`), and
    the resignation cites that reading."""
    from dataclasses import replace

    from domain.core.kernel import Game
    from domain.core.ruleset import Setup
    from domain.core.seated import seating_decision
    from service.rulesets import ruleset

    rules = ruleset(name)
    players = tuple(f"p{i}" for i in range(rules.player_counts[0]))
    setup = Setup(name, players, rules.check_options({}), "", rules.revision)
    game = Game(setup, 1, 0, rules.initial_state(setup))
    table = TableOpened(
        rule="r", open_seats=(), listing="private", clock={"kind": "none"}, on_timeout="bot"
    )
    game = replace(game, seating=seating_after(None, len(players), table))
    [resigned, *_] = seating_decision(rules, game, 0, Command.of(RESIGN), None)
    assert isinstance(resigned, SeatResigned)
    assert resigned.rule == reading
