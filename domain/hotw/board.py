"""The game-board of History of the World (2024): lands, seas, oceans, wastelands and areas.

Pure data and the rule-level questions the engine asks of the map. The pack file
``data/hotw-2024/board.yaml`` is loaded into these types by ``packs.hotw_board.load_board``;
nothing here reads files. Adjacency is precomputed once (``Board.__post_init__``) because the rules
engine asks it in hot loops. Page numbers are the 2024 rulebook's own.

The map's contents (components.board) and the far-reaching seas of p10
(fleets.mediterranean, fleets.volga, fleets.bay-of-bengal) are the pack's
adjacency, asked through `Board`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType


class Terrain(StrEnum):
    """p5: each land is CLEAR or DIFFICULT terrain (a tie on dice goes to the terrain)."""

    CLEAR = "clear"
    DIFFICULT = "difficult"


class PowerIcon(StrEnum):
    """p7: each non-barbarian Empire is allocated one of four power icons.

    Only the Crown is named by the rule text; the other three kinds are reconstructed.
    """

    CROWN = "crown"
    SCROLL = "scroll"
    SWORD = "sword"
    TEMPLE = "temple"


class WaterKind(StrEnum):
    """p2: the board shows dark blue oceans and light blue seas."""

    SEA = "sea"
    OCEAN = "ocean"


@dataclass(frozen=True)
class Land:
    """A land: it can hold an army or a garrison and buildings (p2)."""

    id: str
    name: str
    area: str
    terrain: Terrain
    terrain_kind: str | None
    power_icon: PowerIcon | None
    neighbours: frozenset[str]
    """Lands sharing a border."""
    straits: frozenset[str]
    """Lands joined by a strait (a red double-headed arrow): these count as adjacent (p5)."""
    seas: frozenset[str]
    """The seas AND oceans this land touches, as printed."""
    x: float
    y: float
    provenance: str = "reconstructed"

    @property
    def is_clear(self) -> bool:
        return self.terrain is Terrain.CLEAR

    @property
    def is_difficult(self) -> bool:
        return self.terrain is Terrain.DIFFICULT


@dataclass(frozen=True)
class Sea:
    """A sea (light blue) or an ocean (dark blue).

    A sea belongs to one ocean (``ocean``); an ocean has ``ocean`` None and lists the oceans it
    touches in ``adjacent_oceans``.
    """

    id: str
    name: str
    kind: WaterKind
    ocean: str | None
    adjacent_oceans: frozenset[str]
    x: float
    y: float
    provenance: str = "reconstructed"

    @property
    def is_ocean(self) -> bool:
        return self.kind is WaterKind.OCEAN


@dataclass(frozen=True)
class Wasteland:
    """A grey impassable wasteland: an army may never be placed in it (p5); it has no area.

    ``neighbours`` are the lands drawn beside it: for drawing only, never for adjacency.
    """

    id: str
    name: str
    neighbours: frozenset[str]
    x: float
    y: float
    provenance: str = "reconstructed"


@dataclass(frozen=True)
class AreaToken:
    """One of the three Area tokens of an area (p3, Select Area tokens)."""

    id: str
    area: str


@dataclass(frozen=True)
class PairedAreaToken:
    """An Option 4 token that names two areas; both are used to collect gold (p12)."""

    id: str
    areas: tuple[str, str]
    provenance: str = "reconstructed"


@dataclass(frozen=True)
class Area:
    """An area: it becomes active in the epoch of the Roman numeral under its name (p3)."""

    id: str
    name: str
    epoch: int
    area_tokens: tuple[str, ...]
    provenance: str = "reconstructed"


def _frozen_index(pairs: Mapping[str, set[str]]) -> Mapping[str, frozenset[str]]:
    return MappingProxyType({key: frozenset(value) for key, value in pairs.items()})


@dataclass(frozen=True)
class Board:
    """The whole game-board, with its adjacency precomputed."""

    lands: Mapping[str, Land]
    seas: Mapping[str, Sea]
    """Seas AND oceans, by id; ``Sea.kind`` tells which."""
    wastelands: Mapping[str, Wasteland]
    areas: Mapping[str, Area]
    paired_area_tokens: Mapping[str, PairedAreaToken] = field(default_factory=dict)
    provenance: str = ""
    map_height: float = 500.0
    """The height of the drawing's canvas (its width is 1000): lands' x and y lie within it."""

    _adjacent: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    _coasts: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    _ocean_waters: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    _fleet_lands: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    _land_waters: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    _adjacent_waters: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    _area_lands: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    _area_tokens: Mapping[str, AreaToken] = field(init=False, repr=False, compare=False)
    _oceans: Mapping[str, Sea] = field(init=False, repr=False, compare=False)
    _seas_only: Mapping[str, Sea] = field(init=False, repr=False, compare=False)
    _icon_lands: Mapping[PowerIcon, frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lands = MappingProxyType(dict(self.lands))
        seas = MappingProxyType(dict(self.seas))
        object.__setattr__(self, "lands", lands)
        object.__setattr__(self, "seas", seas)
        object.__setattr__(self, "wastelands", MappingProxyType(dict(self.wastelands)))
        object.__setattr__(self, "areas", MappingProxyType(dict(self.areas)))
        object.__setattr__(
            self, "paired_area_tokens", MappingProxyType(dict(self.paired_area_tokens))
        )

        adjacent: dict[str, set[str]] = {land_id: set() for land_id in lands}
        coasts: dict[str, set[str]] = {water_id: set() for water_id in seas}
        for land in lands.values():
            for other in land.neighbours | land.straits:
                adjacent[land.id].add(other)
                adjacent.setdefault(other, set()).add(land.id)
            for water_id in land.seas:
                coasts.setdefault(water_id, set()).add(land.id)

        ocean_waters: dict[str, set[str]] = {
            water.id: {water.id} for water in seas.values() if water.is_ocean
        }
        for water in seas.values():
            if not water.is_ocean and water.ocean is not None:
                ocean_waters.setdefault(water.ocean, {water.ocean}).add(water.id)

        fleet_lands: dict[str, set[str]] = {}
        for water in seas.values():
            members = ocean_waters.get(water.id, {water.id})
            fleet_lands[water.id] = set().union(*(coasts.get(m, set()) for m in members))

        land_waters: dict[str, set[str]] = {land_id: set() for land_id in lands}
        for water_id, touched in fleet_lands.items():
            for land_id in touched:
                land_waters.setdefault(land_id, set()).add(water_id)

        adjacent_waters: dict[str, set[str]] = {water_id: set() for water_id in seas}
        for water in seas.values():
            linked = set(water.adjacent_oceans)
            if water.ocean is not None:
                linked.add(water.ocean)
            for other in linked:
                adjacent_waters[water.id].add(other)
                adjacent_waters.setdefault(other, set()).add(water.id)

        area_lands: dict[str, set[str]] = {area_id: set() for area_id in self.areas}
        for land in lands.values():
            area_lands.setdefault(land.area, set()).add(land.id)

        area_tokens = {
            token_id: AreaToken(token_id, area.id)
            for area in self.areas.values()
            for token_id in area.area_tokens
        }

        object.__setattr__(self, "_adjacent", _frozen_index(adjacent))
        object.__setattr__(self, "_coasts", _frozen_index(coasts))
        object.__setattr__(self, "_ocean_waters", _frozen_index(ocean_waters))
        object.__setattr__(self, "_fleet_lands", _frozen_index(fleet_lands))
        object.__setattr__(self, "_land_waters", _frozen_index(land_waters))
        object.__setattr__(self, "_adjacent_waters", _frozen_index(adjacent_waters))
        object.__setattr__(self, "_area_lands", _frozen_index(area_lands))
        object.__setattr__(self, "_area_tokens", MappingProxyType(area_tokens))
        oceans = {water_id: w for water_id, w in seas.items() if w.is_ocean}
        object.__setattr__(self, "_oceans", MappingProxyType(oceans))
        object.__setattr__(
            self,
            "_seas_only",
            MappingProxyType({water_id: w for water_id, w in seas.items() if not w.is_ocean}),
        )
        icon_lands = {
            icon: frozenset(land.id for land in lands.values() if land.power_icon is icon)
            for icon in PowerIcon
        }
        object.__setattr__(self, "_icon_lands", MappingProxyType(icon_lands))

    # --- components ---------------------------------------------------------------------------

    @property
    def area_tokens(self) -> Mapping[str, AreaToken]:
        """Every Area token, by id (three per area, p3)."""
        return self._area_tokens

    @property
    def oceans(self) -> Mapping[str, Sea]:
        """The four dark blue oceans (p2)."""
        return self._oceans

    @property
    def seas_only(self) -> Mapping[str, Sea]:
        """The seven light blue seas (p2), without the oceans."""
        return self._seas_only

    def is_land(self, place: str) -> bool:
        return place in self.lands

    def is_water(self, place: str) -> bool:
        return place in self.seas

    def is_ocean(self, water: str) -> bool:
        return self.seas[water].is_ocean

    def is_wasteland(self, place: str) -> bool:
        """p5: an army may never be placed in a wasteland."""
        return place in self.wastelands

    # --- lands --------------------------------------------------------------------------------

    def are_adjacent(self, land: str, other: str) -> bool:
        """Two lands are adjacent if they share a border or a strait joins them (p5)."""
        return other in self._adjacent[land]

    def neighbours_of(self, land: str) -> frozenset[str]:
        """The lands adjacent to ``land``: bordering or across a strait (p5)."""
        return self._adjacent[land]

    def is_strait(self, land: str, other: str) -> bool:
        """Whether a strait (a red double-headed arrow) joins the two lands (p5)."""
        return other in self.lands[land].straits

    def terrain_of(self, land: str) -> Terrain:
        return self.lands[land].terrain

    def power_icon_of(self, land: str) -> PowerIcon | None:
        return self.lands[land].power_icon

    def lands_with_power_icon(self, icon: PowerIcon) -> frozenset[str]:
        """The lands showing ``icon``; a pair of them under one Empire builds a monument (p7)."""
        return self._icon_lands[icon]

    # --- seas and oceans ----------------------------------------------------------------------

    def waters_of(self, land: str) -> frozenset[str]:
        """The seas and oceans ``land`` is adjacent to, as printed (without ocean membership)."""
        return self.lands[land].seas

    def waters_adjacent_to_land(self, land: str) -> frozenset[str]:
        """The seas and oceans ``land`` counts as adjacent to under the rules.

        p9: an ocean is made up of the ocean itself and all adjacent seas, so a land on the
        Mediterranean Sea is treated as adjacent to the Atlantic Ocean.
        """
        return self._land_waters[land]

    def coasts_of(self, water: str) -> frozenset[str]:
        """The lands printed as adjacent to the sea or ocean ``water`` (its own coast only)."""
        return self._coasts[water]

    def ocean_of(self, water: str) -> str:
        """The ocean a sea belongs to; an ocean is its own ocean (p9)."""
        sea = self.seas[water]
        return sea.id if sea.ocean is None else sea.ocean

    def ocean_waters(self, ocean: str) -> frozenset[str]:
        """p9 More about fleets: an ocean is the ocean itself plus all adjacent seas."""
        if not self.seas[ocean].is_ocean:
            raise ValueError(f"{ocean} is a sea, not an ocean")
        return self._ocean_waters[ocean]

    def lands_adjacent_to_water(self, water: str) -> frozenset[str]:
        """The lands adjacent to a sea, or to an ocean with its seas (p9).

        E.g. all lands adjacent to the Mediterranean Sea and the North Sea are treated as being
        adjacent to the Atlantic Ocean.
        """
        return self._fleet_lands[water]

    def lands_reachable_by_fleet_in(self, water: str) -> frozenset[str]:
        """The lands where a fleet in ``water`` lets an army be placed (p5: a fleet is a
        'stepping stone' to the lands adjacent to its sea or ocean; p9: an ocean fleet reaches
        the coasts of the ocean and of all its seas)."""
        return self._fleet_lands[water]

    def waters_adjacent_to_water(self, water: str) -> frozenset[str]:
        """The seas and oceans adjacent to ``water``: a sea touches its ocean, an ocean its seas
        and the oceans beside it. A fleet may be placed in a water adjacent to a fleet (p5)."""
        return self._adjacent_waters[water]

    def waters_for_fleets_of_kind(self, kind: str) -> frozenset[str]:
        """Where a fleet of `kind` (`sea` or `ocean`, by the edition's fleet epochs) may go."""
        waters = self._oceans if kind == "ocean" else self._seas_only
        return frozenset(waters)

    # --- areas --------------------------------------------------------------------------------

    def lands_in_area(self, area: str) -> frozenset[str]:
        return self._area_lands[area]

    def area_of(self, land: str) -> str:
        return self.lands[land].area

    def areas_active_in(self, epoch: int) -> frozenset[str]:
        """The areas active in ``epoch``: those whose Roman numeral is ``epoch`` or earlier (p3)."""
        return frozenset(a.id for a in self.areas.values() if a.epoch <= epoch)

    def areas_activated_in(self, epoch: int) -> frozenset[str]:
        """The areas whose tokens go into the bag at the start of ``epoch`` (p3, step 1)."""
        return frozenset(a.id for a in self.areas.values() if a.epoch == epoch)

    def tokens_of_area(self, area: str) -> tuple[str, ...]:
        return self.areas[area].area_tokens

    def tokens_activated_in(self, epoch: int) -> tuple[str, ...]:
        """The Area tokens shuffled into the bag in ``epoch`` (p3), in board order."""
        return tuple(
            token
            for area in self.areas.values()
            if area.epoch == epoch
            for token in area.area_tokens
        )

    # --- whole map ----------------------------------------------------------------------------

    def connected_lands(self, start: str) -> frozenset[str]:
        """The lands reachable from ``start`` through borders, straits, coasts and the links
        between seas and oceans (a flood fill over lands and waters)."""
        seen_lands = {start}
        seen_waters: set[str] = set()
        frontier: list[str] = [start]
        while frontier:
            place = frontier.pop()
            if place in self.lands:
                lands, waters = self._adjacent[place], self.lands[place].seas
            else:
                lands, waters = self._coasts[place], self._adjacent_waters[place]
            for land in lands - seen_lands:
                seen_lands.add(land)
                frontier.append(land)
            for water in waters - seen_waters:
                seen_waters.add(water)
                frontier.append(water)
        return frozenset(seen_lands)
