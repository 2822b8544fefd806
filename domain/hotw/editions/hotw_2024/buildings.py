"""Buildings (p6, p7, p10): building reduction, plundering and the finite building supply.

A monument needs a power icon, which a textless Event and a barbarian Empire lack
(`monuments.monuments_due`). Play example 5 (hotw24.example.5): the
Vedic States' monument in their start-land."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.changes import added
from domain.hotw.editions.hotw_2024.cards import Building
from domain.hotw.editions.hotw_2024.context import (
    FOLDS,
    Ctx,
    HotwEvent,
    cited,
    great_wall_off,
    remove_building_from,
    return_people,
    set_land,
    take_person,
    with_gold,
)
from domain.hotw.editions.hotw_2024.model import (
    EMPTY_LAND,
    Control,
    HotwState,
    LandState,
    TakeBuildingTask,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack

WORKED_EXAMPLES = ("hotw24.example.5",)
"""The rulebook's worked examples of this chapter, each played again by a test."""

"""Two gold per capital, one per city, one per monument (p7 plundering, p8 revenue)."""


def building_value(buildings: Iterable[Building], gold: Mapping[str, int]) -> int:
    """The gold value of buildings by the edition's table (2024: 2 per capital, 1 per city,
    1 per monument; forts nothing)."""
    return sum(gold.get(b, 0) for b in buildings)


def building_reduction(land: LandState, city_in_supply: bool) -> tuple[tuple[Building, ...], bool]:
    """What building reduction does to a land (building-reduction.fort-first, .one-step):
    the fort goes, then ONE of: a capital becomes a city, a city goes, or (with neither) a
    monument goes. Returns (buildings removed, whether a city is added)."""
    removed: list[Building] = []
    if Building.FORT in land.buildings:
        removed.append(Building.FORT)
    if Building.CAPITAL in land.buildings:
        removed.append(Building.CAPITAL)
        adds_city = Building.CITY not in land.buildings and city_in_supply
        return tuple(removed), adds_city
    if Building.CITY in land.buildings:
        removed.append(Building.CITY)
    elif Building.MONUMENT in land.buildings:
        removed.append(Building.MONUMENT)
    return tuple(removed), False


def reduce_buildings(ctx: Ctx, land: str, rule: str = "hotw24.building-reduction.when") -> None:
    """Carry out building reduction in `land` if it holds buildings (p6). A capital replaced
    by a city when every city is placed: the current player must take one from an Enemy land
    (buildings.supply-exhausted, p10)."""
    state = ctx.state.land(land)
    if not state.buildings:
        return
    removed, city = building_reduction(state, ctx.state.supply.get("city", 0) > 0)
    if removed:
        steps = [
            *(["hotw24.building-reduction.fort-first"] if Building.FORT in removed else []),
            *(["hotw24.building-reduction.one-step"] if set(removed) - {Building.FORT} else []),
            "hotw24.buildings.remove-to-supply",
        ]
        ctx.emit(
            BuildingReduced(
                rule=rule,
                cites=tuple(step for step in steps if step != rule),
                land=land,
                removed=tuple(b.value for b in removed),
                city_added=city,
            )
        )
    replaces_capital = Building.CAPITAL in removed and Building.CITY not in state.buildings
    if replaces_capital and not city and ctx.state.turn is not None:
        place_building(ctx, ctx.state.turn.seat, Building.CITY, land, rule)


def plunder(ctx: Ctx, seat: int, land: str, rule: str) -> None:
    """A barbarian collects the value of the buildings before reduction (plunder.value)."""
    gold = building_value(ctx.state.land(land).buildings, ctx.pack.edition.building_gold)
    if gold:
        barbarian = (
            ("hotw24.plunder.events",)
            if rule == "hotw24.events.plunder"
            else ("hotw24.plunder.barbarian-icon", "hotw24.empires.barbarian.plunders")
        )
        ctx.emit(
            BuildingsPlundered(rule=rule, cites=cited(*barbarian), seat=seat, land=land, gold=gold)
        )


def enemy_lands_holding(state: HotwState, seat: int, building: Building) -> list[str]:
    """Enemy lands (of `seat`) holding `building` that may be taken from (Great Wall forts are
    their own pieces and are never taken as forts)."""
    return sorted(
        land
        for land, value in state.lands.items()
        if building in value.buildings
        and state.control_of(land, seat) is Control.ENEMY
        and not (building is Building.FORT and value.great_wall)
    )


def can_obtain(state: HotwState, seat: int, building: Building) -> bool:
    return state.supply.get(building.value, 0) > 0 or bool(
        enemy_lands_holding(state, seat, building)
    )


def place_building(ctx: Ctx, seat: int, building: Building, land: str, rule: str) -> None:
    """Place a building from the supply; with none left, one is taken from an Enemy land of the
    player's choice (buildings.supply-exhausted). Never two of a kind in one land
    (buildings.one-of-each)."""
    if building in ctx.state.land(land).buildings:
        return
    if ctx.state.supply.get(building.value, 0) > 0:
        ctx.emit(
            BuildingPlaced(
                rule=rule,
                cites=building_sources(ctx, building, rule),
                land=land,
                building=building.value,
            )
        )
        return
    sources = enemy_lands_holding(ctx.state, seat, building)
    if not sources:
        ctx.emit(
            BuildingNotPlaced(
                rule="hotw24.buildings.supply-exhausted", land=land, building=building.value
            )
        )
        return
    ctx.emit(
        BuildingSupplyExhausted(
            rule="hotw24.buildings.supply-exhausted",
            seat=seat,
            building=building.value,
            land=land,
        )
    )


def take_building(ctx: Ctx, seat: int, source: str, building: Building, land: str) -> None:
    """Take the building from Enemy land `source` (a capital leaves a city) and place it."""
    source_state = ctx.state.land(source)
    city = (
        building is Building.CAPITAL
        and Building.CITY not in source_state.buildings
        and ctx.state.supply.get("city", 0) > 0
    )
    rule = "hotw24.buildings.supply-exhausted"
    ctx.emit(
        BuildingTaken(rule=rule, seat=seat, land=source, building=building.value, city_added=city)
    )
    ctx.emit(
        BuildingPlaced(
            rule=rule,
            cites=building_sources(ctx, building, rule),
            land=land,
            building=building.value,
        )
    )


def building_sources(ctx: Ctx, building: Building, rule: str) -> tuple[str, ...]:
    """The rules listing where a building may come from (buildings.sources, forts.sources)."""
    keys = (
        "hotw24.buildings.sources",
        *(("hotw24.forts.sources",) if building is Building.FORT else ()),
    )
    return tuple(c for c in cited(*keys) if c != rule)


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class BuildingRemoved(HotwEvent):
    land: str
    building: str


@event
class BuildingsPlundered(HotwEvent):
    seat: int
    land: str
    gold: int


@event
class BuildingReduced(HotwEvent):
    land: str
    removed: tuple[str, ...]
    city_added: bool = False


@event
class BuildingPlaced(HotwEvent):
    land: str
    building: str


@event
class BuildingSupplyExhausted(HotwEvent):
    seat: int
    building: str
    land: str


@event
class BuildingTaken(HotwEvent):
    """A building taken from an Enemy land because its kind ran out (p10)."""

    seat: int
    land: str
    building: str
    city_added: bool = False


@event
class BuildingNotPlaced(HotwEvent):
    land: str
    building: str


@event
class FortBuilt(HotwEvent):
    """A people piece of the Empire pool is spent to build a fort (p7)."""

    seat: int
    land: str


@FOLDS.handles(BuildingRemoved)
def _building_removed(pack: HotwPack, state: HotwState, e: BuildingRemoved) -> HotwState:
    lands = dict(state.lands)
    before = state.land(e.land)
    deltas = remove_building_from(state, lands, e.land, Building(e.building))
    return evolved(
        state,
        lands=lands,
        supply=added(state.supply, **deltas),
        great_wall_on_map=great_wall_off(state, e.land, before)
        if e.building == Building.FORT
        else state.great_wall_on_map,
    )


@FOLDS.handles(BuildingsPlundered)
def _plundered(pack: HotwPack, state: HotwState, e: BuildingsPlundered) -> HotwState:
    return with_gold(state, e.seat, e.gold)


@FOLDS.handles(BuildingReduced)
def _reduced(pack: HotwPack, state: HotwState, e: BuildingReduced) -> HotwState:
    lands = dict(state.lands)
    before = state.land(e.land)
    deltas: dict[str, int] = {}
    for name in e.removed:
        for key, delta in remove_building_from(state, lands, e.land, Building(name)).items():
            deltas[key] = deltas.get(key, 0) + delta
    if e.city_added:
        current = lands.get(e.land, EMPTY_LAND)
        set_land(
            lands,
            e.land,
            LandState(
                current.owner,
                current.standing,
                current.buildings | {Building.CITY},
                current.great_wall,
            ),
        )
        deltas["city"] = deltas.get("city", 0) - 1
    great_wall = (
        great_wall_off(state, e.land, before)
        if Building.FORT.value in e.removed
        else state.great_wall_on_map
    )
    return evolved(
        state,
        lands=lands,
        supply=added(state.supply, **deltas),
        great_wall_on_map=great_wall,
    )


@FOLDS.handles(BuildingPlaced)
def _building_placed(pack: HotwPack, state: HotwState, e: BuildingPlaced) -> HotwState:
    land = state.land(e.land)
    building = Building(e.building)
    state = state.with_land(
        e.land, LandState(land.owner, land.standing, land.buildings | {building}, land.great_wall)
    )
    return evolved(state, supply=added(state.supply, **{building.value: -1}))


@FOLDS.handles(BuildingSupplyExhausted)
def _exhausted(pack: HotwPack, state: HotwState, e: BuildingSupplyExhausted) -> HotwState:
    task = TakeBuildingTask(e.seat, Building(e.building), e.land)
    return evolved(state, agenda=(*state.agenda, task))


@FOLDS.handles(BuildingTaken)
def _taken(pack: HotwPack, state: HotwState, e: BuildingTaken) -> HotwState:
    lands = dict(state.lands)
    building = Building(e.building)
    deltas = remove_building_from(state, lands, e.land, building)
    if e.city_added:
        current = lands.get(e.land, EMPTY_LAND)
        set_land(
            lands,
            e.land,
            LandState(
                current.owner,
                current.standing,
                current.buildings | {Building.CITY},
                current.great_wall,
            ),
        )
        deltas["city"] = deltas.get("city", 0) - 1
    return evolved(state, lands=lands, supply=added(state.supply, **deltas))


@FOLDS.handles(BuildingNotPlaced)
def _not_placed(pack: HotwPack, state: HotwState, e: BuildingNotPlaced) -> HotwState:
    return state


@FOLDS.handles(FortBuilt)
def _fort_built(pack: HotwPack, state: HotwState, e: FortBuilt) -> HotwState:
    state = take_person(state, "empire")
    return return_people(state, e.seat, 1)
