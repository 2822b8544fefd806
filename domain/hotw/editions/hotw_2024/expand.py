"""C. Expand the Empire (p5, p7, p9): where armies and fleets may go, forts, the Great Wall,
the Leader, and when the phase may end."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.board import Board
from domain.hotw.changes import added, with_turn
from domain.hotw.editions.hotw_2024.buildings import FortBuilt, can_obtain, place_building
from domain.hotw.editions.hotw_2024.cards import Building, Phase
from domain.hotw.editions.hotw_2024.context import (
    COMMANDS,
    FOLDS,
    Arg,
    Ctx,
    HotwEvent,
    cited,
    current_spec,
    lands,
    refused,
    replace_top,
    return_people,
    top_task,
    waters,
)
from domain.hotw.editions.hotw_2024.edition import Edition
from domain.hotw.editions.hotw_2024.honors import honors_for_phase
from domain.hotw.editions.hotw_2024.invasion import (
    IGNORE_DIFFICULT,
    IGNORE_FORT,
    Army,
    LeaderUsed,
    place_army,
)
from domain.hotw.editions.hotw_2024.model import (
    EMPTY_POOL,
    Control,
    GreatWallRemovalTask,
    HotwState,
    LandState,
    Pool,
    Turn,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack

UNCITED_RULES = (
    "hotw24.fleets.mediterranean",
    "hotw24.fleets.volga",
    "hotw24.fleets.bay-of-bengal",
)
"""The clauses this module decides that no event or refusal carries."""

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
    land lists one) and never a land already holding the Empire's army. What a sea touches is
    the board's: the far-reaching seas of p10 (hotw24.fleets.mediterranean,
    hotw24.fleets.volga, hotw24.fleets.bay-of-bengal) are its adjacency."""
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
class FleetPlaced(HotwEvent):
    seat: int
    water: str
    pool: str


@event
class GreatWallFortPlaced(HotwEvent):
    seat: int
    land: str


@event
class GreatWallFortsPooled(HotwEvent):
    """A Dynasty's Great Wall forts go from the supply into its Empire pool."""

    seat: int
    count: int


@event
class GreatWallLimitReached(HotwEvent):
    """Too few Great Wall forts are left for an arriving Dynasty: `count` must come off."""

    seat: int
    count: int


@event
class GreatWallFortRemoved(HotwEvent):
    """A Great Wall fort comes off the map into the arriving Dynasty's pool (p10)."""

    seat: int
    land: str


@event
class PoolCleared(HotwEvent):
    """End of Expand: pieces left in the Empire pool are removed."""

    seat: int
    people: int
    fleets: int
    great_wall_forts: int


@FOLDS.handles(FleetPlaced)
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
        state = evolved(state, supply=added(state.supply, fleet=-1))
        return with_turn(state, fleets=(*turn.fleets, e.water))
    pool = turn.pool
    return with_turn(
        state,
        pool=Pool(pool.people, pool.fleets - 1, pool.great_wall_forts),
        fleets=(*turn.fleets, e.water),
    )


@FOLDS.handles(GreatWallFortPlaced)
def _wall_placed(pack: HotwPack, state: HotwState, e: GreatWallFortPlaced) -> HotwState:
    assert state.turn is not None
    pool = state.turn.pool
    land = state.land(e.land)
    state = state.with_land(
        e.land, LandState(land.owner, land.standing, land.buildings | {Building.FORT}, True)
    )
    state = with_turn(state, pool=Pool(pool.people, pool.fleets, pool.great_wall_forts - 1))
    return evolved(state, great_wall_on_map=(*state.great_wall_on_map, e.land))


@FOLDS.handles(GreatWallFortsPooled)
def _walls_pooled(pack: HotwPack, state: HotwState, e: GreatWallFortsPooled) -> HotwState:
    assert state.turn is not None
    pool = state.turn.pool
    state = with_turn(state, pool=Pool(pool.people, pool.fleets, pool.great_wall_forts + e.count))
    return evolved(state, supply=added(state.supply, great_wall=-e.count))


@FOLDS.handles(GreatWallLimitReached)
def _wall_limit(pack: HotwPack, state: HotwState, e: GreatWallLimitReached) -> HotwState:
    return evolved(state, agenda=(*state.agenda, GreatWallRemovalTask(e.seat, e.count)))


@FOLDS.handles(GreatWallFortRemoved)
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


@FOLDS.handles(PoolCleared)
def _pool_cleared(pack: HotwPack, state: HotwState, e: PoolCleared) -> HotwState:
    state = with_turn(state, pool=EMPTY_POOL)
    state = return_people(state, e.seat, e.people)
    return evolved(
        state,
        supply=added(state.supply, fleet=e.fleets, great_wall=e.great_wall_forts),
    )


# --- commands: placing armies, fleets, forts and Great Wall forts, and using the Leader --------

NEVER_MOVE = frozenset({"move_army", "move_fleet"})
"""Commands no History of the World edition has: placed armies and fleets never move."""


def expansion_actions(pack: HotwPack, state: HotwState, seat: int) -> Iterator[Command]:
    """Phase C (and phase A for an Event played as if an Empire, without Honors, Leader or
    forts: reveal.no-honor-play, events.no-leader, events.no-forts)."""
    current = state.turn
    assert current is not None
    board = pack.board
    pool = active_pool(current)
    fleets = active_fleets(current)
    if pool.people:
        for land in sorted(army_targets(board, state, seat, fleets)):
            yield Command.of("place_army", land=land)
    if pool.fleets:
        kind = fleet_kind_for_pool(pack.edition, state.epoch)
        for water in sorted(fleet_targets(board, state, seat, fleets, kind)):
            yield Command.of("place_fleet", water=water)
    if not in_event_expansion(current):
        if pool.people:
            for land in fort_targets(state, seat):
                yield Command.of("build_fort", land=land)
        if pool.great_wall_forts:
            for land in great_wall_targets(pack.edition, state, seat):
                yield Command.of("place_great_wall", land=land)
        if state.players[seat].leader and not current.leader_active:
            if state.dice:
                yield Command.of("use_leader")
            else:
                yield Command.of("use_leader", ignore=IGNORE_DIFFICULT)
                yield Command.of("use_leader", ignore=IGNORE_FORT)
        for honor in honors_for_phase(pack.cards, state.players[seat], Phase.EXPAND):
            yield Command.of("play_honor", honor=honor)
    if may_end_expansion(board, state, current):
        yield Command.of("end_phase")


def current_army(ctx: Ctx) -> Army:
    """The army the expanding player places: the Empire's, or the Event's played as one."""
    current = ctx.turn
    if in_event_expansion(current):
        card = ctx.cards.event(current.event_card or "")
        return Army(current.seat, "event", barbarian=card.barbarian, expanding=True)
    spec = current_spec(ctx.pack, current)
    return Army(
        current.seat,
        "empire",
        barbarian=spec.barbarian,
        leader=current.leader_active,
        leader_ignores=current.leader_ignores,
        expanding=True,
    )


def why_not_place_army(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation:
    land = str(command.arg("land"))
    turn = state.turn
    if land in pack.board.wastelands:
        return refused(
            "an army may never be placed in a wasteland", "hotw24.expand.no-wasteland", command
        )
    phase = turn.phase if turn else None
    placing = turn is not None and phase in (Phase.REVEAL, Phase.EXPAND)
    if (
        placing
        and turn is not None
        and land in pack.board.lands
        and land not in army_targets(pack.board, state, seat, active_fleets(turn))
    ):
        return refused(
            "an army is placed next to one of the Empire's armies or fleets",
            "hotw24.expand.place-army",
            command,
        )
    if placing and turn is not None and active_pool(turn).people == 0:
        return refused(
            "the pool has no people piece left to stand up as an army",
            "hotw24.general.people.army-from-pool",
            command,
        )
    return refused("no army can be placed now", "hotw24.expand.place-army", command)


def why_not_place_fleet(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation:
    water = str(command.arg("water"))
    turn = state.turn
    if turn is not None and turn.phase is Phase.EXPAND and active_pool(turn).fleets == 0:
        return refused(
            "the card's fleets are all placed: a card of Epochs I-III shows one sea fleet at "
            "most, a card of Epochs IV-V two ocean fleets",
            "hotw24.fleets.cards-by-epoch",
            command,
        )
    if water in pack.board.seas:
        wanted = fleet_kind_for_pool(pack.edition, state.epoch)
        if pack.board.is_ocean(water) != (wanted == "ocean"):
            rule = (
                "hotw24.fleets.pool-ocean-epochs"
                if wanted == "ocean"
                else "hotw24.fleets.pool-sea-epochs"
            )
            return refused(f"a fleet from the pool goes in a {wanted} this epoch", rule, command)
    return refused(
        "a fleet is placed next to one of the Empire's armies or fleets",
        "hotw24.expand.place-fleet",
        command,
    )


def why_not_build_fort(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation:
    land = str(command.arg("land"))
    if state.turn is not None and state.turn.phase is Phase.REVEAL:
        return refused(
            "no fort may be built in the Reveal the Event phase",
            "hotw24.forts.not-in-reveal",
            command,
            ("hotw24.events.no-forts",),
        )
    if Building.FORT in state.land(land).buildings:
        return refused(
            "a land holds at most one fort",
            "hotw24.forts.one-per-land",
            command,
            ("hotw24.buildings.one-of-each",),
        )
    return refused(
        "a fort is built in an Empire land from a pool people piece", "hotw24.forts.build", command
    )


def why_not_place_great_wall(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "a Great Wall fort goes in Yellow River or Wei River once held",
        "hotw24.empires.great-wall",
        command,
    )


def why_not_use_leader(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation:
    turn = state.turn
    phase = turn.phase if turn else None
    if phase is Phase.REVEAL:
        return refused(
            "the Leader may not be used while the Event is revealed",
            "hotw24.events.no-leader",
            command,
        )
    if not state.players[seat].leader or (turn and turn.leader_active):
        return refused("the Leader has been used", "hotw24.leader.spent", command)
    if phase is not Phase.EXPAND:
        return refused(
            "the Leader is used in Expand the Empire", "hotw24.invasion.dice.leader", command
        )
    return refused(
        "with dice the Leader adds a die; without dice it ignores difficult terrain or forts",
        "hotw24.invasion.no-dice.leader" if not state.dice else "hotw24.intro.one-system",
        command,
    )


@COMMANDS.declares(
    "place_army",
    "Expansion: place an army in a land.",
    Arg("land", "A land id.", lands),
    why_not=why_not_place_army,
)
def do_place_army(ctx: Ctx, seat: int, command: Command) -> None:
    land = str(command.arg("land"))
    army = current_army(ctx)
    reached_by = reach_rules(ctx.board, ctx.state, seat, active_fleets(ctx.turn), land)
    place_army(ctx, replace(army, reached_by=reached_by), land)


def reach_rules(
    board: Board, state: HotwState, seat: int, fleets: tuple[str, ...], land: str
) -> tuple[str, ...]:
    """Why `land` is within reach, when it is not by a shared border: a strait
    (expand.straits), or a fleet in a sea or ocean it touches (fleets.stepping-stone), an
    ocean's fleet reaching it through one of the ocean's seas (fleets.ocean-includes-seas)."""
    armies = state.lands_of(seat, standing=True)
    if any(land in board.lands[army].neighbours for army in armies):
        return ()
    if any(board.is_strait(army, land) for army in armies):
        return ("hotw24.expand.straits",)
    if any(water in board.waters_of(land) for water in fleets):
        return ("hotw24.fleets.stepping-stone",)
    for water in fleets:
        if land in board.lands_reachable_by_fleet_in(water):
            return ("hotw24.fleets.stepping-stone", "hotw24.fleets.ocean-includes-seas")
    return ()


@COMMANDS.declares(
    "place_fleet",
    "Expansion: place a fleet in a sea or ocean.",
    Arg("water", "A sea or ocean id.", waters),
    why_not=why_not_place_fleet,
)
def place_fleet(ctx: Ctx, seat: int, command: Command) -> None:
    pool = "event" if in_event_expansion(ctx.turn) else "empire"
    ctx.emit(
        FleetPlaced(
            rule="hotw24.expand.place-fleet",
            seat=seat,
            water=str(command.arg("water")),
            pool=pool,
        )
    )


@COMMANDS.declares(
    "build_fort",
    "Build a fort in a land you hold.",
    Arg("land", "A land id.", lands),
    why_not=why_not_build_fort,
)
def build_fort(ctx: Ctx, seat: int, command: Command) -> None:
    land = str(command.arg("land"))
    ctx.emit(
        FortBuilt(
            rule="hotw24.forts.build", cites=cited("hotw24.forts.sources"), seat=seat, land=land
        )
    )
    place_building(ctx, seat, Building.FORT, land, "hotw24.forts.build")


@COMMANDS.declares(
    "place_great_wall",
    "Place a Great Wall fort in a land.",
    Arg("land", "A land id.", lands),
    why_not=why_not_place_great_wall,
)
def place_great_wall(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        GreatWallFortPlaced(
            rule="hotw24.empires.great-wall", seat=seat, land=str(command.arg("land"))
        )
    )


@COMMANDS.declares(
    "use_leader",
    "Use your Empire's Leader (without dice, say what it ignores).",
    Arg("ignore", "What the Leader ignores.", (IGNORE_DIFFICULT, IGNORE_FORT), required=False),
    why_not=why_not_use_leader,
)
def use_leader(ctx: Ctx, seat: int, command: Command) -> None:
    ignore = command.arg("ignore")
    rule = "hotw24.invasion.dice.leader" if ignore is None else "hotw24.invasion.no-dice.leader"
    ctx.emit(LeaderUsed(rule=rule, seat=seat, ignores=ignore))
