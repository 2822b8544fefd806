"""Movement (patchistory.movement.*): in turn order, Workers move within the territory up to
the Transport (patchistory.movement.territory) and forward on Trade Routes
(patchistory.movement.route), to a General route's Rest/Return space (patchistory.movement.rest),
home from an Allied route's far end (patchistory.movement.allied); a Worker on a declared War's
Preparation space goes to its War space (patchistory.movement.war-space), and without Transport
the Workers on routes rest (patchistory.movement.no-transport)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.patchistory import territory as terr
from domain.patchistory.context import (
    COMMANDS,
    FOLDS,
    Ctx,
    PatchEvent,
    civ_changed,
    rule,
    without_worker,
)
from domain.patchistory.model import Cell, Pending, PState, Route
from domain.patchistory.pack import PatchPack
from domain.patchistory.rounds import PhaseBegan, pass_turn, refused_by
from domain.patchistory.trade_routes import ROUTE
from domain.patchistory.workers import cell, cell_args


def begin_movement(ctx: Ctx) -> None:
    state = ctx.state
    pack = ctx.pack
    ctx.emit(PhaseBegan(rule=rule("movement.territory"), phase="movement", seats=state.in_order()))
    war_space = pack.general.index("war")
    prep = pack.general.index("preparation")
    for route in state.routes:
        for owner, space in route.workers:
            if route.declared and space == prep:
                ctx.emit(
                    RouteWorkerMoved(
                        rule=rule("movement.war-space"),
                        seat=owner,
                        route=route.id,
                        frm=space,
                        to=war_space,
                        forced=True,
                    )
                )
    for seat in state.in_order():
        if terr.statuses(pack, ctx.state, seat)["transport"] > 0:
            continue
        for route in ctx.state.routes:
            at = route.worker_of(seat)
            if at is None or (route.kind == "general" and at >= prep):
                continue
            ctx.emit(
                RouteWorkerMoved(
                    rule=rule("movement.no-transport"),
                    seat=seat,
                    route=route.id,
                    frm=at,
                    to=at,
                    rest=True,
                    forced=True,
                )
            )


def route_to_move(pack: PatchPack, state: PState, seat: int, route: Route) -> bool:
    space = route.worker_of(seat)
    if space is None or route.id in state.routes_moved:
        return False
    if route.kind == "general":
        return space < pack.general.index("preparation")
    return True


def route_target(pack: PatchPack, route: Route, seat: int, space: int, steps: int) -> int | None:
    """Where `steps` forward lead on the route (None: past where the Worker must stop)."""
    if route.kind == "general":
        target = space + steps
        return target if target <= pack.general.index("preparation") else None
    last = len(pack.allied.spaces) - 1
    forward = route.a == seat
    target = space + steps if forward else space - steps
    return target if 0 <= target <= last else None


END = Command.of("end_movement")


def is_listed_end(pack: PatchPack, state: PState, seat: int, command: Command) -> bool:
    """`movement_actions` ends the Movement once no Worker on a route is left to move."""
    return command == END and not any(
        route_to_move(pack, state, seat, route) for route in state.routes
    )


def is_listed_move(pack: PatchPack, state: PState, seat: int, command: Command) -> bool:
    """Whether `movement_actions` lists this Worker's move: its own condition, for the one
    Worker named (the listing works out every Worker's reach)."""
    names = ("row", "col", "to_row", "to_col")
    try:
        row, col, to_row, to_col = (int(command.arg(name)) for name in names)
    except (TypeError, ValueError, OverflowError):
        return False
    if command != Command.of("move_worker", row=row, col=col, to_row=to_row, to_col=to_col):
        return False
    civ, at = state.civs[seat], (row, col)
    if state.routes_moved or at not in civ.workers or at in state.moved:
        return False
    transport = terr.statuses(pack, state, seat)["transport"]
    if transport <= 0:
        return False
    anchor = terr.spaces(pack, civ)
    taken = {anchor.get(w, w) for w in civ.workers}
    return (to_row, to_col) in terr.reachable(pack, civ, at, transport) - taken


def movement_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    civ = state.civs[seat]
    transport = terr.statuses(pack, state, seat)["transport"]
    if not state.routes_moved and transport > 0:
        anchor = terr.spaces(pack, civ)
        taken = {anchor.get(w, w) for w in civ.workers}
        for at in civ.workers:
            if at in state.moved:
                continue
            for to in sorted(terr.reachable(pack, civ, at, transport) - taken):
                yield Command.of("move_worker", row=at[0], col=at[1], to_row=to[0], to_col=to[1])
    pending_routes = False
    for route in state.routes:
        if not route_to_move(pack, state, seat, route):
            continue
        pending_routes = True
        space = route.worker_of(seat)
        assert space is not None
        for steps in range(1, transport + 1):
            if route_target(pack, route, seat, space, steps) is None:
                break
            yield Command.of("advance", route=route.id, steps=steps)
        if route.kind == "general" or transport == 0:
            # movement.no-transport: with no Transport (a Worker moved off a gold box this
            # Movement) an Allied route's Worker goes to Rest/Return too
            yield Command.of("rest", route=route.id)
    if not pending_routes:
        yield END


# --- the commands ------------------------------------------------------------------------------


@COMMANDS.declares(
    "move_worker",
    "Move a Worker in your territory.",
    *cell_args(),
    *cell_args("to_"),
    why_not=refused_by("movement.territory"),
)
def move_worker(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        WorkerMoved(
            rule=rule("movement.territory"),
            seat=seat,
            frm=cell(command),
            to=cell(command, "to_row", "to_col"),
        )
    )


@COMMANDS.declares(
    "advance",
    "Move a Worker forward on a Trade Route.",
    Arg("route", ROUTE, kind=int, minimum=1),
    Arg("steps", "Spaces forward.", kind=int, minimum=1),
    why_not=refused_by("movement.route"),
)
def advance(ctx: Ctx, seat: int, command: Command) -> None:
    route = ctx.state.route(int(command.arg("route")))
    space = route.worker_of(seat)
    assert space is not None
    target = route_target(ctx.pack, route, seat, space, int(command.arg("steps")))
    assert target is not None
    home = route.kind == "allied" and target in (0, len(ctx.pack.allied.spaces) - 1)
    ctx.emit(
        RouteWorkerMoved(
            rule=rule("movement.allied") if home else rule("movement.route"),
            seat=seat,
            route=route.id,
            frm=space,
            to=target,
            home=home,
        )
    )


@COMMANDS.declares(
    "rest",
    "Move a Worker to a General Trade Route's Rest/Return space.",
    Arg("route", ROUTE, kind=int, minimum=1),
    why_not=refused_by("movement.rest"),
)
def do_rest(ctx: Ctx, seat: int, command: Command) -> None:
    route = ctx.state.route(int(command.arg("route")))
    space = route.worker_of(seat)
    assert space is not None
    cite = rule("movement.rest") if route.kind == "general" else rule("movement.no-transport")
    ctx.emit(RouteWorkerMoved(rule=cite, seat=seat, route=route.id, frm=space, to=space, rest=True))


@COMMANDS.declares("end_movement", "End your Movement.", why_not=refused_by("movement.route"))
def end_movement(ctx: Ctx, seat: int, command: Command) -> None:
    civ = ctx.state.civs[seat]
    due = sum(1 for r in civ.resting if r < ctx.state.serial)
    if due:
        ctx.emit(RestOver(rule=rule("movement.rest"), seat=seat, count=due))
    pass_turn(ctx, "movement.territory", seat)


# --- the events --------------------------------------------------------------------------------


@event
class WorkerMoved(PatchEvent):
    seat: int
    frm: Cell
    to: Cell


@FOLDS.handles(WorkerMoved)
def _moved(pack: PatchPack, state: PState, ev: WorkerMoved) -> PState:
    civ = state.civs[ev.seat]
    state = civ_changed(
        state, ev.seat, workers=tuple(sorted((*without_worker(civ, ev.frm), ev.to)))
    )
    return evolved(state, moved=(*state.moved, ev.to))


@event
class RouteWorkerMoved(PatchEvent):
    """A Worker along a Trade Route (`to` a space index), or onto its Rest/Return space
    (`rest`), or home at once from an Allied route's far end (`home`)."""

    seat: int
    route: int
    frm: int
    to: int
    rest: bool = False
    home: bool = False
    forced: bool = False


@FOLDS.handles(RouteWorkerMoved)
def _route_moved(pack: PatchPack, state: PState, ev: RouteWorkerMoved) -> PState:
    route = state.route(ev.route)
    others = tuple(w for w in route.workers if w[0] != ev.seat)
    if ev.rest or ev.home:
        state = state.with_route(evolved(route, workers=others))
    else:
        state = state.with_route(evolved(route, workers=tuple(sorted((*others, (ev.seat, ev.to))))))
    if ev.rest:
        civ = state.civs[ev.seat]
        state = civ_changed(state, ev.seat, resting=(*civ.resting, state.serial))
    if ev.home:
        state = evolved(state, pending=(*state.pending, Pending("return", ev.seat)))
    if not ev.forced:
        state = evolved(state, routes_moved=(*state.routes_moved, ev.route))
    return state


@event
class RestOver(PatchEvent):
    """Workers that went to Rest/Return in an earlier Round come home."""

    seat: int
    count: int


@FOLDS.handles(RestOver)
def _rest_over(pack: PatchPack, state: PState, ev: RestOver) -> PState:
    civ = state.civs[ev.seat]
    staying = tuple(r for r in civ.resting if r >= state.serial)
    state = civ_changed(state, ev.seat, resting=staying)
    pending = tuple(Pending("return", ev.seat) for _ in range(ev.count))
    return evolved(state, pending=(*state.pending, *pending))
