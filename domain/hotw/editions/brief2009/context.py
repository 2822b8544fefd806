"""What every chapter of A Brief History of the World works with: the edition's event base and
folds (with the small state changes the folds share), the decide-side context, the command book
the chapters declare their commands in, and the rule ids they cite (`brief.*`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.core.declare import CommandBook
from domain.core.folds import Folds, Working
from domain.core.frozen import evolved
from domain.core.messages import Event
from domain.hotw.changes import added, with_cell, with_item, with_turn
from domain.hotw.editions.brief2009.model import BriefState, Cell
from domain.hotw.editions.brief2009.tables import BriefTables

KINDS = ("empire", "event")
"""The two piles of Organisation: Empire cards and Event cards."""


@dataclass(frozen=True, kw_only=True, slots=True)
class BriefEvent(Event):
    FAMILY = "brief"


FOLDS: Folds[BriefTables, BriefState] = Folds()
"""Every event type of the edition, each with its fold, registered by the chapter declaring it."""


class Ctx(Working[BriefTables, BriefState]):
    """The decide-side working state of one command (`Working`); `data` is the pack's tables."""

    folds = FOLDS

    @property
    def tables(self) -> BriefTables:
        return self.data


COMMANDS: CommandBook[BriefTables, BriefState, Ctx] = CommandBook()
"""The edition's commands (`domain.core.declare`), each declared by the chapter that plays it."""


def by_gold(state: BriefState, richest_first: bool) -> tuple[int, ...]:
    """The colours in gold order (after the Conclusion no two share a space; colour order
    settles any tie)."""
    sign = -1 if richest_first else 1
    return tuple(sorted(range(len(state.colours)), key=lambda c: (sign * state.colours[c].gold, c)))


# --- small changes of the state, shared by the folds --------------------------------------------


def with_colour(state: BriefState, colour: int, **changes: Any) -> BriefState:
    return evolved(state, colours=with_item(state.colours, colour, **changes))


def with_gold(state: BriefState, colour: int, delta: int) -> BriefState:
    """brief.gold.stack: a marker that moves arrives on top of whatever stands there."""
    if delta == 0:
        return state
    moved = with_colour(
        state, colour, gold=state.colours[colour].gold + delta, arrived=state.moves + 1
    )
    return evolved(moved, moves=state.moves + 1)


def with_supply_of(state: BriefState, colour: int, delta: int) -> BriefState:
    return with_colour(state, colour, supply=state.colours[colour].supply + delta)


def with_shared(state: BriefState, **deltas: int) -> BriefState:
    return evolved(state, supply=added(state.supply, **deltas))


def with_force(state: BriefState, **changes: Any) -> BriefState:
    turn = state.turn
    assert turn is not None and turn.forces
    forces = (*turn.forces[:-1], evolved(turn.forces[-1], **changes))
    return with_turn(state, forces=forces)


def returned(buildings: tuple[str, ...]) -> dict[str, int]:
    """The shared supply's keys for pieces going back to it."""
    deltas: dict[str, int] = {}
    for kind in buildings:
        key = {"capital": "capitals_and_cities", "city": "capitals_and_cities"}.get(kind)
        key = key or {"monument": "monuments", "fort": "forts"}[kind]
        deltas[key] = deltas.get(key, 0) + 1
    return deltas


def cleared(
    state: BriefState, land: str, colour: int | None, buildings: tuple[str, ...]
) -> BriefState:
    """Whatever stood in `land` goes: its army to its colour's supply, the buildings named to
    the shared supply (the others stay)."""
    cell = state.land(land)
    if colour is not None:
        state = with_supply_of(state, colour, 1)
    state = with_shared(state, **returned(buildings))
    return with_cell(state, land, Cell(buildings=cell.buildings - set(buildings)))


def placed(
    state: BriefState,
    land: str,
    colour: int,
    cleared_of: tuple[int | None, tuple[str, ...]],
    armies: int,
    capital: bool,
) -> BriefState:
    """An Empire placed in `land` (established, or raised by an Event card): the land
    `cleared` of `cleared_of` (an army's colour, buildings), `armies` taken from the colour's
    supply and, with any, its army standing there (with a capital, one taken from the shared
    supply). What `cleared`, `with_supply_of`, `stand` and `with_shared` do one after the
    other, each record built once."""
    removed_colour, removed = cleared_of
    colours = state.colours
    if removed_colour is not None:
        supply = colours[removed_colour].supply + 1
        colours = with_item(colours, removed_colour, supply=supply)
    shared = added(state.supply, **returned(removed))
    cell = Cell(buildings=state.land(land).buildings - set(removed))
    lands = dict(state.lands)  # a land emptied leaves and comes back last, as with_cell has it
    if cell.is_empty:
        lands.pop(land, None)
    else:
        lands[land] = cell
    colours = with_item(colours, colour, supply=colours[colour].supply - armies)
    if armies:
        lands[land] = Cell(colour, True, cell.buildings | set(("capital",) if capital else ()))
        if capital:
            shared = added(shared, capitals_and_cities=-1)
    return evolved(state, colours=colours, supply=shared, lands=lands)


def stand(state: BriefState, land: str, colour: int, *extra: str) -> BriefState:
    """An army of `colour` stands in `land` (keeping the buildings there)."""
    cell = state.land(land)
    return with_cell(state, land, Cell(colour, True, cell.buildings | set(extra)))


def joined(state: BriefState, land: str) -> BriefState:
    turn = state.turn
    assert turn is not None and turn.forces
    force = turn.forces[-1]
    return with_force(state, lands=(*force.lands, land))
