"""Invasions, overruns and reduction in A Brief History of the World (Gameplay Flow c, d, f):
how many dice each side rolls, the invasion points a roll makes, what a land costs, and what
taking control of a land does to its buildings. Pure functions of the numbers in pieces.yaml."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.changes import added, with_item
from domain.hotw.editions.brief2009.context import (
    COMMANDS,
    FOLDS,
    BriefEvent,
    Ctx,
    returned,
)
from domain.hotw.editions.brief2009.model import (
    BriefState,
    Cell,
    Invasion,
    Overrun,
)
from domain.hotw.editions.brief2009.revisions import FRANCE_ALONE
from domain.hotw.editions.brief2009.tables import BriefTables, Numbers
from domain.hotw.refusals import refused
from domain.hotw.world import DIFFICULT_TERRAIN

FEATURES = {"fear": "brief.features.fear", "preserve-monuments": "brief.features.france"}
"""The clause of each Empire feature this chapter plays out, by feature."""


def attack_dice(numbers: Numbers, *, by_sea: bool, weaponry: bool) -> int:
    """brief.invasion.dice and .fleet-penalty: two dice, one fewer across water with a fleet;
    Weaponry adds one (brief.events.weaponry reading)."""
    count = numbers.attacker_dice - (numbers.fleet_penalty if by_sea else 0)
    return max(1, count + (1 if weaponry else 0))


def defence_dice(numbers: Numbers, *, fort: bool) -> int:
    """brief.invasion.dice and .fort: one die, two in a fort."""
    return numbers.fort_dice if fort else numbers.defender_dice


def points_needed(numbers: Numbers, terrain: str) -> int:
    """brief.invasion.clear and .difficult: 1 point in clear land, 2 in mountain or forest
    (also the cost of an overrun, brief.overrun.cost)."""
    return numbers.difficult_points if terrain in DIFFICULT_TERRAIN else numbers.clear_points


def invasion_points(attack: Sequence[int], defence: Sequence[int], bonus: int) -> int:
    """brief.invasion.highest-die and .points: the attacker's highest die (plus the dial and a
    Leader) less the defender's highest, when positive."""
    return max(0, max(attack) + bonus - max(defence))


@dataclass(frozen=True, slots=True)
class Reduction:
    """What taking control of a land leaves of its buildings."""

    buildings: frozenset[str]
    reductions: int
    """Capitals turned to cities, cities and monuments removed (brief.reduction.barbarian-gold)."""
    removed: tuple[str, ...]
    """The pieces that go back to the supply (a city or monument, a fort)."""
    rules: tuple[str, ...]


def reduce(buildings: Collection[str], *, spare_monument: bool) -> Reduction:
    """brief.reduction.*: a capital becomes a city, else a city is removed, else a monument
    (unless `spare_monument`: France's Feature); only the capital or city when a monument
    stands with it; a fort always goes."""
    after = set(buildings)
    removed: list[str] = []
    rules: list[str] = []
    reductions = 0
    if "capital" in after:
        after.discard("capital")
        after.add("city")
        reductions += 1
        rules.append("brief.reduction.capital")
    elif "city" in after:
        after.discard("city")
        removed.append("city")
        reductions += 1
        rules.append("brief.reduction.city")
    elif "monument" in after and not spare_monument:
        after.discard("monument")
        removed.append("monument")
        reductions += 1
        rules.append("brief.reduction.monument")
    if reductions and "monument" in after:
        rules.append("brief.reduction.capital-before-monument")
    if "fort" in after:
        after.discard("fort")
        removed.append("fort")
        rules.append("brief.reduction.fort")
    return Reduction(frozenset(after), reductions, tuple(removed), tuple(rules))


def invasion_actions(tables: BriefTables, state: BriefState) -> Iterator[Command]:
    """brief.invasion.continue: the dial one step on (to +3 at most, an Array army each
    step), or the invasion given up."""
    turn = state.turn
    assert turn is not None and turn.active is not None
    force = turn.active
    if force.dial < tables.numbers.dial_max and force.array > 0:
        yield Command.of("continue_invasion")
    yield Command.of("abandon_invasion")


def invade(ctx: Ctx, land: str, via: str, *, continued: bool, crossing: bool) -> None:
    """brief.invasion.*: the attacker's dice, then the defender's; the highest of each;
    points = the difference (the dial and a Leader added to the attacker); 1 point takes
    clear land, 2 mountain or forest."""
    state = ctx.state
    turn = state.turn
    assert turn is not None and turn.active is not None
    force = turn.active
    tables = ctx.tables
    numbers = tables.numbers
    cell = state.land(land)
    defender = cell.colour if turn.invasion is None else turn.invasion.defender
    assert defender is not None
    by_sea = via == "sea"
    attack = ctx.chance.dice(attack_dice(numbers, by_sea=by_sea, weaponry=turn.weaponry))
    dial = force.dial + 1 if continued else force.dial
    leader = 1 if turn.leader else 0
    needed = points_needed(numbers, tables.board.lands[land].terrain)
    fear = 0
    if force.feature == "fear":
        fear = int(tables.features["fear"].effect["extra_points"])
    sure = False
    if force.feature == "atlantic-crossing" and by_sea:
        faces = tables.features["atlantic-crossing"].effect["sure_faces"]
        sure = max(attack) in set(faces)
    fort = "fort" in cell.buildings
    defence: tuple[int, ...] = ()
    if sure:
        points = needed
    else:
        defence = ctx.chance.dice(defence_dice(numbers, fort=fort))
        points = invasion_points(attack, defence, dial + leader)
    success = points >= needed
    terrain = (
        "brief.invasion.difficult" if needed > numbers.clear_points else "brief.invasion.clear"
    )
    cites = ["brief.invasion.dice", "brief.invasion.highest-die", terrain]
    cites += ["brief.invasion.fleet-penalty"] if by_sea else []
    cites += ["brief.invasion.fort"] if fort else []
    cites += ["brief.invasion.continue", "brief.invasion.dial-max"] if continued else []
    cites += ["brief.events.leader"] if leader else []
    cites += ["brief.events.weaponry"] if turn.weaponry else []
    cites += ["brief.features.fear"] if fear and success else []
    cites += ["brief.features.atlantic-crossing"] if sure or crossing else []
    ctx.emit(
        InvasionRolled(
            rule="brief.invasion.success-reset" if success else "brief.invasion.points",
            cites=tuple(cites),
            colour=turn.colour,
            land=land,
            defender=defender,
            via=via,
            continued=continued,
            crossing=crossing,
            attack=attack,
            defence=defence,
            dial=dial,
            leader=leader,
            points=points,
            needed=needed,
            fear=fear if success else 0,
            success=success,
            sure=sure,
            draws=ctx.chance.take_draws(),
        )
    )
    if success:
        reduce_land(ctx, land, "invasion")


def spares_monuments(tables: BriefTables, feature: str | None, land: str, how: str) -> bool:
    """brief.features.france: "Monuments not reduced on invasion or in Gaul". From revision 4
    the Feature is France's alone: its invasions (and their overruns) anywhere, and any of its
    conquests in Gaul; before, also any other Empire's conquest of Gaul."""
    france = tables.features.get("preserve-monuments")
    in_gaul = france is not None and land == france.effect.get("land")
    if not tables.since(FRANCE_ALONE):
        return feature == "preserve-monuments" or in_gaul
    return feature == "preserve-monuments" and (how in ("invasion", "overrun") or in_gaul)


def reduce_land(ctx: Ctx, land: str, how: str) -> None:
    """brief.reduction.*, on taking control of `land` (`how`: invasion, overrun or
    surrender); a barbarian Empire earns gold for each reduction."""
    state = ctx.state
    turn = state.turn
    assert turn is not None and turn.active is not None
    force = turn.active
    spare = spares_monuments(ctx.tables, force.feature, land, how)
    reduction = reduce(state.land(land).buildings, spare_monument=spare)
    if not reduction.reductions and not reduction.removed:
        return
    gold = 0
    if force.barbarian:
        gold = reduction.reductions * ctx.tables.numbers.gold["barbarian_reduction"]
    cites = [k for k in reduction.rules[1:]]
    cites += ["brief.reduction.when"] if how != "invasion" else []
    cites += ["brief.reduction.barbarian-gold"] if gold else []
    cites += ["brief.features.france"] if spare and "monument" in reduction.buildings else []
    ctx.emit(
        LandReduced(
            rule=reduction.rules[0],
            cites=tuple(cites),
            colour=turn.colour,
            land=land,
            buildings=tuple(sorted(reduction.buildings)),
            removed=reduction.removed,
            reductions=reduction.reductions,
            gold=gold,
        )
    )


def why_not_continue(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "the dial goes to +3 at most, each step an Array army", "brief.invasion.dial-max", command
    )


def why_not_abandon(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    return refused("no invasion is waiting", "brief.invasion.abandon", command)


@COMMANDS.declares(
    "continue_invasion",
    "Spend an Array army: the dial +1, roll again.",
    why_not=why_not_continue,
)
def continue_invasion(ctx: Ctx, seat: int, command: Command) -> None:
    turn = ctx.state.turn
    assert turn is not None and turn.invasion is not None
    invade(ctx, turn.invasion.land, turn.invasion.via, continued=True, crossing=False)


@COMMANDS.declares(
    "abandon_invasion", "Give the invasion up (the dial back to 0).", why_not=why_not_abandon
)
def abandon_invasion(ctx: Ctx, seat: int, command: Command) -> None:
    turn = ctx.state.turn
    assert turn is not None and turn.invasion is not None
    ctx.emit(
        InvasionAbandoned(
            rule="brief.invasion.abandon", colour=turn.colour, land=turn.invasion.land
        )
    )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class InvasionRolled(BriefEvent):
    """One roll of an invasion: both sides' dice, the dial, the points and the outcome."""

    colour: int
    land: str
    defender: int
    via: str
    continued: bool
    crossing: bool
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    dial: int
    leader: int
    points: int
    needed: int
    fear: int
    success: bool
    sure: bool = False
    """The Vikings' 5 or 6 from the sea: taken outright, the defender does not roll."""


@FOLDS.handles(InvasionRolled)
def _rolled(t: BriefTables, s: BriefState, e: InvasionRolled) -> BriefState:
    """The Force's Array less the army on the dial; that army to its supply if the invasion
    went on, else a crossing counted; won: the defender's army to its supply, the land the
    invader's, the dial cleared and any overrun left. Each record is built once."""
    turn = s.turn
    assert turn is not None and turn.active is not None
    force, colours = turn.active, s.colours
    crossings = turn.crossings
    if e.continued:
        colours = with_item(colours, e.colour, supply=colours[e.colour].supply + 1)
    else:
        crossings += int(e.crossing)
    if not e.success:
        force = evolved(force, array=force.array - 1, dial=e.dial)
        invasion = Invasion(e.land, e.defender, e.via)
        forces = (*turn.forces[:-1], force)
        turn = evolved(turn, forces=forces, crossings=crossings, invasion=invasion)
        return evolved(s, colours=colours, turn=turn)
    colours = with_item(colours, e.defender, supply=colours[e.defender].supply + 1)
    lands = dict(s.lands)
    lands[e.land] = Cell(e.colour, True, s.land(e.land).buildings | set())
    force = evolved(force, array=force.array - 1, dial=0, lands=(*force.lands, e.land))
    unused = 0 if e.sure else e.points - e.needed + e.fear
    overrun = Overrun(e.land, e.defender, unused) if unused > 0 else None
    turn = evolved(
        turn,
        forces=(*turn.forces[:-1], force),
        crossings=crossings,
        invasion=None,
        weaponry=False,
        overrun=overrun,
    )
    return evolved(s, colours=colours, lands=lands, turn=turn)


@event
class InvasionAbandoned(BriefEvent):
    colour: int
    land: str


@FOLDS.handles(InvasionAbandoned)
def _abandoned(t: BriefTables, s: BriefState, e: InvasionAbandoned) -> BriefState:
    turn = s.turn
    assert turn is not None and turn.forces
    colours = with_item(s.colours, e.colour, supply=s.colours[e.colour].supply + 1)
    forces = (*turn.forces[:-1], evolved(turn.forces[-1], dial=0))
    turn = evolved(turn, forces=forces, invasion=None, weaponry=False)
    return evolved(s, colours=colours, turn=turn)


@event
class LandReduced(BriefEvent):
    """Taking control of a land reduces what stands in it; a barbarian Empire earns gold."""

    colour: int
    land: str
    buildings: tuple[str, ...]
    removed: tuple[str, ...]
    reductions: int
    gold: int


@FOLDS.handles(LandReduced)
def _reduced(t: BriefTables, s: BriefState, e: LandReduced) -> BriefState:
    cell = s.land(e.land)
    reduced = Cell(cell.colour, cell.standing, frozenset(e.buildings))
    lands = dict(s.lands)  # with_cell, with_shared and with_gold, applied once
    if reduced.is_empty:
        lands.pop(e.land, None)
    else:
        lands[e.land] = reduced
    changes: dict[str, Any] = {"lands": lands, "supply": added(s.supply, **returned(e.removed))}
    if e.gold != 0:
        gold = s.colours[e.colour].gold + e.gold
        changes["colours"] = with_item(s.colours, e.colour, gold=gold, arrived=s.moves + 1)
        changes["moves"] = s.moves + 1
    return evolved(s, **changes)
