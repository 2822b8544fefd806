"""The state of an Avalon Hill 2001 game: who holds which lands with which pieces, the Empire
cards being drawn, the turn in progress, the scores and the cards in hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from domain.core.codec import added_later


class Stage(StrEnum):
    DRAWING = "drawing"
    """Players draw Empire cards and keep or pass them (ah2001.empires.draw)."""
    TURNS = "turns"
    """The epoch's Empires are called and played (ah2001.epoch.call-order)."""
    MONUMENTS = "monuments"
    """The Active Empire places the monuments it has earned (ah2001.monuments.*)."""
    OVER = "over"


@dataclass(frozen=True)
class Cell:
    """What stands in a land: one player's army (a figure of some epoch) and buildings."""

    owner: int | None = None
    figure: int = 0
    """The epoch whose figure the army is (pieces are counted per epoch)."""
    buildings: frozenset[str] = frozenset()
    armies: int = 1
    """Armies in the land (more than one only with ah2001.option.multiple-armies)."""

    @property
    def is_empty(self) -> bool:
        return self.owner is None and not self.buildings


EMPTY = Cell()


@dataclass(frozen=True)
class SeaHeld:
    """A fleet with an army on it, left in a sea (ah2001.option.naval-control)."""

    owner: int
    figure: int


@dataclass(frozen=True)
class Player:
    name: str
    points: int = 0
    hand: tuple[str, ...] = ()
    """Event cards in hand (secret)."""
    played_cards: tuple[str, ...] = ()
    empires: tuple[str, ...] = ()
    """The Empires played, in order (their strengths break final ties)."""
    called: tuple[int, ...] = ()
    """Each played Empire's place in its epoch's calling order."""
    pre_eminence: tuple[int, ...] = ()
    """Markers taken, face down (values unknown to all until the end)."""


@dataclass(frozen=True)
class Drawing:
    """Empire cards being handed out for an epoch (Chapter III / VII)."""

    order: tuple[int, ...]
    position: int = 0
    deck: tuple[str, ...] = ()
    """Cards still undrawn (their order is chance's, drawn at random)."""
    drawn: str | None = None
    """The card the current drawer looks at."""
    holders: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Turn:
    """The Active Empire's turn (Chapter V)."""

    seat: int
    empire: str
    pool: int = 0
    capital: bool = False
    """The capital still to place (placed with the first army)."""
    fleets: tuple[str, ...] = ()
    lands: tuple[str, ...] = ()
    """Lands holding this Empire's armies (expansion starts from any of them)."""
    monuments_due: int = 0
    expanding: bool = False
    """False while Event cards may still be played (before the first army)."""
    played: tuple[str, ...] = ()
    """Event cards played this turn (two at most, never two of the same card)."""
    coins: int = 0
    free_forts: int = 0
    """Forts in the army pool (Engineering), placed like any fort."""
    lost: int = 0
    """Armies lost in combat this turn that a coin may still return to the pool."""
    leader: bool = False
    weaponry: bool = False
    siegecraft: bool = False
    elite_troops: bool = False
    naval_power: bool = False
    expert: frozenset[str] = frozenset()
    jihad_losses: int | None = None
    reallocating: bool = False
    pending: str | None = None
    """An Event card waiting for its targets (lands, areas or a sea) to be chosen."""
    picks: tuple[str, ...] = ()
    treachery: str | None = None
    """The enemy land Treachery named: attacked this turn, it is won automatically."""
    manned: tuple[str, ...] = ()
    """Seas whose fleet took an army from the pool this turn (ah2001.option.naval-control)."""
    started: bool = False
    """Simultaneous empires: the Empire has placed its start and waits for its rounds."""
    attempted: bool = False
    """Simultaneous empires: the Empire has made this round's one expansion attempt."""
    terminated: bool = False
    """Simultaneous empires: the Empire's expansion is over (its points counted)."""
    idle: bool = False
    """Simultaneous empires: the Empire ended its last round without an attempt."""
    monuments_built: int = 0
    """Monuments this Empire has built (simultaneous empires build them as pairs complete)."""
    figure: int = 0
    """The epoch whose figures this Empire's armies are (0: the current epoch's)."""
    card: str | None = None
    """The Event card this Empire comes from (a Minor Empire, the Crusade), or None."""
    at_sea: str | None = None
    """A sea the Empire's armies wait in and expand from (the Crusade)."""
    outer: Turn | None = None
    """The Active Empire's turn, set aside while a card's Empire plays (ah2001.events.*)."""
    order: str = added_later("")
    """Simultaneous empires, a Minor Empire's place in its round (rule 10): "" before its main
    Empire, "waiting" for its main Empire to move first, "after" moving after it."""
    allied_coins: int = added_later(0)
    """Of `coins`, those the Allies card gave (ah2001.events.allies)."""
    allied: int = added_later(0)
    """Of the pool, the armies Allies' coins returned: they only expand into unoccupied lands
    and never attack (ah2001.events.allies)."""

    @property
    def free_armies(self) -> int:
        """The pool's armies that may attack, replace an older army or man a fleet."""
        return self.pool - self.allied


@dataclass(frozen=True)
class Ah2001State:
    epoch: int
    stage: Stage
    players: tuple[Player, ...]
    lands: Mapping[str, Cell] = field(default_factory=dict)
    drawing: Drawing | None = None
    holders: Mapping[str, int] = field(default_factory=dict)
    """This epoch's Empire cards and who holds each (kept once handed out)."""
    call_index: int = 0
    """The next Empire to call, as an index into the epoch's calling order."""
    turn: Turn | None = None
    first_order: tuple[int, ...] = ()
    """Epoch I's drawing order (the dice, ah2001.empires.first-draw-order)."""
    markers: tuple[int, ...] = ()
    """The face-down pre-eminence markers still in the pile, in the pile's order."""
    supply: Mapping[str, int] = field(default_factory=dict)
    """Shared pieces left: capital/city counters, forts, monuments, coin/fleet counters."""
    options: frozenset[str] = frozenset()
    seas: Mapping[str, SeaHeld] = field(default_factory=dict)
    """Seas held by fleets with armies on them (ah2001.option.naval-control)."""
    parked: tuple[Turn, ...] = ()
    """Simultaneous empires: the epoch's Empires in their calling order, each waiting for its
    next round (the active one, `turn`, is taken out of its slot while it acts)."""
    slot: int | None = None
    """Simultaneous empires: the slot of `parked` the active Empire came from."""
    cursor: int = 0
    """Simultaneous empires: the slot whose Empire acts next."""
    result: tuple[tuple[int, ...], ...] | None = None

    def turn_seat(self) -> int | None:
        return None if self.turn is None else self.turn.seat

    def land(self, land: str) -> Cell:
        return self.lands.get(land, EMPTY)

    def figures_out(self, seat: int, epoch: int) -> int:
        on_land = sum(
            c.armies for c in self.lands.values() if c.owner == seat and c.figure == epoch
        )
        return on_land + sum(1 for h in self.seas.values() if (h.owner, h.figure) == (seat, epoch))
