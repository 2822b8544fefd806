"""What the Patchistory data pack holds (`data/patchistory/`), as frozen data: Terrain Tiles
and Capital Tiles (squares and features), Building Tiles, Prosperity Cards, the Trade Routes'
spaces and the rules' numbers. Loading and checking the files is `packs/patchistory.py`'s
business (I/O stays outside `domain/`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.core.catalogue import RulesCatalogue
from domain.patchistory.revisions import NEWEST

Cell = tuple[int, int]
ICONS = ("coin", "food", "resource", "culture", "politics", "transport", "military", "defense")
"""What a square may show: the four Goods produced (the cogs) and the four static statuses."""
GOODS = ("coin", "food", "resource", "culture")
EXCHANGED = ("resource", "food", "coin")
HERO, WONDER, SPECIAL = "hero", "wonder", "special"
LAND, SEA, WASTELAND = "land", "sea", "wasteland"
WHITE, BLACK, CAPITAL = "white", "black", "capital"


@dataclass(frozen=True, slots=True)
class Square:
    """One square of a Tile side: where it stands on the piece, its terrain, what it yields by
    itself and in its gold box (only while worked), and the feature it belongs to."""

    at: Cell
    terrain: str
    name: str = ""
    yields: Mapping[str, int] = field(default_factory=dict)
    gold: Mapping[str, int] = field(default_factory=dict)
    feature: str = ""


@dataclass(frozen=True, slots=True)
class Feature:
    """A Hero, Wonder or Special Building: spans its squares, yields once when shown whole, and
    may have an ability (an id the rules implement)."""

    id: str
    kind: str
    name: str
    squares: tuple[Cell, ...]
    yields: Mapping[str, int] = field(default_factory=dict)
    ability: str = ""
    text: str = ""


@dataclass(frozen=True, slots=True)
class Side:
    squares: tuple[Square, ...]
    features: tuple[Feature, ...] = ()

    @property
    def size(self) -> tuple[int, int]:
        rows = max(s.at[0] for s in self.squares) + 1
        cols = max(s.at[1] for s in self.squares) + 1
        return rows, cols


@dataclass(frozen=True, slots=True)
class TerrainTile:
    id: str
    era: int
    white: Side
    black: Side
    provenance: str
    printed: str = ""

    def side(self, colour: str) -> Side:
        return self.white if colour == WHITE else self.black


@dataclass(frozen=True, slots=True)
class Capital:
    id: str
    side: str
    """equality or liberty"""
    tile: Side
    provenance: str
    printed: str = ""


@dataclass(frozen=True, slots=True)
class Building:
    id: str
    name: str
    cost: int
    yields: Mapping[str, int]
    provenance: str


@dataclass(frozen=True, slots=True)
class ProsperityCard:
    id: str
    name: str
    measure: str
    provenance: str


@dataclass(frozen=True, slots=True)
class RouteSpace:
    kind: str
    """start, goods, preparation or war"""
    goods: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RouteKind:
    count: int
    spaces: tuple[RouteSpace, ...]
    provenance: str
    printed: str = ""

    def index(self, kind: str) -> int:
        return next(i for i, s in enumerate(self.spaces) if s.kind == kind)


@dataclass(frozen=True)
class PatchPack:
    """The whole pack the ruleset is built with."""

    tiles: Mapping[str, TerrainTile]
    equality: Capital
    liberty: tuple[Capital, ...]
    buildings: Mapping[str, Building]
    prosperity: Mapping[str, ProsperityCard]
    general: RouteKind
    allied: RouteKind
    numbers: Mapping[str, Any]
    rules: RulesCatalogue
    ruleset: str = "patchistory"
    revision: int = NEWEST
    """The revision of the rules in force for the game this pack serves (`since`)."""
    drawn: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """What shows of each territory already worked out, by its Tiles and covers (a cache:
    territories are worked out again and again while legal actions are listed)."""

    def since(self, revision: int) -> bool:
        """Whether a rule introduced at `revision` holds in this game (a revision gate)."""
        return self.revision >= revision

    def era_tiles(self, era: int) -> tuple[str, ...]:
        return tuple(sorted(t.id for t in self.tiles.values() if t.era == era))

    def capital(self, capital_id: str) -> Capital:
        if capital_id == self.equality.id:
            return self.equality
        return next(c for c in self.liberty if c.id == capital_id)

    def side(self, tile: str, colour: str) -> Side:
        if colour == CAPITAL:
            return self.capital(tile).tile
        return self.tiles[tile].side(colour)

    def era_number(self, key: str, era: int) -> int:
        value: int = self.numbers["era_goods"][key][era - 1]
        return value

    def number(self, *path: str) -> int:
        value: Any = self.numbers
        for key in path:
            value = value[key]
        return int(value)
