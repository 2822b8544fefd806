"""Overruns in A Brief History of the World: the points an invasion has left take further lands
of the same defender (brief.overrun.points, brief.overrun.same-defender) bordering the land
taken last (brief.overrun.adjacent; never by sea or fleet, brief.overrun.no-sea,
brief.overrun.no-fleet), without a fort (brief.overrun.no-fort), each at a land's cost
(brief.overrun.cost)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.messages import Command, event
from domain.hotw.changes import with_turn
from domain.hotw.editions.brief2009.context import (
    COMMANDS,
    FOLDS,
    BriefEvent,
    Ctx,
    joined,
    stand,
    with_force,
    with_supply_of,
)
from domain.hotw.editions.brief2009.invasion import points_needed, reduce_land
from domain.hotw.editions.brief2009.model import (
    BriefState,
    Overrun,
)
from domain.hotw.editions.brief2009.revisions import OVERRUNS_BY_PLAYER
from domain.hotw.editions.brief2009.tables import BriefTables
from domain.hotw.refusals import refused


def overrun_targets(tables: BriefTables, state: BriefState) -> list[tuple[str, int]]:
    """brief.overrun.*: lands bordering the land captured last (no strait, no sea), held
    by the same defender, without a fort, that the points left pay for."""
    turn = state.turn
    assert turn is not None and turn.overrun is not None and turn.active is not None
    if turn.active.array <= 0:
        return []
    overrun = turn.overrun
    board = tables.board
    found = []
    for land in sorted(board.lands[overrun.land].neighbours):
        cell = state.land(land)
        if not same_defender(tables, state, cell.colour, overrun.defender):
            continue
        if "fort" in cell.buildings:
            continue
        if board.lands[land].barren:
            continue
        cost = points_needed(tables.numbers, board.lands[land].terrain)
        if cost <= overrun.points:
            found.append((land, cost))
    return found


def same_defender(
    tables: BriefTables, state: BriefState, colour: int | None, defender: int
) -> bool:
    """brief.overrun.same-defender: "Must belong to same defending player": any colour of the
    defending player (two in the two-player game; from revision 2, before which only the
    invaded land's colour)."""
    if colour is None:
        return False
    if not tables.since(OVERRUNS_BY_PLAYER):
        return colour == defender
    return state.colours[colour].seat == state.colours[defender].seat


def overrun_actions(tables: BriefTables, state: BriefState) -> Iterator[Command]:
    for land, _ in overrun_targets(tables, state):
        yield Command.of("overrun", land=land)
    yield Command.of("end_overrun")


def overrun_step(ctx: Ctx) -> bool:
    """An overrun with nothing left to take ends by itself."""
    if overrun_targets(ctx.tables, ctx.state):
        return False
    end_overrun(ctx)
    return True


def why_not_overrun(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "an overrun takes a land of the same defender next to the last one, without a "
        "fort, that the points left pay for",
        "brief.overrun.same-defender",
        command,
    )


def why_not_end(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    return refused("no overrun is under way", "brief.overrun.points", command)


@COMMANDS.declares(
    "overrun",
    "Spend unused invasion points on a bordering land.",
    Arg("land", "A land id.", ids=lambda t: tuple(sorted(t.board.lands))),
    why_not=why_not_overrun,
)
def overrun(ctx: Ctx, seat: int, command: Command) -> None:
    turn = ctx.state.turn
    assert turn is not None and turn.overrun is not None
    land = str(command.arg("land"))
    cost = dict(overrun_targets(ctx.tables, ctx.state))[land]
    ctx.emit(
        LandOverrun(
            rule="brief.overrun.points",
            cites=(
                "brief.overrun.cost",
                "brief.overrun.same-defender",
                "brief.overrun.adjacent",
                "brief.overrun.no-fort",
            ),
            colour=turn.colour,
            land=land,
            defender=defending_colour(ctx.state, land),
            cost=cost,
        )
    )
    reduce_land(ctx, land, "overrun")


def defending_colour(state: BriefState, land: str) -> int:
    """The colour whose army the overrun removes (the defending player's, of either colour)."""
    colour = state.land(land).colour
    assert colour is not None
    return colour


@COMMANDS.declares("end_overrun", "Spend no more invasion points.", why_not=why_not_end)
def end_overrun_command(ctx: Ctx, seat: int, command: Command) -> None:
    end_overrun(ctx)


def end_overrun(ctx: Ctx) -> None:
    turn = ctx.state.turn
    assert turn is not None and turn.overrun is not None
    ctx.emit(
        OverrunEnded(
            rule="brief.overrun.points",
            cites=("brief.overrun.no-sea", "brief.overrun.no-fleet"),
            colour=turn.colour,
            unused=turn.overrun.points,
        )
    )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class LandOverrun(BriefEvent):
    colour: int
    land: str
    defender: int
    cost: int


@FOLDS.handles(LandOverrun)
def _overrun(t: BriefTables, s: BriefState, e: LandOverrun) -> BriefState:
    turn = s.turn
    assert turn is not None and turn.active is not None and turn.overrun is not None
    s = with_force(s, array=turn.active.array - 1)
    s = with_supply_of(s, e.defender, 1)
    s = joined(stand(s, e.land, e.colour), e.land)
    overrun = Overrun(e.land, e.defender, turn.overrun.points - e.cost)
    return with_turn(s, overrun=overrun)


@event
class OverrunEnded(BriefEvent):
    colour: int
    unused: int


@FOLDS.handles(OverrunEnded)
def _overrun_ended(t: BriefTables, s: BriefState, e: OverrunEnded) -> BriefState:
    return with_turn(s, overrun=None)
