"""Empire cards, Event cards, Honors and the piece supply of History of the World (2024).

Pure data types: the pack files under ``data/hotw-2024/`` are loaded into these by
``packs.hotw_cards.load_cards``. Nothing here reads files or draws chance.

Event and Honor effects are written in a small, closed vocabulary (``Effect``) that the
engine executes; every effect names whose lands it touches (``LandSelector``), how many,
and who chooses. Rule ids cited below are in ``data/hotw-2024/rules.yaml``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, NewType

from domain.hotw.board import PowerIcon, WaterKind

EmpireId = NewType("EmpireId", str)
EventId = NewType("EventId", str)
HonorId = NewType("HonorId", str)
LandId = NewType("LandId", str)
AreaId = NewType("AreaId", str)

FleetKind = WaterKind
"""Sea fleets on cards of Epochs I-III, ocean fleets on cards of Epochs IV-V (p5, p9); the same
piece serves both, so the kind is the kind of water it may enter."""


class Building(StrEnum):
    """The four kinds of building (p10, More about buildings)."""

    CAPITAL = "capital"
    CITY = "city"
    MONUMENT = "monument"
    FORT = "fort"


class Phase(StrEnum):
    """The six phases of a player turn (p4); a Later Event names the phase it is played in."""

    REVEAL = "reveal"
    ESTABLISH = "establish"
    EXPAND = "expand"
    MONUMENTS = "monuments"
    REVENUE = "revenue"
    CONCLUDE = "conclude"


LATER_EVENT_PHASES: frozenset[Phase] = frozenset(Phase) - {Phase.REVEAL}


class EventKind(StrEnum):
    """Event cards with text instructions, or without text and played as if an Empire (p4)."""

    TEXT = "text"
    EMPIRE_LIKE = "empire_like"


# --- the effect vocabulary -------------------------------------------------------------------


class Scope(StrEnum):
    """Which lands a selector starts from, before its filters apply."""

    ANYWHERE = "anywhere"
    """Every land on the map."""
    LANDS = "lands"
    """The lands listed in ``LandSelector.lands``."""
    AREAS = "areas"
    """The lands of the areas listed in ``LandSelector.areas``."""
    CHOSEN_AREA = "chosen_area"
    """The lands of ONE area that the chooser picks."""
    PREVIOUS = "previous"
    """The lands that the previous effect of the same card or Honor acted on."""


class Control(StrEnum):
    """Who holds a land, seen from the current player (p2, People pieces)."""

    ANY = "any"
    UNCONTROLLED = "uncontrolled"
    EMPIRE = "empire"
    """An army of the current player: an Empire land."""
    FRIENDLY = "friendly"
    """A garrison of the current player: a Friendly land."""
    OWN = "own"
    """An Empire land or a Friendly land."""
    ENEMY = "enemy"
    """A garrison of another player: an Enemy land."""
    CONTROLLED = "controlled"
    """Any land holding an army or a garrison."""
    NOT_OWN = "not_own"
    """An uncontrolled land or an Enemy land."""


class Chooser(StrEnum):
    CURRENT_PLAYER = "current_player"
    """Only the current player acts (rule turn.current-player-only)."""


class GoldBasis(StrEnum):
    """What ``CollectGold`` counts in the selected lands."""

    FLAT = "flat"
    """The amount once, whatever the lands."""
    CAPITAL = "capital"
    CITY = "city"
    MONUMENT = "monument"
    BUILDING_VALUE = "building_value"
    """Two per capital, one per city, one per monument (p8, Gold for buildings)."""
    LAND = "land"


class HonorRecipient(StrEnum):
    CURRENT_PLAYER = "current_player"
    EACH_OTHER_PLAYER = "each_other_player"


@dataclass(frozen=True)
class LandSelector:
    """Which lands an effect may act on: a scope, then filters that every land must pass."""

    scope: Scope
    lands: tuple[LandId, ...] = ()
    areas: tuple[AreaId, ...] = ()
    active_only: bool = False
    """If set, the land must lie in an active area (so a chosen area must be an active one)."""
    control: Control = Control.ANY
    with_building: Building | None = None
    """If set, the land must contain this building."""
    without_buildings: tuple[Building, ...] = ()
    """The land must contain none of these buildings."""
    adjacent_to: Control | None = None
    """If set, the land must be adjacent to a land with this control."""
    coastal: FleetKind | None = None
    """If set, the land must touch a sea (``sea``) or an ocean, seas included (``ocean``)."""


@dataclass(frozen=True)
class AwardHonor:
    """Award Honors (rule honors.track.award)."""

    kind: ClassVar[str] = "award_honor"
    to: HonorRecipient
    count: int = 1


@dataclass(frozen=True)
class CollectGold:
    """The current player collects ``amount`` gold per ``per`` found in ``where``."""

    kind: ClassVar[str] = "collect_gold"
    amount: int
    per: GoldBasis
    where: LandSelector | None = None


@dataclass(frozen=True)
class PlaceBuildings:
    """Place buildings from the supply (rule buildings.supply-exhausted applies)."""

    kind: ClassVar[str] = "place_buildings"
    building: Building
    count: int
    where: LandSelector
    chooser: Chooser = Chooser.CURRENT_PLAYER


@dataclass(frozen=True)
class PlaceArmies:
    """Place people pieces of the current player as armies (taken via the Event pool).

    Placed in an uncontrolled land an army simply takes control; with ``invade`` an army placed
    in an Enemy land invades it as in the Expand phase, but the Leader may not be used.
    """

    kind: ClassVar[str] = "place_armies"
    count: int
    where: LandSelector
    chooser: Chooser = Chooser.CURRENT_PLAYER
    invade: bool = False


@dataclass(frozen=True)
class RemoveGarrisons:
    """Remove garrisons; ``count`` None means every garrison in ``where``.

    The owner of each removed garrison is awarded an Honor
    (rule honors.award.garrison-removed).
    """

    kind: ClassVar[str] = "remove_garrisons"
    count: int | None
    where: LandSelector
    chooser: Chooser = Chooser.CURRENT_PLAYER
    up_to: bool = False
    """"Choose up to `count`": the chooser may stop after fewer, even none (stop_choosing)."""


@dataclass(frozen=True)
class RemoveBuildings:
    """Remove buildings of one kind; each owner of such a land may lose gold."""

    kind: ClassVar[str] = "remove_buildings"
    building: Building
    count: int | None
    where: LandSelector
    chooser: Chooser = Chooser.CURRENT_PLAYER
    owner_loses_gold: int = 0


@dataclass(frozen=True)
class ReduceBuildings:
    """Carry out building reduction in every land of ``where``.

    Rules building-reduction.fort-first and building-reduction.one-step.
    """

    kind: ClassVar[str] = "building_reduction"
    where: LandSelector


@dataclass(frozen=True)
class AddPeople:
    """Add people pieces from the player's supply to the Empire pool."""

    kind: ClassVar[str] = "add_people"
    count: int


@dataclass(frozen=True)
class PlaceFleet:
    """Place fleets by the Fleet Honor rule (rule honors.fleet)."""

    kind: ClassVar[str] = "place_fleet"
    count: int = 1


Effect = (
    AwardHonor
    | CollectGold
    | PlaceBuildings
    | PlaceArmies
    | RemoveGarrisons
    | RemoveBuildings
    | ReduceBuildings
    | AddPeople
    | PlaceFleet
)

EFFECT_TYPES: tuple[type[Effect], ...] = (
    AwardHonor,
    CollectGold,
    PlaceBuildings,
    PlaceArmies,
    RemoveGarrisons,
    RemoveBuildings,
    ReduceBuildings,
    AddPeople,
    PlaceFleet,
)
EFFECT_KINDS: frozenset[str] = frozenset(t.kind for t in EFFECT_TYPES)


def effect_selectors(effect: Effect) -> tuple[LandSelector, ...]:
    """The land selectors an effect uses (for reference checks)."""
    where = getattr(effect, "where", None)
    return (where,) if isinstance(where, LandSelector) else ()


# --- cards -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EmpireSpec:
    """The pieces and features of one Empire (or of an Event played as if an Empire)."""

    name: str
    start_lands: tuple[LandId, ...]
    people: int
    """People pieces shown on the card, the starting army included."""
    starting_buildings: tuple[Building, ...] = ()
    fleets: int = 0
    fleet_kind: FleetKind | None = None
    power_icon: PowerIcon | None = None
    barbarian: bool = False
    great_wall_forts: int = 0
    start_land_choice: LandSelector | None = None
    """Instead of printed start-lands: the current player picks one land matching this."""

    @property
    def can_build_monuments(self) -> bool:
        """Only an Empire with a power icon builds monuments (rule monuments.pairs)."""
        return self.power_icon is not None


@dataclass(frozen=True)
class EmpireCard:
    """One Empire card; the Incas & Aztecs card holds two Empires played in turn."""

    id: EmpireId
    epoch: int
    number: int
    """Chronological position within the epoch: turns follow it (rule turn.order)."""
    name: str
    empires: tuple[EmpireSpec, ...]
    provenance: str

    @property
    def is_double(self) -> bool:
        return len(self.empires) > 1

    @property
    def people_shown(self) -> int:
        """People pieces shown on the card, for the tie-break (rule winning.tie.people)."""
        return sum(spec.people for spec in self.empires)

    @property
    def start_lands(self) -> tuple[LandId, ...]:
        return tuple(land for spec in self.empires for land in spec.start_lands)

    @property
    def barbarian(self) -> bool:
        return all(spec.barbarian for spec in self.empires)


@dataclass(frozen=True)
class EventCard:
    """One Event card: text instructions (``effects``) or pieces played as if an Empire."""

    id: EventId
    epoch: int
    name: str
    kind: EventKind
    honor_icon: bool
    later_event: Phase | None
    """The phase a Later Event is played in; None for the Reveal the Event phase."""
    barbarian: bool
    provenance: str
    text: str = ""
    effects: tuple[Effect, ...] = ()
    pieces: EmpireSpec | None = None

    @property
    def phase(self) -> Phase:
        return self.later_event or Phase.REVEAL


@dataclass(frozen=True)
class Honor:
    """One Honor token. Coin Honors act in Expand and pay coins in Revenue and the Endgame;
    the three without coins act in Revenue (``effect``) and the Endgame (``endgame_effect``)."""

    id: HonorId
    name: str
    coins: int
    text: str
    effect: tuple[Effect, ...]
    provenance: str
    endgame_effect: tuple[Effect, ...] = ()

    @property
    def shows_coins(self) -> bool:
        return self.coins > 0


@dataclass(frozen=True)
class PlayerSet:
    people: int
    leaders: int
    gold_chests: int
    honors: int
    arrays: int = 1


@dataclass(frozen=True)
class SharedSupply:
    capitals: int
    cities: int
    monuments: int
    forts: int
    fleets: int
    great_wall_forts: int

    def count(self, building: Building) -> int:
        return {
            Building.CAPITAL: self.capitals,
            Building.CITY: self.cities,
            Building.MONUMENT: self.monuments,
            Building.FORT: self.forts,
        }[building]


@dataclass(frozen=True)
class Dice:
    red: int
    white: int
    option3_extra_white: int


@dataclass(frozen=True)
class PiecesSpec:
    per_player: PlayerSet
    shared: SharedSupply
    dice: Dice
    gold_track_spaces: int
    gold_track_wraps: bool
    invasion_modifiers: tuple[int, ...]
    endgame_spaces: int
    area_tokens_per_area: int
    paired_area_tokens: int
    provenance: str


@dataclass(frozen=True)
class Cards:
    """Every card, Honor and piece count of the pack, with lookups by id."""

    empires_by_epoch: Mapping[int, tuple[EmpireCard, ...]]
    events_by_epoch: Mapping[int, tuple[EventCard, ...]]
    honors: tuple[Honor, ...]
    pieces: PiecesSpec
    _empires: dict[str, EmpireCard] = field(init=False, repr=False, compare=False)
    _events: dict[str, EventCard] = field(init=False, repr=False, compare=False)
    _honors: dict[str, Honor] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        empires = {c.id: c for cards in self.empires_by_epoch.values() for c in cards}
        events = {c.id: c for cards in self.events_by_epoch.values() for c in cards}
        object.__setattr__(self, "_empires", empires)
        object.__setattr__(self, "_events", events)
        object.__setattr__(self, "_honors", {h.id: h for h in self.honors})

    def empire(self, empire_id: str) -> EmpireCard:
        return self._empires[empire_id]

    def event(self, event_id: str) -> EventCard:
        return self._events[event_id]

    def honor(self, honor_id: str) -> Honor:
        return self._honors[honor_id]

    def all_empires(self) -> Iterator[EmpireCard]:
        return iter(self._empires.values())

    def all_events(self) -> Iterator[EventCard]:
        return iter(self._events.values())

    def empire_named(self, name: str) -> EmpireCard:
        """The card whose name (or one of whose Empires' names) is ``name``."""
        for card in self._empires.values():
            if card.name == name or any(spec.name == name for spec in card.empires):
                return card
        raise KeyError(name)

    def event_named(self, name: str) -> tuple[EventCard, ...]:
        """Every Event card called ``name`` (some Events appear in several epochs)."""
        return tuple(card for card in self._events.values() if card.name == name)
