"""Invasions, overruns and reduction in A Brief History of the World (Gameplay Flow c, d, f):
how many dice each side rolls, the invasion points a roll makes, what a land costs, and what
taking control of a land does to its buildings. Pure functions of the numbers in pieces.yaml."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from domain.hotw.editions.brief2009.tables import Numbers

DIFFICULT = frozenset({"mountains", "forest"})


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
    return numbers.difficult_points if terrain in DIFFICULT else numbers.clear_points


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
        rules.append("reduction.capital")
    elif "city" in after:
        after.discard("city")
        removed.append("city")
        reductions += 1
        rules.append("reduction.city")
    elif "monument" in after and not spare_monument:
        after.discard("monument")
        removed.append("monument")
        reductions += 1
        rules.append("reduction.monument")
    if reductions and "monument" in after:
        rules.append("reduction.capital-before-monument")
    if "fort" in after:
        after.discard("fort")
        removed.append("fort")
        rules.append("reduction.fort")
    return Reduction(frozenset(after), reductions, tuple(removed), tuple(rules))
