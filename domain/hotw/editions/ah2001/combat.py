"""Chapter V of the Avalon Hill 2001 rules, Combat, with Attacking from the Sea: how many dice
each side rolls (the numbers: the data pack's `combat.yaml`), which way an attack comes (over a
border, a strait or the Great Wall, or from a fleet: ah2001.combat.from-sea), what one round
does (pure functions of the dice already rolled; the rule key each outcome cites is given
beside it), and the battle for a land, round after round (ah2001.combat.when, .repeat).

Worked examples: `WORKED_EXAMPLES`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.changes import with_cell
from domain.hotw.editions.ah2001.context import (
    FOLDS,
    Ah2001Event,
    Ctx,
    holds_any,
    with_supply,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Cell,
)
from domain.hotw.editions.ah2001.revisions import TREACHERY_ONE_ATTACK, WALL_ONE_SIDED
from domain.hotw.editions.ah2001.sack import sack
from domain.hotw.editions.ah2001.tables import Ah2001Tables, CombatDice
from domain.hotw.world import DIFFICULT_TERRAIN

COMBAT_CARDS = {
    "leader": "ah2001.events.leader",
    "weaponry": "ah2001.events.weaponry",
    "siegecraft": "ah2001.events.siegecraft",
    "elite-troops": "ah2001.events.elite-troops",
    "expert-troops": "ah2001.events.expert-troops",
    "jihad": "ah2001.events.jihad",
    "naval-power": "ah2001.events.naval-power",
}
"""The clause of each kind of card whose edge this chapter's battles apply, by kind."""


WORKED_EXAMPLES = (
    "ah2001.example.romans-repeated-attack",
    "ah2001.example.guptas-four-battles",
    "ah2001.example.british-sea-attack",
    "ah2001.example.mongols-great-wall",
)
"""The rulebook's worked examples of this chapter, each played again by a test."""


class Via(StrEnum):
    """Where an attack comes from (ah2001.combat.from-sea reading)."""

    LAND = "land"
    SEA = "sea"


@dataclass(frozen=True)
class Approach:
    """The way into the defender's land."""

    via: Via
    strait: bool = False
    great_wall: bool = False


@dataclass(frozen=True)
class Edge:
    """What the Active Empire's cards give it this turn (Chapter IV; Event card texts)."""

    leader: bool = False
    weaponry: bool = False
    siegecraft: bool = False
    elite_troops: bool = False
    jihad_losses: int | None = None
    """Jihad in play: the Empire's armies lost in combat so far (None: no Jihad)."""
    naval_power: bool = False
    expert: frozenset[str] = frozenset()
    """Terrain the Empire's armies cross without penalty: `strait`, `mountains`, `forest`."""
    no_terrain_penalty: bool = False
    """Civil War, Jewish Revolt: attacks ignore Difficult Terrain (forts still count)."""


def attack_dice(dice: CombatDice, edge: Edge) -> tuple[int, str]:
    """Two dice; three with a Leader (ah2001.events.leader) or a Jihad before its first loss
    (ah2001.events.jihad)."""
    if edge.jihad_losses is not None and edge.jihad_losses < dice.jihad_bonus_losses:
        return dice.bonus_attack, "ah2001.events.jihad"
    if edge.leader:
        return dice.bonus_attack, "ah2001.events.leader"
    return dice.attack, "ah2001.combat.dice"


def defence_dice(
    dice: CombatDice, terrain: frozenset[str], approach: Approach, edge: Edge
) -> tuple[int, str]:
    """One die; three against an army landed from a fleet (two with Naval Power); two over
    Difficult Terrain - a forest or mountain in the defender's land, a strait or the Great Wall
    crossed - unless Expert Troops (or the card's text) excuse that terrain."""
    if approach.via is Via.SEA:
        if edge.naval_power:
            return dice.naval_power_defence, "ah2001.events.naval-power"
        return dice.from_sea_defence, "ah2001.combat.from-sea"
    if edge.no_terrain_penalty:
        return dice.defence, "ah2001.combat.dice"
    crossed = {
        *(terrain & DIFFICULT_TERRAIN),
        *(("strait",) if approach.strait else ()),
        *(("great-wall",) if approach.great_wall else ()),
    }
    if crossed - edge.expert:
        return dice.difficult_defence, "ah2001.expand.straits" if crossed - edge.expert == {
            "strait"
        } else "ah2001.combat.difficult-terrain"
    if crossed:
        return dice.defence, "ah2001.events.expert-troops"
    return dice.defence, "ah2001.combat.dice"


class Result(StrEnum):
    """What one round of combat removes."""

    ATTACKER_LOST = "attacker_lost"
    BOTH_LOST = "both_lost"
    DEFENDER_LOST = "defender_lost"
    FORT_LOST = "fort_lost"
    """The defender lost but its fort goes first: the same attacking army fights again."""
    FORT_AND_ATTACKER_LOST = "fort_and_attacker_lost"
    """A tie in a fort: the attacking army and the fort go, the defending army holds."""
    FORT_AND_DEFENDER_LOST = "fort_and_defender_lost"
    """Siegecraft: a victory against a fort takes the fort and the army together."""


@dataclass(frozen=True)
class Round:
    attack: int
    defence: int
    result: Result
    rules: tuple[str, ...]
    leader_killed: bool = False


def besieged(buildings: frozenset[str]) -> bool:
    """Siegecraft applies against a fort, a capital or a city (ah2001.events.siegecraft)."""
    return bool(buildings & {"fort", "capital", "city"})


def fight_round(
    dice: CombatDice,
    attacker: tuple[int, ...],
    defender: tuple[int, ...],
    buildings: frozenset[str],
    edge: Edge,
) -> Round:
    """Each side keeps its highest die; the higher wins, a tie removes both
    (ah2001.combat.dice, .tie); a fort adds one to the defence and is lost first
    (ah2001.combat.fort); the cards add their bonuses."""
    rules = ["ah2001.combat.dice"]
    attack = max(attacker)
    if edge.weaponry:
        attack += dice.weaponry_bonus
        rules.append("ah2001.events.weaponry")
    if edge.siegecraft and besieged(buildings):
        attack += dice.siegecraft_bonus
        rules.append("ah2001.events.siegecraft")
    fort = "fort" in buildings
    defence = max(defender) + (dice.fort_bonus if fort else 0)
    if fort:
        rules.append("ah2001.combat.fort")
    jihad = edge.jihad_losses
    wins_ties = edge.elite_troops or (jihad is not None and jihad < dice.jihad_ties_losses)
    leader_killed = edge.leader and len(attacker) == dice.bonus_attack and len(set(attacker)) == 1
    if leader_killed:
        rules.append("ah2001.events.leader")
    if attack == defence and wins_ties:
        rules.append("ah2001.events.elite-troops" if edge.elite_troops else "ah2001.events.jihad")
        attack_won = True
    elif attack == defence:
        rules.append("ah2001.combat.tie")
        result = Result.FORT_AND_ATTACKER_LOST if fort else Result.BOTH_LOST
        return Round(attack, defence, result, tuple(rules), leader_killed)
    else:
        attack_won = attack > defence
    if not attack_won:
        return Round(attack, defence, Result.ATTACKER_LOST, tuple(rules), leader_killed)
    if fort and edge.siegecraft:
        return Round(attack, defence, Result.FORT_AND_DEFENDER_LOST, tuple(rules), leader_killed)
    result = Result.FORT_LOST if fort else Result.DEFENDER_LOST
    return Round(attack, defence, result, tuple(rules), leader_killed)


REPEATABLE = frozenset({Result.ATTACKER_LOST, Result.FORT_AND_ATTACKER_LOST})
"""Results after which the attacker may attack the same land again (ah2001.combat.repeat)."""


def over_the_wall(tables: Ah2001Tables, attacker: str, defender: str) -> bool:
    """An attack over the Great Wall standing in the defender's land: "If the Difficult
    Terrain is on the attacker's Land, then there is no defender bonus"
    (ah2001.combat.difficult-terrain; revision 1-2 counted the Wall from both sides)."""
    if tables.since(WALL_ONE_SIDED):
        return tables.board.defended_by_the_wall(attacker, defender)
    return tables.board.crosses_great_wall(attacker, defender)


def approach(tables: Ah2001Tables, state: Ah2001State, land: str, via: Via) -> Approach:
    """From the sea, or from the adjacent Empire land the defender gets fewest dice against
    (ah2001.combat.from-sea reading: the attacker names the way, and takes the best border)."""
    if via is Via.SEA:
        return Approach(Via.SEA)
    assert state.turn is not None
    board = tables.board
    options = []
    for source in state.turn.lands:
        if land in board.lands[source].neighbours:
            options.append(Approach(Via.LAND, great_wall=over_the_wall(tables, source, land)))
        elif land in board.lands[source].straits:
            options.append(Approach(Via.LAND, strait=True))
    return min(options, key=lambda a: (a.strait or a.great_wall, a.strait))


def edge(state: Ah2001State) -> Edge:
    """What the cards played this turn give the Active Empire in combat."""
    turn = state.turn
    assert turn is not None
    return Edge(
        leader=turn.leader,
        weaponry=turn.weaponry,
        siegecraft=turn.siegecraft,
        elite_troops=turn.elite_troops,
        jihad_losses=turn.jihad_losses,
        naval_power=turn.naval_power,
        expert=turn.expert,
    )


def treachery_wins(ctx: Ctx, seat: int, land: str, via: Via, first: bool) -> bool:
    """ah2001.events.treachery: the land named falls without a die rolled; False while more of
    the defender's armies stand there (ah2001.option.multiple-armies). "You automatically win
    the attack": one attack, and one army from the pool, takes the whole stack (revision 6)."""
    cell = ctx.state.land(land)
    defender = cell.owner
    assert defender is not None
    won = Result.FORT_AND_DEFENDER_LOST if "fort" in cell.buildings else Result.DEFENDER_LOST
    ctx.emit(
        BattleFought(
            rule="ah2001.events.treachery",
            seat=seat,
            land=land,
            defender=defender,
            via=via.value,
            attack_dice=(),
            defence_dice=(),
            attack=0,
            defence=0,
            result=won.value,
            first_round=first or not ctx.tables.since(TREACHERY_ONE_ATTACK),
        )
    )
    if ctx.state.land(land).owner == defender:
        return False
    sack(ctx, land)
    return True


def battle(ctx: Ctx, seat: int, land: str, via: Via) -> None:
    """ah2001.combat.*: rounds until one side's army is gone (a fort falls first)."""
    tables = ctx.tables
    homeless = via is Via.LAND and not holds_any(ctx.state)
    way = Approach(Via.LAND) if homeless else approach(tables, ctx.state, land, via)
    terrain = frozenset({tables.board.lands[land].terrain})
    first = True
    while True:
        cell = ctx.state.land(land)
        defender = cell.owner
        assert defender is not None
        bonus = edge(ctx.state)
        if homeless:  # ah2001.variant.no-lands-left: no Difficult Terrain for the defender
            bonus = replace(bonus, no_terrain_penalty=True)
        turn = ctx.state.turn
        if turn is not None and turn.treachery == land:
            if treachery_wins(ctx, seat, land, via, first):
                return
            first = False
            continue
        attacking, attack_rule = attack_dice(tables.combat, bonus)
        defending, defence_rule = defence_dice(tables.combat, terrain, way, bonus)
        attack = ctx.chance.dice(attacking)
        defence = ctx.chance.dice(defending)
        fought = fight_round(tables.combat, attack, defence, cell.buildings, bonus)
        cites = tuple(
            dict.fromkeys(
                k for k in (attack_rule, defence_rule, *fought.rules) if k != "ah2001.combat.dice"
            )
        )
        ctx.emit(
            BattleFought(
                rule="ah2001.combat.when"
                if fought.result is not Result.BOTH_LOST
                else "ah2001.combat.tie",
                cites=(
                    "ah2001.combat.dice",
                    *cites,
                    *(
                        ("ah2001.combat.attacker-bonus",)
                        if attacking > tables.combat.attack
                        else ()
                    ),
                    *(("ah2001.variant.no-lands-left",) if homeless else ()),
                    *(("ah2001.combat.repeat",) if fought.result in REPEATABLE else ()),
                ),
                seat=seat,
                land=land,
                defender=defender,
                via=via.value,
                attack_dice=attack,
                defence_dice=defence,
                attack=fought.attack,
                defence=fought.defence,
                result=fought.result.value,
                first_round=first,
                leader_killed=fought.leader_killed,
                draws=ctx.chance.take_draws(),
            )
        )
        first = False
        if not fights_on(ctx, land, fought):
            return


def fights_on(ctx: Ctx, land: str, fought: Round) -> bool:
    """After a round the attacker fights on while only a fort fell or more defenders stand;
    a land won at last is sacked (ah2001.combat.sack)."""
    if fought.result is Result.FORT_LOST or defender_fights_on(ctx, land, fought):
        return True
    if fought.result in (Result.DEFENDER_LOST, Result.FORT_AND_DEFENDER_LOST):
        sack(ctx, land)
    return False


def defender_fights_on(ctx: Ctx, land: str, fought: Round) -> bool:
    """ah2001.option.multiple-armies: a defender's loss costs one of its armies; while
    others stand, the attacking army fights on."""
    won = fought.result in (Result.DEFENDER_LOST, Result.FORT_AND_DEFENDER_LOST)
    cell = ctx.state.land(land)
    return won and cell.owner is not None and cell.owner != ctx.state.turn_seat()


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class BattleFought(Ah2001Event):
    """One round of combat for a land: both sides' dice and what it removed."""

    seat: int
    land: str
    defender: int
    via: str
    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    attack: int
    defence: int
    result: str
    first_round: bool = True
    leader_killed: bool = False


ATTACKER_LOSSES = ("attacker_lost", "both_lost", "fort_and_attacker_lost")
DEFENDER_LOSSES = ("defender_lost", "fort_and_defender_lost", "both_lost")
"""Results that cost the defender an army (one of several, with multiple armies)."""


@FOLDS.handles(BattleFought)
def _battle(t: Ah2001Tables, s: Ah2001State, e: BattleFought) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    cell = s.land(e.land)
    changes: dict[str, Any] = {}  # the turn's, gathered and applied once
    if e.first_round:
        changes["pool"] = turn.pool - 1
    if e.leader_killed:
        changes["leader"] = False
    if e.result in ATTACKER_LOSSES:
        jihad = turn.jihad_losses
        changes["lost"] = turn.lost + 1
        changes["elite_troops"] = False
        changes["jihad_losses"] = None if jihad is None else jihad + 1
    if e.result in ("fort_lost", "fort_and_attacker_lost", "fort_and_defender_lost"):
        s = with_supply(s, forts=1)
        cell = evolved(cell, buildings=cell.buildings - {"fort"})
    if e.result in DEFENDER_LOSSES and cell.armies > 1:
        cell = evolved(cell, armies=cell.armies - 1)
    elif e.result == "both_lost":
        cell = Cell(None, 0, cell.buildings)
    elif e.result in DEFENDER_LOSSES:
        cell = Cell(e.seat, turn.figure or s.epoch, cell.buildings)
        changes["lands"] = (*turn.lands, e.land)
    if changes:
        s = evolved(s, turn=evolved(turn, **changes))
    return with_cell(s, e.land, cell)
