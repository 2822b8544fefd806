"""What an edition of History of the World fixes in numbers and names, read by the shared
chapters instead of constants: its epochs, dice, gold, track sizes, the order of a turn's phases,
and how a shared rule is cited in the edition's own catalogue.

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


class UnknownRule(KeyError):
    """A shared rule cited by a key that the edition's catalogue does not hold."""


@dataclass(frozen=True)
class Edition:
    """One edition's parameters and its way of citing shared rules."""

    name: str
    rule_prefix: str
    """The prefix of the edition's rule ids: a shared rule `turn.order` is `<prefix>.turn.order`
    unless `rule_aliases` names another id for it."""
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
    rule_aliases: Mapping[str, str] = field(default_factory=dict)
    rule_ids: Mapping[str, str] = field(default_factory=dict)
    """Every citable key → the catalogue's id (built by the loader from the catalogue)."""

    def cite(self, key: str) -> str:
        """The edition's catalogue id of the shared rule `key`."""
        try:
            return self.rule_ids[key]
        except KeyError:
            raise UnknownRule(f"{self.name} has no rule {key!r} in its catalogue") from None

    def key_of(self, rule_id: str) -> str:
        """The shared key of one of the edition's rule ids (the inverse of `cite`)."""
        for key, known in self.rule_aliases.items():
            if known == rule_id:
                return key
        prefix = self.rule_prefix + "."
        return rule_id[len(prefix) :] if rule_id.startswith(prefix) else rule_id


def citable_ids(
    prefix: str, catalogue_ids: Mapping[str, object] | frozenset[str], aliases: Mapping[str, str]
) -> dict[str, str]:
    """The key → id table of an edition: each catalogue id under its key without the prefix,
    then the aliases (a shared key the edition's catalogue names differently)."""
    head = prefix + "."
    table = {rule_id[len(head) :]: rule_id for rule_id in catalogue_ids if rule_id.startswith(head)}
    table.update(aliases)
    return table
