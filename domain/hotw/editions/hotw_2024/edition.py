"""What an edition of History of the World fixes in numbers and names, read by the shared
chapters instead of constants: its epochs, dice, gold, track sizes and the order of a turn's
phases.

Built from ``data/<edition>/edition.yaml`` by the pack loader (``packs.edition``); pure data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class InvasionDice:
    """How many dice each side rolls in an invasion with dice."""

    empire: int
    leader: int
    enemy: int
    fort: int


@dataclass(frozen=True, slots=True)
class ConquestNumbers:
    """The dice, modifiers and costs of invasion and conquest (an optional rule's numbers)."""

    clear_terrain_dice: int
    difficult_terrain_dice: int
    fort_extra_die: int
    first_modifier: int
    later_modifier: int
    clear_cost: int
    difficult_cost: int
    fort_extra_cost: int


@dataclass(frozen=True, slots=True)
class RevenueGold:
    """Gold an area pays for presence, dominance and mastery."""

    presence: int
    dominance: int
    mastery: int


@dataclass(frozen=True)
class Edition:
    """The edition's parameters."""

    name: str
    epochs: tuple[int, ...]
    sea_fleet_epochs: frozenset[int]
    ocean_fleet_epochs: frozenset[int]
    phases: tuple[str, ...]
    """The phases of a player turn, in order (values of `cards.Phase`)."""
    player_phases: frozenset[str]
    """Phases in which the player acts."""
    honor_track_spaces: int
    great_wall_lands: tuple[str, ...]
    invasion_dice: InvasionDice
    conquest: ConquestNumbers
    revenue: RevenueGold
    building_gold: Mapping[str, int]
    """Gold a building is worth in revenue and plunder, by building kind."""
    provenance: str = ""
    """Where the numbers come from (`text pN...`, or `reconstructed`)."""
    cites: Mapping[str, str] = field(default_factory=dict)
    """Each group of numbers (`invasion_dice`, `revenue`, ...) → the rule id that prints it."""
