"""The Patchistory table as frozen data: each civilization (its Tiles, Buildings, Workers,
Goods behind the screen, hands), the Trade Routes between them, and where the Round stands.

The state is plain data (ints, strings, tuples of them, and the records below), so its JSON form
is generic (`encode` / `decode`)."""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from typing import Any, TypeVar

from domain.core.codec import ADDED_LATER, added_later
from domain.core.frozen import evolved

Cell = tuple[int, int]
T = TypeVar("T")


UNCITED_RULES = ("patchistory.components.goods",)
"""The clauses this module decides that no event or refusal carries."""


@dataclass(frozen=True)
class Placed:
    """A Tile side patched into a territory: its top-left square at (row, col), layer `z`."""

    tile: str
    side: str
    row: int
    col: int
    z: int


@dataclass(frozen=True)
class Cover:
    """A Building Tile on a square: the Building side, or its Wasteland side (Reclaimed)."""

    row: int
    col: int
    building: str
    wasteland: bool

    @property
    def at(self) -> Cell:
        return (self.row, self.col)


@dataclass(frozen=True)
class Civ:
    """One player's civilization: the territory, the Descendant Track, what is behind the screen."""

    capital: str
    tiles: tuple[Placed, ...] = ()
    covers: tuple[Cover, ...] = ()
    workers: tuple[Cell, ...] = ()
    """Workers in the territory, by the square they stand on (sorted)."""
    born: int = 0
    """Workers off the Descendant Track (territory, Trade Routes, Rest spaces)."""
    coin: int = 0
    food: int = 0
    resource: int = 0
    culture: int = 0
    votes: int = 0
    hand: tuple[str, ...] = ()
    """Building Tiles behind the screen."""
    prosperity: tuple[str, ...] = ()
    resting: tuple[int, ...] = ()
    """Workers on Rest/Return spaces: the Round (serial) each went there."""

    def goods(self, kind: str) -> int:
        """How much of a Good (or the Votes) is behind the screen (patchistory.components.goods:
        the Public Storage never runs out)."""
        value: int = getattr(self, kind)
        return value


@dataclass(frozen=True)
class Route:
    """A Trade Route: General (started by `a`, ending at `b`) or Allied (between `a` and `b`,
    `a`'s Worker walking from space 0 up, `b`'s from the last space down). `workers` are
    (seat, space) pairs; `aggressors` the red players of a War declared on it."""

    id: int
    kind: str
    a: int
    b: int
    workers: tuple[tuple[int, int], ...] = ()
    declared: bool = False
    aggressors: tuple[int, ...] = ()

    def worker_of(self, seat: int) -> int | None:
        for owner, space in self.workers:
            if owner == seat:
                return space
        return None

    def joins(self, seat: int, other: int) -> bool:
        return {self.a, self.b} == {seat, other}


@dataclass(frozen=True)
class Offer:
    """A Terrain Tile in the Auction and the side it shows (empty: either, 2-player)."""

    tile: str
    side: str


@dataclass(frozen=True)
class Won:
    seat: int
    tile: str
    side: str


@dataclass(frozen=True)
class Pending:
    """A decision the rules wait for from one seat before play goes on (a Worker to place, Aid
    to answer, an Alliance to propose or accept, ...): its kind and arguments."""

    kind: str
    seat: int
    numbers: tuple[int, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class PState:
    players: int
    names: tuple[str, ...]
    capital_side: str
    civs: tuple[Civ, ...]
    era: int = 1
    round: int = 1
    serial: int = 1
    """Rounds played so far in the game, this one included (1..15)."""
    phase: str = "setup"
    start: int = 0
    routes: tuple[Route, ...] = ()
    next_route: int = 1
    stack: tuple[str, ...] = ()
    """The Building Tile supply, in its (secret) shuffled order."""
    removed: tuple[str, ...] = ()
    """Building Tiles removed from the game (patched over, or replaced)."""
    tiles_left: tuple[str, ...] = ()
    offered: tuple[Offer, ...] = ()
    participants: tuple[int, ...] = ()
    bids: tuple[int, ...] = ()
    """The Tile each seat's bid stands on (-1: none)."""
    amounts: tuple[int, ...] = ()
    shown: int = 0
    """First Auction of the game: how many Tiles are out so far."""
    turn: int = -1
    """The seat whose turn it is in a phase taken in turn order (-1: none)."""
    passed: tuple[int, ...] = ()
    """Seats done with the phase (Diplomacy, Management, Movement, the Vasco choice)."""
    won: tuple[Won, ...] = ()
    pp: tuple[int, ...] = ()
    flags: tuple[tuple[str, ...], ...] = ()
    moved: tuple[Cell, ...] = ()
    """This Movement: where the acting seat's moved Workers stand."""
    routes_moved: tuple[int, ...] = ()
    pending: tuple[Pending, ...] = ()
    sealing: tuple[int, ...] = ()
    sealed: tuple[tuple[int, tuple[int, ...]], ...] = ()
    seal_no: int = 0
    negotiations: tuple[int, ...] = ()
    wars: tuple[int, ...] = ()
    war_chosen: int = added_later(0)
    """The War its player chose to resolve first, now at the head of `wars` (0: none)."""
    vote_cards: tuple[str, ...] = ()
    vote_index: int = 0
    votes_on: tuple[int, ...] = ()
    final: tuple[int, ...] = ()
    """Culture at the end (empty until the game is over)."""
    notes: tuple[str, ...] = field(default=())

    def civ(self, seat: int) -> Civ:
        return self.civs[seat]

    def with_civ(self, seat: int, civ: Civ) -> PState:
        civs = list(self.civs)
        civs[seat] = civ
        return evolved(self, civs=tuple(civs))

    def route(self, route_id: int) -> Route:
        return next(r for r in self.routes if r.id == route_id)

    def with_route(self, route: Route) -> PState:
        return evolved(self, routes=tuple(route if r.id == route.id else r for r in self.routes))

    def sealed_map(self) -> dict[int, tuple[int, ...]]:
        return dict(self.sealed)

    def has_flag(self, seat: int, flag: str) -> bool:
        return bool(self.flags) and flag in self.flags[seat]

    def with_flag(self, seat: int, flag: str) -> PState:
        flags = list(self.flags)
        flags[seat] = tuple(sorted({*flags[seat], flag}))
        return evolved(self, flags=tuple(flags))

    def in_order(self) -> tuple[int, ...]:
        """The seats from the Start Player clockwise."""
        return tuple((self.start + i) % self.players for i in range(self.players))


# --- the generic JSON form ---------------------------------------------------------------------


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: encode(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not (f.metadata.get(ADDED_LATER) and getattr(value, f.name) == f.default)
        }
    if isinstance(value, tuple):
        return [encode(v) for v in value]
    return value


_HINTS: dict[type, dict[str, Any]] = {}


def decode(cls: type[T], data: Any) -> T:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = typing.get_type_hints(cls)
        _HINTS[cls] = hints
    kwargs = {
        f.name: _decode_as(hints[f.name], data[f.name])
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        if f.name in data
    }
    return cls(**kwargs)


def _decode_as(hint: Any, data: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode_as(args[0], v) for v in data)
        return tuple(_decode_as(a, v) for a, v in zip(args, data, strict=True))
    if dataclasses.is_dataclass(hint):
        return decode(hint, data)  # type: ignore[arg-type]
    return data
