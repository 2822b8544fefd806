"""Chapter V of the Avalon Hill 2001 rules, Sack and Pillage: a land taken in battle loses its
city, and its capital becomes a city; monuments stay (ah2001.combat.sack)."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.changes import with_cell
from domain.hotw.editions.ah2001.context import (
    FOLDS,
    Ah2001Event,
    Ctx,
    empire,
    with_supply,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
)
from domain.hotw.editions.ah2001.revisions import CAPITALS_FALL_TO_ANY_ENTRY
from domain.hotw.editions.ah2001.tables import Ah2001Tables


def sacked(buildings: frozenset[str]) -> frozenset[str]:
    """A land taken after a battle: its capital becomes a city, a city there is removed,
    monuments stay (ah2001.combat.sack)."""
    if "capital" in buildings:
        return (buildings - {"capital"}) | {"city"}
    return buildings - {"city"}


def sack(ctx: Ctx, land: str) -> None:
    after = sacked(ctx.state.land(land).buildings)
    if after != ctx.state.land(land).buildings:
        ctx.emit(LandSacked(rule="ah2001.combat.sack", land=land, buildings=tuple(sorted(after))))


def sack_on_entry(ctx: Ctx, land: str) -> None:
    """An army just entered the vacant `land`: "Whenever your army takes over a Land already
    containing a capital, the capital is turned over and becomes a city"; a city there is
    sacked (ah2001.combat.sack; from revision 4). The Active Empire's own capital is not taken
    over."""
    turn = ctx.state.turn
    if not ctx.tables.since(CAPITALS_FALL_TO_ANY_ENTRY) or turn is None:
        return
    if turn.capital and land == empire(ctx.tables, turn.empire).start_land:
        return
    sack(ctx, land)


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class LandSacked(Ah2001Event):
    land: str
    buildings: tuple[str, ...]


@FOLDS.handles(LandSacked)
def _sacked(t: Ah2001Tables, s: Ah2001State, e: LandSacked) -> Ah2001State:
    cell = s.land(e.land)
    freed = len(cell.buildings & {"capital", "city"}) - len(set(e.buildings) & {"capital", "city"})
    s = with_supply(s, capitals_and_cities=freed)
    return with_cell(s, e.land, evolved(cell, buildings=frozenset(e.buildings)))
