"""E. Raise revenue (p8): gold for buildings in any area and for lands in active areas at one of
three levels - presence, dominance or mastery. The same counts serve Area tokens (F) and the
Endgame, counted on Friendly lands. Play examples 6 to 9 (hotw24.example.6, hotw24.example.7,
hotw24.example.8, hotw24.example.9): presence, dominance, mastery, an Area token cashed."""

from __future__ import annotations

from dataclasses import dataclass

from domain.hotw.board import Board
from domain.hotw.editions.hotw_2024.buildings import building_value
from domain.hotw.editions.hotw_2024.edition import RevenueGold
from domain.hotw.editions.hotw_2024.model import HotwState
from domain.hotw.editions.hotw_2024.pack import HotwPack

WORKED_EXAMPLES = (
    "hotw24.example.6",
    "hotw24.example.7",
    "hotw24.example.8",
    "hotw24.example.9",
)
"""The rulebook's worked examples of this chapter, each played again by a test."""


@dataclass(frozen=True, slots=True)
class AreaCensus:
    """The lands of one area as one player sees them."""

    counted: int
    """The lands that earn: Empire lands in revenue, Friendly lands for Area tokens."""
    own_other: int
    """The player's other lands there: Friendly lands in revenue, none otherwise."""
    enemies: tuple[int, ...]
    """How many lands each other player holds there."""


def has_presence(census: AreaCensus) -> bool:
    """revenue.presence: at least one land."""
    return census.counted >= 1


def has_dominance(census: AreaCensus) -> bool:
    """revenue.dominance: at least two lands, more than any other player has there and
    more than the player's own Friendly lands there."""
    return (
        census.counted >= 2
        and census.counted > max(census.enemies, default=0)
        and census.counted > census.own_other
    )


def has_mastery(census: AreaCensus) -> bool:
    """revenue.mastery: at least three lands and no Enemy or Friendly land there."""
    return census.counted >= 3 and not any(census.enemies) and census.own_other == 0


def land_gold(census: AreaCensus, pays: RevenueGold) -> tuple[int, str]:
    """The highest level reached pays (revenue.lands.per-area reading)."""
    if has_mastery(census):
        return pays.mastery, "hotw24.revenue.mastery"
    if has_dominance(census):
        return pays.dominance, "hotw24.revenue.dominance"
    if has_presence(census):
        return pays.presence, "hotw24.revenue.presence"
    return 0, ""


def census(board: Board, state: HotwState, seat: int, area: str, standing: bool) -> AreaCensus:
    """Count `seat`'s lands in `area`: armies when `standing` (revenue), else garrisons."""
    counted = own_other = 0
    enemies = [0] * len(state.players)
    for land in board.lands_in_area(area):
        value = state.lands.get(land)
        if value is None or value.owner is None:
            continue
        if value.owner != seat:
            enemies[value.owner] += 1
        elif value.standing == standing:
            counted += 1
        else:
            own_other += 1
    return AreaCensus(counted, own_other, tuple(enemies))


def counted_lands(
    board: Board, state: HotwState, seat: int, area: str | None, standing: bool
) -> list[str]:
    lands = board.lands_in_area(area) if area is not None else board.lands
    return sorted(
        land
        for land in lands
        if (value := state.lands.get(land)) is not None
        and value.owner == seat
        and value.standing == standing
    )


def buildings_gold(
    pack: HotwPack, state: HotwState, seat: int, area: str | None, standing: bool
) -> int:
    """revenue.buildings: 2 per capital, 1 per city, 1 per monument in the lands."""
    return sum(
        building_value(state.land(land).buildings, pack.edition.building_gold)
        for land in counted_lands(pack.board, state, seat, area, standing)
    )


def revenue_cites(rule: str, standing: bool) -> tuple[str, ...]:
    """The rules besides `rule` that decide a revenue item: what is scored where
    (revenue.scope), the Empire lands of revenue or the Friendly lands of Area tokens and the
    Endgame, and for lands the one level paid per active area."""
    counted = "hotw24.general.land.empire" if standing else "hotw24.general.land.friendly"
    scope = ("hotw24.revenue.scope",) if standing else ()
    if rule == "hotw24.revenue.buildings":
        return (*scope, counted)
    return (*scope, "hotw24.revenue.lands.per-area", "hotw24.general.area-tokens.active", counted)


def revenue_items(
    pack: HotwPack, state: HotwState, seat: int, areas: list[str] | None, standing: bool
) -> list[tuple[int, str, str]]:
    """(gold, rule, reason) for buildings then each area's land level. `areas` None means
    revenue: buildings everywhere, lands in every active area (revenue.scope)."""
    board = pack.board
    items: list[tuple[int, str, str]] = []
    if areas is None:
        gold = buildings_gold(pack, state, seat, None, standing)
        items.append((gold, "hotw24.revenue.buildings", "buildings"))
        scored = [a for a in board.areas if a in state.active_areas]
    else:
        for area in areas:
            gold = buildings_gold(pack, state, seat, area, standing)
            items.append((gold, "hotw24.revenue.buildings", f"buildings:{area}"))
        scored = [a for a in areas if a in state.active_areas]
    for area in scored:
        gold, rule = land_gold(census(board, state, seat, area, standing), pack.edition.revenue)
        items.append((gold, rule, f"lands:{area}"))
    return [item for item in items if item[0] > 0]
