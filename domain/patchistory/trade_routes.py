"""Trade Routes (the rulebook's description of them, and patchistory.setup.trade-routes): the
routes between two players, General (from one to the other) or Allied, opened and forfeited.
A route between two players is the only way to interact with them (Aid, Threaten) and to go to
War; its spaces yield Goods to the Workers on them."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.patchistory.context import FOLDS, PatchEvent, goods_changed, spend_points
from domain.patchistory.model import Pending, PState, Route
from domain.patchistory.pack import PatchPack

ROUTE = "The Trade Route."
"""A Trade Route argument's description."""


UNCITED_RULES = ("patchistory.components.finite",)
"""The clauses this module decides that no event or refusal carries."""


def allied(state: PState, seat: int, other: int) -> bool:
    return any(r.kind == "allied" and r.joins(seat, other) for r in state.routes)


def connected(state: PState, seat: int, other: int, general_only: bool = False) -> bool:
    return any(
        r.joins(seat, other) and (r.kind == "general" or not general_only) for r in state.routes
    )


def used(state: PState, kind: str) -> int:
    """The Trade Routes of `kind` on the table (the supply holds a fixed number:
    patchistory.components.finite)."""
    return sum(1 for r in state.routes if r.kind == kind)


@event
class TradeRouteOpened(PatchEvent):
    """A Trade Route placed on the table: General (from `a` to `b`) or Allied."""

    route: int
    kind: str
    a: int
    b: int
    seat: int = -1
    """Who built it (-1: the set-up or an Alliance)."""
    resources: int = 0
    points: int = 0


@FOLDS.handles(TradeRouteOpened)
def _route(pack: PatchPack, state: PState, ev: TradeRouteOpened) -> PState:
    state = evolved(
        state,
        routes=(*state.routes, Route(ev.route, ev.kind, ev.a, ev.b)),
        next_route=max(state.next_route, ev.route + 1),
    )
    if ev.seat >= 0:
        state = goods_changed(state, ev.seat, resource=-ev.resources)
        state = spend_points(state, ev.seat, ev.points)
        if ev.kind == "general":
            state = state.with_flag(ev.seat, "built-route")
    return state


@event
class TradeRouteForfeited(PatchEvent):
    """A Trade Route back to the supply (Break Alliance, Schwerer Gustav); its Workers wait to
    be placed home."""

    route: int
    seat: int
    votes: int = 0
    points: int = 0


@FOLDS.handles(TradeRouteForfeited)
def _route_gone(pack: PatchPack, state: PState, ev: TradeRouteForfeited) -> PState:
    route = state.route(ev.route)
    pending = tuple(Pending("return", owner) for owner, _ in route.workers)
    state = evolved(
        state,
        routes=tuple(r for r in state.routes if r.id != ev.route),
        pending=(*state.pending, *pending),
    )
    state = goods_changed(state, ev.seat, votes=ev.votes)
    state = spend_points(state, ev.seat, ev.points)
    return state.with_flag(ev.seat, "diplomacy") if ev.votes else state
