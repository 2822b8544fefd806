"""Every player choice as a command: what a seat may do now (`legal_actions`, the single source
of truth), what a command does (`apply_command`), and how the game runs on by itself until the
next choice (`proceed`).

Commands: choose_area_token token · choose_event_card card (Option 1) · choose_empire_card card ·
place_army land · place_fleet water · build_fort land · place_great_wall land · use_leader
[ignore] · play_honor honor · play_area_token token · end_phase · choose_land land · choose_area
area · choose_water water · conquer_land land · end_conquest (Option 3).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from domain.core.messages import Command
from domain.hotw.cards import Building, Phase
from domain.hotw.model import (
    ConquestTask,
    EffectTask,
    GreatWallRemovalTask,
    HotwState,
    MonumentTask,
    OrganizationStep,
    Stage,
    StartLandTask,
    TakeBuildingTask,
    Task,
)
from domain.hotw.pack import HotwPack
from domain.hotw.rules import endgame, organization, turn
from domain.hotw.rules.buildings import (
    FortBuilt,
    enemy_lands_holding,
    place_building,
    take_building,
)
from domain.hotw.rules.conquest import conquer, conquest_targets, end_conquest
from domain.hotw.rules.context import Ctx, current_spec
from domain.hotw.rules.effects import (
    Choice,
    LandChosen,
    advance_effect,
    choose_for_effect,
    effect_choice,
)
from domain.hotw.rules.expand import (
    FleetPlaced,
    GreatWallFortPlaced,
    GreatWallFortRemoved,
    active_fleets,
    active_pool,
    army_targets,
    fleet_kind_for_pool,
    fleet_targets,
    fort_targets,
    great_wall_targets,
    in_event_expansion,
    may_end_expansion,
)
from domain.hotw.rules.gold import GoldCollected, collect_gold
from domain.hotw.rules.honors import (
    HonorPlayed,
    endgame_effect_honors,
    honors_for_phase,
    seats_with_endgame_honors,
)
from domain.hotw.rules.invasion import IGNORE_DIFFICULT, IGNORE_FORT, Army, LeaderUsed, place_army
from domain.hotw.rules.revenue import revenue_items
from domain.hotw.rules.turn import AreaTokenPlayed, MonumentsUnbuilt

END_PHASE = Command.of("end_phase")
END_CONQUEST = Command.of("end_conquest")
MAX_FORCED = 10_000


# --- who acts, and what they may do -----------------------------------------------------------


def awaited_seats(pack: HotwPack, state: HotwState) -> frozenset[int]:
    if state.stage is Stage.ORGANIZATION:
        return frozenset(state.choosing[:1])
    if state.stage is Stage.TURNS and state.turn is not None:
        return frozenset({state.turn.seat})
    if state.stage is Stage.ENDGAME:
        if state.agenda:
            return frozenset({state.agenda[-1].seat})
        return frozenset(seats_with_endgame_honors(pack.cards, state)[:1])
    return frozenset()


def task_choice(pack: HotwPack, state: HotwState, task: Task) -> Choice | None:
    """The choice the innermost agenda process waits for."""
    if isinstance(task, EffectTask):
        return effect_choice(pack, state, task)
    if isinstance(task, MonumentTask):
        sites = turn.monument_sites(pack, state, task.seat)
        return Choice("choose_land", "land", tuple(sites)) if sites else None
    if isinstance(task, TakeBuildingTask):
        lands = enemy_lands_holding(state, task.seat, task.building)
        return Choice("choose_land", "land", tuple(lands)) if lands else None
    if isinstance(task, GreatWallRemovalTask):
        return Choice("choose_land", "land", tuple(state.great_wall_on_map))
    if isinstance(task, ConquestTask):
        lands = conquest_targets(pack, state, task)
        return Choice("conquer_land", "land", tuple(lands)) if lands else None
    lands = turn.start_land_options(pack, state, task.card)
    return Choice("choose_land", "land", tuple(lands)) if lands else None


def legal_actions(pack: HotwPack, state: HotwState, seat: int) -> list[Command]:
    return list(listed_actions(pack, state, seat))


def listed_actions(pack: HotwPack, state: HotwState, seat: int) -> Iterator[Command]:
    """The legal actions one by one, in their order, worked out only as far as they are read."""
    if seat not in awaited_seats(pack, state):
        return
    if state.agenda:
        task = state.agenda[-1]
        choice = task_choice(pack, state, task)
        if choice is not None:
            for option in choice.options:
                yield Command.of(choice.command, **{choice.arg: option})
        if isinstance(task, ConquestTask):
            yield END_CONQUEST
    elif state.stage is Stage.ORGANIZATION:
        yield from organization_actions(state)
    elif state.stage is Stage.ENDGAME:
        for honor in endgame_effect_honors(pack.cards, state.players[seat]):
            yield Command.of("play_honor", honor=honor)
    else:
        yield from turn_actions(pack, state, seat)


def organization_actions(state: HotwState) -> Iterator[Command]:
    if state.step is OrganizationStep.SELECT_AREA_TOKENS:
        for token in sorted(state.offer):
            yield Command.of("choose_area_token", token=token)
    elif state.step is OrganizationStep.SELECT_EVENT_CARDS:
        for card in sorted(state.offer):
            yield Command.of("choose_event_card", card=card)
    else:
        hidden = state.step is OrganizationStep.SELECT_HIDDEN_EMPIRE_CARDS
        for card in state.offer if hidden else state.displayed:
            yield Command.of("choose_empire_card", card=card)


def sole_action(pack: HotwPack, state: HotwState, seat: int) -> Command | None:
    """The seat's one legal action, when it has exactly one."""
    first_two = list(islice(listed_actions(pack, state, seat), 2))
    return first_two[0] if len(first_two) == 1 else None


def turn_actions(pack: HotwPack, state: HotwState, seat: int) -> Iterator[Command]:
    current = state.turn
    assert current is not None
    phase = current.phase
    if phase is Phase.REVEAL or phase is Phase.EXPAND:
        if phase is Phase.REVEAL and not current.event_expand:
            return
        yield from expansion_actions(pack, state, seat)
    elif phase is Phase.REVENUE:
        for honor in honors_for_phase(pack.cards, state.players[seat], Phase.REVENUE):
            yield Command.of("play_honor", honor=honor)
        if not state.players[seat].pool_honors:
            yield END_PHASE
    elif phase is Phase.CONCLUDE:
        for token in sorted(set(state.players[seat].area_tokens)):
            yield Command.of("play_area_token", token=token)
        yield END_PHASE


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
        yield END_PHASE


# --- doing it ---------------------------------------------------------------------------------


def apply_command(ctx: Ctx, seat: int, command: Command) -> None:
    kind = command.type
    if ctx.state.agenda:
        resolve_choice(ctx, seat, command)
    elif kind == "choose_area_token":
        organization.choose_area_token(ctx, seat, str(command.arg("token")))
    elif kind == "choose_event_card":
        organization.choose_event_card(ctx, seat, str(command.arg("card")))
    elif kind == "choose_empire_card":
        card = str(command.arg("card"))
        if ctx.state.step is OrganizationStep.SELECT_HIDDEN_EMPIRE_CARDS:
            organization.choose_hidden_empire_card(ctx, seat, card)
        else:
            organization.choose_empire_card(ctx, seat, card)
    elif kind == "place_army":
        place_army(ctx, current_army(ctx), str(command.arg("land")))
    elif kind == "place_fleet":
        pool = "event" if in_event_expansion(ctx.turn) else "empire"
        ctx.emit(
            FleetPlaced(
                rule=ctx.cite("expand.place-fleet"),
                seat=seat,
                water=str(command.arg("water")),
                pool=pool,
            )
        )
    elif kind == "build_fort":
        land = str(command.arg("land"))
        ctx.emit(FortBuilt(rule=ctx.cite("forts.build"), seat=seat, land=land))
        place_building(ctx, seat, Building.FORT, land, "forts.build")
    elif kind == "place_great_wall":
        ctx.emit(
            GreatWallFortPlaced(
                rule=ctx.cite("empires.great-wall"), seat=seat, land=str(command.arg("land"))
            )
        )
    elif kind == "use_leader":
        ignore = command.arg("ignore")
        rule = "invasion.dice.leader" if ignore is None else "invasion.no-dice.leader"
        ctx.emit(LeaderUsed(rule=ctx.cite(rule), seat=seat, ignores=ignore))
    elif kind == "play_honor":
        play_honor(ctx, seat, str(command.arg("honor")))
    elif kind == "play_area_token":
        play_area_token(ctx, seat, str(command.arg("token")))
    elif kind == "end_phase":
        turn.end_phase(ctx)
    else:  # pragma: no cover - the kernel only passes listed commands
        raise ValueError(f"unknown command {kind}")


def current_army(ctx: Ctx) -> Army:
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


def play_honor(ctx: Ctx, seat: int, honor_id: str) -> None:
    """Expand: a coin Honor for its effect. Revenue: coinless for effect, coins for gold.
    Endgame: coinless for their effect on Friendly lands (endgame.honors)."""
    honor = ctx.cards.honor(honor_id)
    if ctx.state.stage is Stage.ENDGAME:
        ctx.emit(
            HonorPlayed(
                rule=ctx.cite("endgame.honors"),
                seat=seat,
                honor=honor_id,
                for_effect=True,
                endgame=True,
            )
        )
        return
    phase = ctx.turn.phase
    if phase is Phase.REVENUE and honor.shows_coins:
        rule = "revenue.honors.coins"
        ctx.emit(HonorPlayed(rule=ctx.cite(rule), seat=seat, honor=honor_id, for_effect=False))
        collect_gold(ctx, seat, honor.coins, rule, f"honor:{honor_id}")
        return
    rule = "expand.honors" if phase is Phase.EXPAND else "revenue.honors.no-coins"
    ctx.emit(HonorPlayed(rule=ctx.cite(rule), seat=seat, honor=honor_id, for_effect=True))


def token_areas(pack: HotwPack, token: str) -> list[str]:
    """The area an Area token names, or both areas of a Paired Area token (Option 4)."""
    paired = pack.board.paired_area_tokens.get(token)
    if paired is not None:
        return list(paired.areas)
    return [pack.board.area_tokens[token].area]


def play_area_token(ctx: Ctx, seat: int, token: str) -> None:
    """conclude.area-tokens: building and land gold in the token's area, counted on
    Friendly lands; the token leaves the game (conclude.area-token-spent). A Paired Area
    token pays in both its areas (option4.play)."""
    paired = token in ctx.board.paired_area_tokens
    spent = "option4.play" if paired else "conclude.area-token-spent"
    ctx.emit(AreaTokenPlayed(rule=ctx.cite(spent), seat=seat, token=token))
    areas = token_areas(ctx.pack, token)
    for gold, rule, reason in revenue_items(ctx.pack, ctx.state, seat, areas, standing=False):
        rule = "conclude.area-tokens" if rule == "revenue.buildings" else rule
        ctx.emit(
            GoldCollected(rule=ctx.cite(rule), seat=seat, amount=gold, reason=f"token:{reason}")
        )


def resolve_choice(ctx: Ctx, seat: int, command: Command) -> None:
    task = ctx.state.agenda[-1]
    if isinstance(task, ConquestTask):
        if command.type == "end_conquest":
            end_conquest(ctx, task)
        else:
            conquer(ctx, task, str(command.arg("land")))
        return
    arg, value = command.args[0]
    value = str(value)
    if isinstance(task, EffectTask):
        choose_for_effect(ctx, task, arg, value)
    elif isinstance(task, MonumentTask):
        rule = "monuments.placement"
        ctx.emit(LandChosen(rule=ctx.cite(rule), seat=seat, land=value))
        place_building(ctx, seat, Building.MONUMENT, value, rule)
    elif isinstance(task, TakeBuildingTask):
        ctx.emit(LandChosen(rule=ctx.cite("buildings.supply-exhausted"), seat=seat, land=value))
        take_building(ctx, seat, value, task.building, task.land)
    elif isinstance(task, GreatWallRemovalTask):
        ctx.emit(
            GreatWallFortRemoved(rule=ctx.cite("buildings.great-wall-limit"), seat=seat, land=value)
        )
    elif isinstance(task, StartLandTask):
        ctx.emit(LandChosen(rule=ctx.cite("events.ancients"), seat=seat, land=value))
        spec = ctx.cards.event(task.card).pieces
        assert spec is not None
        turn.establish_in(ctx, spec, (value,), "event")


# --- running on -------------------------------------------------------------------------------


def advance_task(ctx: Ctx) -> bool:
    """Let the innermost process go on by itself; False when it waits for a choice."""
    task = ctx.state.agenda[-1]
    if isinstance(task, EffectTask):
        return advance_effect(ctx, task)
    if isinstance(task, ConquestTask) and not conquest_targets(ctx.pack, ctx.state, task):
        end_conquest(ctx, task)
        return True
    if isinstance(task, MonumentTask) and not turn.monument_sites(ctx.pack, ctx.state, task.seat):
        ctx.emit(
            MonumentsUnbuilt(
                rule=ctx.cite("monuments.placement"), seat=task.seat, count=task.remaining
            )
        )
        return True
    return False


def proceed(ctx: Ctx) -> None:
    """Run everything that needs nobody's choice; a decision with a single possible action is
    taken at once (turn.current-player-only reading)."""
    for _ in range(MAX_FORCED):
        state = ctx.state
        if state.agenda:
            if advance_task(ctx):
                continue
        elif state.stage is Stage.TURNS:
            if state.turn is None:
                turn.next_turn_or_epoch_end(ctx)
                continue
            if not turn.has_player_part(state):
                turn.end_phase(ctx)
                continue
        elif state.stage is Stage.ENDGAME and not seats_with_endgame_honors(ctx.cards, state):
            endgame.score_endgame(ctx)
            continue
        awaited = awaited_seats(ctx.pack, ctx.state)
        if len(awaited) != 1:
            return
        (seat,) = awaited
        action = sole_action(ctx.pack, ctx.state, seat)
        if action is None:
            return
        apply_command(ctx, seat, action)
    raise RuntimeError("the game does not settle")  # pragma: no cover
