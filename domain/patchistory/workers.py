"""Workers (the Descendant Track, and patchistory.workers.one-per-space): a Worker comes off
the Track onto a free space (the first Workers, Birth, Moses), comes home from a Trade Route or
a Rest space onto one (patchistory.workers.return), or goes back to the Track. One Worker to a
space; a Worker on a gold box makes it yield (patchistory.workers.gold-box, in the statuses)."""

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
    done_pending,
    goods_changed,
    spend_points,
    without_worker,
)
from domain.patchistory.model import Cell, PState
from domain.patchistory.pack import PatchPack
from domain.patchistory.rounds import DecisionDeclined, refused_by


def cell_args(prefix: str = "") -> tuple[Arg[PatchPack], Arg[PatchPack]]:
    """A square of a territory, as two arguments."""
    return (
        Arg(f"{prefix}row", "Row of the square in the territory (may be negative).", kind=int),
        Arg(f"{prefix}col", "Column of the square in the territory (may be negative).", kind=int),
    )


def cell(command: Command, row: str = "row", col: str = "col") -> Cell:
    return (int(command.arg(row)), int(command.arg(col)))


def placing_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    """A Worker waiting for a space (a new one, or one coming home): each free space, or, with
    none, the Descendant Track."""
    free = terr.free_spaces(pack, state.civs[seat])
    for at in free:
        yield Command.of("place_worker", row=at[0], col=at[1])
    if not free:  # patchistory.workers.return reading; a new Worker stays on the Track
        yield Command.of("worker_to_track")


@COMMANDS.declares(
    "place_worker",
    "Place a Worker on a free space of your territory.",
    *cell_args(),
    why_not=refused_by("patchistory.workers.one-per-space"),
)
def place_worker(ctx: Ctx, seat: int, command: Command) -> None:
    pending = ctx.state.pending[0]
    at = cell(command)
    if pending.kind == "place-new":
        cite = "patchistory.tile.moses" if pending.numbers else "patchistory.patch.first-workers"
        ctx.emit(WorkerPlaced(rule=cite, seat=seat, at=at))
    else:
        ctx.emit(WorkerCameHome(rule="patchistory.workers.return", seat=seat, at=at))


@COMMANDS.declares("worker_to_track", "No free space: the Worker goes to the Descendant Track.")
def worker_to_track(ctx: Ctx, seat: int, command: Command) -> None:
    if ctx.state.pending[0].kind == "place-new":  # no free space: the Worker stays unborn
        ctx.emit(
            DecisionDeclined(rule="patchistory.workers.one-per-space", seat=seat, kind="place-new")
        )
        return
    ctx.emit(WorkerBackToTrack(rule="patchistory.workers.return", seat=seat))


@event
class WorkerPlaced(PatchEvent):
    """A Worker off the Descendant Track onto a space (first Workers, Birth, Moses)."""

    seat: int
    at: Cell
    food: int = 0
    points: int = 0


@FOLDS.handles(WorkerPlaced)
def _placed(pack: PatchPack, state: PState, ev: WorkerPlaced) -> PState:
    civ = state.civs[ev.seat]
    state = civ_changed(
        state, ev.seat, workers=tuple(sorted((*civ.workers, ev.at))), born=civ.born + 1
    )
    state = goods_changed(state, ev.seat, food=-ev.food)
    state = spend_points(state, ev.seat, ev.points)
    return done_pending(state, ev.seat, ("place-new",))


@event
class WorkerCameHome(PatchEvent):
    """A Worker back from a Trade Route or a Rest space onto a space of its territory."""

    seat: int
    at: Cell


@FOLDS.handles(WorkerCameHome)
def _home(pack: PatchPack, state: PState, ev: WorkerCameHome) -> PState:
    civ = state.civs[ev.seat]
    state = civ_changed(state, ev.seat, workers=tuple(sorted((*civ.workers, ev.at))))
    return done_pending(state, ev.seat, ("return",))


@event
class WorkerBackToTrack(PatchEvent):
    """A Worker onto the Descendant Track: from a space (`at`), or one waiting to come home
    with no free space (`at` empty)."""

    seat: int
    at: tuple[int, ...] = ()
    culture: int = 0
    food: int = 0
    votes: int = 0
    points: int = 0
    route: int = 0


@FOLDS.handles(WorkerBackToTrack)
def _to_track(pack: PatchPack, state: PState, ev: WorkerBackToTrack) -> PState:
    civ = state.civs[ev.seat]
    if ev.route:
        route = state.route(ev.route)
        state = state.with_route(
            evolved(route, workers=tuple(w for w in route.workers if w[0] != ev.seat))
        )
    workers = civ.workers
    if len(ev.at) == 2:
        workers = without_worker(civ, (ev.at[0], ev.at[1]))
    state = civ_changed(state, ev.seat, workers=workers, born=civ.born - 1)
    state = goods_changed(state, ev.seat, culture=ev.culture, food=ev.food, votes=ev.votes)
    state = spend_points(state, ev.seat, ev.points)
    if not ev.at and not ev.route:
        state = done_pending(state, ev.seat, ("return",))
    return state
