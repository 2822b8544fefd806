"""The state of A Brief History of the World: the lands, the colours (each a player's, two per
player in the two-player variant) with their gold, supply, Empire card and Bonus tokens, the
players' Event cards, the Organisation and Allocation in progress, the Empire turn in progress
with its Array(s), and the Conclusion's Bonus tokens."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class Stage(StrEnum):
    ALLOCATING = "allocating"
    """Empire and Event cards are chosen and passed (brief.organisation.*)."""
    TURNS = "turns"
    """The Epoch's Empires are called in order (brief.turns.*)."""
    BONUS = "bonus"
    """The Conclusion's Bonus tokens are taken (brief.conclusion.*)."""
    OVER = "over"


class Phase(StrEnum):
    OPENING = "opening"
    """Before the Empire is established: red cards may be played (brief.events.red)."""
    EXPANDING = "expanding"
    """The Empire is established and expands (brief.expand.*)."""


@dataclass(frozen=True)
class Cell:
    """What stands in a land: one army (standing while its Empire is active, else resigned)
    and buildings."""

    colour: int | None = None
    standing: bool = False
    buildings: frozenset[str] = frozenset()

    @property
    def is_empty(self) -> bool:
        return self.colour is None and not self.buildings


EMPTY = Cell()


@dataclass(frozen=True)
class Colour:
    """A colour: its gold marker, its armies' supply, this Epoch's Empire card and its Bonus
    tokens (both secret to its player)."""

    seat: int
    gold: int
    arrived: int = 0
    """When the marker last moved (the top of a stack arrived last: brief.gold.stack)."""
    supply: int = 0
    empire: str | None = None
    bonus: tuple[str, ...] = ()


@dataclass(frozen=True)
class Player:
    name: str
    hand: tuple[str, ...] = ()
    """Event cards held (secret)."""


@dataclass(frozen=True)
class Force:
    """An Empire being played: the called Empire, or an Event Empire a card raised
    (brief.events.event-empire), with its Array and Invasion dial."""

    card: str
    event: bool
    array: int
    barbarian: bool
    feature: str | None = None
    dial: int = 0
    lands: tuple[str, ...] = ()
    """Lands its standing armies hold."""
    stopped: bool = False
    """It has stopped expanding and builds its monuments before it is done."""


@dataclass(frozen=True)
class Invasion:
    """A failed invasion waiting to be continued or abandoned; its army is off the Array."""

    land: str
    defender: int
    via: str


@dataclass(frozen=True)
class Overrun:
    """Unused invasion points after a successful invasion (brief.overrun.*)."""

    land: str
    defender: int
    points: int


@dataclass(frozen=True)
class Turn:
    colour: int
    empire: str
    phase: Phase = Phase.OPENING
    forces: tuple[Force, ...] = ()
    """The Empire's force (once established) first; an Event Empire on top while active."""
    fleets: tuple[str, ...] = ()
    leader: bool = False
    weaponry: bool = False
    astronomy: bool = False
    crossings: int = 0
    """Atlantic crossings made this turn (brief.features.atlantic-crossing)."""
    invasion: Invasion | None = None
    overrun: Overrun | None = None
    monuments_due: int = 0

    @property
    def active(self) -> Force | None:
        return self.forces[-1] if self.forces else None


@dataclass(frozen=True)
class Allocation:
    """One round of the simultaneous card selection: in round r the r-th poorest colour chooses
    an Empire card while the r-th richest chooses an Event card."""

    round: int
    empire_order: tuple[int, ...]
    event_order: tuple[int, ...]
    pools: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Kind (`empire`, `event`) → the cards in front of this round's chooser (secret)."""
    chosen: Mapping[str, str] = field(default_factory=dict)
    """Kind → the card this round's chooser has sealed (secret)."""

    def picker(self, kind: str) -> int:
        order = self.empire_order if kind == "empire" else self.event_order
        return order[self.round]


@dataclass(frozen=True)
class BonusDraw:
    """The Conclusion's three Bonus tokens going down the gold order."""

    order: tuple[int, ...]
    position: int = 0
    offered: tuple[str, ...] = ()
    """The tokens in front of the current colour (secret)."""


@dataclass(frozen=True)
class BriefState:
    epoch: int
    stage: Stage
    players: tuple[Player, ...]
    colours: tuple[Colour, ...]
    lands: Mapping[str, Cell] = field(default_factory=dict)
    area_values: Mapping[str, int] = field(default_factory=dict)
    allocation: Allocation | None = None
    call_index: int = 0
    turn: Turn | None = None
    bonus_spaces: tuple[tuple[str, ...], ...] = ()
    """The face-down Bonus tokens of each Epoch's space (secret)."""
    bonus: BonusDraw | None = None
    supply: Mapping[str, int] = field(default_factory=dict)
    """Shared pieces left: capitals_and_cities, monuments, forts, fleets."""
    moves: int = 0
    result: tuple[tuple[int, ...], ...] | None = None
    final: tuple[int, ...] = ()
    """Each seat's final gold, Bonus tokens added."""

    def land(self, land: str) -> Cell:
        return self.lands.get(land, EMPTY)

    def owner(self, colour: int) -> int:
        return self.colours[colour].seat

    def colours_of(self, seat: int) -> tuple[int, ...]:
        return tuple(c for c, colour in enumerate(self.colours) if colour.seat == seat)
