"""Option 3, Invasion and conquest (p11-p12): invasions with dice where the defender's dice
depend on the terrain, ties go to the Empire, a frustrated invasion costs only the army and may
be taken up again with the Invasion modifier counter (+2, then +4), and a success earns
conquest points to spend on neighbouring lands of the same Enemy.

`invade_with_conquest` replaces the ruleset's `resolve_invasion` when the option is on; the
conquest itself is a `ConquestTask` on the agenda, so each conquest is the player's choice.
Play example 10 (hotw24.example.10): Tigris retried at +2, then Euphrates.
"""

from __future__ import annotations

from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.board import Board
from domain.hotw.changes import with_turn
from domain.hotw.editions.hotw_2024.buildings import plunder, reduce_buildings
from domain.hotw.editions.hotw_2024.cards import Building
from domain.hotw.editions.hotw_2024.context import (
    COMMANDS,
    FOLDS,
    Arg,
    Ctx,
    HotwEvent,
    Invader,
    cited,
    lands,
    refused,
    replace_top,
    return_people,
    take_person,
    top_task,
)
from domain.hotw.editions.hotw_2024.edition import ConquestNumbers, InvasionDice
from domain.hotw.editions.hotw_2024.honors import award_honor
from domain.hotw.editions.hotw_2024.invasion import (
    InvasionModifierRemoved,
    InvasionSucceeded,
    highest,
    modifier_land,
)
from domain.hotw.editions.hotw_2024.model import (
    ConquestTask,
    HotwState,
    LandState,
    Pool,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack

WORKED_EXAMPLES = ("hotw24.example.10",)
"""The rulebook's worked examples of this chapter, each played again by a test."""


def has_fort(state: HotwState, land: str) -> bool:
    return Building.FORT in state.land(land).buildings


def enemy_dice_count(pack: HotwPack, state: HotwState, land: str) -> int:
    """option3.dice: one die in clear terrain, two in difficult terrain, one more for a
    fort."""
    numbers = pack.edition.conquest
    difficult = pack.board.lands[land].is_difficult
    dice = numbers.difficult_terrain_dice if difficult else numbers.clear_terrain_dice
    return dice + (numbers.fort_extra_die if has_fort(state, land) else 0)


def empire_dice_count(dice: InvasionDice, army: Invader) -> int:
    """option3.dice: two dice, three if the Leader is being used."""
    return dice.leader if army.leader else dice.empire


def modifier_for(ctx: Ctx, land: str, army: Invader) -> int:
    """What the Invasion modifier counter adds in `land` (option3.modifier)."""
    turn = ctx.state.turn
    if not army.expanding or turn is None or modifier_land(ctx) != land:
        return 0
    return turn.invasion_modifier


def next_modifier(numbers: ConquestNumbers, modifier: int) -> int:
    """option3.frustrated: +2 after the first frustration, +4 after any further one."""
    return numbers.first_modifier if modifier == 0 else numbers.later_modifier


def invade_with_conquest(ctx: Ctx, land: str, army: Invader) -> None:
    """option3.dice and .ties: the highest die of each side is its score, the counter
    added to the Empire's; the Enemy must score higher to frustrate the invasion."""
    enemy = ctx.state.land(land).owner
    assert enemy is not None
    modifier = modifier_for(ctx, land, army)
    empire_dice = ctx.chance.dice(empire_dice_count(ctx.pack.edition.invasion_dice, army))
    enemy_dice = ctx.chance.dice(enemy_dice_count(ctx.pack, ctx.state, land))
    draws = ctx.chance.take_draws()
    empire, defence = highest(empire_dice) + modifier, highest(enemy_dice)
    also = tuple(
        key
        for key, applies in (
            ("hotw24.option3.dice", True),
            ("hotw24.invasion.dice.leader", army.leader),
            ("hotw24.forts.purpose", has_fort(ctx.state, land)),
            ("hotw24.option3.modifier", modifier > 0),
            ("hotw24.expand.outcome.invasion", True),
            ("hotw24.general.land.enemy", True),
            ("hotw24.general.remove-to-supply", True),
            *((key, True) for key in army.reached_by),
        )
        if applies
    )
    if defence > empire:
        ctx.emit(
            InvasionRepulsed(
                rule="hotw24.option3.frustrated",
                cites=also,
                seat=army.seat,
                land=land,
                enemy=enemy,
                pool=army.pool,
                empire_dice=empire_dice,
                enemy_dice=enemy_dice,
                modifier=modifier,
                draws=draws,
            )
        )
        invasion_frustrated(ctx, land, army, enemy, modifier)
        return
    ctx.emit(
        InvasionSucceeded(
            rule="hotw24.option3.ties" if empire == defence else "hotw24.option3.dice",
            cites=(
                *(c for c in also if c != "hotw24.option3.dice" or empire == defence),
                "hotw24.option3.success",
            ),
            seat=army.seat,
            land=land,
            enemy=enemy,
            pool=army.pool,
            empire_dice=empire_dice,
            enemy_dice=enemy_dice,
            draws=draws,
        )
    )
    invasion_succeeds(ctx, land, army, enemy, empire - defence)


def invasion_frustrated(ctx: Ctx, land: str, army: Invader, enemy: int, modifier: int) -> None:
    """The Enemy is awarded an Honor each time (option3.honor-each); the garrison holds
    and no building reduction happens. An expanding Empire may go on against the land with the
    counter raised (option3.frustrated, option3.modifier)."""
    award_honor(ctx, enemy, "hotw24.option3.honor-each")
    if army.expanding:
        ctx.emit(
            InvasionModifierSet(
                rule="hotw24.option3.modifier",
                seat=army.seat,
                land=land,
                modifier=next_modifier(ctx.pack.edition.conquest, modifier),
            )
        )


def invasion_succeeds(ctx: Ctx, land: str, army: Invader, enemy: int, margin: int) -> None:
    """The counter comes off (option3.modifier); a barbarian plunders, building
    reduction follows (option3.success); the margin is awarded as conquest points
    (option3.conquest-points)."""
    if modifier_land(ctx) == land:
        ctx.emit(InvasionModifierRemoved(rule="hotw24.option3.modifier", seat=army.seat, land=land))
    if army.barbarian:
        plunder(ctx, army.seat, land, army.plunder_rule)
    reduce_buildings(ctx, land, "hotw24.option3.success")
    if margin > 0 and army.expanding:
        ctx.emit(
            ConquestPointsAwarded(
                rule="hotw24.option3.conquest-points",
                seat=army.seat,
                land=land,
                enemy=enemy,
                points=margin,
                pool=army.pool,
                barbarian=army.barbarian,
            )
        )


# --- conquest -------------------------------------------------------------------------------


def conquest_cost(pack: HotwPack, state: HotwState, land: str) -> int:
    """option3.conquest-cost: one point for clear terrain, two for difficult terrain,
    one more if the land holds a fort."""
    numbers = pack.edition.conquest
    difficult = pack.board.lands[land].is_difficult
    cost = numbers.difficult_cost if difficult else numbers.clear_cost
    return cost + (numbers.fort_extra_cost if has_fort(state, land) else 0)


def conquest_pool(state: HotwState, task: ConquestTask) -> Pool:
    turn = state.turn
    assert turn is not None
    return turn.event_pool if task.pool == "event" else turn.pool


def is_land_of_the_enemy(state: HotwState, land: str, enemy: int) -> bool:
    """option3.conquest-same-enemy: a garrison of the Enemy whose land was invaded."""
    value = state.lands.get(land)
    return value is not None and value.owner == enemy and not value.standing


def next_to_conquest(board: Board, task: ConquestTask, land: str) -> bool:
    """option3.conquest-adjacency: next to the land first invaded or a land conquered
    since, over land (straits included); fleets do not carry conquests
    (option3.conquest-no-fleets)."""
    return any(land in board.neighbours_of(held) for held in task.lands)


def conquest_targets(pack: HotwPack, state: HotwState, task: ConquestTask) -> list[str]:
    """The lands the remaining points can conquer, while the pool still has a people piece
    (option3.conquest-cost reading)."""
    if conquest_pool(state, task).people <= 0:
        return []
    reach = sorted(set().union(*(pack.board.neighbours_of(held) for held in task.lands)))
    return [
        land
        for land in reach
        if land not in task.lands
        and is_land_of_the_enemy(state, land, task.enemy)
        and conquest_cost(pack, state, land) <= task.points
    ]


def conquer(ctx: Ctx, task: ConquestTask, land: str) -> None:
    """A conquest is an invasion without dice that always succeeds: the garrison goes, an army
    from the pool takes the land (option3.conquest-cost); a barbarian plunders; then
    building reduction (option3.conquest-reduction)."""
    ctx.emit(
        LandConquered(
            rule="hotw24.option3.conquest-cost",
            cites=cited(
                "hotw24.option3.conquest-same-enemy",
                "hotw24.option3.conquest-adjacency",
                "hotw24.option3.conquest-no-fleets",
            ),
            seat=task.seat,
            land=land,
            enemy=task.enemy,
            pool=task.pool,
            cost=conquest_cost(ctx.pack, ctx.state, land),
        )
    )
    if task.barbarian:
        rule = "hotw24.events.plunder" if task.pool == "event" else "hotw24.plunder.value"
        plunder(ctx, task.seat, land, rule)
    reduce_buildings(ctx, land, "hotw24.option3.conquest-reduction")


def end_conquest(ctx: Ctx, task: ConquestTask) -> None:
    """Unspent conquest points are lost (option3.conquest-points reading)."""
    ctx.emit(
        ConquestEnded(rule="hotw24.option3.conquest-points", seat=task.seat, unspent=task.points)
    )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class InvasionRepulsed(HotwEvent):
    """Option 3: the invasion is frustrated; only the Empire's army is removed, the garrison
    holds the land."""

    seat: int
    land: str
    enemy: int
    pool: str
    empire_dice: tuple[int, ...]
    enemy_dice: tuple[int, ...]
    modifier: int = 0


@event
class InvasionModifierSet(HotwEvent):
    """Option 3: the Invasion modifier counter goes on (or is turned to) `modifier` for the
    next invasion of `land`."""

    seat: int
    land: str
    modifier: int


@event
class ConquestPointsAwarded(HotwEvent):
    """Option 3: a successful invasion's winning margin, to spend on lands of `enemy`."""

    seat: int
    land: str
    enemy: int
    points: int
    pool: str
    barbarian: bool = False


@event
class LandConquered(HotwEvent):
    """Option 3: an army from the pool takes an Enemy land for `cost` conquest points, with no
    dice; the garrison is removed."""

    seat: int
    land: str
    enemy: int
    pool: str
    cost: int


@event
class ConquestEnded(HotwEvent):
    """Option 3: the conquest is over; `unspent` points are lost."""

    seat: int
    unspent: int


@FOLDS.handles(InvasionRepulsed)
def _repulsed(pack: HotwPack, state: HotwState, e: InvasionRepulsed) -> HotwState:
    state = take_person(state, e.pool)
    return return_people(state, e.seat, 1)


@FOLDS.handles(InvasionModifierSet)
def _modifier_set(pack: HotwPack, state: HotwState, e: InvasionModifierSet) -> HotwState:
    return with_turn(state, modifier_land=e.land, invasion_modifier=e.modifier)


@FOLDS.handles(ConquestPointsAwarded)
def _points(pack: HotwPack, state: HotwState, e: ConquestPointsAwarded) -> HotwState:
    task = ConquestTask(e.seat, e.enemy, e.points, (e.land,), e.pool, e.barbarian)
    return evolved(state, agenda=(*state.agenda, task))


@FOLDS.handles(LandConquered)
def _conquered(pack: HotwPack, state: HotwState, e: LandConquered) -> HotwState:
    task = top_task(state)
    assert isinstance(task, ConquestTask)
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(e.seat, True, land.buildings, land.great_wall))
    state = return_people(state, e.enemy, 1)
    state = take_person(state, e.pool)
    left = ConquestTask(
        task.seat,
        task.enemy,
        task.points - e.cost,
        (*task.lands, e.land),
        task.pool,
        task.barbarian,
    )
    return replace_top(state, left)


@FOLDS.handles(ConquestEnded)
def _conquest_ended(pack: HotwPack, state: HotwState, e: ConquestEnded) -> HotwState:
    return replace_top(state, None)


# --- commands: spending or giving up conquest points (Option 3) --------------------------------

CONQUEST_COMMANDS = frozenset({"conquer_land", "end_conquest"})


def pending_conquest_refusal(
    pack: HotwPack, state: HotwState, command: Command
) -> RuleViolation | None:
    """option3.conquest-points: while points are unspent, nothing else may be done first."""
    task = state.agenda[-1] if state.agenda else None
    if isinstance(task, ConquestTask) and command.type not in CONQUEST_COMMANDS:
        return refused(
            "spend the conquest points (conquer_land) or give them up (end_conquest) first",
            "hotw24.option3.conquest-points",
            command,
        )
    return None


def why_not_conquer_land(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation | None:
    task = state.agenda[-1] if state.agenda else None
    if not isinstance(task, ConquestTask):
        return refused(
            "there are no conquest points to spend", "hotw24.option3.conquest-points", command
        )
    land = str(command.arg("land"))
    if land not in pack.board.lands or not is_land_of_the_enemy(state, land, task.enemy):
        return refused(
            "every land conquered must be controlled by the Enemy whose land was invaded",
            "hotw24.option3.conquest-same-enemy",
            command,
        )
    if not next_to_conquest(pack.board, task, land):
        return refused(
            "a conquered land must be next to the land invaded or a land conquered since "
            "(fleets may not be used)",
            "hotw24.option3.conquest-adjacency",
            command,
        )
    return refused(
        f"conquering {land} costs {conquest_cost(pack, state, land)} conquest points; "
        f"{task.points} remain",
        "hotw24.option3.conquest-cost",
        command,
    )


def why_not_end_conquest(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation | None:
    task = state.agenda[-1] if state.agenda else None
    if not isinstance(task, ConquestTask):
        return refused(
            "there are no conquest points to spend", "hotw24.option3.conquest-points", command
        )
    return None


@COMMANDS.declares(
    "conquer_land",
    "Option 3: conquer a land.",
    Arg("land", "A land id.", lands),
    why_not=why_not_conquer_land,
)
def conquer_land(ctx: Ctx, seat: int, command: Command) -> None:
    task = ctx.state.agenda[-1]
    assert isinstance(task, ConquestTask)
    conquer(ctx, task, str(command.arg("land")))


@COMMANDS.declares(
    "end_conquest", "Option 3: give up the remaining conquest points.", why_not=why_not_end_conquest
)
def do_end_conquest(ctx: Ctx, seat: int, command: Command) -> None:
    task = ctx.state.agenda[-1]
    assert isinstance(task, ConquestTask)
    end_conquest(ctx, task)
