"""C. Expand the Empire (p5, p7, p9): where armies and fleets may go, forts, the Great Wall,
the Leader, and when the phase may end."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.board import Board
from domain.hotw.cards import Building, Phase
from domain.hotw.edition import Edition
from domain.hotw.evolve import (
    HotwEvent,
    handles,
    replace_top,
    return_people,
    supply_after,
    top_task,
    with_turn,
)
from domain.hotw.model import (
    EMPTY_POOL,
    Control,
    GreatWallRemovalTask,
    HotwState,
    LandState,
    Pool,
    Turn,
)
from domain.hotw.pack import HotwPack
from domain.hotw.rules.buildings import can_obtain
from domain.hotw.rules.context import current_spec

"""p9: one Great Wall fort may be placed in Yellow River and one in Wei River."""


def in_event_expansion(turn: Turn) -> bool:
    """An Event played as if an Empire is expanding in phase A (events.as-empire)."""
    return turn.phase is Phase.REVEAL


def active_pool(turn: Turn) -> Pool:
    return turn.event_pool if in_event_expansion(turn) else turn.pool


def active_fleets(turn: Turn) -> tuple[str, ...]:
    return turn.event_fleets if in_event_expansion(turn) else turn.fleets


def army_targets(board: Board, state: HotwState, seat: int, fleets: tuple[str, ...]) -> set[str]:
    """Lands adjacent to one of the Empire's armies (straits included, expand.straits) or
    to a sea or ocean holding its fleet (fleets.stepping-stone); never a wasteland (no
    land lists one) and never a land already holding the Empire's army."""
    armies = state.lands_of(seat, standing=True)
    targets: set[str] = set()
    for land in armies:
        targets |= board.neighbours_of(land)
    for water in fleets:
        targets |= board.lands_reachable_by_fleet_in(water)
    targets.difference_update(armies)
    return targets


def fleet_kind_for_pool(edition: Edition, epoch: int) -> str:
    """fleets.pool-sea-epochs / pool-ocean-epochs."""
    return "ocean" if epoch in edition.ocean_fleet_epochs else "sea"


def fleet_kind_for_honor(pack: HotwPack, state: HotwState) -> str:
    """honors.fleet: a sea in Epochs I-III; in IV-V an ocean only if the Empire card shows
    a fleet, otherwise a sea."""
    if state.epoch not in pack.edition.ocean_fleet_epochs or state.turn is None:
        return "sea"
    return "ocean" if current_spec(pack, state.turn).fleets > 0 else "sea"


def fleet_targets(
    board: Board, state: HotwState, seat: int, fleets: tuple[str, ...], kind: str
) -> set[str]:
    """Seas or oceans (of `kind`) adjacent to an army or a fleet (expand.place-fleet); a
    land on a sea counts as adjacent to that sea's ocean (fleets.ocean-includes-seas)."""
    waters: set[str] = set()
    for land in state.lands_of(seat, standing=True):
        waters |= board.waters_adjacent_to_land(land)
    for water in fleets:
        waters |= board.waters_adjacent_to_water(water)
    want_ocean = kind == "ocean"
    return {w for w in waters if board.is_ocean(w) == want_ocean}


def fort_targets(state: HotwState, seat: int) -> list[str]:
    """Empire lands without a fort (forts.build, forts.one-per-land)."""
    if not can_obtain(state, seat, Building.FORT):
        return []
    return sorted(
        land
        for land in state.lands_of(seat, standing=True)
        if Building.FORT not in state.land(land).buildings
    )


def great_wall_targets(edition: Edition, state: HotwState, seat: int) -> list[str]:
    """empires.great-wall: Yellow River / Wei River once an Empire land, without a fort."""
    return [
        land
        for land in edition.great_wall_lands
        if state.control_of(land, seat) is Control.EMPIRE
        and Building.FORT not in state.land(land).buildings
    ]


def may_end_expansion(board: Board, state: HotwState, turn: Turn) -> bool:
    """expand.end: the phase ends once no people piece is left in the pool; a piece that
    can neither be placed nor spent on a fort is removed with the rest."""
    pool = active_pool(turn)
    if pool.people == 0:
        return True
    if army_targets(board, state, turn.seat, active_fleets(turn)):
        return False
    return in_event_expansion(turn) or not fort_targets(state, turn.seat)


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class FleetPlaced(HotwEvent):
    seat: int
    water: str
    pool: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallFortPlaced(HotwEvent):
    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallFortsPooled(HotwEvent):
    """A Dynasty's Great Wall forts go from the supply into its Empire pool."""

    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallLimitReached(HotwEvent):
    """Too few Great Wall forts are left for an arriving Dynasty: `count` must come off."""

    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallFortRemoved(HotwEvent):
    """A Great Wall fort comes off the map into the arriving Dynasty's pool (p10)."""

    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PoolCleared(HotwEvent):
    """End of Expand: pieces left in the Empire pool are removed."""

    seat: int
    people: int
    fleets: int
    great_wall_forts: int


@handles(FleetPlaced)
def _fleet(pack: HotwPack, state: HotwState, e: FleetPlaced) -> HotwState:
    assert state.turn is not None
    turn = state.turn
    if e.pool == "event":
        pool = turn.event_pool
        return with_turn(
            state,
            event_pool=Pool(pool.people, pool.fleets - 1, pool.great_wall_forts),
            event_fleets=(*turn.event_fleets, e.water),
        )
    if e.pool == "supply":
        state = evolved(state, supply=supply_after(state.supply, fleet=-1))
        return with_turn(state, fleets=(*turn.fleets, e.water))
    pool = turn.pool
    return with_turn(
        state,
        pool=Pool(pool.people, pool.fleets - 1, pool.great_wall_forts),
        fleets=(*turn.fleets, e.water),
    )


@handles(GreatWallFortPlaced)
def _wall_placed(pack: HotwPack, state: HotwState, e: GreatWallFortPlaced) -> HotwState:
    assert state.turn is not None
    pool = state.turn.pool
    land = state.land(e.land)
    state = state.with_land(
        e.land, LandState(land.owner, land.standing, land.buildings | {Building.FORT}, True)
    )
    state = with_turn(state, pool=Pool(pool.people, pool.fleets, pool.great_wall_forts - 1))
    return evolved(state, great_wall_on_map=(*state.great_wall_on_map, e.land))


@handles(GreatWallFortsPooled)
def _walls_pooled(pack: HotwPack, state: HotwState, e: GreatWallFortsPooled) -> HotwState:
    assert state.turn is not None
    pool = state.turn.pool
    state = with_turn(state, pool=Pool(pool.people, pool.fleets, pool.great_wall_forts + e.count))
    return evolved(state, supply=supply_after(state.supply, great_wall=-e.count))


@handles(GreatWallLimitReached)
def _wall_limit(pack: HotwPack, state: HotwState, e: GreatWallLimitReached) -> HotwState:
    return evolved(state, agenda=(*state.agenda, GreatWallRemovalTask(e.seat, e.count)))


@handles(GreatWallFortRemoved)
def _wall_removed(pack: HotwPack, state: HotwState, e: GreatWallFortRemoved) -> HotwState:
    assert state.turn is not None
    pool = state.turn.pool
    land = state.land(e.land)
    state = state.with_land(
        e.land, LandState(land.owner, land.standing, land.buildings - {Building.FORT}, False)
    )
    state = with_turn(state, pool=Pool(pool.people, pool.fleets, pool.great_wall_forts + 1))
    task = top_task(state)
    if isinstance(task, GreatWallRemovalTask):
        remaining = task.remaining - 1
        state = replace_top(
            state, GreatWallRemovalTask(task.seat, remaining) if remaining else None
        )
    return evolved(
        state, great_wall_on_map=tuple(x for x in state.great_wall_on_map if x != e.land)
    )


@handles(PoolCleared)
def _pool_cleared(pack: HotwPack, state: HotwState, e: PoolCleared) -> HotwState:
    state = with_turn(state, pool=EMPTY_POOL)
    state = return_people(state, e.seat, e.people)
    return evolved(
        state,
        supply=supply_after(state.supply, fleet=e.fleets, great_wall=e.great_wall_forts),
    )
