"""Combat in the Avalon Hill 2001 edition (Chapter V): how many dice each side rolls, and what
one round of combat does. Pure functions of the dice already rolled; the rule key each outcome
cites is given beside it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

DIFFICULT_KINDS = frozenset({"forest", "mountains"})
"""Difficult terrain in a land (the straits and the Great Wall lie between lands)."""


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


def attack_dice(edge: Edge) -> tuple[int, str]:
    """Two dice; three with a Leader (ah2001.events.leader) or a Jihad before its first loss
    (ah2001.events.jihad)."""
    if edge.jihad_losses == 0:
        return 3, "events.jihad"
    if edge.leader:
        return 3, "events.leader"
    return 2, "combat.dice"


def defence_dice(terrain: frozenset[str], approach: Approach, edge: Edge) -> tuple[int, str]:
    """One die; three against an army landed from a fleet (two with Naval Power); two over
    Difficult Terrain - a forest or mountain in the defender's land, a strait or the Great Wall
    crossed - unless Expert Troops (or the card's text) excuse that terrain."""
    if approach.via is Via.SEA:
        if edge.naval_power:
            return 2, "events.naval-power"
        return 3, "combat.from-sea"
    if edge.no_terrain_penalty:
        return 1, "combat.dice"
    crossed = {
        *(terrain & DIFFICULT_KINDS),
        *(("strait",) if approach.strait else ()),
        *(("great-wall",) if approach.great_wall else ()),
    }
    if crossed - edge.expert:
        return 2, "expand.straits" if crossed - edge.expert == {
            "strait"
        } else "combat.difficult-terrain"
    if crossed:
        return 1, "events.expert-troops"
    return 1, "combat.dice"


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
    attacker: tuple[int, ...],
    defender: tuple[int, ...],
    buildings: frozenset[str],
    edge: Edge,
) -> Round:
    """Each side keeps its highest die; the higher wins, a tie removes both
    (ah2001.combat.dice, .tie); a fort adds one to the defence and is lost first
    (ah2001.combat.fort); the cards add their bonuses."""
    rules = ["combat.dice"]
    attack = max(attacker)
    if edge.weaponry:
        attack += 1
        rules.append("events.weaponry")
    if edge.siegecraft and besieged(buildings):
        attack += 1
        rules.append("events.siegecraft")
    fort = "fort" in buildings
    defence = max(defender) + (1 if fort else 0)
    if fort:
        rules.append("combat.fort")
    wins_ties = edge.elite_troops or (edge.jihad_losses is not None and edge.jihad_losses < 2)
    leader_killed = edge.leader and len(attacker) == 3 and len(set(attacker)) == 1
    if leader_killed:
        rules.append("events.leader")
    if attack == defence and wins_ties:
        rules.append("events.elite-troops" if edge.elite_troops else "events.jihad")
        attack_won = True
    elif attack == defence:
        rules.append("combat.tie")
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


def sacked(buildings: frozenset[str]) -> frozenset[str]:
    """A land taken after a battle: its capital becomes a city, a city there is removed,
    monuments stay (ah2001.combat.sack)."""
    if "capital" in buildings:
        return (buildings - {"capital"}) | {"city"}
    return buildings - {"city"}
