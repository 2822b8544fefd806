"""What A Brief History of the World's pack holds: the board (the family's world board), the
Areas in their spiral with each Epoch's value, the Empire cards in their calling order with
their Features, the Event cards, the Bonus tokens and the numbers the rules read. Pure data,
loaded from `data/brief-2009/` by `packs.brief`; nothing here reads files."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.hotw.editions.brief2009.revisions import NEWEST
from domain.hotw.world import WorldBoard

EPOCHS = range(1, 7)


@dataclass(frozen=True)
class Area:
    """An Area: its place in the spiral and its Area value tile in each Epoch (0: none)."""

    id: str
    name: str
    spiral: int
    values: tuple[int, ...]
    provenance: str

    def value(self, epoch: int) -> int:
        return self.values[epoch - 1]


@dataclass(frozen=True)
class Feature:
    """An Empire's special ability (brief.features.*)."""

    id: str
    name: str
    text: str
    effect: Mapping[str, Any]
    provenance: str


@dataclass(frozen=True)
class EmpireCard:
    """An Empire card (brief.establish.*): its place in the Epoch's calling order, strength,
    capital, start land, fleets and Feature."""

    id: str
    name: str
    epoch: int
    order: int
    strength: int
    capital: bool
    start_land: str
    fleets: tuple[str, ...]
    feature: str | None
    provenance: str

    @property
    def barbarian(self) -> bool:
        """brief.reduction.barbarian-gold: an Empire without a starting capital."""
        return not self.capital


@dataclass(frozen=True)
class EventCard:
    """An Event card (brief.events.*)."""

    id: str
    name: str
    kind: str
    epoch: int
    timing: str
    """`red`: at the start of a turn of its Epoch, or discarded; `black`: any time in a turn
    of its Epoch or later (brief.events.red, brief.events.black)."""
    later_epochs: bool
    price: int
    land: str | None
    armies: int
    capital: bool
    count: int
    provenance: str

    @property
    def at_turn_start(self) -> bool:
        """Red cards (and Israel) are played before the Empire is established."""
        return self.timing == "red"

    @property
    def raises_empire(self) -> bool:
        """brief.events.event-empire: a card that brings armies plays as an Event Empire."""
        return self.kind in RAISING

    def playable_in(self, epoch: int) -> bool:
        return epoch == self.epoch or (self.later_epochs and epoch > self.epoch)


RAISING = frozenset({"kingdom", "minor-empire", "civil-war", "barbarians"})
STARTER_KINDS = ("leader", "weaponry")


@dataclass(frozen=True)
class BonusToken:
    id: str
    value: int
    provenance: str


@dataclass(frozen=True)
class Numbers:
    """The numbers the rules read (pieces.yaml): each group says which section prints it."""

    min_players: int
    max_players: int
    two_player_colours: int
    epochs: int
    attacker_dice: int
    fleet_penalty: int
    defender_dice: int
    fort_dice: int
    clear_points: int
    difficult_points: int
    dial_max: int
    gold: Mapping[str, int]
    """capital, city, monument, barbarian_reduction, presence, dominance, mastery, track."""
    bonus_per_epoch: int
    supply: Mapping[str, int]
    """armies_per_colour, capitals_and_cities, monuments, forts, fleets."""


@dataclass(frozen=True)
class BriefTables:
    board: WorldBoard
    areas: tuple[Area, ...]
    empires: tuple[EmpireCard, ...]
    features: Mapping[str, Feature]
    events: tuple[EventCard, ...]
    bonus_tokens: tuple[BonusToken, ...]
    numbers: Numbers
    revision: int = NEWEST
    """The revision of the rules in force for the game these tables serve (`since`)."""
    empires_by_epoch: Mapping[int, tuple[EmpireCard, ...]] = field(init=False)
    """Each Epoch's Empires in their calling order (brief.turns.order)."""
    deck_by_epoch: Mapping[int, tuple[str, ...]] = field(init=False)
    """Each Epoch's Event cards (Leader and Weaponry are dealt at setup instead)."""
    spiral: tuple[str, ...] = field(init=False)
    """The Areas in the order gold is collected (brief.gold.spiral)."""
    events_by_id: Mapping[str, EventCard] = field(init=False)
    empires_by_id: Mapping[str, EmpireCard] = field(init=False, compare=False, repr=False)
    """Each Empire card by its id (the first with it, as a scan finds it)."""
    areas_by_id: Mapping[str, Area] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        by_epoch = {
            e: tuple(sorted((x for x in self.empires if x.epoch == e), key=lambda x: x.order))
            for e in EPOCHS
        }
        deck = {
            e: tuple(c.id for c in self.events if c.epoch == e and c.kind not in STARTER_KINDS)
            for e in EPOCHS
        }
        object.__setattr__(self, "empires_by_epoch", by_epoch)
        object.__setattr__(self, "deck_by_epoch", deck)
        spiral = tuple(a.id for a in sorted(self.areas, key=lambda a: a.spiral))
        object.__setattr__(self, "spiral", spiral)
        object.__setattr__(self, "events_by_id", {c.id: c for c in self.events})
        object.__setattr__(self, "empires_by_id", _first_by_id(self.empires))
        object.__setattr__(self, "areas_by_id", _first_by_id(self.areas))

    def since(self, revision: int) -> bool:
        """Whether a rule introduced at `revision` holds in this game (a revision gate)."""
        return self.revision >= revision

    def empire(self, empire_id: str) -> EmpireCard:
        return self.empires_by_id[empire_id]

    def card(self, card_id: str) -> EventCard:
        return self.events_by_id[card_id]

    def area(self, area_id: str) -> Area:
        return self.areas_by_id[area_id]

    def token(self, token_id: str) -> BonusToken:
        for token in self.bonus_tokens:
            if token.id == token_id:
                return token
        raise KeyError(token_id)

    def starter(self, kind: str) -> EventCard:
        """The Leader or Weaponry card every player holds from the start."""
        (card,) = [c for c in self.events if c.kind == kind]
        return card


def _first_by_id(items: tuple[Any, ...]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for item in items:
        found.setdefault(item.id, item)
    return found
