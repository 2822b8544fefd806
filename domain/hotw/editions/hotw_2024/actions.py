"""The turn structure: who acts now, which commands each seat may play (`legal_actions`, the
single source of truth, gathered from the chapters' generators), which chapter's command a move
is (`apply_command`), why a move the list lacks is refused (`why_not`), the agenda of choices a
process waits for, and how the game runs on by itself until the next choice (`proceed`).

Each command is declared by the chapter module whose rules it plays (`context.COMMANDS`):
organization (choose_area_token, choose_event_card, choose_empire_card) · expand (place_army,
place_fleet, build_fort, place_great_wall, use_leader) · honors (play_honor) · turn (end_phase,
play_area_token) · conquest (conquer_land, end_conquest) · the agenda here (choose_land,
choose_area, choose_water).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from domain.core.errors import RuleViolation, UnknownCommand
from domain.core.messages import Command
from domain.hotw.editions.hotw_2024 import endgame, establish, monuments, reveal, turn
from domain.hotw.editions.hotw_2024.buildings import (
    enemy_lands_holding,
    place_building,
    take_building,
)
from domain.hotw.editions.hotw_2024.cards import Building
from domain.hotw.editions.hotw_2024.conquest import (
    CONQUEST_COMMANDS,
    conquest_targets,
    end_conquest,
    pending_conquest_refusal,
)
from domain.hotw.editions.hotw_2024.context import (
    COMMANDS,
    Arg,
    Ctx,
    areas,
    lands,
    refused,
    waters,
)
from domain.hotw.editions.hotw_2024.effects import (
    Choice,
    LandChosen,
    advance_effect,
    choose_for_effect,
    effect_choice,
    may_stop_choosing,
)
from domain.hotw.editions.hotw_2024.expand import NEVER_MOVE, GreatWallFortRemoved
from domain.hotw.editions.hotw_2024.honors import (
    endgame_effect_honors,
    seats_with_endgame_honors,
)
from domain.hotw.editions.hotw_2024.model import (
    ConquestTask,
    EffectTask,
    GreatWallRemovalTask,
    HotwState,
    MonumentTask,
    Stage,
    StartLandTask,
    TakeBuildingTask,
    Task,
)
from domain.hotw.editions.hotw_2024.monuments import MonumentsUnbuilt
from domain.hotw.editions.hotw_2024.organization import (
    ORGANIZATION_COMMANDS,
    organization_actions,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack
from domain.hotw.editions.hotw_2024.turn import turn_actions

END_CONQUEST = Command.of("end_conquest")
STOP_CHOOSING = Command.of("stop_choosing")
AGENDA_COMMANDS = frozenset({"choose_land", "choose_area", "choose_water", "stop_choosing"})
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
        sites = monuments.monument_sites(pack, state, task.seat)
        return Choice("choose_land", "land", tuple(sites)) if sites else None
    if isinstance(task, TakeBuildingTask):
        lands = enemy_lands_holding(state, task.seat, task.building)
        return Choice("choose_land", "land", tuple(lands)) if lands else None
    if isinstance(task, GreatWallRemovalTask):
        return Choice("choose_land", "land", tuple(state.great_wall_on_map))
    if isinstance(task, ConquestTask):
        lands = conquest_targets(pack, state, task)
        return Choice("conquer_land", "land", tuple(lands)) if lands else None
    lands = reveal.start_land_options(pack, state, task.card)
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
        if isinstance(task, EffectTask) and may_stop_choosing(pack, state, task):
            yield STOP_CHOOSING
        if isinstance(task, ConquestTask):
            yield END_CONQUEST
    elif state.stage is Stage.ORGANIZATION:
        yield from organization_actions(state)
    elif state.stage is Stage.ENDGAME:
        for honor in endgame_effect_honors(pack.cards, state.players[seat]):
            yield Command.of("play_honor", honor=honor)
    else:
        yield from turn_actions(pack, state, seat)


def sole_action(pack: HotwPack, state: HotwState, seat: int) -> Command | None:
    """The seat's one legal action, when it has exactly one."""
    first_two = list(islice(listed_actions(pack, state, seat), 2))
    return first_two[0] if len(first_two) == 1 else None


# --- doing it ---------------------------------------------------------------------------------


def apply_command(ctx: Ctx, seat: int, command: Command) -> None:
    """Play a listed command: what the chapter that declares it says it does."""
    COMMANDS.play(ctx, seat, command)


def why_not_choose_land(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation | None:
    """A monument's land: never one holding a monument already, else by the placement order."""
    task = state.agenda[-1] if state.agenda else None
    if not isinstance(task, MonumentTask) or seat != task.seat:
        return None
    land = str(command.arg("land"))
    if Building.MONUMENT in state.land(land).buildings:
        return refused(
            "a land never holds more than one monument",
            "hotw24.monuments.one-per-land",
            command,
            ("hotw24.buildings.one-of-each",),
        )
    return refused(
        "a monument goes in the start-land if possible, else in a land with a city, else in "
        "any Empire land",
        "hotw24.monuments.placement",
        command,
    )


@COMMANDS.declares(
    "choose_land",
    "Choose a land for the process awaiting it.",
    Arg("land", "A land id.", lands),
    why_not=why_not_choose_land,
)
@COMMANDS.declares(
    "choose_area", "Choose an area for the effect awaiting it.", Arg("area", "An area id.", areas)
)
@COMMANDS.declares(
    "choose_water",
    "Choose a sea or ocean for the effect awaiting it.",
    Arg("water", "A sea or ocean id.", waters),
)
def resolve_choice(ctx: Ctx, seat: int, command: Command) -> None:
    """The choice the innermost agenda process waits for (an Event's or Honor's effect, a
    monument's land, a building taken from an Enemy, a Great Wall fort removed, a start-land)."""
    task = ctx.state.agenda[-1]
    arg, value = command.args[0]
    value = str(value)
    if isinstance(task, EffectTask):
        choose_for_effect(ctx, task, arg, value)
    elif isinstance(task, MonumentTask):
        rule = "hotw24.monuments.placement"
        ctx.emit(LandChosen(rule=rule, seat=seat, land=value))
        place_building(ctx, seat, Building.MONUMENT, value, rule)
    elif isinstance(task, TakeBuildingTask):
        ctx.emit(LandChosen(rule="hotw24.buildings.supply-exhausted", seat=seat, land=value))
        take_building(ctx, seat, value, task.building, task.land)
    elif isinstance(task, GreatWallRemovalTask):
        ctx.emit(
            GreatWallFortRemoved(rule="hotw24.buildings.great-wall-limit", seat=seat, land=value)
        )
    elif isinstance(task, StartLandTask):
        ctx.emit(LandChosen(rule="hotw24.events.ancients", seat=seat, land=value))
        spec = ctx.cards.event(task.card).pieces
        assert spec is not None
        establish.establish_in(ctx, spec, (value,), "event")


# --- refusing it ------------------------------------------------------------------------------


def why_not(pack: HotwPack, state: HotwState, seat: int, command: Command) -> RuleViolation | None:
    """The most specific rule a command that the seat's legal actions lack breaks: first what
    holds for every command (nothing moves; the game is over; conquest points first; a choice
    awaited; epoch organization), then the chapter's own reason for its command."""
    kind = command.type
    if kind in NEVER_MOVE:
        return refused("placed armies and fleets never move", "hotw24.expand.no-movement", command)
    if state.stage is Stage.OVER:
        return refused("the game is over", "hotw24.winning.most-gold", command)
    if COMMANDS.get(kind) is None:
        return UnknownCommand(
            f"{kind!r} is not a command of History of the World",
            "hotw24.table.commands",
            {"command": command.as_dict(), "commands": sorted(COMMANDS.declared())},
        )
    pending = pending_conquest_refusal(pack, state, command)
    if pending is not None:
        return pending
    if state.agenda and kind not in AGENDA_COMMANDS | CONQUEST_COMMANDS:
        return refused("a choice is awaited first", "hotw24.turn.current-player-only", command)
    if state.stage is Stage.ORGANIZATION and kind not in ORGANIZATION_COMMANDS:
        return refused("Epoch organization is in progress", "hotw24.epoch.structure", command)
    return COMMANDS.why_not(pack, state, seat, command)


# --- running on -------------------------------------------------------------------------------


def advance_task(ctx: Ctx) -> bool:
    """Let the innermost process go on by itself; False when it waits for a choice."""
    task = ctx.state.agenda[-1]
    if isinstance(task, EffectTask):
        return advance_effect(ctx, task)
    if isinstance(task, ConquestTask) and not conquest_targets(ctx.pack, ctx.state, task):
        end_conquest(ctx, task)
        return True
    if isinstance(task, MonumentTask) and not monuments.monument_sites(
        ctx.pack, ctx.state, task.seat
    ):
        ctx.emit(
            MonumentsUnbuilt(
                rule="hotw24.monuments.placement", seat=task.seat, count=task.remaining
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
            if not turn.has_player_part(ctx.pack, state):
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
