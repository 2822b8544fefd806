"""The mutator: one function per event type, dispatched by type. Never checks, never draws.

Each function returns a new state sharing everything it did not change (`evolved` copies a
record through its ``__dict__``; the land map is copied only when a land changes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core.frozen import evolved
from domain.core.messages import Event
from domain.hotw import events as ev
from domain.hotw.cards import Building, Phase
from domain.hotw.model import (
    EMPTY_LAND,
    EMPTY_POOL,
    FLEET,
    GREAT_WALL,
    ConquestTask,
    EffectTask,
    EndgameToken,
    GameResult,
    GreatWallRemovalTask,
    HotwState,
    LandState,
    MonumentTask,
    OrganizationStep,
    Player,
    Pool,
    Stage,
    StartLandTask,
    TakeBuildingTask,
    Turn,
)
from domain.hotw.pack import HotwPack

Handler = Callable[[HotwPack, HotwState, Any], HotwState]
_HANDLERS: dict[type[Event], Handler] = {}


def handles(event_type: type[Event]) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        _HANDLERS[event_type] = fn
        return fn

    return register


def evolve(pack: HotwPack, state: HotwState, event: Event) -> HotwState:
    return _HANDLERS[type(event)](pack, state, event)


def handled_types() -> frozenset[type[Event]]:
    return frozenset(_HANDLERS)


# --- small builders ---------------------------------------------------------------------------


def _player(state: HotwState, seat: int, **changes: Any) -> HotwState:
    players = list(state.players)
    players[seat] = evolved(players[seat], **changes)
    return evolved(state, players=tuple(players))


def _turn(state: HotwState, **changes: Any) -> HotwState:
    assert state.turn is not None
    return evolved(state, turn=evolved(state.turn, **changes))


def _supply(supply: Any, **deltas: int) -> dict[str, int]:
    new = dict(supply)
    for key, delta in deltas.items():
        new[key] = new.get(key, 0) + delta
    return new


def _set_land(lands: dict[str, LandState], land: str, value: LandState) -> None:
    if value.is_empty:
        lands.pop(land, None)
    else:
        lands[land] = value


def _gold(state: HotwState, seat: int, delta: int) -> HotwState:
    players = list(state.players)
    player = players[seat]
    arrivals = state.arrivals + 1
    players[seat] = evolved(player, gold=max(0, player.gold + delta), arrival=arrivals)
    return evolved(state, players=tuple(players), arrivals=arrivals)


def _pool_of(turn: Turn, pool: str) -> tuple[str, Pool]:
    return ("event_pool", turn.event_pool) if pool == "event" else ("pool", turn.pool)


def _take_person(state: HotwState, pool: str) -> HotwState:
    """One people piece leaves the named pool (not for `supply`)."""
    if state.turn is None or pool == "supply":
        return state
    name, current = _pool_of(state.turn, pool)
    return _turn(
        state, **{name: Pool(current.people - 1, current.fleets, current.great_wall_forts)}
    )


def _return_people(state: HotwState, seat: int, count: int) -> HotwState:
    if not count:
        return state
    return _player(state, seat, supply=state.players[seat].supply + count)


def _top_task(state: HotwState) -> Any:
    return state.agenda[-1] if state.agenda else None


def _replace_top(state: HotwState, task: Any | None) -> HotwState:
    agenda = state.agenda[:-1] if task is None else (*state.agenda[:-1], task)
    return evolved(state, agenda=agenda)


def _without_building(land: LandState, building: Building) -> LandState:
    return LandState(
        land.owner,
        land.standing,
        land.buildings - {building},
        land.great_wall and building is not Building.FORT,
    )


def _remove_building(
    state: HotwState, lands: dict[str, LandState], land: str, building: Building
) -> dict[str, int]:
    """Take `building` off `land` (in `lands`); returns the supply deltas."""
    current = lands.get(land, EMPTY_LAND)
    if building not in current.buildings:
        return {}
    _set_land(lands, land, _without_building(current, building))
    if building is Building.FORT and current.great_wall:
        return {GREAT_WALL: 1}
    return {building.value: 1}


def _great_wall_off(state: HotwState, land: str, before: LandState) -> tuple[str, ...]:
    if before.great_wall:
        return tuple(x for x in state.great_wall_on_map if x != land)
    return state.great_wall_on_map


# --- setting up -------------------------------------------------------------------------------


@handles(ev.GoldChestsPlaced)
def _chests(pack: HotwPack, state: HotwState, e: ev.GoldChestsPlaced) -> HotwState:
    players = list(state.players)
    for space, seat in enumerate(e.order, start=1):
        players[seat] = evolved(players[seat], gold=space, arrival=space)
    return evolved(state, players=tuple(players), arrivals=len(e.order))


@handles(ev.HonorStackShuffled)
def _stack(pack: HotwPack, state: HotwState, e: ev.HonorStackShuffled) -> HotwState:
    return _player(state, e.seat, honor_stack=tuple(e.stack))


@handles(ev.HonorTurnedUp)
@handles(ev.HonorAwarded)
def _honor_awarded(pack: HotwPack, state: HotwState, e: ev.HonorAwarded) -> HotwState:
    player = state.players[e.seat]
    stack = tuple(h for h in player.honor_stack if h != e.honor)
    track = (e.honor, *player.honor_track)
    pool = player.pool_honors
    spaces = pack.edition.honor_track_spaces
    if len(track) > spaces:
        track, pool = track[:spaces], (*pool, *track[spaces:])
    return _player(state, e.seat, honor_stack=stack, honor_track=track, pool_honors=pool)


@handles(ev.CardsCountedOut)
def _counted(pack: HotwPack, state: HotwState, e: ev.CardsCountedOut) -> HotwState:
    empire_decks = {**state.empire_decks, e.epoch: tuple(e.empire_cards)}
    event_decks = {**state.event_decks, e.epoch: tuple(e.event_cards)}
    return evolved(state, empire_decks=empire_decks, event_decks=event_decks)


# --- organization -----------------------------------------------------------------------------


@handles(ev.EpochBegan)
def _epoch(pack: HotwPack, state: HotwState, e: ev.EpochBegan) -> HotwState:
    return evolved(
        state,
        epoch=e.epoch,
        stage=Stage.ORGANIZATION,
        step=None,
        offer=(),
        choosing=(),
        displayed=(),
        empire_choices={},
        turn_order=(),
        turn_index=0,
        turn=None,
    )


@handles(ev.AreasActivated)
def _activated(pack: HotwPack, state: HotwState, e: ev.AreasActivated) -> HotwState:
    return evolved(
        state,
        active_areas=state.active_areas | frozenset(e.areas),
        bag=(*state.bag, *e.tokens),
    )


def _out_of_bag(bag: tuple[str, ...], tokens: tuple[str, ...]) -> tuple[str, ...]:
    gone = set(tokens)
    return tuple(t for t in bag if t not in gone)


@handles(ev.AreaTokenDrawn)
def _token_drawn(pack: HotwPack, state: HotwState, e: ev.AreaTokenDrawn) -> HotwState:
    state = _player(state, e.seat, area_tokens=(*state.players[e.seat].area_tokens, e.token))
    return evolved(state, bag=_out_of_bag(state.bag, (e.token,)))


@handles(ev.AreaTokensDrawn)
def _tokens_drawn(pack: HotwPack, state: HotwState, e: ev.AreaTokensDrawn) -> HotwState:
    return evolved(
        state,
        bag=_out_of_bag(state.bag, tuple(e.tokens)),
        step=OrganizationStep.SELECT_AREA_TOKENS,
        offer=tuple(e.tokens),
        choosing=state.gold_order(),
    )


@handles(ev.AreaTokenChosen)
def _token_chosen(pack: HotwPack, state: HotwState, e: ev.AreaTokenChosen) -> HotwState:
    state = _player(state, e.seat, area_tokens=(*state.players[e.seat].area_tokens, e.token))
    return evolved(
        state, offer=tuple(t for t in state.offer if t != e.token), choosing=state.choosing[1:]
    )


@handles(ev.AreaTokensPassed)
def _passed(pack: HotwPack, state: HotwState, e: ev.AreaTokensPassed) -> HotwState:
    return state


@handles(ev.EndgameTokenPlaced)
def _endgame_token(pack: HotwPack, state: HotwState, e: ev.EndgameTokenPlaced) -> HotwState:
    token = EndgameToken(e.epoch, e.token, e.face_up, tuple(e.known_by))
    return evolved(
        state,
        endgame_tokens=(*state.endgame_tokens, token),
        bag=_out_of_bag(state.bag, (e.token,)),
        offer=tuple(t for t in state.offer if t != e.token),
        step=None,
        choosing=(),
    )


@handles(ev.EventCardDealt)
def _dealt(pack: HotwPack, state: HotwState, e: ev.EventCardDealt) -> HotwState:
    return _player(state, e.seat, event_card=e.card)


@handles(ev.EmpireCardsDisplayed)
def _displayed(pack: HotwPack, state: HotwState, e: ev.EmpireCardsDisplayed) -> HotwState:
    return evolved(
        state,
        step=OrganizationStep.CHOOSE_EMPIRE_CARDS,
        displayed=tuple(e.cards),
        choosing=tuple(reversed(state.gold_order())),
    )


@handles(ev.EmpireCardChosen)
def _chosen(pack: HotwPack, state: HotwState, e: ev.EmpireCardChosen) -> HotwState:
    choices = {**state.empire_choices, e.card: e.seat}
    state = _player(state, e.seat, empire_cards=(*state.players[e.seat].empire_cards, e.card))
    displayed = tuple(c for c in state.displayed if c != e.card)
    choosing = state.choosing[1:]
    state = evolved(state, empire_choices=choices, displayed=displayed, choosing=choosing)
    return state if choosing else _turns_begin(pack, state)


def _turns_begin(pack: HotwPack, state: HotwState) -> HotwState:
    """Every seat holds its Empire card: turns follow the cards' chronological numbers."""
    order = tuple(sorted(state.empire_choices, key=lambda card: pack.cards.empire(card).number))
    return evolved(state, step=None, stage=Stage.TURNS, choosing=(), turn_order=order, turn_index=0)


# --- Option 1: Event card selection; Option 2: Hidden Empire cards ----------------------------


@handles(ev.EventCardsTaken)
def _event_cards_taken(pack: HotwPack, state: HotwState, e: ev.EventCardsTaken) -> HotwState:
    return evolved(
        state,
        step=OrganizationStep.SELECT_EVENT_CARDS,
        offer=tuple(e.cards),
        choosing=state.gold_order(),
    )


@handles(ev.EventCardChosen)
def _event_card_chosen(pack: HotwPack, state: HotwState, e: ev.EventCardChosen) -> HotwState:
    state = _player(state, e.seat, event_card=e.card)
    choosing = state.choosing[1:]
    return evolved(
        state,
        offer=tuple(c for c in state.offer if c != e.card),
        choosing=choosing,
        step=state.step if choosing else None,
    )


@handles(ev.EventCardsPassed)
@handles(ev.EmpireCardsPassed)
def _cards_passed(pack: HotwPack, state: HotwState, e: ev.EventCardsPassed) -> HotwState:
    return state


@handles(ev.EmpireCardsTaken)
def _empire_cards_taken(pack: HotwPack, state: HotwState, e: ev.EmpireCardsTaken) -> HotwState:
    return evolved(
        state,
        step=OrganizationStep.SELECT_HIDDEN_EMPIRE_CARDS,
        offer=tuple(e.cards),
        choosing=tuple(reversed(state.gold_order())),
    )


@handles(ev.HiddenEmpireCardChosen)
def _hidden_chosen(pack: HotwPack, state: HotwState, e: ev.HiddenEmpireCardChosen) -> HotwState:
    choices = {**state.empire_choices, e.card: e.seat}
    state = _player(state, e.seat, empire_cards=(*state.players[e.seat].empire_cards, e.card))
    state = evolved(
        state,
        empire_choices=choices,
        offer=tuple(c for c in state.offer if c != e.card),
        choosing=state.choosing[1:],
        unrevealed=state.unrevealed | {e.card},
    )
    return state if state.choosing else _turns_begin(pack, state)


@handles(ev.EmpireCardRevealed)
def _empire_revealed(pack: HotwPack, state: HotwState, e: ev.EmpireCardRevealed) -> HotwState:
    return evolved(state, unrevealed=state.unrevealed - {e.card})


# --- Option 4: Paired Area tokens -------------------------------------------------------------


@handles(ev.PairedAreaTokenDrawn)
def _paired_drawn(pack: HotwPack, state: HotwState, e: ev.PairedAreaTokenDrawn) -> HotwState:
    return _player(state, e.seat, area_tokens=(*state.players[e.seat].area_tokens, e.token))


@handles(ev.EpochEnded)
def _epoch_ended(pack: HotwPack, state: HotwState, e: ev.EpochEnded) -> HotwState:
    return evolved(state, stage=Stage.EPOCH_CLOSING, turn=None)


# --- player turns -----------------------------------------------------------------------------


@handles(ev.TurnBegan)
def _turn_began(pack: HotwPack, state: HotwState, e: ev.TurnBegan) -> HotwState:
    event_card = state.players[e.seat].event_card
    return evolved(state, turn=Turn(seat=e.seat, card=e.card, event_card=event_card))


@handles(ev.PhaseBegan)
def _phase(pack: HotwPack, state: HotwState, e: ev.PhaseBegan) -> HotwState:
    return _turn(state, phase=Phase(e.phase), empire_index=e.empire_index)


@handles(ev.EventRevealed)
def _revealed(pack: HotwPack, state: HotwState, e: ev.EventRevealed) -> HotwState:
    player = state.players[e.seat]
    return _player(state, e.seat, event_card=None, event_cards=(*player.event_cards, e.card))


@handles(ev.EventCarriedOut)
def _carried_out(pack: HotwPack, state: HotwState, e: ev.EventCarriedOut) -> HotwState:
    return evolved(state, agenda=(*state.agenda, EffectTask(e.seat, "event", e.card)))


@handles(ev.EventPoolFilled)
def _event_pool(pack: HotwPack, state: HotwState, e: ev.EventPoolFilled) -> HotwState:
    assert state.turn is not None
    pool = state.turn.event_pool
    state = _turn(
        state,
        event_pool=Pool(pool.people + e.people, pool.fleets + e.fleets, pool.great_wall_forts),
        event_expand=state.turn.event_expand or e.as_empire,
    )
    state = _player(state, e.seat, supply=state.players[e.seat].supply - e.people)
    return evolved(state, supply=_supply(state.supply, fleet=-e.fleets))


@handles(ev.EmpirePoolFilled)
def _empire_pool(pack: HotwPack, state: HotwState, e: ev.EmpirePoolFilled) -> HotwState:
    state = _turn(state, pool=Pool(e.people, e.fleets, e.great_wall_forts))
    state = _player(state, e.seat, supply=state.players[e.seat].supply - e.people)
    return evolved(
        state,
        supply=_supply(state.supply, fleet=-e.fleets, great_wall=-e.great_wall_forts),
    )


@handles(ev.StartLandChoiceOffered)
def _start_land_offered(
    pack: HotwPack, state: HotwState, e: ev.StartLandChoiceOffered
) -> HotwState:
    return evolved(state, agenda=(*state.agenda, StartLandTask(e.seat, e.card)))


@handles(ev.BuildingRemoved)
def _building_removed(pack: HotwPack, state: HotwState, e: ev.BuildingRemoved) -> HotwState:
    lands = dict(state.lands)
    before = state.land(e.land)
    deltas = _remove_building(state, lands, e.land, Building(e.building))
    return evolved(
        state,
        lands=lands,
        supply=_supply(state.supply, **deltas),
        great_wall_on_map=_great_wall_off(state, e.land, before)
        if e.building == Building.FORT
        else state.great_wall_on_map,
    )


@handles(ev.GarrisonRemoved)
def _garrison_removed(pack: HotwPack, state: HotwState, e: ev.GarrisonRemoved) -> HotwState:
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(None, False, land.buildings, land.great_wall))
    return _return_people(state, e.owner, 1)


@handles(ev.ArmyPlaced)
def _army_placed(pack: HotwPack, state: HotwState, e: ev.ArmyPlaced) -> HotwState:
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(e.seat, True, land.buildings, land.great_wall))
    return _take_person(state, e.pool)


@handles(ev.GarrisonSurrendered)
def _surrendered(pack: HotwPack, state: HotwState, e: ev.GarrisonSurrendered) -> HotwState:
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(None, False, land.buildings, land.great_wall))
    return _return_people(state, e.seat, 1)


@handles(ev.InvasionSucceeded)
def _invasion_succeeded(pack: HotwPack, state: HotwState, e: ev.InvasionSucceeded) -> HotwState:
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(e.seat, True, land.buildings, land.great_wall))
    state = _return_people(state, e.enemy, 1)
    return _take_person(state, e.pool)


@handles(ev.InvasionFrustrated)
def _invasion_frustrated(pack: HotwPack, state: HotwState, e: ev.InvasionFrustrated) -> HotwState:
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(None, False, land.buildings, land.great_wall))
    state = _return_people(state, e.enemy, 1)
    state = _take_person(state, e.pool)
    return _return_people(state, e.seat, 1)


# --- Option 3: Invasion and conquest ---------------------------------------------------------


@handles(ev.InvasionRepulsed)
def _repulsed(pack: HotwPack, state: HotwState, e: ev.InvasionRepulsed) -> HotwState:
    state = _take_person(state, e.pool)
    return _return_people(state, e.seat, 1)


@handles(ev.InvasionModifierSet)
def _modifier_set(pack: HotwPack, state: HotwState, e: ev.InvasionModifierSet) -> HotwState:
    return _turn(state, modifier_land=e.land, invasion_modifier=e.modifier)


@handles(ev.InvasionModifierRemoved)
def _modifier_removed(pack: HotwPack, state: HotwState, e: ev.InvasionModifierRemoved) -> HotwState:
    return _turn(state, modifier_land=None, invasion_modifier=0)


@handles(ev.ConquestPointsAwarded)
def _points(pack: HotwPack, state: HotwState, e: ev.ConquestPointsAwarded) -> HotwState:
    task = ConquestTask(e.seat, e.enemy, e.points, (e.land,), e.pool, e.barbarian)
    return evolved(state, agenda=(*state.agenda, task))


@handles(ev.LandConquered)
def _conquered(pack: HotwPack, state: HotwState, e: ev.LandConquered) -> HotwState:
    task = _top_task(state)
    assert isinstance(task, ConquestTask)
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(e.seat, True, land.buildings, land.great_wall))
    state = _return_people(state, e.enemy, 1)
    state = _take_person(state, e.pool)
    left = ConquestTask(
        task.seat,
        task.enemy,
        task.points - e.cost,
        (*task.lands, e.land),
        task.pool,
        task.barbarian,
    )
    return _replace_top(state, left)


@handles(ev.ConquestEnded)
def _conquest_ended(pack: HotwPack, state: HotwState, e: ev.ConquestEnded) -> HotwState:
    return _replace_top(state, None)


@handles(ev.BuildingsPlundered)
def _plundered(pack: HotwPack, state: HotwState, e: ev.BuildingsPlundered) -> HotwState:
    return _gold(state, e.seat, e.gold)


@handles(ev.BuildingReduced)
def _reduced(pack: HotwPack, state: HotwState, e: ev.BuildingReduced) -> HotwState:
    lands = dict(state.lands)
    before = state.land(e.land)
    deltas: dict[str, int] = {}
    for name in e.removed:
        for key, delta in _remove_building(state, lands, e.land, Building(name)).items():
            deltas[key] = deltas.get(key, 0) + delta
    if e.city_added:
        current = lands.get(e.land, EMPTY_LAND)
        _set_land(
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
        _great_wall_off(state, e.land, before)
        if Building.FORT.value in e.removed
        else state.great_wall_on_map
    )
    return evolved(
        state, lands=lands, supply=_supply(state.supply, **deltas), great_wall_on_map=great_wall
    )


@handles(ev.BuildingPlaced)
def _building_placed(pack: HotwPack, state: HotwState, e: ev.BuildingPlaced) -> HotwState:
    land = state.land(e.land)
    building = Building(e.building)
    state = state.with_land(
        e.land, LandState(land.owner, land.standing, land.buildings | {building}, land.great_wall)
    )
    return evolved(state, supply=_supply(state.supply, **{building.value: -1}))


@handles(ev.BuildingSupplyExhausted)
def _exhausted(pack: HotwPack, state: HotwState, e: ev.BuildingSupplyExhausted) -> HotwState:
    task = TakeBuildingTask(e.seat, Building(e.building), e.land)
    return evolved(state, agenda=(*state.agenda, task))


@handles(ev.BuildingTaken)
def _taken(pack: HotwPack, state: HotwState, e: ev.BuildingTaken) -> HotwState:
    lands = dict(state.lands)
    building = Building(e.building)
    deltas = _remove_building(state, lands, e.land, building)
    if e.city_added:
        current = lands.get(e.land, EMPTY_LAND)
        _set_land(
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
    return evolved(state, lands=lands, supply=_supply(state.supply, **deltas))


@handles(ev.BuildingNotPlaced)
def _not_placed(pack: HotwPack, state: HotwState, e: ev.BuildingNotPlaced) -> HotwState:
    return state


@handles(ev.FleetPlaced)
def _fleet(pack: HotwPack, state: HotwState, e: ev.FleetPlaced) -> HotwState:
    assert state.turn is not None
    turn = state.turn
    if e.pool == "event":
        pool = turn.event_pool
        return _turn(
            state,
            event_pool=Pool(pool.people, pool.fleets - 1, pool.great_wall_forts),
            event_fleets=(*turn.event_fleets, e.water),
        )
    if e.pool == "supply":
        state = evolved(state, supply=_supply(state.supply, fleet=-1))
        return _turn(state, fleets=(*turn.fleets, e.water))
    pool = turn.pool
    return _turn(
        state,
        pool=Pool(pool.people, pool.fleets - 1, pool.great_wall_forts),
        fleets=(*turn.fleets, e.water),
    )


@handles(ev.FortBuilt)
def _fort_built(pack: HotwPack, state: HotwState, e: ev.FortBuilt) -> HotwState:
    state = _take_person(state, "empire")
    return _return_people(state, e.seat, 1)


@handles(ev.GreatWallFortPlaced)
def _wall_placed(pack: HotwPack, state: HotwState, e: ev.GreatWallFortPlaced) -> HotwState:
    assert state.turn is not None
    pool = state.turn.pool
    land = state.land(e.land)
    state = state.with_land(
        e.land, LandState(land.owner, land.standing, land.buildings | {Building.FORT}, True)
    )
    state = _turn(state, pool=Pool(pool.people, pool.fleets, pool.great_wall_forts - 1))
    return evolved(state, great_wall_on_map=(*state.great_wall_on_map, e.land))


@handles(ev.GreatWallFortsPooled)
def _walls_pooled(pack: HotwPack, state: HotwState, e: ev.GreatWallFortsPooled) -> HotwState:
    assert state.turn is not None
    pool = state.turn.pool
    state = _turn(state, pool=Pool(pool.people, pool.fleets, pool.great_wall_forts + e.count))
    return evolved(state, supply=_supply(state.supply, great_wall=-e.count))


@handles(ev.GreatWallLimitReached)
def _wall_limit(pack: HotwPack, state: HotwState, e: ev.GreatWallLimitReached) -> HotwState:
    return evolved(state, agenda=(*state.agenda, GreatWallRemovalTask(e.seat, e.count)))


@handles(ev.GreatWallFortRemoved)
def _wall_removed(pack: HotwPack, state: HotwState, e: ev.GreatWallFortRemoved) -> HotwState:
    assert state.turn is not None
    pool = state.turn.pool
    land = state.land(e.land)
    state = state.with_land(
        e.land, LandState(land.owner, land.standing, land.buildings - {Building.FORT}, False)
    )
    state = _turn(state, pool=Pool(pool.people, pool.fleets, pool.great_wall_forts + 1))
    task = _top_task(state)
    if isinstance(task, GreatWallRemovalTask):
        remaining = task.remaining - 1
        state = _replace_top(
            state, GreatWallRemovalTask(task.seat, remaining) if remaining else None
        )
    return evolved(
        state, great_wall_on_map=tuple(x for x in state.great_wall_on_map if x != e.land)
    )


@handles(ev.LeaderUsed)
def _leader_used(pack: HotwPack, state: HotwState, e: ev.LeaderUsed) -> HotwState:
    return _turn(state, leader_active=True, leader_ignores=e.ignores)


@handles(ev.LeaderRemoved)
def _leader_removed(pack: HotwPack, state: HotwState, e: ev.LeaderRemoved) -> HotwState:
    state = _player(state, e.seat, leader=False)
    return _turn(state, leader_active=False, leader_ignores=None)


@handles(ev.PoolCleared)
def _pool_cleared(pack: HotwPack, state: HotwState, e: ev.PoolCleared) -> HotwState:
    state = _turn(state, pool=EMPTY_POOL)
    state = _return_people(state, e.seat, e.people)
    return evolved(
        state,
        supply=_supply(state.supply, fleet=e.fleets, great_wall=e.great_wall_forts),
    )


@handles(ev.EventConcluded)
def _event_concluded(pack: HotwPack, state: HotwState, e: ev.EventConcluded) -> HotwState:
    lands = dict(state.lands)
    for land in e.lands:
        current = lands[land]
        lands[land] = LandState(current.owner, False, current.buildings, current.great_wall)
    state = evolved(
        state,
        lands=lands,
        supply=_supply(state.supply, fleet=len(e.waters) + e.fleets),
    )
    state = _return_people(state, e.seat, e.people)
    return _turn(state, event_pool=EMPTY_POOL, event_fleets=(), event_expand=False)


@handles(ev.MonumentsDue)
def _monuments_due(pack: HotwPack, state: HotwState, e: ev.MonumentsDue) -> HotwState:
    return evolved(state, agenda=(*state.agenda, MonumentTask(e.seat, e.count)))


@handles(ev.MonumentsUnbuilt)
def _monuments_unbuilt(pack: HotwPack, state: HotwState, e: ev.MonumentsUnbuilt) -> HotwState:
    return _replace_top(state, None)


@handles(ev.HonorPlayed)
def _honor_played(pack: HotwPack, state: HotwState, e: ev.HonorPlayed) -> HotwState:
    player = state.players[e.seat]
    if e.honor in player.honor_track:
        track = list(player.honor_track)
        track.remove(e.honor)
        state = _player(state, e.seat, honor_track=tuple(track))
    else:
        pool = list(player.pool_honors)
        pool.remove(e.honor)
        state = _player(state, e.seat, pool_honors=tuple(pool))
    state = _player(state, e.seat, honor_stack=(*state.players[e.seat].honor_stack, e.honor))
    if e.for_effect:
        task = EffectTask(e.seat, "honor", e.honor, endgame=e.endgame)
        state = evolved(state, agenda=(*state.agenda, task))
    return state


@handles(ev.GoldCollected)
def _gold_collected(pack: HotwPack, state: HotwState, e: ev.GoldCollected) -> HotwState:
    return _gold(state, e.seat, e.amount)


@handles(ev.GoldLost)
def _gold_lost(pack: HotwPack, state: HotwState, e: ev.GoldLost) -> HotwState:
    return _gold(state, e.seat, -e.amount)


@handles(ev.PeopleRecruited)
def _recruited(pack: HotwPack, state: HotwState, e: ev.PeopleRecruited) -> HotwState:
    assert state.turn is not None
    pool = state.turn.pool
    state = _turn(state, pool=Pool(pool.people + e.count, pool.fleets, pool.great_wall_forts))
    return _player(state, e.seat, supply=state.players[e.seat].supply - e.count)


@handles(ev.AreaChosen)
def _area_chosen(pack: HotwPack, state: HotwState, e: ev.AreaChosen) -> HotwState:
    task = _top_task(state)
    assert isinstance(task, EffectTask)
    return _replace_top(state, evolved_task(task, area=e.area))


def evolved_task(task: EffectTask, **changes: Any) -> EffectTask:
    values = {name: getattr(task, name) for name in EffectTask.__slots__}
    values.update(changes)
    return EffectTask(**values)


@handles(ev.LandChosen)
def _land_chosen(pack: HotwPack, state: HotwState, e: ev.LandChosen) -> HotwState:
    task = _top_task(state)
    if isinstance(task, EffectTask):
        return _replace_top(
            state, evolved_task(task, done=task.done + 1, acted=(*task.acted, e.land))
        )
    if isinstance(task, MonumentTask):
        remaining = task.remaining - 1
        return _replace_top(state, MonumentTask(task.seat, remaining) if remaining else None)
    # TakeBuildingTask, StartLandTask: a single choice ends them; GreatWallRemovalTask ends
    # with the fort's removal.
    if isinstance(task, GreatWallRemovalTask):
        return state
    return _replace_top(state, None)


@handles(ev.WaterChosen)
def _water_chosen(pack: HotwPack, state: HotwState, e: ev.WaterChosen) -> HotwState:
    task = _top_task(state)
    assert isinstance(task, EffectTask)
    return _replace_top(state, evolved_task(task, done=task.done + 1, acted=(*task.acted, e.water)))


@handles(ev.EffectCompleted)
def _effect_completed(pack: HotwPack, state: HotwState, e: ev.EffectCompleted) -> HotwState:
    task = _top_task(state)
    assert isinstance(task, EffectTask)
    return _replace_top(
        state,
        evolved_task(task, index=e.index + 1, done=0, acted=(), previous=tuple(e.lands), area=None),
    )


@handles(ev.EffectsEnded)
def _effects_ended(pack: HotwPack, state: HotwState, e: ev.EffectsEnded) -> HotwState:
    return _replace_top(state, None)


@handles(ev.AreaTokenPlayed)
def _token_played(pack: HotwPack, state: HotwState, e: ev.AreaTokenPlayed) -> HotwState:
    tokens = list(state.players[e.seat].area_tokens)
    tokens.remove(e.token)
    return _player(state, e.seat, area_tokens=tuple(tokens))


@handles(ev.ArmiesLaidDown)
def _laid_down(pack: HotwPack, state: HotwState, e: ev.ArmiesLaidDown) -> HotwState:
    lands = dict(state.lands)
    for land in e.lands:
        current = lands[land]
        lands[land] = LandState(current.owner, False, current.buildings, current.great_wall)
    return evolved(state, lands=lands)


@handles(ev.FleetsRemoved)
def _fleets_removed(pack: HotwPack, state: HotwState, e: ev.FleetsRemoved) -> HotwState:
    state = evolved(state, supply=_supply(state.supply, **{FLEET: len(e.waters)}))
    return _turn(state, fleets=())


@handles(ev.TurnEnded)
def _turn_ended(pack: HotwPack, state: HotwState, e: ev.TurnEnded) -> HotwState:
    return evolved(state, turn=None, turn_index=state.turn_index + 1)


# --- endgame ----------------------------------------------------------------------------------


@handles(ev.EndgameBegan)
def _endgame(pack: HotwPack, state: HotwState, e: ev.EndgameBegan) -> HotwState:
    return evolved(state, stage=Stage.ENDGAME, endgame_order=tuple(e.order), turn=None)


@handles(ev.EndgameTokenRevealed)
def _endgame_revealed(pack: HotwPack, state: HotwState, e: ev.EndgameTokenRevealed) -> HotwState:
    tokens = tuple(
        EndgameToken(t.epoch, t.token, True, t.known_by) if t.epoch == e.epoch else t
        for t in state.endgame_tokens
    )
    return evolved(state, endgame_tokens=tokens)


@handles(ev.GameEnded)
def _game_ended(pack: HotwPack, state: HotwState, e: ev.GameEnded) -> HotwState:
    result = GameResult(
        gold=tuple(e.gold),
        ranking=tuple(tuple(group) for group in e.ranking),
        people_shown=tuple(e.people_shown),
        honor_icons=tuple(e.honor_icons),
    )
    return evolved(state, stage=Stage.OVER, result=result)


__all__ = ["Player", "evolve", "handled_types"]
