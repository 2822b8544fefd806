"""The Patchistory ruling an audit found missing (issue 32, ruling 12), fixed in a revision of its
own: games created before it keep the order they were played in."""

from __future__ import annotations

import dataclasses

from domain.core.chance import Chance
from domain.patchistory.context import Ctx
from domain.patchistory.engine import proceed
from domain.patchistory.model import PState
from domain.patchistory.negotiation_and_war import WarChosen, begin_conflicts
from domain.patchistory.revisions import WAR_ORDER_CHOSEN
from tests.unit.patchistory.support import PACK, RULES, HmacSource, act, civ_of, fresh, of

WAR = PACK.general.index("war")


def seat_0_in_two_wars(revision: int) -> PState:
    """Seat 0 attacks seat 1 (Route 1) and is attacked by seat 2 (Route 3), in turn order from
    seat 0: when its turn comes it is involved in two Wars."""
    state = fresh(3)
    for route_id, aggressor in ((1, 0), (3, 2)):
        route = dataclasses.replace(
            state.route(route_id),
            workers=((aggressor, WAR),),
            declared=True,
            aggressors=(aggressor,),
        )
        state = state.with_route(route)
    for seat in range(3):
        state = civ_of(state, seat, resource=4)
    state = dataclasses.replace(state, phase="movement", turn=-1, pending=(), won=())
    c = Ctx(RULES.at_revision(revision).pack, state, Chance(HmacSource(b"wars"), 0))
    begin_conflicts(c)
    proceed(c)
    return c.state


def test_a_player_in_two_wars_at_its_turn_chooses_which_to_resolve_first() -> None:
    """ "If a player is involved in two Wars when it is their turn, they may choose which War to
    resolve first.\""""
    state = seat_0_in_two_wars(WAR_ORDER_CHOSEN)
    (asked,) = state.pending
    assert (asked.kind, asked.seat, asked.numbers) == ("war-order", 0, (1, 3))
    choices = {c.arg("route") for c in RULES.legal_actions(state, 0)}
    assert choices == {1, 3}
    state, events = act(state, 0, "choose_war", route=3)
    (chosen,) = of(events, WarChosen)
    assert chosen.rule == "patchistory.war.order"
    assert state.wars == (3, 1) and state.phase == "war" and set(state.sealing) == {0, 2}


def test_games_created_before_the_fix_resolved_the_wars_in_the_routes_order() -> None:
    state = seat_0_in_two_wars(WAR_ORDER_CHOSEN - 1)
    assert state.pending == () and state.wars == (1, 3) and set(state.sealing) == {0, 1}
