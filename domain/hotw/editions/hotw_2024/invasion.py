"""Army placement outcomes and invasions (p5-p7).

`place_army` applies the three outcomes of placing an army; an invasion is settled by the
ruleset's `resolve_invasion`, which by default is `invade_with_dice` or `invade_without_dice`
(an optional rule such as Option 3 replaces it). `after_invasion` carries out what follows
either resolution: the Honor for a frustrating Enemy, plunder and building reduction.

Play examples 1 to 4 (hotw24.example.1, hotw24.example.2,
hotw24.example.3, hotw24.example.4): Tigris and Zagros, with and without dice.
"""

from __future__ import annotations

from domain.core.messages import event
from domain.hotw.changes import with_player, with_turn
from domain.hotw.editions.hotw_2024.buildings import plunder, reduce_buildings
from domain.hotw.editions.hotw_2024.cards import Building
from domain.hotw.editions.hotw_2024.context import (
    FOLDS,
    Ctx,
    HotwEvent,
    Invader,
    cited,
    return_people,
    take_person,
)
from domain.hotw.editions.hotw_2024.honors import award_honor
from domain.hotw.editions.hotw_2024.model import (
    Control,
    HotwState,
    LandState,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack

WORKED_EXAMPLES = (
    "hotw24.example.1",
    "hotw24.example.2",
    "hotw24.example.3",
    "hotw24.example.4",
)
"""The rulebook's worked examples of this chapter, each played again by a test."""

IGNORE_DIFFICULT = "difficult"
IGNORE_FORT = "fort"


Army = Invader
"""An army being placed (the Empire's or an Event's)."""


def place_army(ctx: Ctx, army: Invader, land: str) -> None:
    """p5 Army placement outcomes: an uncontrolled land is simply taken (no reduction); a
    Friendly land is surrendered (reduction, no Honor); an Enemy land is invaded."""
    control = ctx.state.control_of(land, army.seat)
    if not (control is Control.ENEMY and land == modifier_land(ctx)):
        remove_invasion_modifier(ctx)
    if control is Control.ENEMY:
        ctx.engine.resolve_invasion(ctx, land, army)
        return
    unplundered = ("hotw24.plunder.exclusions",) if army.barbarian else ()
    if control is Control.FRIENDLY:
        ctx.emit(
            GarrisonSurrendered(
                rule="hotw24.expand.outcome.surrender",
                cites=cited("hotw24.general.land.friendly", *unplundered, *army.reached_by),
                seat=army.seat,
                land=land,
            )
        )
        ctx.emit(
            ArmyPlaced(
                rule="hotw24.expand.outcome.surrender", seat=army.seat, land=land, pool=army.pool
            )
        )
        reduce_buildings(ctx, land, "hotw24.building-reduction.when")
        return
    rule = "hotw24.expand.outcome.uncontrolled"
    if ctx.state.land(land).buildings:
        rule = (
            "hotw24.building-reduction.reveal-armies"
            if army.pool == "event"
            else "hotw24.building-reduction.uncontrolled"
        )
    also = (
        "hotw24.expand.outcome.uncontrolled",
        "hotw24.general.land.uncontrolled",
        *army.reached_by,
    )
    if ctx.state.land(land).buildings:
        also += unplundered
    ctx.emit(
        ArmyPlaced(
            rule=rule,
            cites=tuple(c for c in cited(*also) if c != rule),
            seat=army.seat,
            land=land,
            pool=army.pool,
        )
    )


INVADED = (
    "hotw24.expand.outcome.invasion",
    "hotw24.general.land.enemy",
    "hotw24.general.remove-to-supply",
)
"""What every invasion cites besides its deciding rule: the army entered an Enemy land, and
the pieces it removes go back to their owners' supplies."""


def highest(dice: tuple[int, ...]) -> int:
    """The highest single die rolled is the score (p6)."""
    return max(dice) if dice else 0


def invade_with_dice(ctx: Ctx, land: str, army: Invader) -> None:
    """p6: the Empire rolls two red dice (three with the Leader), the Enemy one white die (two
    with a fort); the higher score wins; a tie goes to the terrain - clear succeeds, difficult
    frustrates."""
    enemy = ctx.state.land(land).owner
    assert enemy is not None
    fort = Building.FORT in ctx.state.land(land).buildings
    dice = ctx.pack.edition.invasion_dice
    empire_dice = ctx.chance.dice(dice.leader if army.leader else dice.empire)
    enemy_dice = ctx.chance.dice(dice.fort if fort else dice.enemy)
    draws = ctx.chance.take_draws()
    empire, defence = highest(empire_dice), highest(enemy_dice)
    if empire != defence:
        succeeds = empire > defence
        rule = "hotw24.invasion.dice.succeeds" if succeeds else "hotw24.invasion.dice.frustrated"
    else:
        succeeds = ctx.board.lands[land].is_clear
        rule = "hotw24.invasion.dice.tie-terrain"
    also = [
        "hotw24.invasion.dice.leader" if army.leader else "hotw24.invasion.dice.empire-roll",
        "hotw24.invasion.dice.enemy-roll",
        *(["hotw24.forts.purpose"] if fort else []),
        *INVADED,
        *army.reached_by,
    ]
    outcome = InvasionSucceeded if succeeds else InvasionFrustrated
    ctx.emit(
        outcome(
            rule=rule,
            cites=tuple(also),
            seat=army.seat,
            land=land,
            enemy=enemy,
            pool=army.pool,
            empire_dice=empire_dice,
            enemy_dice=enemy_dice,
            draws=draws,
        )
    )
    after_invasion(ctx, land, army, enemy, succeeds)


def invasion_succeeds_without_dice(difficult: bool, fort: bool, leader_ignores: str | None) -> bool:
    """p6: clear terrain and no fort succeeds; difficult terrain or a fort frustrates. The
    Leader lets the Empire ignore EITHER difficult terrain OR forts (declared)."""
    if leader_ignores == IGNORE_DIFFICULT:
        difficult = False
    elif leader_ignores == IGNORE_FORT:
        fort = False
    return not difficult and not fort


def invade_without_dice(ctx: Ctx, land: str, army: Invader) -> None:
    enemy = ctx.state.land(land).owner
    assert enemy is not None
    fort = Building.FORT in ctx.state.land(land).buildings
    ignores = army.leader_ignores if army.leader else None
    succeeds = invasion_succeeds_without_dice(ctx.board.lands[land].is_difficult, fort, ignores)
    if ignores is not None and succeeds:
        rule = "hotw24.invasion.no-dice.leader"
    else:
        rule = (
            "hotw24.invasion.no-dice.succeeds" if succeeds else "hotw24.invasion.no-dice.frustrated"
        )
    also = [
        *(["hotw24.forts.purpose"] if fort and ignores != IGNORE_FORT else []),
        *(
            ["hotw24.invasion.no-dice.leader"]
            if ignores is not None and rule != "hotw24.invasion.no-dice.leader"
            else []
        ),
        *INVADED,
        *army.reached_by,
    ]
    outcome = InvasionSucceeded if succeeds else InvasionFrustrated
    ctx.emit(
        outcome(
            rule=rule,
            cites=tuple(also),
            seat=army.seat,
            land=land,
            enemy=enemy,
            pool=army.pool,
        )
    )
    after_invasion(ctx, land, army, enemy, succeeds)


def after_invasion(ctx: Ctx, land: str, army: Invader, enemy: int, succeeded: bool) -> None:
    """A frustrating Enemy is awarded an Honor (honors.award.frustrated). Succeeded or
    frustrated, the Enemy garrison has been removed, so a barbarian plunders the buildings
    first (plunder.value: p7 applies it to Play Example 2, a frustrated invasion), then building
    reduction is carried out (invasion.building-reduction)."""
    if not succeeded:
        award_honor(ctx, enemy, "hotw24.honors.award.frustrated")
    if army.barbarian:
        plunder(ctx, army.seat, land, army.plunder_rule)
    reduce_buildings(ctx, land, "hotw24.invasion.building-reduction")


def modifier_land(ctx: Ctx) -> str | None:
    """Option 3: the land holding the Invasion modifier counter, if any."""
    turn = ctx.state.turn
    return turn.modifier_land if turn is not None else None


def remove_invasion_modifier(ctx: Ctx) -> None:
    """Option 3: the counter comes off when the player does not go on with that invasion - an
    army placed in another land, or the end of the expansion (option3.modifier)."""
    land = modifier_land(ctx)
    if land is not None:
        ctx.emit(InvasionModifierRemoved(rule="hotw24.option3.modifier", seat=ctx.seat, land=land))


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class GarrisonRemoved(HotwEvent):
    land: str
    owner: int


@event
class ArmyPlaced(HotwEvent):
    seat: int
    land: str
    pool: str


@event
class GarrisonSurrendered(HotwEvent):
    seat: int
    land: str


@event
class InvasionSucceeded(HotwEvent):
    seat: int
    land: str
    enemy: int
    pool: str
    empire_dice: tuple[int, ...] = ()
    enemy_dice: tuple[int, ...] = ()


@event
class InvasionFrustrated(HotwEvent):
    seat: int
    land: str
    enemy: int
    pool: str
    empire_dice: tuple[int, ...] = ()
    enemy_dice: tuple[int, ...] = ()


@event
class InvasionModifierRemoved(HotwEvent):
    """Option 3: the counter comes off (the invasion succeeded, or the player did not go on)."""

    seat: int
    land: str


@event
class LeaderUsed(HotwEvent):
    seat: int
    ignores: str | None = None


@event
class LeaderRemoved(HotwEvent):
    seat: int


@FOLDS.handles(GarrisonRemoved)
def _garrison_removed(pack: HotwPack, state: HotwState, e: GarrisonRemoved) -> HotwState:
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(None, False, land.buildings, land.great_wall))
    return return_people(state, e.owner, 1)


@FOLDS.handles(ArmyPlaced)
def _army_placed(pack: HotwPack, state: HotwState, e: ArmyPlaced) -> HotwState:
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(e.seat, True, land.buildings, land.great_wall))
    return take_person(state, e.pool)


@FOLDS.handles(GarrisonSurrendered)
def _surrendered(pack: HotwPack, state: HotwState, e: GarrisonSurrendered) -> HotwState:
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(None, False, land.buildings, land.great_wall))
    return return_people(state, e.seat, 1)


@FOLDS.handles(InvasionSucceeded)
def _invasion_succeeded(pack: HotwPack, state: HotwState, e: InvasionSucceeded) -> HotwState:
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(e.seat, True, land.buildings, land.great_wall))
    state = return_people(state, e.enemy, 1)
    return take_person(state, e.pool)


@FOLDS.handles(InvasionFrustrated)
def _invasion_frustrated(pack: HotwPack, state: HotwState, e: InvasionFrustrated) -> HotwState:
    land = state.land(e.land)
    state = state.with_land(e.land, LandState(None, False, land.buildings, land.great_wall))
    state = return_people(state, e.enemy, 1)
    state = take_person(state, e.pool)
    return return_people(state, e.seat, 1)


@FOLDS.handles(InvasionModifierRemoved)
def _modifier_removed(pack: HotwPack, state: HotwState, e: InvasionModifierRemoved) -> HotwState:
    return with_turn(state, modifier_land=None, invasion_modifier=0)


@FOLDS.handles(LeaderUsed)
def _leader_used(pack: HotwPack, state: HotwState, e: LeaderUsed) -> HotwState:
    return with_turn(state, leader_active=True, leader_ignores=e.ignores)


@FOLDS.handles(LeaderRemoved)
def _leader_removed(pack: HotwPack, state: HotwState, e: LeaderRemoved) -> HotwState:
    state = with_player(state, e.seat, leader=False)
    return with_turn(state, leader_active=False, leader_ignores=None)
