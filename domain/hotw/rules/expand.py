"""C. Expand the Empire (p5, p7, p9): where armies and fleets may go, forts, the Great Wall,
the Leader, and when the phase may end."""

from __future__ import annotations

from domain.hotw.board import Board
from domain.hotw.cards import Building, Phase
from domain.hotw.edition import Edition
from domain.hotw.model import Control, HotwState, Pool, Turn
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
