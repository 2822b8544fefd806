"""A world board of lands in areas (barren lands in none), seas and oceans, straits and the
Great Wall, and the questions the rules ask of it: the board of the Avalon Hill 2001 edition
(`data/hotw-ah2001/board.yaml`) and of A Brief History of the World (`data/brief-2009/`). Pure
data; loaded by `packs.world_board`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

DIFFICULT_TERRAIN = frozenset({"forest", "mountains"})
"""The terrain both editions on this board count as difficult: it gives the AH2001 defender a
second die (ah2001.combat.difficult-terrain) and costs a Brief invasion two points
(brief.invasion.difficult)."""


@dataclass(frozen=True)
class LandCell:
    id: str
    name: str
    area: str | None
    """None for a barren land."""
    terrain: str
    resource: bool
    neighbours: frozenset[str]
    straits: frozenset[str]
    seas: frozenset[str]
    x: float
    y: float
    provenance: str = ""
    """Where the entry comes from (empty: the file's provenance says)."""

    @property
    def barren(self) -> bool:
        return self.area is None


@dataclass(frozen=True)
class Water:
    id: str
    name: str
    kind: str
    ocean: str | None
    provenance: str = ""
    x: float | None = None
    y: float | None = None
    """Where the drawing names the water (None: among the lands on its coasts)."""


@dataclass(frozen=True)
class WorldBoard:
    lands: Mapping[str, LandCell]
    waters: Mapping[str, Water]
    water_links: frozenset[frozenset[str]]
    great_wall: frozenset[frozenset[str]]
    behind_the_wall: frozenset[tuple[str, str]] = frozenset()
    """The Great Wall's borders as (outside, behind): the Wall stands in the second land."""
    map_height: float = 500.0
    """The height of the drawing's canvas (1000 wide) that the lands' x and y lie within."""
    coasts: Mapping[str, frozenset[str]] = field(init=False)

    def __post_init__(self) -> None:
        coasts: dict[str, set[str]] = {w: set() for w in self.waters}
        for land in self.lands.values():
            for water in land.seas:
                coasts[water].add(land.id)
        object.__setattr__(self, "coasts", {w: frozenset(c) for w, c in coasts.items()})

    def adjacent(self, land: str) -> frozenset[str]:
        """Bordering lands and lands across a strait."""
        cell = self.lands[land]
        return cell.neighbours | cell.straits

    def crosses_great_wall(self, land: str, other: str) -> bool:
        return frozenset((land, other)) in self.great_wall

    def defended_by_the_wall(self, attacker: str, defender: str) -> bool:
        """Whether an attack from `attacker` into `defender` comes over the Wall standing in
        the defender's land (the Wall in the attacker's own land defends nothing)."""
        return (attacker, defender) in self.behind_the_wall

    def navigation(self, listed: Iterable[str]) -> frozenset[str]:
        """The waters an Empire's listed navigation gives fleets in: each sea listed, and for
        an ocean the ocean and every sea whose navigation it includes."""
        waters: set[str] = set()
        for water in listed:
            waters.add(water)
            if self.waters[water].kind == "ocean":
                waters |= {w.id for w in self.waters.values() if w.ocean == water}
        return frozenset(waters)

    def fleet_reach(self, start: Iterable[str], fleets: Iterable[str]) -> frozenset[str]:
        """Lands an army reaches over a chain of fleets from the lands `start`: the fleet
        waters any of those lands touch, the fleet waters touching those, and so on; then every
        land touching one of them."""
        fleets = frozenset(fleets)
        reached = {w for land in start for w in self.lands[land].seas if w in fleets}
        frontier = list(reached)
        while frontier:
            water = frontier.pop()
            for link in self.water_links:
                if water in link:
                    (other,) = link - {water}
                    if other in fleets and other not in reached:
                        reached.add(other)
                        frontier.append(other)
        return frozenset(land for water in reached for land in self.coasts[water])

    def connected(self) -> frozenset[str]:
        """The lands reachable from the first by borders, straits and any waters."""
        first = next(iter(self.lands))
        seen = {first}
        frontier = [first]
        while frontier:
            land = frontier.pop()
            nexts = set(self.adjacent(land))
            nexts |= self.fleet_reach([land], self.waters)
            for other in nexts - seen:
                seen.add(other)
                frontier.append(other)
        return frozenset(seen)
