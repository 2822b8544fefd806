"""Turn models (domain/core/turns.py): sequential and sealed, simultaneous play, and undo per
seat under simultaneous play (contracts §7), on the toy Sealed Bids."""

from __future__ import annotations

import random

import pytest

from domain.core.errors import IllegalAction
from domain.core.kernel import replay
from domain.core.messages import Command, Recorded
from domain.core.table import ActionsUndone, skipped_ranges
from domain.core.turns import Sequential, Simultaneous, TurnTaking
from domain.core.undo import can_undo, table_actions
from tests.support.table import Table as _Table
from tests.support.table import folded_one_by_one
from tests.support.toy import (
    SealedBids,
    SealedBidsResolvedBySystem,
    ToyBidOpened,
    ToyBidSealed,
    ToyBidsRevealed,
    ToyState,
)

SEED = bytes(range(32))
UNDO = Command.of("undo")


def bid(chips: int) -> Command:
    return Command.of("bid", chips=chips)


class Table(_Table):
    """The toy Sealed Bids unless another ruleset is given."""

    def __init__(self, rules=None, players=("ann", "bob", "cy"), seed=SEED, **options):
        super().__init__(rules or SealedBids(), players, seed, **options)


# --- sealed, simultaneous commands -----------------------------------------------------------


def test_every_seat_that_has_not_sealed_its_command_is_awaited_at_once():
    table = Table()
    assert table.awaited() == {0, 1, 2}
    table.play(2, bid(1))
    assert table.awaited() == {0, 1}
    table.play(0, bid(4))
    assert table.awaited() == {1}


def test_a_sealed_command_is_private_to_its_seat_and_redacted_for_everyone_else():
    table = Table()
    (sealed,) = table.play(1, bid(4))
    assert isinstance(sealed.event, ToyBidSealed)
    assert sealed.seen_by(1)["data"] == {"seat": 1, "chips": 4}
    for viewer in (0, 2, None):
        assert sealed.seen_by(viewer)["data"] == {"seat": 1}
        assert "chips" not in str(sealed.seen_by(viewer))
    assert table.rules.view(table.state, 0)["sealed"] == {}
    assert table.rules.view(table.state, 1)["sealed"] == {"1": 4}


def test_the_resolving_step_is_due_only_once_every_awaited_seat_has_committed():
    table = Table(SealedBidsResolvedBySystem())
    for seat, chips in ((0, 1), (2, 3)):
        table.play(seat, bid(chips))
        assert table.rules.system_action(table.state) is None
    table.play(1, bid(2))
    assert table.awaited() == set()
    assert table.rules.system_action(table.state) == Command.of("open_bids", round=1)


def test_the_resolving_step_takes_sealed_commands_in_the_declared_order():
    table = Table(SealedBidsResolvedBySystem(), players=("ann", "bob", "cy", "dee"))
    seating = table.state.order
    assert list(seating) != sorted(seating), "the seed draws a seating other than seat order"
    for seat, chips in ((3, 1), (0, 4), (2, 0), (1, 2)):
        table.play(seat, bid(chips))
    events = [r.event for r in table.resolve()]
    opened = [e for e in events if isinstance(e, ToyBidOpened)]
    assert [(e.seat, e.chips) for e in opened] == [
        (seat, {3: 1, 0: 4, 2: 0, 1: 2}[seat]) for seat in seating
    ]
    assert events[-1] == ToyBidsRevealed(rule="toy.reveal", bids=(4, 2, 0, 1), winner=0)
    assert table.state.phase == "roll" and table.awaited() == {0}


def test_the_declared_order_puts_seats_it_does_not_name_last():
    model: Simultaneous[dict] = Simultaneous(
        seats=lambda s: range(4),
        sealed=lambda s: s,
        order=lambda s: (2, 0),
        round=lambda s: 1,
    )
    assert model.in_declared_order({0: "a", 1: "b", 3: "d", 2: "c"}) == [
        (2, "c"),
        (0, "a"),
        (1, "b"),
        (3, "d"),
    ]


def test_a_sequential_model_awaits_the_seat_it_names_and_keeps_one_undo_scope_per_turn():
    model: Sequential[tuple[int, int | None]] = Sequential(lambda s: s[1], turn=lambda s: s[0])
    assert model.awaited((1, 2)) == {2}
    assert model.awaited((1, None)) == set()
    assert model.undo_scope((1, 2)) != model.undo_scope((2, 2))
    assert model.undo_scope((1, 2)) != model.undo_scope((1, 0))
    assert not model.independent_seats
    assert model.resolving_step((1, 2)) is None


def test_the_toy_composes_its_turns_from_the_turn_models():
    assert isinstance(SealedBids(), TurnTaking)
    table = Table()
    assert table.rules.turn_model(table.state) is SealedBids.bidding
    for seat, chips in ((0, 3), (1, 1), (2, 0)):
        table.play(seat, bid(chips))
    assert table.rules.turn_model(table.state) is SealedBids.rolling
    assert table.awaited() == {0}


# --- undo per seat under simultaneous play ---------------------------------------------------


def test_a_seat_may_undo_its_sealed_bid_while_the_other_seat_has_committed_after_it():
    table = Table()
    (first,) = table.play(0, bid(3))
    table.play(1, bid(1))
    assert UNDO in table_actions(table.rules, table.game, 0)
    (undone,) = table.play(0, UNDO)
    assert isinstance(undone.event, ActionsUndone)
    assert (undone.event.seat, undone.event.undone_from, undone.event.undone_through) == (
        0,
        first.version,
        first.version,
    )
    assert table.state.sealed == {1: 1}, "the other seat's bid stays"
    assert table.awaited() == {0, 2}
    assert not can_undo(table.rules, table.game, 0), "nothing of seat 0 is left to undo"
    assert can_undo(table.rules, table.game, 1)
    table.play(0, bid(5))
    table.play(2, bid(2))
    revealed = table.log[-1].event
    assert isinstance(revealed, ToyBidsRevealed)
    assert revealed.bids == (5, 1, 2) and revealed.winner == 0


def test_the_seat_that_committed_later_may_undo_its_own_while_the_earlier_bid_stays():
    table = Table()
    table.play(0, bid(3))
    (second,) = table.play(1, bid(1))
    (undone,) = table.play(1, UNDO)
    assert (undone.event.undone_from, undone.event.undone_through) == (
        second.version,
        second.version,
    )
    assert table.state.sealed == {0: 3}
    assert table.awaited() == {1, 2}
    assert can_undo(table.rules, table.game, 0)


def test_a_seat_cannot_undo_another_seats_sealed_command():
    table = Table()
    table.play(0, bid(3))
    table.play(1, bid(1))
    assert not can_undo(table.rules, table.game, 2)
    assert UNDO not in table_actions(table.rules, table.game, 2)
    with pytest.raises(IllegalAction) as refused:
        table.play(2, UNDO)
    assert refused.value.rule == "toy.table"
    table.play(0, UNDO)
    with pytest.raises(IllegalAction):
        table.play(0, UNDO)
    assert table.state.sealed == {1: 1}, "seat 0's second undo took nothing of seat 1's"


def test_both_seats_may_undo_their_own_bids_in_either_order():
    table = Table(players=("ann", "bob", "cy", "dee"))
    table.play(0, bid(3))
    table.play(1, bid(1))
    table.play(2, bid(2))
    table.play(0, UNDO)
    table.play(2, UNDO)
    assert table.state.sealed == {1: 1}
    table.play(1, UNDO)
    assert table.state.sealed == {}
    assert table.awaited() == {0, 1, 2, 3}
    assert not any(can_undo(table.rules, table.game, seat) for seat in range(4))


def test_replay_skips_exactly_the_undone_sealed_command():
    table = Table()
    (first,) = table.play(0, bid(3))
    (second,) = table.play(1, bid(1))
    table.play(0, UNDO)
    (again,) = table.play(0, bid(2))
    assert skipped_ranges(table.log) == [(first.version, first.version)]
    kept = [r for r in table.log if r.version != first.version]
    assert replay(table.rules, table.log) == table.game
    assert folded_one_by_one(table.rules, table.log) == table.game
    assert folded_one_by_one(table.rules, kept).state == table.game.state
    assert table.state.sealed == {1: 1, 0: 2}
    assert second.version in {r.version for r in kept} and again.version > second.version


def test_nothing_can_be_undone_past_the_bid_that_reveals_every_bid():
    table = Table()
    table.play(0, bid(3))
    table.play(1, bid(1))
    table.play(2, bid(0))
    assert isinstance(table.log[-1].event, ToyBidsRevealed)
    for seat in range(3):
        assert not can_undo(table.rules, table.game, seat)
        with pytest.raises(IllegalAction):
            table.play(seat, UNDO)


def test_nothing_can_be_undone_past_the_resolving_system_step():
    table = Table(SealedBidsResolvedBySystem())
    for seat, chips in ((0, 3), (1, 1), (2, 0)):
        table.play(seat, bid(chips))
    assert can_undo(table.rules, table.game, 0), "the round is open until it is resolved"
    table.resolve()
    for seat in range(3):
        assert not can_undo(table.rules, table.game, seat)
        with pytest.raises(IllegalAction):
            table.play(seat, UNDO)


def test_an_undo_before_the_resolving_step_reopens_the_round():
    table = Table(SealedBidsResolvedBySystem())
    for seat, chips in ((0, 3), (1, 1), (2, 0)):
        table.play(seat, bid(chips))
    table.play(1, UNDO)
    assert table.rules.system_action(table.state) is None
    assert table.awaited() == {1}
    table.play(1, bid(4))
    table.resolve()
    assert table.state.chips == (2, 1, 5) and table.state.roller == 1


def test_nothing_can_be_undone_past_a_die_roll_or_into_the_previous_round():
    table = Table()
    for seat, chips in ((0, 3), (1, 1), (2, 0)):
        table.play(seat, bid(chips))
    (rolled,) = table.play(0, Command.of("roll"))
    assert rolled.event.draws
    assert not any(can_undo(table.rules, table.game, seat) for seat in range(3))
    assert table.state.round == 2
    table.play(1, bid(1))
    assert can_undo(table.rules, table.game, 1)
    assert not can_undo(table.rules, table.game, 0)


@pytest.mark.parametrize("seed", range(12))
def test_random_sealed_play_with_undos_replays_to_the_game_built_command_by_command(seed):
    rng = random.Random(seed)
    rules = (SealedBids, SealedBidsResolvedBySystem)[seed % 2]()
    players = ("ann", "bob", "cy", "dee")[: 2 + seed % 3]
    table = Table(rules, players=players, seed=rng.randbytes(32), rounds=3)
    undone = 0
    while not rules.is_over(table.state):
        if rules.system_action(table.state) is not None:
            table.resolve()
            continue
        undoers = [s for s in range(len(players)) if can_undo(rules, table.game, s)]
        if undoers and rng.random() < 0.5:
            seat = rng.choice(undoers)
            sealed = dict(table.state.sealed or {})
            table.play(seat, UNDO)
            del sealed[seat]
            assert table.state.sealed == sealed, "exactly the seat's own bid is taken back"
            undone += 1
            continue
        seat = rng.choice(sorted(table.awaited()))
        table.play(seat, rng.choice(list(rules.legal_actions(table.state, seat))))
    assert replay(rules, table.log) == table.game
    assert folded_one_by_one(rules, table.log) == table.game
    assert undone > 0


class _InLockstep(Simultaneous[ToyState]):
    independent_seats = False


class _LockstepBids(SealedBids):
    """The toy with bids that do not stand apart: the kernel's one undo stack, as in
    sequential play."""

    bidding = _InLockstep(
        seats=SealedBids.bidding.seats,
        sealed=SealedBids.bidding.sealed,
        order=SealedBids.bidding.order,
        round=SealedBids.bidding.round,
    )


def test_where_commands_do_not_stand_apart_only_the_last_commands_seat_may_undo():
    table = Table(_LockstepBids())
    table.play(0, bid(3))
    (second,) = table.play(1, bid(1))
    assert not can_undo(table.rules, table.game, 0)
    with pytest.raises(IllegalAction):
        table.play(0, UNDO)
    (undone,) = table.play(1, UNDO)
    assert (undone.event.undone_from, undone.event.undone_through) == (
        second.version,
        second.version,
    )
    assert can_undo(table.rules, table.game, 0)


def schema_1(envelope: dict) -> dict:
    """An undo or rewind as logs recorded it before schema 2: the range taken back as
    `from_version`..`to_version`."""
    data = envelope["data"]
    if envelope["type"] == "ActionsUndone":
        old = {"seat": data["seat"], "from_version": data["undone_from"]}
        old["to_version"] = data["undone_through"]
    else:
        old = {"from_version": data["to_version"] + 1, "to_version": data["undone_through"]}
        old["ordered_by"] = data["ordered_by"]
    return {**envelope, "schema_version": 1, "data": old}


def test_a_rewind_names_the_version_it_returns_to_as_to_version_like_its_proposal():
    table = Table()
    table.play(0, bid(3))
    (second,) = table.play(1, bid(1))
    proposed, *_ = table.play(2, Command.of("propose_rewind", to_version=second.version - 1))
    table.play(0, Command.of("accept_rewind"))
    *_, rewound = table.play(1, Command.of("accept_rewind"))
    assert proposed.event.to_version == second.version - 1
    assert rewound.event.to_version == second.version - 1, "the version returned to"
    assert rewound.event.undone_through == rewound.version - 1, "through the last answer"
    assert rewound.as_dict()["data"] == {
        "to_version": second.version - 1,
        "undone_through": rewound.version - 1,
        "ordered_by": "table",
    }
    assert rewound.as_dict()["schema_version"] == 2
    table.game = replay(table.rules, table.log)
    assert table.state.sealed == {0: 3}, "seat 1's bid no longer counts"


def test_undos_and_rewinds_stored_in_schema_1_read_as_the_same_events_and_replay_alike():
    table = Table()
    table.play(0, bid(3))
    table.play(1, bid(1))
    table.play(1, UNDO)
    (again,) = table.play(1, bid(2))
    table.play("admin", Command.of("order_rewind", to_version=again.version - 1))
    table.game = replay(table.rules, table.log)
    table.play(1, bid(4))
    kinds = {"ActionsUndone", "GameRewound"}
    old_log = [
        Recorded.from_dict(schema_1(r.as_dict()) if r.event.type in kinds else r.as_dict())
        for r in table.log
    ]
    assert sum(r.event.type in kinds for r in old_log) == 2
    assert [r.event for r in old_log] == [r.event for r in table.log]
    assert replay(table.rules, old_log) == table.game
    assert table.state.sealed == {0: 3, 1: 4}
