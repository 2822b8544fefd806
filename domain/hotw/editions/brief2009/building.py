"""Forts and Monuments in A Brief History of the World: a fort costs an Array army, one per land,
and stays (brief.forts.build, brief.forts.one-per-land, brief.forts.permanent); a stopped Empire
builds a monument for each two resource lands it holds (brief.monuments.count), one per land
(brief.monuments.one-per-land), in a capital's land, else a city's, else a resource land's
(brief.monuments.priority)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.changes import added, with_cell, with_item, with_turn
from domain.hotw.editions.brief2009.context import (
    COMMANDS,
    FOLDS,
    BriefEvent,
    Ctx,
    with_shared,
)
from domain.hotw.editions.brief2009.model import (
    BriefState,
)
from domain.hotw.editions.brief2009.tables import BriefTables
from domain.hotw.monuments import by_priority
from domain.hotw.refusals import refused


def fort_actions(state: BriefState) -> Iterator[Command]:
    """A fort in a land of the active Empire without one, while the supply has forts."""
    turn = state.turn
    assert turn is not None and turn.active is not None
    if state.supply.get("forts", 0) > 0:
        for land in turn.active.lands:
            if "fort" not in state.land(land).buildings:
                yield Command.of("build_fort", land=land)


def why_not_fort(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "a fort costs an Array army, in a land of the Empire without one",
        "brief.forts.build",
        command,
    )


@COMMANDS.declares(
    "build_fort",
    "Spend an Array army on a fort.",
    Arg("land", "A land id.", ids=lambda t: tuple(sorted(t.board.lands))),
    why_not=why_not_fort,
)
def build_fort(ctx: Ctx, seat: int, command: Command) -> None:
    turn = ctx.state.turn
    assert turn is not None
    ctx.emit(
        FortBuilt(
            rule="brief.forts.build",
            cites=("brief.forts.one-per-land", "brief.forts.permanent"),
            colour=turn.colour,
            land=str(command.arg("land")),
        )
    )


def monument_sites(tables: BriefTables, state: BriefState) -> list[str]:
    """brief.monuments.priority: lands of the active Empire without a monument - those
    with a capital, else a city, else a resource symbol."""
    turn = state.turn
    assert turn is not None and turn.active is not None
    if state.supply.get("monuments", 0) <= 0:
        return []
    lands = [
        land
        for land in turn.active.lands
        if state.land(land).colour == turn.colour and "monument" not in state.land(land).buildings
    ]
    return by_priority(
        [land for land in lands if "capital" in state.land(land).buildings],
        [land for land in lands if "city" in state.land(land).buildings],
        [land for land in lands if tables.board.lands[land].resource],
    )


def monument_actions(tables: BriefTables, state: BriefState) -> Iterator[Command]:
    for land in monument_sites(tables, state):
        yield Command.of("build_monument", land=land)


def why_not_monument(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    return refused("a monument goes where the priority says", "brief.monuments.priority", command)


@COMMANDS.declares(
    "build_monument",
    "Place a monument the Empire earned.",
    Arg("land", "A land id.", ids=lambda t: tuple(sorted(t.board.lands))),
    why_not=why_not_monument,
)
def build_monument(ctx: Ctx, seat: int, command: Command) -> None:
    turn = ctx.state.turn
    assert turn is not None
    ctx.emit(
        MonumentBuilt(
            rule="brief.monuments.priority",
            cites=("brief.monuments.count", "brief.monuments.one-per-land"),
            colour=turn.colour,
            land=str(command.arg("land")),
        )
    )


def monument_step(ctx: Ctx) -> bool:
    """A monument with one site (or none left) needs nobody's choice."""
    turn = ctx.state.turn
    assert turn is not None
    sites = monument_sites(ctx.tables, ctx.state)
    if not sites:
        ctx.emit(
            MonumentsUnbuilt(
                rule="brief.monuments.priority", colour=turn.colour, count=turn.monuments_due
            )
        )
        return True
    if len(sites) == 1:
        ctx.emit(
            MonumentBuilt(
                rule="brief.monuments.priority",
                cites=("brief.monuments.count",),
                colour=turn.colour,
                land=sites[0],
            )
        )
        return True
    return False


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class FortBuilt(BriefEvent):
    colour: int
    land: str


@FOLDS.handles(FortBuilt)
def _fort(t: BriefTables, s: BriefState, e: FortBuilt) -> BriefState:
    turn = s.turn
    assert turn is not None and turn.active is not None
    forces = (*turn.forces[:-1], evolved(turn.active, array=turn.active.array - 1))
    colours = with_item(s.colours, e.colour, supply=s.colours[e.colour].supply + 1)
    cell = s.land(e.land)
    lands = dict(s.lands)
    lands[e.land] = evolved(cell, buildings=cell.buildings | {"fort"})
    return evolved(
        s,
        turn=evolved(turn, forces=forces),
        colours=colours,
        supply=added(s.supply, forts=-1),
        lands=lands,
    )


@event
class MonumentBuilt(BriefEvent):
    colour: int
    land: str


@FOLDS.handles(MonumentBuilt)
def _monument(t: BriefTables, s: BriefState, e: MonumentBuilt) -> BriefState:
    turn = s.turn
    assert turn is not None
    cell = s.land(e.land)
    s = with_cell(s, e.land, evolved(cell, buildings=cell.buildings | {"monument"}))
    s = with_shared(s, monuments=-1)
    return with_turn(s, monuments_due=turn.monuments_due - 1)


@event
class MonumentsUnbuilt(BriefEvent):
    """Monuments earned with no land (or no piece in the supply) to put them in."""

    colour: int
    count: int


@FOLDS.handles(MonumentsUnbuilt)
def _unbuilt(t: BriefTables, s: BriefState, e: MonumentsUnbuilt) -> BriefState:
    return with_turn(s, monuments_due=0)
