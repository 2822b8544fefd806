"""Movement (patchistory.movement.*): in turn order, Workers move within the territory up to
the Transport (patchistory.movement.territory) and forward on Trade Routes
(patchistory.movement.route), to a General route's Rest/Return space (patchistory.movement.rest),
home from an Allied route's far end (patchistory.movement.allied); a Worker on a declared War's
Preparation space goes to its War space (patchistory.movement.war-space), and without Transport
the Workers on routes rest (patchistory.movement.no-transport). Since revision 5 a Worker may stop
on a space another Worker holds, and the Movement ends with one Worker per space
(patchistory.movement.one-per-space)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from domain.core.declare import Arg, WhyNot
from domain.core.errors import IllegalAction, RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.patchistory import territory as terr
from domain.patchistory.context import (
    COMMANDS,
    FOLDS,
    Ctx,
    PatchEvent,
    civ_changed,
    without_worker,
)
from domain.patchistory.model import Cell, Civ, Pending, PState, Route
from domain.patchistory.narration import where
from domain.patchistory.pack import PatchPack
from domain.patchistory.revisions import WORKERS_SHARE_DURING_MOVEMENT
from domain.patchistory.rounds import PhaseBegan, awaited, pass_turn, refused_by
from domain.patchistory.trade_routes import ROUTE
from domain.patchistory.workers import cell, cell_args


def begin_movement(ctx: Ctx) -> None:
    state = ctx.state
    pack = ctx.pack
    ctx.emit(
        PhaseBegan(rule="patchistory.movement.territory", phase="movement", seats=state.in_order())
    )
    war_space = pack.general.index("war")
    prep = pack.general.index("preparation")
    for route in state.routes:
        for owner, space in route.workers:
            if route.declared and space == prep:
                ctx.emit(
                    RouteWorkerMoved(
                        rule="patchistory.movement.war-space",
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
                    rule="patchistory.movement.no-transport",
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


# --- Workers sharing a space (patchistory.movement.one-per-space) ------------------------------


def shared_spaces(pack: PatchPack, civ: Civ) -> list[Cell]:
    """The spaces (by their first square) holding more than one of the civilization's
    Workers."""
    anchor = terr.spaces(pack, civ)
    held = Counter(anchor.get(w, w) for w in civ.workers)
    return sorted(space for space, n in held.items() if n > 1)


def may_move(state: PState, civ: Civ, at: Cell) -> bool:
    """Whether a Worker on `at` has not moved yet this Movement (each moves once; two may
    stand on one square, one of them moved)."""
    return civ.workers.count(at) > state.moved.count(at)


def unmoved(state: PState, civ: Civ) -> list[Cell]:
    """Where the Workers not yet moved this Movement stand (a square twice for two)."""
    return [
        at
        for at in dict.fromkeys(civ.workers)
        for _ in range(max(0, civ.workers.count(at) - state.moved.count(at)))
    ]


def can_part(pack: PatchPack, state: PState, seat: int) -> bool:
    """Whether every Worker of `seat` can still end the Movement on a space of its own: the
    moved ones where they stand, each other one where it stands or one move away within the
    Transport there is now (a matching of Workers to spaces)."""
    civ = state.civs[seat]
    anchor = terr.spaces(pack, civ)
    fixed: Counter[Cell] = Counter()
    for at in set(civ.workers):
        fixed[anchor.get(at, at)] += min(civ.workers.count(at), state.moved.count(at))
    if any(n > 1 for n in fixed.values()):
        return False
    transport = terr.statuses(pack, state, seat)["transport"]
    options = []
    for at in unmoved(state, civ):
        reach = terr.reachable(pack, civ, at, transport) if transport > 0 else set()
        options.append(({anchor.get(at, at)} | reach) - {s for s, n in fixed.items() if n})
    return _each_has_its_own(options)


def _each_has_its_own(options: list[set[Cell]]) -> bool:
    """Whether each entry can be given a space of its own from its options (augmenting paths)."""
    holder: dict[Cell, int] = {}

    def give(i: int, seen: set[Cell]) -> bool:
        for space in sorted(options[i] - seen):
            seen.add(space)
            if space not in holder or give(holder[space], seen):
                holder[space] = i
                return True
        return False

    return all(give(i, set()) for i in range(len(options)))


def after_move(state: PState, seat: int, at: Cell, to: Cell) -> PState:
    """The state a Worker's move from `at` to `to` leads to (as `WorkerMoved` folds it)."""
    civ = state.civs[seat]
    moved = civ_changed(state, seat, workers=tuple(sorted((*without_worker(civ, at), to))))
    return evolved(moved, moved=(*state.moved, to))


def _leaves_room(pack: PatchPack, state: PState, seat: int, at: Cell, to: Cell) -> bool:
    """A move after which no two Workers share a space, or the Workers can still part."""
    after = after_move(state, seat, at, to)
    return not shared_spaces(pack, after.civs[seat]) or can_part(pack, after, seat)


def territory_moves(pack: PatchPack, state: PState, seat: int) -> Iterator[tuple[Cell, Cell]]:
    """Every Worker's move within the territory, in order: to a free space (before revision 5),
    or to any space, an occupied one while every Worker can still end on a space of its own."""
    civ = state.civs[seat]
    if state.routes_moved:
        return
    transport = terr.statuses(pack, state, seat)["transport"]
    if transport <= 0:
        return
    anchor = terr.spaces(pack, civ)
    taken = {anchor.get(w, w) for w in civ.workers}
    share = pack.since(WORKERS_SHARE_DURING_MOVEMENT)
    check = share and bool(shared_spaces(pack, civ))
    for at in dict.fromkeys(civ.workers):
        if not may_move(state, civ, at):
            continue
        reach = terr.reachable(pack, civ, at, transport)
        for to in sorted(reach if share else reach - taken):
            if (
                not share
                or (not check and to not in taken)
                or _leaves_room(pack, state, seat, at, to)
            ):
                yield at, to


def parting_due(pack: PatchPack, state: PState, seat: int) -> bool:
    """Two Workers share a space and a move can part them: the Movement's Trade Route moves and
    its end wait (patchistory.movement.one-per-space)."""
    return (
        pack.since(WORKERS_SHARE_DURING_MOVEMENT)
        and bool(shared_spaces(pack, state.civs[seat]))
        and any(True for _ in territory_moves(pack, state, seat))
    )


def is_listed_end(pack: PatchPack, state: PState, seat: int, command: Command) -> bool:
    """`movement_actions` ends the Movement once no Worker on a route is left to move and no
    two Workers share a space a move can part."""
    return (
        command == END
        and not any(route_to_move(pack, state, seat, route) for route in state.routes)
        and not parting_due(pack, state, seat)
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
    civ, at, to = state.civs[seat], (row, col), (to_row, to_col)
    if state.routes_moved or at not in civ.workers or not may_move(state, civ, at):
        return False
    transport = terr.statuses(pack, state, seat)["transport"]
    if transport <= 0 or to not in terr.reachable(pack, civ, at, transport):
        return False
    anchor = terr.spaces(pack, civ)
    taken = {anchor.get(w, w) for w in civ.workers}
    if not pack.since(WORKERS_SHARE_DURING_MOVEMENT):
        return to not in taken
    if to not in taken and not shared_spaces(pack, civ):
        return True
    return _leaves_room(pack, state, seat, at, to)


def movement_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    transport = terr.statuses(pack, state, seat)["transport"]
    moves = list(territory_moves(pack, state, seat))
    for at, to in moves:
        yield Command.of("move_worker", row=at[0], col=at[1], to_row=to[0], to_col=to[1])
    sharing = moves and pack.since(WORKERS_SHARE_DURING_MOVEMENT)
    if sharing and shared_spaces(pack, state.civs[seat]):
        return  # patchistory.movement.one-per-space: the Workers part first
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


def refused_while_shared(rule: str) -> WhyNot[PatchPack, PState]:
    """The refusal of a command that ends the Movement within the territory (a Trade Route
    move, the end) while two Workers share a space a move can part; else the rule `rule`'s."""
    plain = refused_by(rule)

    def why_not(
        pack: PatchPack, state: PState, seat: int, command: Command
    ) -> RuleViolation | None:
        if (
            seat in awaited(state)
            and state.phase == "movement"
            and not state.pending
            and parting_due(pack, state, seat)
        ):
            shared = shared_spaces(pack, state.civs[seat])
            return IllegalAction(
                f"Two of your Workers share a space ({where(*shared[0])}): at the end of "
                "Movement there may be only one Worker per space, so move one of them to a "
                "space of its own first (your Trade Route Workers move after the territory's).",
                "patchistory.movement.one-per-space",
                {"command": command.as_dict(), "shared": [list(space) for space in shared]},
            )
        return plain(pack, state, seat, command)

    return why_not


# --- the commands ------------------------------------------------------------------------------


@COMMANDS.declares(
    "move_worker",
    "Move a Worker in your territory.",
    *cell_args(),
    *cell_args("to_"),
    why_not=refused_by("patchistory.movement.territory"),
)
def move_worker(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        WorkerMoved(
            rule="patchistory.movement.territory",
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
    why_not=refused_while_shared("patchistory.movement.route"),
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
            rule="patchistory.movement.allied" if home else "patchistory.movement.route",
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
    why_not=refused_while_shared("patchistory.movement.rest"),
)
def do_rest(ctx: Ctx, seat: int, command: Command) -> None:
    route = ctx.state.route(int(command.arg("route")))
    space = route.worker_of(seat)
    assert space is not None
    cite = (
        "patchistory.movement.rest"
        if route.kind == "general"
        else "patchistory.movement.no-transport"
    )
    ctx.emit(RouteWorkerMoved(rule=cite, seat=seat, route=route.id, frm=space, to=space, rest=True))


@COMMANDS.declares(
    "end_movement", "End your Movement.", why_not=refused_while_shared("patchistory.movement.route")
)
def end_movement(ctx: Ctx, seat: int, command: Command) -> None:
    if ctx.pack.since(WORKERS_SHARE_DURING_MOVEMENT):
        crowd_out(ctx, seat)
    civ = ctx.state.civs[seat]
    due = sum(1 for r in civ.resting if r < ctx.state.serial)
    if due:
        ctx.emit(RestOver(rule="patchistory.movement.rest", seat=seat, count=due))
    pass_turn(ctx, "patchistory.movement.territory", seat)


def crowd_out(ctx: Ctx, seat: int) -> None:
    """patchistory.movement.one-per-space reading: Workers still sharing a space that no move
    can part (the Transport fell as they moved) leave it at the end of the Movement, all but
    one, each for a free space of its controller's choice (patchistory.workers.return)."""
    civ = ctx.state.civs[seat]
    anchor = terr.spaces(ctx.pack, civ)
    for space in shared_spaces(ctx.pack, civ):
        standing = [w for w in civ.workers if anchor.get(w, w) == space]
        for at in standing[1:]:
            ctx.emit(WorkerCrowdedOut(rule="patchistory.movement.one-per-space", seat=seat, at=at))


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
class WorkerCrowdedOut(PatchEvent):
    """At the end of its Movement a Worker still sharing a space, with no move left to part
    them, leaves it; it comes home to a free space of its controller's choice."""

    seat: int
    at: Cell


@FOLDS.handles(WorkerCrowdedOut)
def _crowded_out(pack: PatchPack, state: PState, ev: WorkerCrowdedOut) -> PState:
    state = civ_changed(state, ev.seat, workers=without_worker(state.civs[ev.seat], ev.at))
    return evolved(state, pending=(*state.pending, Pending("return", ev.seat)))


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
