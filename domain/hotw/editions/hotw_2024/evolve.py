"""How the History of the World family folds its events: the event base of the family, the
registry of evolve handlers (each chapter module declares its events and registers one handler
per event type beside them), and the small state builders the handlers share. Never checks, never
draws.

Each handler returns a new state sharing everything it did not change (`evolved` copies a record
through its ``__dict__``; the land map is copied only when a land changes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.core.folds import Folds
from domain.core.frozen import evolved
from domain.core.messages import Event
from domain.hotw.changes import with_player, with_turn
from domain.hotw.editions.hotw_2024.cards import Building
from domain.hotw.editions.hotw_2024.model import (
    EMPTY_LAND,
    GREAT_WALL,
    EffectTask,
    HotwState,
    LandState,
    Pool,
    Stage,
    Turn,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack


@dataclass(frozen=True, kw_only=True, slots=True)
class HotwEvent(Event):
    """An event of the History of the World family (every edition shares the vocabulary)."""

    FAMILY = "hotw"
    READS_BARE_NAMES = True


FOLDS: Folds[HotwPack, HotwState] = Folds()
handles = FOLDS.handles
evolve = FOLDS.evolve


def set_land(lands: dict[str, LandState], land: str, value: LandState) -> None:
    if value.is_empty:
        lands.pop(land, None)
    else:
        lands[land] = value


def with_gold(state: HotwState, seat: int, delta: int) -> HotwState:
    players = list(state.players)
    player = players[seat]
    arrivals = state.arrivals + 1
    players[seat] = evolved(player, gold=max(0, player.gold + delta), arrival=arrivals)
    return evolved(state, players=tuple(players), arrivals=arrivals)


def pool_of(turn: Turn, pool: str) -> tuple[str, Pool]:
    return ("event_pool", turn.event_pool) if pool == "event" else ("pool", turn.pool)


def take_person(state: HotwState, pool: str) -> HotwState:
    """One people piece leaves the named pool (not for `supply`)."""
    if state.turn is None or pool == "supply":
        return state
    name, current = pool_of(state.turn, pool)
    return with_turn(
        state, **{name: Pool(current.people - 1, current.fleets, current.great_wall_forts)}
    )


def return_people(state: HotwState, seat: int, count: int) -> HotwState:
    if not count:
        return state
    return with_player(state, seat, supply=state.players[seat].supply + count)


def top_task(state: HotwState) -> Any:
    return state.agenda[-1] if state.agenda else None


def replace_top(state: HotwState, task: Any | None) -> HotwState:
    agenda = state.agenda[:-1] if task is None else (*state.agenda[:-1], task)
    return evolved(state, agenda=agenda)


def without_building(land: LandState, building: Building) -> LandState:
    return LandState(
        land.owner,
        land.standing,
        land.buildings - {building},
        land.great_wall and building is not Building.FORT,
    )


def remove_building_from(
    state: HotwState, lands: dict[str, LandState], land: str, building: Building
) -> dict[str, int]:
    """Take `building` off `land` (in `lands`); returns the supply deltas."""
    current = lands.get(land, EMPTY_LAND)
    if building not in current.buildings:
        return {}
    set_land(lands, land, without_building(current, building))
    if building is Building.FORT and current.great_wall:
        return {GREAT_WALL: 1}
    return {building.value: 1}


def great_wall_off(state: HotwState, land: str, before: LandState) -> tuple[str, ...]:
    if before.great_wall:
        return tuple(x for x in state.great_wall_on_map if x != land)
    return state.great_wall_on_map


def out_of_bag(bag: tuple[str, ...], tokens: tuple[str, ...]) -> tuple[str, ...]:
    gone = set(tokens)
    return tuple(t for t in bag if t not in gone)


def turns_begin(pack: HotwPack, state: HotwState) -> HotwState:
    """Every seat holds its Empire card: turns follow the cards' chronological numbers."""
    order = tuple(sorted(state.empire_choices, key=lambda card: pack.cards.empire(card).number))
    return evolved(state, step=None, stage=Stage.TURNS, choosing=(), turn_order=order, turn_index=0)


def evolved_task(task: EffectTask, **changes: Any) -> EffectTask:
    values = {name: getattr(task, name) for name in EffectTask.__slots__}
    values.update(changes)
    return EffectTask(**values)
