"""The Patchistory oracle (tests/oracle/patchistory.py) is a real check: fed a game whose
events were tampered with (a ruling the rulebook forbids), it names the event; and its Vote
reproduces the rulebook's Full Example of Voting. Wars are rare in random play (a few games in a
hundred), so its war rulings are shown on positions built here. Its agreement with untampered
random games of every player count and Capital side is checked in
tests/oracle/test_oracle_agreement.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from domain.patchistory.model import Civ, PState, Route
from service.rulesets import ruleset
from tests.oracle.patchistory import PatchistoryOracle, lowered_ranks_valid, vote_culture
from tests.oracle.tampering import tampered_problems

NAME = "patchistory"


def kind(name: str, also: Callable[[Any, Any], bool] = lambda b, e: True) -> Any:
    return lambda before, event: type(event).__name__ == name and also(before, event)


def rebid(before: Any, event: Any) -> bool:
    return before.bids[event.seat] >= 0


def on_claimed_tile(before: Any, event: Any) -> bool:
    return any(s != event.seat and t == event.tile for s, t in enumerate(before.bids) if t >= 0)


def highest_other(before: Any, event: Any) -> int:
    return max(
        before.amounts[s] for s, t in enumerate(before.bids) if s != event.seat and t == event.tile
    )


def match_the_highest(before: Any, event: Any) -> Any:
    had = before.amounts[event.seat] if before.bids[event.seat] >= 0 else 0
    amount = highest_other(before, event)
    return replace(event, amount=amount, added=amount - had)


CASES: dict[str, tuple[Callable[[Any, Any], bool], Callable[[Any, Any], Any], str, int]] = {
    "once coin has been added to the auction it may not be removed": (
        kind("BidPlaced", rebid),
        lambda b, e: replace(e, amount=e.amount - 1),
        "may not be removed",
        6,
    ),
    "beat the bid of a claimed tile by at least 1 more coin than the highest bid": (
        kind("BidPlaced", on_claimed_tile),
        match_the_highest,
        "is highest",
        6,
    ),
    "bidding ends immediately when all tiles have a bid on them: not before": (
        kind("BidPlaced", lambda b, e: e.next != -1),
        lambda b, e: replace(e, next=-1),
        "exactly one bid",
        6,
    ),
    "each player forfeits the coin they committed to the auction": (
        kind("TileWon"),
        lambda b, e: replace(e, paid=e.paid + 1),
        "paid",
        6,
    ),
    "each player gains culture according to the votes and their rank": (
        kind("ProsperityScored", lambda b, e: e.votes > 0),
        lambda b, e: replace(e, culture=tuple(c + 1 for c in e.culture)),
        "ranked",
        6,
    ),
    "discard the card with the fewest number of votes: not another": (
        kind("ProsperityDiscarded"),
        lambda b, e: replace(e, votes=e.votes + 1),
        "not the fewest",
        6,
    ),
    "forfeit food equal to the highest value shown on your descendant track": (
        kind("Maintained", lambda b, e: e.what == "workers"),
        lambda b, e: replace(e, food=e.food + 1),
        "fed its Workers",
        6,
    ),
    "gain goods from workers on trade routes: what their spaces show": (
        kind("GoodsProduced"),
        lambda b, e: replace(e, routes=(e.routes[0] + 1, *e.routes[1:])),
        "from Trade Routes",
        6,
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_oracle_names_a_ruling_the_rulebook_forbids(case: str) -> None:
    match, change, words, games = CASES[case]
    found = tampered_problems(NAME, match, change, games=games)
    assert any(words in problem for problem in found), found


def test_the_full_example_of_voting_gives_fifteen_seven_nothing_and_minus_seven() -> None:
    assert [vote_culture(4, rank, 15, 15) for rank in (1, 2, 3, 4)] == [15, 7, 0, -7]


def test_two_players_tied_for_second_are_both_third_and_three_tied_are_all_fourth() -> None:
    assert lowered_ranks_valid((1, 3, 3, 4))  # Food production: Homer, Elizabeth, Gandhi
    assert lowered_ranks_valid((1, 4, 4, 4))  # Wastelands: Elizabeth, then three tied
    assert not lowered_ranks_valid((1, 2, 2, 4))  # ties must be lowered
    assert [vote_culture(4, r, 10, 10) for r in (1, 3, 3, 4)] == [10, 0, 0, -5]


def war_position(era: int, culture: tuple[int, int]) -> PState:
    civs = tuple(Civ(capital="c", culture=c) for c in culture)
    route = Route(id=1, kind="general", a=0, b=1, declared=True, aggressors=(0,))
    return PState(
        players=2, names=("a", "b"), capital_side="liberty", civs=civs, era=era, routes=(route,)
    )


def resolved(totals: tuple[int, int], winners: tuple[int, ...], culture: tuple[int, int]) -> Any:
    from types import SimpleNamespace

    return SimpleNamespace(
        route=1,
        seats=(0, 1),
        base=totals,
        resources=(0, 0),
        votes=(0, 0),
        totals=totals,
        winners=winners,
        culture=culture,
    )


def test_a_defender_winning_by_five_or_more_gains_three_and_seven_culture_from_the_loser() -> None:
    oracle = PatchistoryOracle(ruleset(NAME).pack)
    state = war_position(1, (10, 0))
    assert oracle._WarResolved(state, resolved((0, 5), (1,), (-7, 10)), state) == []
    assert oracle._WarResolved(state, resolved((2, 2), (1,), (0, 3)), state) == []
    assert oracle._WarResolved(state, resolved((2, 2), (0,), (5, 0)), state)


def test_a_tie_between_two_aggressors_defeats_both_and_the_higher_total_wins() -> None:
    oracle = PatchistoryOracle(ruleset(NAME).pack)
    state = war_position(1, (10, 10))
    both = replace(state, routes=(replace(state.routes[0], aggressors=(0, 1)),))
    assert oracle._WarResolved(both, resolved((4, 4), (), (0, 0)), both) == []
    assert oracle._WarResolved(both, resolved((4, 4), (1,), (0, 3)), both)
    assert oracle._WarResolved(state, resolved((4, 3), (1,), (0, 3)), state)


def test_each_aggressor_forfeits_the_war_preparation_cost_of_the_era() -> None:
    from types import SimpleNamespace

    oracle = PatchistoryOracle(ruleset(NAME).pack)
    state = replace(war_position(2, (0, 0)), civs=(Civ(capital="c", resource=4), Civ("c")))
    oracle.sides = {0: False, 1: True}
    declared = SimpleNamespace(route=1, aggressors=(0,), paid=(1,))
    assert oracle._WarDeclared(state, declared, state) == []
    assert oracle._WarDeclared(state, replace_ns(declared, paid=(2,)), state)
    assert oracle._WarDeclared(state, replace_ns(declared, aggressors=(1,), paid=(0,)), state)


def replace_ns(namespace: Any, **changes: Any) -> Any:
    from types import SimpleNamespace

    return SimpleNamespace(**{**vars(namespace), **changes})


def test_the_loser_pays_what_culture_it_has_and_an_aggressor_wins_ten_in_the_second_era() -> None:
    oracle = PatchistoryOracle(ruleset(NAME).pack)
    state = war_position(2, (0, 3))
    assert oracle._WarResolved(state, resolved((9, 1), (0,), (13, -3)), state) == []


# --- Movement: one Worker per space at its end (revision 5) -------------------------------------


def movement_position(workers: tuple[tuple[int, int], ...]) -> PState:
    from tests.unit.patchistory.support import civ_of, fresh

    state = civ_of(fresh(3), 0, workers=workers, born=len(workers))
    return replace(state, phase="movement", turn=0, passed=(), pending=(), moved=())


def test_the_oracle_reads_a_stop_on_an_occupied_square_by_the_games_revision() -> None:
    """ "Only during Movement may you have more than one Worker on a space": since revision 5
    a Worker may stop where another stands; a game of revision 4 never."""
    from domain.patchistory.movement import WorkerMoved

    before = movement_position(((0, 0), (0, 1)))
    moved = WorkerMoved(rule="patchistory.movement.territory", seat=0, frm=(0, 0), to=(0, 1))
    after = movement_position(((0, 1), (0, 1)))
    newest = PatchistoryOracle(ruleset(NAME).pack)
    assert newest.observe(before, moved, after) == []
    assert newest.checked["a Worker stopped on an occupied square"] == 1
    old = PatchistoryOracle(ruleset(NAME).at_revision(4).pack)
    assert any("where a Worker stands" in p for p in old.observe(before, moved, after))
    again = WorkerMoved(rule="patchistory.movement.territory", seat=0, frm=(0, 1), to=(0, 2))
    parted = movement_position(((0, 1), (1, 1)))  # the Worker that moved to (0, 1) alone there
    assert any("twice" in p for p in newest.observe(parted, again, parted))


def test_the_oracle_names_a_movement_ended_with_two_workers_on_one_square() -> None:
    from domain.patchistory.movement import WorkerCrowdedOut
    from domain.patchistory.rounds import TurnPassed

    shared = movement_position(((0, 1), (0, 1)))
    oracle = PatchistoryOracle(ruleset(NAME).pack)
    ended = TurnPassed(rule="patchistory.movement.territory", seat=0, next=1)
    assert any(
        "ended its Movement with two Workers" in p for p in oracle.observe(shared, ended, shared)
    )
    alone = movement_position(((0, 1), (1, 1)))
    out = WorkerCrowdedOut(rule="patchistory.movement.one-per-space", seat=0, at=(0, 1))
    assert any("sharing nothing" in p for p in oracle.observe(alone, out, alone))
    assert oracle.observe(shared, out, alone) == []
