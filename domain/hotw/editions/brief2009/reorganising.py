"""Reorganising in A Brief History of the World: a stopped Event Empire's armies lie down
(brief.events.resigned-after); the called Empire's armies resign, its fleets go back and its card
is discarded (brief.reorganise.resign, brief.reorganise.fleets, brief.reorganise.discard), and its
colour collects gold (`gold`)."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.changes import added, with_item
from domain.hotw.editions.brief2009.context import (
    FOLDS,
    BriefEvent,
    Ctx,
)
from domain.hotw.editions.brief2009.gold import collect
from domain.hotw.editions.brief2009.model import (
    EMPTY,
    BriefState,
    Cell,
    Force,
)
from domain.hotw.editions.brief2009.tables import BriefTables


def finish(ctx: Ctx, force: Force) -> None:
    """An Event Empire's armies resign (brief.events.resigned-after); the Empire
    reorganises and its colour collects gold (brief.reorganise.*, brief.gold.*)."""
    state = ctx.state
    turn = state.turn
    assert turn is not None
    if force.event:
        ctx.emit(
            EventEmpireResigned(
                rule="brief.events.resigned-after",
                colour=turn.colour,
                card=force.card,
                lands=tuple(land for land in force.lands if state.land(land).colour == turn.colour),
            )
        )
        return
    standing = tuple(
        sorted(
            land
            for land, cell in state.lands.items()
            if cell.colour == turn.colour and cell.standing
        )
    )
    ctx.emit(
        EmpireReorganised(
            rule="brief.reorganise.resign",
            cites=("brief.reorganise.fleets", "brief.reorganise.discard"),
            colour=turn.colour,
            empire=turn.empire,
            fleets=turn.fleets,
            lands=standing,
        )
    )
    collect(ctx, turn.colour)


def resigned(s: BriefState, lands: tuple[str, ...]) -> BriefState:
    return evolved(s, lands=resigned_lands(s, lands))


def resigned_lands(s: BriefState, lands: tuple[str, ...]) -> dict[str, Cell]:
    """The state's lands with the armies in `lands` lying down (what `with_cell` does for
    each, on one copy)."""
    changed = dict(s.lands)
    for land in lands:
        cell = evolved(changed.get(land, EMPTY), standing=False)
        if cell.is_empty:
            changed.pop(land, None)
        else:
            changed[land] = cell
    return changed


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class EventEmpireResigned(BriefEvent):
    """An Event Empire is resolved: its armies lie down."""

    colour: int
    card: str
    lands: tuple[str, ...]


@FOLDS.handles(EventEmpireResigned)
def _event_resigned(t: BriefTables, s: BriefState, e: EventEmpireResigned) -> BriefState:
    assert s.turn is not None
    turn = evolved(s.turn, forces=s.turn.forces[:-1])
    return evolved(s, lands=resigned_lands(s, e.lands), turn=turn)


@event
class EmpireReorganised(BriefEvent):
    """Fleets removed, every standing army resigned, the Empire card discarded."""

    colour: int
    empire: str
    fleets: tuple[str, ...]
    lands: tuple[str, ...]


@FOLDS.handles(EmpireReorganised)
def _reorganised(t: BriefTables, s: BriefState, e: EmpireReorganised) -> BriefState:
    assert s.turn is not None
    return evolved(
        s,
        lands=resigned_lands(s, e.lands),
        supply=added(s.supply, fleets=len(e.fleets)),
        colours=with_item(s.colours, e.colour, empire=None),
        turn=evolved(s.turn, forces=(), fleets=()),
    )
