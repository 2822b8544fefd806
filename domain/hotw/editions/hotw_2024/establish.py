"""B. Establish the Empire (p5): its armies, fleets and capital placed in the start-lands,
garrisons there removed, and what an Event established as an Empire brings."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.changes import added, with_player, with_turn
from domain.hotw.editions.hotw_2024.buildings import BuildingRemoved, place_building
from domain.hotw.editions.hotw_2024.cards import EmpireSpec
from domain.hotw.editions.hotw_2024.context import (
    FOLDS,
    Ctx,
    HotwEvent,
    cited,
    current_spec,
)
from domain.hotw.editions.hotw_2024.expand import (
    GreatWallFortsPooled,
    GreatWallLimitReached,
)
from domain.hotw.editions.hotw_2024.honors import (
    award_honor,
)
from domain.hotw.editions.hotw_2024.invasion import (
    ArmyPlaced,
    GarrisonRemoved,
)
from domain.hotw.editions.hotw_2024.model import (
    GREAT_WALL,
    HotwState,
    Pool,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack


def establish_entry(ctx: Ctx) -> None:
    """establish.empire-pool, then the start-land(s), then the Great Wall forts (taken
    after the start-land is cleared, which may free one: buildings.great-wall-limit)."""
    seat = ctx.seat
    spec = current_spec(ctx.pack, ctx.turn)
    ctx.emit(
        EmpirePoolFilled(
            rule="hotw24.establish.empire-pool",
            seat=seat,
            people=min(spec.people, ctx.state.players[seat].supply),
            fleets=min(spec.fleets, ctx.state.supply.get("fleet", 0)),
        )
    )
    establish_in(ctx, spec, spec.start_lands, "empire")
    if not spec.great_wall_forts:
        return
    walls = min(spec.great_wall_forts, ctx.state.supply.get(GREAT_WALL, 0))
    if walls:
        ctx.emit(GreatWallFortsPooled(rule="hotw24.establish.great-wall", seat=seat, count=walls))
    missing = min(spec.great_wall_forts - walls, len(ctx.state.great_wall_on_map))
    if missing > 0:
        ctx.emit(
            GreatWallLimitReached(
                rule="hotw24.buildings.great-wall-limit", seat=seat, count=missing
            )
        )


def establish_in(ctx: Ctx, spec: EmpireSpec, lands: tuple[str, ...], pool: str) -> None:
    """establish.start-land.*: clear the start-land of buildings, remove any garrison
    (its owner gains an Honor), place the starting army; then the starting buildings
    (establish.starting-buildings; the Huns have two start-lands, empires.huns)."""
    seat = ctx.seat
    placed: list[str] = []
    for land in lands:
        turn = ctx.turn
        if (turn.event_pool if pool == "event" else turn.pool).people <= 0:
            break
        for building in sorted(ctx.state.land(land).buildings):
            ctx.emit(
                BuildingRemoved(
                    rule="hotw24.establish.start-land.clear", land=land, building=building.value
                )
            )
        owner = ctx.state.land(land).owner
        if owner is not None:
            ctx.emit(
                GarrisonRemoved(rule="hotw24.establish.start-land.garrison", land=land, owner=owner)
            )
            award_honor(ctx, owner, "hotw24.honors.award.garrison-removed")
        also = (
            *(("hotw24.events.as-empire",) if pool == "event" else ()),
            *(("hotw24.empires.huns",) if len(lands) > 1 else ()),
        )
        ctx.emit(
            ArmyPlaced(
                rule="hotw24.establish.start-land.uncontrolled",
                cites=cited(*also),
                seat=seat,
                land=land,
                pool=pool,
            )
        )
        placed.append(land)
    if placed:
        for building in spec.starting_buildings:
            place_building(ctx, seat, building, placed[0], "hotw24.establish.starting-buildings")


def no_entry(ctx: Ctx) -> None:
    return


@event
class EmpirePoolFilled(HotwEvent):
    seat: int
    people: int
    fleets: int = 0
    great_wall_forts: int = 0


@FOLDS.handles(EmpirePoolFilled)
def _empire_pool(pack: HotwPack, state: HotwState, e: EmpirePoolFilled) -> HotwState:
    state = with_turn(state, pool=Pool(e.people, e.fleets, e.great_wall_forts))
    state = with_player(state, e.seat, supply=state.players[e.seat].supply - e.people)
    return evolved(
        state,
        supply=added(state.supply, fleet=-e.fleets, great_wall=-e.great_wall_forts),
    )
