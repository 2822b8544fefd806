"""Workers sharing a space (issue 49, 5; patchistory.movement.one-per-space, revision 5): "At the
end of Movement, be sure that there is only one Worker per space. Only during Movement may you
have more than one Worker on a space." A Worker may stop on an occupied space, so two Workers can
swap; the Movement ends only once no two share a space; games of revision 4 keep the old rule."""

from __future__ import annotations

import dataclasses

import pytest

from domain.core.errors import RuleViolation
from domain.core.messages import Command
from domain.patchistory import invariants
from domain.patchistory.engine import LISTED
from domain.patchistory.movement import WorkerCrowdedOut, WorkerMoved
from domain.patchistory.narration import worker_crowded_out
from domain.patchistory.revisions import WORKERS_SHARE_DURING_MOVEMENT
from tests.unit.patchistory.support import act_with, civ_of, fresh, of, square, with_capital

END = Command.of("end_movement")


def moving(transport: int, workers, moved=(), routes=(), revision=WORKERS_SHARE_DURING_MOVEMENT):
    """Seat 0's Movement on a 2x3 territory (A B C over D E F), A showing `transport`."""
    rules = with_capital(
        [
            square((0, 0), "A", {"transport": transport}),
            square((0, 1), "B"),
            square((0, 2), "C"),
            square((1, 0), "D"),
            square((1, 1), "E"),
            square((1, 2), "F"),
        ]
    ).at_revision(revision)
    state = fresh(3)
    state = civ_of(state, 0, workers=tuple(sorted(workers)), born=len(workers) + len(routes))
    for route_id, space in routes:
        state = state.with_route(dataclasses.replace(state.route(route_id), workers=((0, space),)))
    state = dataclasses.replace(
        state, phase="movement", turn=0, passed=(), pending=(), won=(), moved=moved, routes_moved=()
    )
    return rules, state


def move(row: int, col: int, to_row: int, to_col: int) -> Command:
    return Command.of("move_worker", row=row, col=col, to_row=to_row, to_col=to_col)


def listed(rules, state) -> list[Command]:
    return list(rules.legal_actions(state, 0))


def agrees_with_the_listing(rules, state) -> None:
    """The quick predicates of the engine (LISTED) say what the listing says."""
    actions = listed(rules, state)
    for command in [*actions, END, move(0, 0, 0, 1), move(0, 1, 0, 0), move(0, 1, 1, 1)]:
        check = LISTED.get(("movement", command.type))
        if check is not None:
            assert check(rules.pack, state, 0, command) == (command in actions), command


def test_only_during_movement_may_you_have_more_than_one_worker_on_a_space() -> None:
    """Two Workers swap: the first stops on the second's space, the second moves on."""
    rules, state = moving(1, [(0, 0), (0, 1)])
    assert move(0, 0, 0, 1) in listed(rules, state)
    agrees_with_the_listing(rules, state)
    state, events = act_with(rules, state, 0, "move_worker", row=0, col=0, to_row=0, to_col=1)
    assert of(events, WorkerMoved)[0].rule == "patchistory.movement.territory"
    assert state.civs[0].workers == ((0, 1), (0, 1))
    assert invariants.failures(rules.pack, state) == []
    assert listed(rules, state) == [move(0, 1, 0, 0), move(0, 1, 0, 2), move(0, 1, 1, 1)]
    agrees_with_the_listing(rules, state)
    state, _ = act_with(rules, state, 0, "move_worker", row=0, col=1, to_row=0, to_col=0)
    assert state.civs[0].workers == ((0, 0), (0, 1))
    assert listed(rules, state) == [END]
    agrees_with_the_listing(rules, state)


def test_at_the_end_of_movement_be_sure_that_there_is_only_one_worker_per_space() -> None:
    """Ending the Movement, or starting the Trade Route moves, while two share a space is
    refused in words, citing the rule."""
    rules, state = moving(1, [(0, 0), (0, 1)], routes=((1, 1),))
    state, _ = act_with(rules, state, 0, "move_worker", row=0, col=0, to_row=0, to_col=1)
    assert not [c for c in listed(rules, state) if c.type in ("advance", "rest", "end_movement")]
    for kind, args in (("end_movement", {}), ("advance", {"route": 1, "steps": 1})):
        with pytest.raises(RuleViolation) as refused:
            act_with(rules, state, 0, kind, **args)
        assert refused.value.rule == "patchistory.movement.one-per-space"
        assert "Two of your Workers share a space (the square one east of the Capital's top " in (
            str(refused.value)
        )
        assert "only one Worker per space" in str(refused.value)


def test_a_worker_may_not_stop_on_the_space_of_a_worker_that_has_moved() -> None:
    """Each Worker moves once: a moved Worker stays, so none may join it (they could never part
    again); a Worker may join one that has not moved (the swap)."""
    rules, state = moving(1, [(0, 0), (0, 1)])
    state, _ = act_with(rules, state, 0, "move_worker", row=0, col=0, to_row=1, to_col=0)
    assert move(0, 1, 1, 1) in listed(rules, state)
    assert [c for c in listed(rules, state) if (c.arg("to_row"), c.arg("to_col")) == (1, 0)] == []
    agrees_with_the_listing(rules, state)
    with pytest.raises(RuleViolation):
        act_with(rules, state, 0, "move_worker", row=0, col=1, to_row=1, to_col=0)


def test_games_of_revision_four_never_stop_on_an_occupied_space() -> None:
    rules, state = moving(1, [(0, 0), (0, 1)], revision=WORKERS_SHARE_DURING_MOVEMENT - 1)
    assert move(0, 0, 0, 1) not in listed(rules, state)
    assert move(0, 0, 1, 0) in listed(rules, state) and END in listed(rules, state)
    agrees_with_the_listing(rules, state)


def test_workers_no_move_can_part_leave_the_space_at_the_end_of_the_movement() -> None:
    """The playable reading when no move can part two Workers (both have moved: the Transport
    fell as they moved): ending the Movement sends one of them home to a free space of its
    player's choice (patchistory.workers.return)."""
    rules, state = moving(1, [(0, 1), (0, 1)], moved=((0, 1), (0, 1)))
    assert listed(rules, state) == [END]
    agrees_with_the_listing(rules, state)
    state, events = act_with(rules, state, 0, "end_movement")
    (crowded,) = of(events, WorkerCrowdedOut)
    assert (crowded.rule, crowded.at) == ("patchistory.movement.one-per-space", (0, 1))
    assert state.civs[0].workers == ((0, 1),)
    assert state.pending[0].kind == "return" and state.pending[0].seat == 0
    places = [c for c in rules.legal_actions(state, 0) if c.type == "place_worker"]
    assert Command.of("place_worker", row=0, col=1) not in places and len(places) == 5
    assert invariants.failures(rules.pack, state) == []


def test_a_worker_crowded_out_is_told_in_words() -> None:
    class Names:
        def seat(self, seat: int) -> str:
            return ["Ann", "Bob"][seat]

    text = worker_crowded_out({"data": {"seat": 0, "at": [0, 1]}}, Names())  # type: ignore[arg-type]
    assert text == (
        "Worker crowded out: Ann's Worker on the square one east of the Capital's top left "
        "square still shared its space when no move could part them; it comes home to a free "
        "space of Ann's choice."
    )


def test_two_workers_on_one_space_outside_movement_still_break_the_invariant() -> None:
    rules, state = moving(1, [(0, 1), (0, 1)])
    assert invariants.failures(rules.pack, state) == []
    later = dataclasses.replace(state, phase="production")
    assert "seat 0: two Workers on one space" in invariants.failures(rules.pack, later)


def test_the_newest_revision_is_the_one_workers_share_a_space_in() -> None:
    from tests.unit.patchistory.support import RULES

    assert RULES.revision == WORKERS_SHARE_DURING_MOVEMENT
    described = RULES.describe()["revisions"][-1]
    assert "Only during Movement may you have more than one Worker" in described["summary"]
    assert described["rules"][0] == "patchistory.movement.one-per-space"
    entry = RULES.pack.rules.get("patchistory.movement.one-per-space")
    assert entry is not None and "revision 5" in entry.reading
