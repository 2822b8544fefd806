"""The effect executor: carries out the structured effects of Event cards (events.yaml) and
Honors (honors.yaml), one effect at a time, asking the current player whenever an effect
leaves a choice (turn.current-player-only).

An `EffectTask` on the agenda remembers where it stands. `advance_effect` does what needs no
choice and reports whether it moved on; `effect_choice` lists the choice awaited;
`choose_for_effect` applies the chosen land, area or sea.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.board import Board
from domain.hotw.changes import added, with_player, with_turn
from domain.hotw.editions.hotw_2024.buildings import (
    BuildingRemoved,
    building_value,
    place_building,
    reduce_buildings,
)
from domain.hotw.editions.hotw_2024.cards import (
    AddPeople,
    AwardHonor,
    Building,
    CollectGold,
    Control,
    Effect,
    GoldBasis,
    HonorRecipient,
    LandSelector,
    PlaceArmies,
    PlaceBuildings,
    PlaceFleet,
    ReduceBuildings,
    RemoveBuildings,
    RemoveGarrisons,
    Scope,
)
from domain.hotw.editions.hotw_2024.context import (
    COMMANDS,
    FOLDS,
    Ctx,
    HotwEvent,
    evolved_task,
    replace_top,
    return_people,
    top_task,
    with_gold,
)
from domain.hotw.editions.hotw_2024.expand import (
    FleetPlaced,
    fleet_kind_for_honor,
    fleet_targets,
)
from domain.hotw.editions.hotw_2024.gold import collect_gold
from domain.hotw.editions.hotw_2024.honors import award_honor
from domain.hotw.editions.hotw_2024.invasion import Army, GarrisonRemoved, place_army
from domain.hotw.editions.hotw_2024.model import (
    EMPTY_POOL,
    EffectTask,
    GreatWallRemovalTask,
    HotwState,
    LandState,
    MonumentTask,
    Pool,
)
from domain.hotw.editions.hotw_2024.model import Control as Held
from domain.hotw.editions.hotw_2024.pack import HotwPack


@dataclass(frozen=True, slots=True)
class Choice:
    """A choice awaited from a seat: the command type, its argument name and the options."""

    command: str
    arg: str
    options: tuple[str, ...]


def effects_of(pack: HotwPack, task: EffectTask) -> tuple[Effect, ...]:
    if task.source == "event":
        return pack.cards.event(task.source_id).effects
    honor = pack.cards.honor(task.source_id)
    return honor.endgame_effect if task.endgame else honor.effect


HONOR_RULES: dict[type, str] = {
    AddPeople: "hotw24.honors.recruit",
    PlaceFleet: "hotw24.honors.fleet",
    RemoveBuildings: "hotw24.honors.catastrophe",
}


def effect_rule(effect: Effect, task: EffectTask) -> str:
    """The rule an effect's events cite."""
    if task.endgame:
        return "hotw24.endgame.honors"
    if task.source == "event":
        return "hotw24.events.effects"
    if isinstance(effect, PlaceBuildings):
        return (
            "hotw24.honors.fortify"
            if effect.building is Building.FORT
            else "hotw24.honors.urbanize"
        )
    if isinstance(effect, CollectGold):
        if effect.per is GoldBasis.BUILDING_VALUE:
            return "hotw24.honors.buildings-bonus"
        return "hotw24.honors.lands-bonus"
    return HONOR_RULES.get(type(effect), "hotw24.general.honors.who-and-when")


# --- land selectors ---------------------------------------------------------------------------


def holds(state: HotwState, land: str, seat: int, control: Control) -> bool:
    """Whether `land` has `control` as seen by `seat` (p2 vocabulary)."""
    if control is Control.ANY:
        return True
    held = state.control_of(land, seat)
    if control is Control.UNCONTROLLED:
        return held is Held.UNCONTROLLED
    if control is Control.EMPIRE:
        return held is Held.EMPIRE
    if control is Control.FRIENDLY:
        return held is Held.FRIENDLY
    if control is Control.OWN:
        return held in (Held.EMPIRE, Held.FRIENDLY)
    if control is Control.ENEMY:
        return held is Held.ENEMY
    if control is Control.CONTROLLED:
        return held is not Held.UNCONTROLLED
    return held in (Held.UNCONTROLLED, Held.ENEMY)  # NOT_OWN


def passes(board: Board, state: HotwState, seat: int, land: str, where: LandSelector) -> bool:
    if where.active_only and board.area_of(land) not in state.active_areas:
        return False
    if not holds(state, land, seat, where.control):
        return False
    buildings = state.land(land).buildings
    if where.with_building is not None and where.with_building not in buildings:
        return False
    if any(b in buildings for b in where.without_buildings):
        return False
    if where.adjacent_to is not None and not any(
        holds(state, other, seat, where.adjacent_to) for other in board.neighbours_of(land)
    ):
        return False
    if where.coastal is not None:
        if where.coastal.value == "ocean":
            waters = board.waters_adjacent_to_land(land)
            if not any(board.is_ocean(w) for w in waters):
                return False
        elif not any(not board.is_ocean(w) for w in board.waters_of(land)):
            return False
    return True


def scope_lands(board: Board, where: LandSelector, task: EffectTask) -> list[str]:
    if where.scope is Scope.ANYWHERE:
        return list(board.lands)
    if where.scope is Scope.LANDS:
        return list(where.lands)
    if where.scope is Scope.AREAS:
        return [land for area in where.areas for land in sorted(board.lands_in_area(area))]
    if where.scope is Scope.CHOSEN_AREA:
        return sorted(board.lands_in_area(task.area)) if task.area else []
    return list(task.previous)


def select_lands(
    board: Board, state: HotwState, seat: int, where: LandSelector, task: EffectTask
) -> list[str]:
    return sorted(
        land for land in scope_lands(board, where, task) if passes(board, state, seat, land, where)
    )


def needs_area(effect: Effect, task: EffectTask) -> bool:
    where = getattr(effect, "where", None)
    return (
        isinstance(where, LandSelector) and where.scope is Scope.CHOSEN_AREA and task.area is None
    )


def _land_ok(state: HotwState, pack: HotwPack, task: EffectTask, effect: Effect, land: str) -> bool:
    """Extra conditions for a land the effect acts on one at a time."""
    if land in task.acted:
        return False
    value = state.land(land)
    if isinstance(effect, PlaceArmies):
        held = state.control_of(land, task.seat)
        if held is Held.EMPIRE:
            return False
        return held is not Held.ENEMY or effect.invade
    if isinstance(effect, PlaceBuildings):
        return effect.building not in value.buildings
    if isinstance(effect, RemoveGarrisons):
        return value.owner is not None and not (value.owner == task.seat and value.standing)
    if isinstance(effect, RemoveBuildings):
        return effect.building in value.buildings
    return True


def land_candidates(
    pack: HotwPack, state: HotwState, task: EffectTask, effect: Effect
) -> list[str]:
    where = getattr(effect, "where", None)
    if not isinstance(where, LandSelector):
        return []
    if isinstance(effect, PlaceArmies):
        turn = state.turn
        if turn is None or turn.event_pool.people <= 0:
            return []
    lands = select_lands(pack.board, state, task.seat, where, task)
    return [land for land in lands if _land_ok(state, pack, task, effect, land)]


def area_options(pack: HotwPack, state: HotwState, task: EffectTask, effect: Effect) -> list[str]:
    """Areas where the effect would find at least one land (an active one if the selector
    says so)."""
    where = getattr(effect, "where", None)
    assert isinstance(where, LandSelector)
    options = []
    for area in pack.board.areas:
        if where.active_only and area not in state.active_areas:
            continue
        trial = EffectTask(task.seat, task.source, task.source_id, task.endgame, area=area)
        if (
            land_candidates(pack, state, trial, effect)
            if _one_at_a_time(effect)
            else select_lands(pack.board, state, task.seat, where, trial)
        ):
            options.append(area)
    return options


def _one_at_a_time(effect: Effect) -> bool:
    if isinstance(effect, RemoveGarrisons):
        return effect.count is not None
    return isinstance(effect, PlaceBuildings | PlaceArmies | RemoveBuildings)


def _count(effect: Effect) -> int:
    return int(getattr(effect, "count", 0) or 0)


def fleet_options(pack: HotwPack, state: HotwState) -> list[str]:
    turn = state.turn
    if turn is None or state.supply.get("fleet", 0) <= 0:
        return []
    kind = fleet_kind_for_honor(pack, state)
    return sorted(fleet_targets(pack.board, state, turn.seat, turn.fleets, kind))


def may_stop_choosing(pack: HotwPack, state: HotwState, task: EffectTask) -> bool:
    """An effect that says "choose up to" lets the chooser stop while it awaits a choice."""
    effects = effects_of(pack, task)
    if task.index >= len(effects):
        return False
    effect = effects[task.index]
    return (
        isinstance(effect, RemoveGarrisons)
        and effect.up_to
        and effect_choice(pack, state, task) is not None
    )


def effect_choice(pack: HotwPack, state: HotwState, task: EffectTask) -> Choice | None:
    """The choice the effect now waits for, or None if it can go on by itself."""
    effects = effects_of(pack, task)
    if task.index >= len(effects):
        return None
    effect = effects[task.index]
    if needs_area(effect, task):
        options = area_options(pack, state, task, effect)
        return Choice("choose_area", "area", tuple(options)) if options else None
    if isinstance(effect, PlaceFleet):
        if task.done >= effect.count:
            return None
        waters = fleet_options(pack, state)
        return Choice("choose_water", "water", tuple(waters)) if waters else None
    if not _one_at_a_time(effect) or task.done >= _count(effect):
        return None
    lands = land_candidates(pack, state, task, effect)
    return Choice("choose_land", "land", tuple(lands)) if lands else None


# --- carrying effects out ---------------------------------------------------------------------


def advance_effect(ctx: Ctx, task: EffectTask) -> bool:
    """Do the next step that needs no choice; False when a choice is awaited."""
    effects = effects_of(ctx.pack, task)
    if task.index >= len(effects):
        end_effects(ctx, task)
        return True
    if effect_choice(ctx.pack, ctx.state, task) is not None:
        return False
    effect = effects[task.index]
    rule = effect_rule(effect, task)
    lands: tuple[str, ...] = task.acted
    if not needs_area(effect, task):
        lands = _carry_out(ctx, task, effect, rule) or task.acted
    ctx.emit(EffectCompleted(rule=rule, seat=task.seat, index=task.index, lands=lands))
    return True


def _carry_out(ctx: Ctx, task: EffectTask, effect: Effect, rule: str) -> tuple[str, ...]:
    """Effects that act all at once; returns the lands acted on."""
    seat = task.seat
    if isinstance(effect, AwardHonor):
        if effect.to is HonorRecipient.CURRENT_PLAYER:
            targets: list[int] = [seat] * effect.count
        else:
            targets = [s for s in range(len(ctx.state.players)) if s != seat] * effect.count
        also = ("hotw24.events.honors",) if task.source == "event" else ()
        for target in targets:
            award_honor(ctx, target, rule, also)
        return ()
    if isinstance(effect, AddPeople):
        count = min(effect.count, ctx.state.players[seat].supply)
        if count and ctx.state.turn is not None:
            ctx.emit(PeopleRecruited(rule=rule, seat=seat, count=count))
        return ()
    if isinstance(effect, CollectGold):
        lands = (
            select_lands(ctx.board, ctx.state, seat, effect.where, task)
            if effect.where is not None
            else []
        )
        collect_gold(
            ctx,
            seat,
            effect.amount * gold_basis(ctx.pack, ctx.state, effect, lands),
            rule,
            reason=f"{task.source}:{task.source_id}",
        )
        return tuple(lands)
    if isinstance(effect, ReduceBuildings):
        lands = select_lands(ctx.board, ctx.state, seat, effect.where, task)
        for land in lands:
            reduce_buildings(ctx, land, "hotw24.building-reduction.one-step")
        return tuple(lands)
    if isinstance(effect, RemoveGarrisons) and effect.count is None:
        lands = land_candidates(ctx.pack, ctx.state, task, effect)
        for land in lands:
            remove_garrison(ctx, land)
        return tuple(lands)
    return ()


def gold_basis(pack: HotwPack, state: HotwState, effect: CollectGold, lands: list[str]) -> int:
    if effect.per is GoldBasis.FLAT:
        return 1
    if effect.per is GoldBasis.LAND:
        return len(lands)
    if effect.per is GoldBasis.BUILDING_VALUE:
        return sum(
            building_value(state.land(land).buildings, pack.edition.building_gold) for land in lands
        )
    building = Building(effect.per.value)
    assert building in pack.edition.building_gold
    return sum(1 for land in lands if building in state.land(land).buildings)


def remove_garrison(ctx: Ctx, land: str) -> None:
    """An Event removes a garrison; its owner is awarded an Honor
    (honors.award.garrison-removed)."""
    owner = ctx.state.land(land).owner
    assert owner is not None
    ctx.emit(GarrisonRemoved(rule="hotw24.events.effects", land=land, owner=owner))
    award_honor(ctx, owner, "hotw24.honors.award.garrison-removed")


def choose_for_effect(ctx: Ctx, task: EffectTask, arg: str, value: str) -> None:
    effect = effects_of(ctx.pack, task)[task.index]
    rule = effect_rule(effect, task)
    seat = task.seat
    if arg == "area":
        ctx.emit(AreaChosen(rule=rule, seat=seat, area=value))
        return
    if arg == "water":
        ctx.emit(WaterChosen(rule=rule, seat=seat, water=value))
        ctx.emit(FleetPlaced(rule=rule, seat=seat, water=value, pool="supply"))
        return
    ctx.emit(LandChosen(rule=rule, seat=seat, land=value))
    if isinstance(effect, PlaceBuildings):
        place_building(ctx, seat, effect.building, value, rule)
    elif isinstance(effect, PlaceArmies):
        barbarian = task.source == "event" and ctx.cards.event(task.source_id).barbarian
        place_army(ctx, Army(seat, "event", barbarian=barbarian), value)
    elif isinstance(effect, RemoveGarrisons):
        remove_garrison(ctx, value)
    elif isinstance(effect, RemoveBuildings):
        owner = ctx.state.land(value).owner
        ctx.emit(BuildingRemoved(rule=rule, land=value, building=effect.building.value))
        if owner is not None and effect.owner_loses_gold:
            lost = min(effect.owner_loses_gold, ctx.state.players[owner].gold)
            if lost:
                ctx.emit(GoldLost(rule=rule, seat=owner, amount=lost))


def people_for_event(pack: HotwPack, card_id: str) -> int:
    """People pieces a text Event places: they go from the supply into the Event pool
    (events.pool)."""
    return sum(e.count for e in pack.cards.event(card_id).effects if isinstance(e, PlaceArmies))


def end_effects(ctx: Ctx, task: EffectTask) -> None:
    ctx.emit(
        EffectsEnded(
            rule="hotw24.events.effects"
            if task.source == "event"
            else "hotw24.general.honors.who-and-when",
            seat=task.seat,
            source=task.source,
            source_id=task.source_id,
        )
    )
    turn = ctx.state.turn
    if task.source == "event" and turn is not None and turn.phase.value != "reveal":
        pool = turn.event_pool
        if pool.people or pool.fleets:
            ctx.emit(
                EventConcluded(
                    rule="hotw24.events.lay-down",
                    seat=turn.seat,
                    card=task.source_id,
                    lands=(),
                    waters=(),
                    people=pool.people,
                    fleets=pool.fleets,
                )
            )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class EventConcluded(HotwEvent):
    """Before establishing: Event armies laid down, its fleets removed, its pool emptied."""

    seat: int
    card: str
    lands: tuple[str, ...]
    waters: tuple[str, ...]
    people: int
    fleets: int


@event
class GoldLost(HotwEvent):
    seat: int
    amount: int


@event
class PeopleRecruited(HotwEvent):
    seat: int
    count: int


@event
class AreaChosen(HotwEvent):
    seat: int
    area: str


@event
class LandChosen(HotwEvent):
    seat: int
    land: str


@event
class WaterChosen(HotwEvent):
    seat: int
    water: str


@event
class EffectCompleted(HotwEvent):
    seat: int
    index: int
    lands: tuple[str, ...] = ()


@event
class EffectsEnded(HotwEvent):
    seat: int
    source: str
    source_id: str


@FOLDS.handles(EventConcluded)
def _event_concluded(pack: HotwPack, state: HotwState, e: EventConcluded) -> HotwState:
    lands = dict(state.lands)
    for land in e.lands:
        current = lands[land]
        lands[land] = LandState(current.owner, False, current.buildings, current.great_wall)
    state = evolved(
        state,
        lands=lands,
        supply=added(state.supply, fleet=len(e.waters) + e.fleets),
    )
    state = return_people(state, e.seat, e.people)
    return with_turn(state, event_pool=EMPTY_POOL, event_fleets=(), event_expand=False)


@FOLDS.handles(GoldLost)
def _gold_lost(pack: HotwPack, state: HotwState, e: GoldLost) -> HotwState:
    return with_gold(state, e.seat, -e.amount)


@FOLDS.handles(PeopleRecruited)
def _recruited(pack: HotwPack, state: HotwState, e: PeopleRecruited) -> HotwState:
    assert state.turn is not None
    pool = state.turn.pool
    state = with_turn(state, pool=Pool(pool.people + e.count, pool.fleets, pool.great_wall_forts))
    return with_player(state, e.seat, supply=state.players[e.seat].supply - e.count)


@FOLDS.handles(AreaChosen)
def _area_chosen(pack: HotwPack, state: HotwState, e: AreaChosen) -> HotwState:
    task = top_task(state)
    assert isinstance(task, EffectTask)
    return replace_top(state, evolved_task(task, area=e.area))


@FOLDS.handles(LandChosen)
def _land_chosen(pack: HotwPack, state: HotwState, e: LandChosen) -> HotwState:
    task = top_task(state)
    if isinstance(task, EffectTask):
        return replace_top(
            state, evolved_task(task, done=task.done + 1, acted=(*task.acted, e.land))
        )
    if isinstance(task, MonumentTask):
        remaining = task.remaining - 1
        return replace_top(state, MonumentTask(task.seat, remaining) if remaining else None)
    # TakeBuildingTask, StartLandTask: a single choice ends them; GreatWallRemovalTask ends
    # with the fort's removal.
    if isinstance(task, GreatWallRemovalTask):
        return state
    return replace_top(state, None)


@FOLDS.handles(WaterChosen)
def _water_chosen(pack: HotwPack, state: HotwState, e: WaterChosen) -> HotwState:
    task = top_task(state)
    assert isinstance(task, EffectTask)
    return replace_top(state, evolved_task(task, done=task.done + 1, acted=(*task.acted, e.water)))


@FOLDS.handles(EffectCompleted)
def _effect_completed(pack: HotwPack, state: HotwState, e: EffectCompleted) -> HotwState:
    task = top_task(state)
    assert isinstance(task, EffectTask)
    return replace_top(
        state,
        evolved_task(task, index=e.index + 1, done=0, acted=(), previous=tuple(e.lands), area=None),
    )


@FOLDS.handles(EffectsEnded)
def _effects_ended(pack: HotwPack, state: HotwState, e: EffectsEnded) -> HotwState:
    return replace_top(state, None)


# --- commands: choosing no more ------------------------------------------------------------------


@COMMANDS.declares(
    "stop_choosing",
    'Choose no more: end an effect that lets you choose "up to" a number of lands.',
)
def stop_choosing(ctx: Ctx, seat: int, command: Command) -> None:
    """ "Choose up to two": the effect is done with the lands chosen so far (even none)."""
    task = ctx.state.agenda[-1]
    assert isinstance(task, EffectTask)
    effect = effects_of(ctx.pack, task)[task.index]
    rule = effect_rule(effect, task)
    ctx.emit(EffectCompleted(rule=rule, seat=task.seat, index=task.index, lands=task.acted))
