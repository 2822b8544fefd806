"""Movement, Negotiation and War, the Vote and the end of the game."""

from __future__ import annotations

import dataclasses

import pytest

from domain.core.messages import Command
from domain.patchistory import territory as terr
from domain.patchistory.construction import SquareReclaimed
from domain.patchistory.engine import proceed
from domain.patchistory.eras import GameFinished, end_era
from domain.patchistory.model import Placed, Route
from domain.patchistory.movement import RestOver, RouteWorkerMoved, WorkerMoved, begin_movement
from domain.patchistory.negotiation_and_war import (
    ConflictsFound,
    SidesRevealed,
    WarCalledOff,
    WarDeclared,
    WarResolved,
    WorkerLeftRoute,
    begin_conflicts,
    war_strength,
)
from domain.patchistory.patching import bounds, layer_z, patched, placements
from domain.patchistory.rounds import DecisionAwaited
from domain.patchistory.trade_routes import TradeRouteOpened
from domain.patchistory.vote import (
    ProsperityDiscarded,
    ProsperityRevealed,
    ProsperityScored,
    VotesForfeited,
    VotesRevealed,
    begin_vote,
    vote_culture,
    vote_ranks,
)
from domain.patchistory.workers import WorkerCameHome
from tests.unit.patchistory.support import (
    PACK,
    RULES,
    act,
    act_with,
    civ_of,
    ctx,
    fresh,
    of,
    square,
    with_capital,
)

PREP = PACK.general.index("preparation")
WAR = PACK.general.index("war")


def at_negotiation(route_workers=((0, PREP),)):
    state = fresh(3)
    state = state.with_route(dataclasses.replace(state.route(1), workers=route_workers))
    state = civ_of(state, 0, born=1, resource=5)
    state = civ_of(state, 1, resource=5)
    c = ctx(dataclasses.replace(state, phase="movement", turn=-1, pending=(), won=()))
    begin_conflicts(c)
    proceed(c)
    return c.state, c.events


def test_a_worker_on_the_preparation_space_opens_a_negotiation_between_the_route_ends():
    state, events = at_negotiation()
    (found,) = of(events, ConflictsFound)
    assert found.negotiations == (1,) and found.rule == "patchistory.negotiation.when"
    assert state.phase == "negotiation" and RULES.awaited_seats(state) == {0, 1}
    state, events = act(state, 1, "choose_side", blue=True)
    assert events[0].visibility.seats == frozenset({1}), "the choice is secret"
    assert events[0].rule == "patchistory.negotiation.choose"
    assert RULES.awaited_seats(state) == {0}


def test_both_blue_means_no_war_an_alliance_if_both_agree_and_the_worker_goes_home():
    state, _ = at_negotiation()
    state, _ = act(state, 0, "choose_side", blue=True)
    state, events = act(state, 1, "choose_side", blue=True)
    assert of(events, SidesRevealed)[0].blue == (True, True)
    assert of(events, SidesRevealed)[0].rule == "patchistory.negotiation.choose"
    (home,) = of(events, WorkerLeftRoute)
    assert home.rule == "patchistory.negotiation.blue", "the Worker goes home either way"
    assert RULES.awaited_seats(state) == {0}
    assert Command.of("propose_alliance", start=1) in RULES.legal_actions(state, 0)
    state, _ = act(state, 0, "propose_alliance", start=1)
    assert RULES.awaited_seats(state) == {1}
    state, events = act(state, 1, "accept_alliance")
    (route,) = of(events, TradeRouteOpened)
    assert (route.kind, route.a, route.b, route.rule) == (
        "allied",
        1,
        0,
        "patchistory.negotiation.alliance",
    )
    assert RULES.awaited_seats(state) == {0}, "the Worker comes home to a space of its choice"
    assert {m.type for m in RULES.legal_actions(state, 0)} == {"place_worker"}
    state, events = act(state, 0, "place_worker", row=1, col=1)
    assert of(events, WorkerCameHome)[0].rule == "patchistory.workers.return"
    assert state.route(1).workers == ()


def test_any_red_declares_war_the_aggressor_pays_its_preparation_and_the_worker_stays():
    state, _ = at_negotiation()
    state = dataclasses.replace(state, era=2)
    state, _ = act(state, 0, "choose_side", blue=False)
    state, events = act(state, 1, "choose_side", blue=True)
    (war,) = of(events, WarDeclared)
    assert war.aggressors == (0,) and war.paid == (1,) and war.rule == "patchistory.negotiation.red"
    assert state.civs[0].resource == 4
    assert state.route(1).workers == ((0, PREP),) and state.route(1).declared


def at_war(aggressors, military=(0, 0), defense=(0, 0), era=1):
    rules = with_capital([square((0, 0), "Palace", {"politics": 1})])
    state = fresh(3)
    for seat in (0, 1):
        state = civ_of(state, seat, workers=(), resource=10, culture=20)
    route = dataclasses.replace(
        state.route(1), workers=((0, WAR),), declared=True, aggressors=aggressors
    )
    state = state.with_route(route)
    state = civ_of(state, 0, born=1)
    state = dataclasses.replace(state, era=era, phase="movement", turn=-1, pending=(), won=())
    c = ctx(state)
    c.data = rules.pack
    begin_conflicts(c)
    proceed(c)
    return rules, c.state


WAR_EVENTS: dict[int, list] = {}


def fight(aggressors, spend0, spend1, era=1):
    rules, state = at_war(aggressors, era=era)
    assert state.phase == "war"
    state, _ = act_with(rules, state, 0, "commit_strength", resources=spend0, votes=0)
    state, events = act_with(rules, state, 1, "commit_strength", resources=spend1, votes=0)
    WAR_EVENTS[id(state)] = events
    return state, of(events, WarResolved)[0]


def _war_events(state):
    return WAR_EVENTS[id(state)]


def test_the_defender_wins_a_tie():
    _state, war = fight((0,), 2, 2)
    assert war.winners == (1,) and war.culture == (0, 3)
    assert war.rule == "patchistory.war.winner"
    assert war.cites[0] == "patchistory.war.strength"


def test_two_aggressors_tied_are_both_defeated():
    _state, war = fight((0, 1), 3, 3)
    assert war.winners == () and war.culture == (0, 0)


def test_an_aggressor_winning_gains_five_ten_fifteen_by_era():
    for era, gain in ((1, 5), (2, 10), (3, 15)):
        _, war = fight((0,), 3, 1, era=era)
        assert war.winners == (0,) and war.culture == (gain, 0)


def test_winning_by_five_or_more_also_takes_seven_culture_from_the_loser():
    state, war = fight((0,), 0, 5)
    assert war.winners == (1,) and war.culture == (-7, 3 + 7)
    assert "patchistory.war.spoils" in war.cites
    assert state.civs[0].culture == 13 and state.civs[0].resource == 10
    assert state.civs[1].resource == 5, "the Resources forfeited for Strength are gone"
    assert RULES.awaited_seats(state) == {0}, "the Worker comes home whatever the outcome"
    assert state.pending[0].kind == "return"
    (left,) = of(_war_events(state), WorkerLeftRoute)
    assert left.rule == "patchistory.war.worker-home"


def test_a_war_between_players_who_became_allies_is_not_fought():
    _rules, state = at_war((0,))
    state = dataclasses.replace(
        state,
        routes=(*state.routes, Route(50, "allied", 0, 1)),
        phase="movement",
        sealing=(),
        wars=(),
    )
    c = ctx(state)
    begin_conflicts(c)
    proceed(c)
    assert of(c.events, WarCalledOff)[0].rule == "patchistory.war.allies"
    assert not of(c.events, WarResolved)


# --- Movement -----------------------------------------------------------------------------------


def moving(transport, workers=((0, 0),), routes=()):
    rules = with_capital(
        [
            square((0, 0), "A", {"transport": transport}),
            square((0, 1), "B"),
            square((0, 2), "C"),
            square((1, 0), "D"),
            square((1, 1), "E"),
            square((1, 2), "F"),
        ]
    )
    state = fresh(3)
    state = civ_of(state, 0, workers=workers, born=len(workers) + len(routes))
    for route_id, space in routes:
        state = state.with_route(dataclasses.replace(state.route(route_id), workers=((0, space),)))
    state = dataclasses.replace(
        state, phase="movement", turn=0, passed=(), pending=(), won=(), moved=(), routes_moved=()
    )
    return rules, state


def test_a_worker_moves_orthogonally_up_to_the_transport_value():
    rules, state = moving(2)
    moves = {
        (m.arg("to_row"), m.arg("to_col"))
        for m in rules.legal_actions(state, 0)
        if m.type == "move_worker"
    }
    assert moves == {(0, 1), (0, 2), (1, 0), (1, 1)}, "(1,2) is three steps away"
    state, events = act_with(rules, state, 0, "move_worker", row=0, col=0, to_row=1, to_col=1)
    (moved,) = of(events, WorkerMoved)
    assert moved.rule == "patchistory.movement.territory" and state.civs[0].workers == ((1, 1),)


def test_a_trade_route_worker_must_move_forward_and_stops_on_the_preparation_space():
    rules, state = moving(6, workers=(), routes=((1, 2),))
    moves = rules.legal_actions(state, 0)
    assert Command.of("end_movement") not in moves, "it must move at least one space"
    steps = {m.arg("steps") for m in moves if m.type == "advance"}
    assert steps == set(range(1, PREP - 2 + 1))
    state, events = act_with(rules, state, 0, "advance", route=1, steps=PREP - 2)
    assert state.route(1).workers == ((0, PREP),)
    assert of(events, RouteWorkerMoved)[0].rule == "patchistory.movement.route"
    assert Command.of("end_movement") in rules.legal_actions(state, 0)


def test_a_worker_sent_to_rest_comes_home_at_the_end_of_the_next_movement():
    rules, state = moving(1, workers=(), routes=((1, 1),))
    state, events = act_with(rules, state, 0, "rest", route=1)
    assert of(events, RouteWorkerMoved)[0].rule == "patchistory.movement.rest"
    assert state.civs[0].resting == (state.serial,)
    state, events = act_with(rules, state, 0, "end_movement")
    assert not of(events, RestOver), "not this Round's Movement"
    state = dataclasses.replace(state, serial=state.serial + 1, phase="movement", turn=0, passed=())
    state, events = act_with(rules, state, 0, "end_movement")
    assert of(events, RestOver)[0].count == 1
    assert RULES.awaited_seats(state) == {0} and state.pending[0].kind == "return"


def test_with_no_transport_every_trade_route_worker_goes_to_rest():
    rules, state = moving(0, workers=(), routes=((1, 2),))
    state = dataclasses.replace(state, phase="management", turn=-1)
    c = ctx(state)
    c.data = rules.pack
    begin_movement(c)
    (rested,) = of(c.events, RouteWorkerMoved)
    assert rested.rest and rested.rule == "patchistory.movement.no-transport"


def test_an_allied_worker_reaching_the_far_start_returns_home_at_once():
    rules, state = moving(9, workers=())
    last = len(PACK.allied.spaces) - 1
    state = dataclasses.replace(
        state, routes=(*state.routes, Route(20, "allied", 0, 2, workers=((0, last - 1),)))
    )
    state = civ_of(state, 0, born=1)
    state, events = act_with(rules, state, 0, "advance", route=20, steps=1)
    moved = of(events, RouteWorkerMoved)[0]
    assert moved.home and moved.rule == "patchistory.movement.allied"
    assert state.pending[0].kind == "return"


# --- the Vote -----------------------------------------------------------------------------------


@pytest.mark.rulebook_example("patchistory.example.vote")
def test_the_full_voting_example():
    napoleon, gandhi, homer, elizabeth = range(4)

    def scored(votes, scores):
        ranks = vote_ranks(scores)
        return [vote_culture(place, votes, 4) for place in ranks]

    military = [4, 2, 1, 3]  # Napoleon 1st, Elizabeth 2nd, Gandhi 3rd, Homer 4th
    assert scored(15, military) == [15, 0, -7, 7]
    food = [1, 2, 5, 2]  # Homer 1st, Elizabeth and Gandhi tied 2nd, Napoleon 4th
    assert vote_ranks(food) == [4, 3, 1, 3]
    assert scored(10, food) == [-5, 0, 10, 0]
    wastelands = [0, 0, 0, 3]  # Elizabeth 1st, the other three tied 2nd
    assert vote_ranks(wastelands) == [4, 4, 4, 1]
    assert scored(11, wastelands) == [-5, -5, -5, 11]
    del napoleon, gandhi, homer, elizabeth


@pytest.mark.rulebook_example("patchistory.example.vote-ranks")
def test_a_seven_vote_card_gives_seven_three_nothing_and_takes_three():
    assert [vote_culture(p, 7, 4) for p in (1, 2, 3, 4)] == [7, 3, 0, -3]
    assert [vote_culture(p, 7, 3) for p in (1, 2, 3)] == [7, 3, 0]
    assert [vote_culture(p, 7, 2) for p in (1, 2)] == [7, 0]


def voting(players, votes):
    state = fresh(players)
    for seat in range(players):
        state = civ_of(state, seat, votes=votes[seat], workers=())
    state = dataclasses.replace(
        state, round=5, serial=5, phase="chichen", turn=-1, pending=(), won=()
    )
    c = ctx(state)
    begin_vote(c)
    return c.state


def test_the_cards_are_shuffled_face_up_and_the_fewest_voted_is_discarded():
    state = voting(3, (5, 5, 5))
    assert state.phase == "vote-card" and RULES.awaited_seats(state) == {0, 1, 2}
    hands = [state.civs[s].prosperity for s in range(3)]
    for seat in range(3):
        state, events = act(state, seat, "choose_card", card=hands[seat][0])
    (revealed,) = of(events, ProsperityRevealed)
    assert sorted(revealed.cards) == sorted(h[0] for h in hands)
    assert revealed.rule == "patchistory.vote.cards"
    assert revealed.draws, "the shuffle is drawn from the audited chance source"
    assert [len(state.civs[s].prosperity) for s in range(3)] == [2, 2, 2]
    plan = [(3, 0, 0), (1, 0, 0), (0, 2, 2)]
    for card_votes in plan:
        for seat in range(3):
            state, events = act(state, seat, "vote", votes=card_votes[seat])
    (discarded,) = of(events, ProsperityDiscarded)
    assert discarded.card == revealed.cards[1] and discarded.votes == 1
    assert discarded.rule == "patchistory.vote.discard"
    scored = of(events, ProsperityScored)
    assert [s.card for s in scored] == [revealed.cards[0], revealed.cards[2]]
    assert all(s.value == s.votes for s in scored)
    assert {(s.rule, s.cites) for s in scored} == {
        ("patchistory.vote.points", ("patchistory.vote.ties",))
    }
    assert of(events, VotesForfeited)[0].votes == (1, 3, 3)
    assert of(events, VotesForfeited)[0].rule == "patchistory.vote.forfeit"
    assert {e.rule for e in of(events, VotesRevealed)} == {"patchistory.vote.assign"}
    assert all(c.votes == 0 for c in state.civs)


def test_all_cards_tied_for_fewest_are_all_discarded():
    state = voting(3, (0, 0, 0))
    hands = [state.civs[s].prosperity for s in range(3)]
    for seat in range(3):
        state, _ = act(state, seat, "choose_card", card=hands[seat][0])
    for _ in range(3):
        for seat in range(3):
            state, events = act(state, seat, "vote", votes=0)
    assert len(of(events, ProsperityDiscarded)) == 3 and not of(events, ProsperityScored)


def test_two_players_score_both_cards_the_fewer_voted_at_half():
    state = voting(2, (6, 3))
    hands = [state.civs[s].prosperity for s in range(2)]
    for seat in range(2):
        state, _ = act(state, seat, "choose_card", card=hands[seat][0])
    for card_votes in ((6, 0), (0, 3)):
        for seat in range(2):
            state, events = act(state, seat, "vote", votes=card_votes[seat])
    scored = of(events, ProsperityScored)
    assert not of(events, ProsperityDiscarded)
    assert sorted((s.votes, s.value) for s in scored) == [(3, 1), (6, 6)]


def test_the_game_ends_after_the_third_era_with_the_most_culture_winning():
    state = fresh(3)
    state = dataclasses.replace(
        state,
        era=3,
        round=5,
        serial=15,
        phase="vote",
        sealing=(),
        vote_cards=(),
        votes_on=(),
        pending=(),
        won=(),
    )
    for seat, culture in enumerate((40, 55, 55)):
        state = civ_of(state, seat, culture=culture)
    c = ctx(state)
    end_era(c)
    (end,) = of(c.events, GameFinished)
    assert end.winners == (1, 2) and end.rule == "patchistory.game.end"
    assert RULES.is_over(c.state)
    result = RULES.result(c.state)
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(1, 1), (2, 1), (0, 3)]


def widest(state, tile):
    """The widest civilization any legal placement of the Tile's White side makes."""
    best = 0
    for row, col, layer in placements(PACK, state, 0, tile, "white"):
        placed = Placed(tile, "white", row, col, layer_z(state.civs[0], layer))
        after = patched(state.civs[0], placed, set())
        best = max(best, max(bounds(list(terr.shown(PACK, after)))))
    return best


def test_the_statue_of_liberty_lifts_the_patching_limit_once_patched():
    statue = next(
        t
        for t in PACK.era_tiles(3)
        if any(f.ability == "statue-of-liberty" for f in PACK.tiles[t].black.features)
    )
    wide = next(t for t in PACK.era_tiles(1) if PACK.tiles[t].white.size == (1, 3))
    state = fresh(3)
    base = state.civs[0].tiles
    with_statue = civ_of(state, 0, tiles=(*base, Placed(statue, "black", 0, 2, 1)))
    with_statue = civ_of(
        with_statue, 0, tiles=(*with_statue.civs[0].tiles, Placed(wide, "white", 1, 2, 2))
    )
    without = civ_of(state, 0, tiles=(*base, Placed(statue, "white", 0, 2, 1)))
    without = civ_of(without, 0, tiles=(*without.civs[0].tiles, Placed(wide, "white", 1, 2, 2)))
    assert terr.has(PACK, with_statue.civs[0], "statue-of-liberty")
    assert widest(without, wide) == 5, "the Era 1 limit holds"
    assert widest(with_statue, wide) > 5


def test_an_allied_worker_with_no_transport_left_goes_to_rest():
    """A Worker that moved off a Transport gold box leaves no Transport: the Allied route's
    Worker, which has no Rest space of its own, rests as the rule for no Transport says."""
    rules, state = moving(0, workers=())
    state = dataclasses.replace(
        state, routes=(*state.routes, Route(20, "allied", 0, 2, workers=((0, 1),)))
    )
    state = civ_of(state, 0, born=1)
    moves = rules.legal_actions(state, 0)
    assert moves == [Command.of("rest", route=20)]
    state, events = act_with(rules, state, 0, "rest", route=20)
    assert of(events, RouteWorkerMoved)[0].rule == "patchistory.movement.no-transport"
    assert Command.of("end_movement") in rules.legal_actions(state, 0)


def with_ability(rules, state, seat, ability):
    tile = next(
        t for t in PACK.tiles if any(f.ability == ability for f in PACK.tiles[t].black.features)
    )
    placed = Placed(tile, "black", 0, 2, len(state.civs[seat].tiles))
    return civ_of(state, seat, tiles=(*state.civs[seat].tiles, placed))


def test_jeanne_darc_lets_votes_as_well_as_resources_be_forfeited_for_strength():
    rules, state = at_war((0,))
    state = civ_of(with_ability(rules, state, 0, "jeanne-darc"), 0, votes=3)
    assert Command.of("commit_strength", resources=0, votes=3) in rules.legal_actions(state, 0)
    assert not any(m.arg("votes") for m in rules.legal_actions(state, 1)), "not without her"
    state, events = act_with(rules, state, 0, "commit_strength", resources=1, votes=3)
    assert events[0].rule == "patchistory.tile.jeanne-darc"
    state, events = act_with(rules, state, 1, "commit_strength", resources=0, votes=0)
    (war,) = of(events, WarResolved)
    assert war.votes == (3, 0) and war.totals[0] == war.base[0] + 1 + 3
    assert war.cites[:2] == ("patchistory.war.strength", "patchistory.tile.jeanne-darc")


def test_the_great_wall_defends_with_a_point_per_worker_and_is_cited_in_the_war():
    rules, state = at_war((0,))
    state = civ_of(with_ability(rules, state, 1, "great-wall"), 1, workers=((1, 1),), born=1)
    base = war_strength(rules.pack, state, state.route(1), 1)
    state, _ = act_with(rules, state, 0, "commit_strength", resources=0, votes=0)
    state, events = act_with(rules, state, 1, "commit_strength", resources=0, votes=0)
    (war,) = of(events, WarResolved)
    assert war.base[1] == base and "patchistory.tile.great-wall" in war.cites


def test_a_stealth_aircraft_winning_a_war_may_reclaim_one_of_the_losers_squares():
    rules, state = at_war((0,))
    state = with_ability(rules, state, 0, "stealth-aircraft")
    state, _ = act_with(rules, state, 0, "commit_strength", resources=6, votes=0)
    state, events = act_with(rules, state, 1, "commit_strength", resources=0, votes=0)
    (war,) = of(events, WarResolved)
    assert war.winners == (0,)
    (offer,) = of(events, DecisionAwaited)
    assert offer.rule == "patchistory.tile.stealth-aircraft" and offer.numbers == (1,)
    reclaim = next(m for m in rules.legal_actions(state, 0) if m.type == "stealth_reclaim")
    hand = len(state.civs[0].hand)
    state, events = act_with(rules, state, 0, "stealth_reclaim", **dict(reclaim.args))
    (done,) = of(events, SquareReclaimed)
    assert done.seat == 0 and len(state.civs[0].hand) == hand, "the Building Tile is replaced"


def test_a_worker_left_on_the_preparation_space_of_a_declared_war_moves_to_the_war_space():
    state = fresh(3)
    route = dataclasses.replace(
        state.route(1), workers=((0, PREP),), declared=True, aggressors=(0,)
    )
    state = civ_of(state.with_route(route), 0, born=1)
    c = ctx(dataclasses.replace(state, phase="management", turn=-1, pending=(), won=()))
    begin_movement(c)
    (forced,) = [e for e in of(c.events, RouteWorkerMoved) if e.forced]
    assert forced.rule == "patchistory.movement.war-space"
    assert (forced.frm, forced.to) == (PREP, WAR) and c.state.route(1).workers == ((0, WAR),)
