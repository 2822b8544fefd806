"""D. Build monuments (p7): one monument per pair of the Empire's power icon in its lands, placed
by the player in the start-land if possible, else a land with a city, else any Empire land."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.editions.hotw_2024.cards import Building, EmpireSpec
from domain.hotw.editions.hotw_2024.context import (
    FOLDS,
    Ctx,
    HotwEvent,
    cited,
    current_spec,
    replace_top,
)
from domain.hotw.editions.hotw_2024.model import (
    HotwState,
    MonumentTask,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack

UNCITED_RULES = (
    "hotw24.events.no-power-icon",
    "hotw24.empires.barbarian.no-icon",
)
"""The clauses this module decides that no event or refusal carries."""


def monuments_due(pack: HotwPack, state: HotwState, spec: EmpireSpec, seat: int) -> int:
    """monuments.pairs: one monument per pair of the card's power icon in Empire lands;
    barbarians have no icon and build none (hotw24.empires.barbarian.no-icon), nor does a
    textless Event played as an Empire (hotw24.events.no-power-icon)."""
    if spec.power_icon is None:
        return 0
    icon_lands = pack.board.lands_with_power_icon(spec.power_icon)
    return sum(1 for land in state.lands_of(seat, standing=True) if land in icon_lands) // 2


def monument_sites(pack: HotwPack, state: HotwState, seat: int) -> list[str]:
    """monuments.placement: the start-land if possible, else a land with a city, else
    any Empire land - never a second monument in a land (monuments.one-per-land)."""
    assert state.turn is not None
    spec = current_spec(pack, state.turn)
    free = [
        land
        for land in sorted(state.lands_of(seat, standing=True))
        if Building.MONUMENT not in state.land(land).buildings
    ]
    for tier in (
        [land for land in free if land in spec.start_lands],
        [land for land in free if Building.CITY in state.land(land).buildings],
        free,
    ):
        if tier:
            return tier
    return []


def monuments_entry(ctx: Ctx) -> None:
    seat = ctx.seat
    count = monuments_due(ctx.pack, ctx.state, current_spec(ctx.pack, ctx.turn), seat)
    if count:
        ctx.emit(
            MonumentsDue(
                rule="hotw24.monuments.pairs",
                cites=cited("hotw24.monuments.power-icon"),
                seat=seat,
                count=count,
            )
        )


@event
class MonumentsDue(HotwEvent):
    seat: int
    count: int


@event
class MonumentsUnbuilt(HotwEvent):
    seat: int
    count: int


@FOLDS.handles(MonumentsDue)
def _monuments_due(pack: HotwPack, state: HotwState, e: MonumentsDue) -> HotwState:
    return evolved(state, agenda=(*state.agenda, MonumentTask(e.seat, e.count)))


@FOLDS.handles(MonumentsUnbuilt)
def _monuments_unbuilt(pack: HotwPack, state: HotwState, e: MonumentsUnbuilt) -> HotwState:
    return replace_top(state, None)
