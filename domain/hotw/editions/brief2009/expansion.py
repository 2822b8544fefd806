"""Expansion in A Brief History of the World: an Array army goes next to a standing army of
the active Empire (brief.expand.adjacent; across a strait, brief.expand.straits) or across its
fleets' waters (brief.expand.fleets), never into a barren land (brief.expand.barren) or where
its colour stands (brief.expand.one-army): into an empty land (brief.expand.empty), a land of the
player's own colour that surrenders (brief.surrender.own; the other colour of a two-player game,
brief.two-player.surrender) or an invasion (`invasion`); the Empire stops when its player says
(brief.expand.end). A Feature may change where it goes from (brief.features.united-states) or
across (brief.features.atlantic-crossing)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.changes import with_item, with_turn
from domain.hotw.editions.brief2009.building import fort_actions
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
from domain.hotw.editions.brief2009.invasion import invade, reduce_land
from domain.hotw.editions.brief2009.model import (
    BriefState,
    Cell,
    Stage,
)
from domain.hotw.editions.brief2009.tables import BriefTables
from domain.hotw.editions.brief2009.two_players import SURRENDER_RULE
from domain.hotw.refusals import refused

FEATURES = {
    "atlantic-crossing": "brief.features.atlantic-crossing",
    "influence": "brief.features.united-states",
}
"""The clause of each Empire feature this chapter plays out, by feature."""


def sources(tables: BriefTables, state: BriefState) -> list[str]:
    """The lands the active Empire expands from (brief.features.united-states: not from
    its influence areas unless Astronomy was played)."""
    turn = state.turn
    assert turn is not None and turn.active is not None
    force = turn.active
    lands = list(force.lands)
    if force.feature == "influence" and not turn.astronomy:
        home = tables.features["influence"].effect["home_area"]
        lands = [land for land in lands if tables.board.lands[land].area == home]
    return lands


def by_sea_reach(
    tables: BriefTables, state: BriefState, froms: list[str]
) -> tuple[set[str], set[str]]:
    """The lands the Empire's fleets reach, and those of them only an Atlantic crossing
    reaches (none once its crossings are spent: brief.features.atlantic-crossing)."""
    turn = state.turn
    assert turn is not None and turn.active is not None
    board = tables.board
    waters = board.navigation(turn.fleets)
    by_sea = set(board.fleet_reach(froms, waters)) if waters else set()
    crossing: set[str] = set()
    if turn.active.feature == "atlantic-crossing":
        effect = tables.features["atlantic-crossing"].effect
        without = set(board.fleet_reach(froms, waters - {str(effect["ocean"])}))
        crossing = by_sea - without
        if turn.crossings >= int(effect["crossings"]):
            by_sea, crossing = without, set()
    return by_sea, crossing


def expansion_targets(tables: BriefTables, state: BriefState) -> Iterator[tuple[str, str, bool]]:
    """(land, via, Atlantic crossing) for every land the active Empire may expand into:
    next to its armies (straits included) or across its fleets' waters; never a barren
    land or one where its colour stands (brief.expand.*)."""
    turn = state.turn
    assert turn is not None and turn.active is not None
    board = tables.board
    froms = sources(tables, state)
    overland: set[str] = set()
    for land in froms:
        overland |= board.adjacent(land)
    by_sea, crossing = by_sea_reach(tables, state, froms)
    seat = state.owner(turn.colour)
    for land in sorted(overland | by_sea):
        if closed(tables, state, land) is not None:
            continue
        cell = state.land(land)
        hostile = cell.colour is not None and state.owner(cell.colour) != seat
        if hostile and land in overland:
            yield land, "land", False
        if hostile and land in by_sea:
            yield land, "sea", land in crossing
        if not hostile:
            by_land = land in overland
            yield land, "land" if by_land else "sea", not by_land and land in crossing


def closed(tables: BriefTables, state: BriefState, land: str) -> str | None:
    """The clause that closes `land` to the active Empire whatever the way (None: open): a
    barren land (brief.expand.barren), or one where its colour stands (brief.expand.one-army)."""
    turn = state.turn
    assert turn is not None
    found = tables.board.lands.get(land)
    if found is not None and found.barren:
        return "brief.expand.barren"
    cell = state.land(land) if found is not None else None
    if cell is not None and cell.colour == turn.colour and cell.standing:
        return "brief.expand.one-army"
    return None


def expansion_actions(tables: BriefTables, state: BriefState) -> Iterator[Command]:
    """Array armies into the lands open to them, forts, and the end of the expansion."""
    turn = state.turn
    assert turn is not None and turn.active is not None
    if turn.active.array > 0:
        for land, via, _ in expansion_targets(tables, state):
            yield Command.of("expand", land=land, via=via)
        yield from fort_actions(state)
    yield Command.of("end_expansion")


def why_not_expand(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    key = "brief.expand.adjacent"
    if state.stage is Stage.TURNS and state.turn is not None:
        key = closed(tables, state, str(command.arg("land"))) or key
    return refused(
        "an Array army goes next to a standing army of the Empire or across its fleets, "
        "never into a barren land or where its colour stands",
        key,
        command,
    )


@COMMANDS.declares(
    "expand",
    "Move an Array army into a land: empty, a surrender, or an invasion (dice).",
    Arg("land", "A land id.", ids=lambda t: tuple(sorted(t.board.lands))),
    Arg(
        "via",
        "`land` (bordering or across a strait) or `sea` (across a fleet's water).",
        ids=("land", "sea"),
    ),
    why_not=why_not_expand,
)
def expand(ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    turn = state.turn
    assert turn is not None
    land, via = str(command.arg("land")), str(command.arg("via"))
    crossing = (land, via, True) in set(expansion_targets(ctx.tables, state))
    cell = state.land(land)
    how = "brief.expand.fleets" if via == "sea" else "brief.expand.adjacent"
    cites = ("brief.features.atlantic-crossing",) if crossing else ()
    if via == "land" and across_strait(ctx.tables, state, land):
        cites = ("brief.expand.straits", *cites)
    if cell.colour is None:
        ctx.emit(
            ArmyExpanded(
                rule="brief.expand.empty",
                cites=(how, *cites),
                colour=turn.colour,
                land=land,
                via=via,
                crossing=crossing,
            )
        )
        return
    if state.owner(cell.colour) == seat:
        two = cell.colour != turn.colour
        ctx.emit(
            Surrendered(
                rule=SURRENDER_RULE if two else "brief.surrender.own",
                cites=(how, *cites),
                colour=turn.colour,
                land=land,
                from_colour=cell.colour,
                via=via,
                crossing=crossing,
            )
        )
        reduce_land(ctx, land, "surrender")
        return
    invade(ctx, land, via, continued=False, crossing=crossing)


def across_strait(tables: BriefTables, state: BriefState, land: str) -> bool:
    """Whether `land` is next to the active Empire only across a strait."""
    board = tables.board
    froms = sources(tables, state)
    return not any(land in board.lands[s].neighbours for s in froms) and any(
        land in board.lands[s].straits for s in froms
    )


def why_not_end(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    return refused("the active Empire has already stopped", "brief.expand.end", command)


@COMMANDS.declares(
    "end_expansion",
    "Stop the active Empire (Event Empire or the called one).",
    why_not=why_not_end,
)
def end_expansion(ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    turn = state.turn
    assert turn is not None and turn.active is not None
    force = turn.active
    board = ctx.tables.board
    resources = sum(
        1
        for land in force.lands
        if state.land(land).colour == turn.colour and board.lands[land].resource
    )
    ctx.emit(
        ExpansionStopped(
            rule="brief.expand.end",
            cites=("brief.monuments.count",),
            colour=turn.colour,
            card=force.card,
            returned=force.array,
            resources=resources,
            monuments=resources // 2,
        )
    )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class ArmyExpanded(BriefEvent):
    """An Array army into an empty land."""

    colour: int
    land: str
    via: str
    crossing: bool = False


@FOLDS.handles(ArmyExpanded)
def _expanded(t: BriefTables, s: BriefState, e: ArmyExpanded) -> BriefState:
    turn = s.turn
    assert turn is not None and turn.active is not None
    force = turn.active
    force = evolved(force, array=force.array - 1, lands=(*force.lands, e.land))
    crossings = turn.crossings + int(e.crossing)
    turn = evolved(turn, forces=(*turn.forces[:-1], force), crossings=crossings)
    lands = dict(s.lands)
    lands[e.land] = Cell(e.colour, True, s.land(e.land).buildings | set())
    return evolved(s, lands=lands, turn=turn)


@event
class Surrendered(BriefEvent):
    """An Array army onto a resigned army of the player's own: no roll, the resigned army goes."""

    colour: int
    land: str
    from_colour: int
    via: str
    crossing: bool = False


@FOLDS.handles(Surrendered)
def _surrendered(t: BriefTables, s: BriefState, e: Surrendered) -> BriefState:
    turn = s.turn
    assert turn is not None and turn.active is not None
    s = with_force(s, array=turn.active.array - 1)
    s = with_turn(s, crossings=turn.crossings + int(e.crossing))
    s = with_supply_of(s, e.from_colour, 1)
    return joined(stand(s, e.land, e.colour), e.land)


@event
class ExpansionStopped(BriefEvent):
    """The active Empire stops: the Array's armies go back, its monuments are counted."""

    colour: int
    card: str
    returned: int
    resources: int
    monuments: int


@FOLDS.handles(ExpansionStopped)
def _stopped(t: BriefTables, s: BriefState, e: ExpansionStopped) -> BriefState:
    turn = s.turn
    assert turn is not None and turn.forces
    colours = with_item(s.colours, e.colour, supply=s.colours[e.colour].supply + e.returned)
    forces = (*turn.forces[:-1], evolved(turn.forces[-1], array=0, stopped=True))
    return evolved(s, colours=colours, turn=evolved(turn, forces=forces, monuments_due=e.monuments))
