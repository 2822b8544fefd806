"""The state of a History of the World game: the map, the players' arrays, the epoch and the
current player turn. Frozen; `evolve` builds a new state for every event and shares the rest.

Vocabulary (p2): a land holding the current player's army is an *Empire land*, one holding the
current player's garrison a *Friendly land*, one holding another player's garrison an *Enemy
land*; a land with neither is *uncontrolled*.

The big records are frozen dataclasses WITHOUT slots so that `evolved` can copy them through
their ``__dict__`` (a tenth of the cost of `dataclasses.replace`); evolve runs for every event
and a benchmark folds a hundred thousand events a second.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from domain.core.frozen import evolved
from domain.hotw.changes import with_cell
from domain.hotw.editions.hotw_2024.cards import Building, Phase

GREAT_WALL = "great_wall"
FLEET = "fleet"
"""Keys of the shared supply besides the four building kinds."""


class Stage(StrEnum):
    """Where the game stands, outside and inside the player turns (p3-p4, p9)."""

    SETUP = "setup"
    ORGANIZATION = "organization"
    TURNS = "turns"
    EPOCH_CLOSING = "epoch_closing"
    ENDGAME = "endgame"
    OVER = "over"


class OrganizationStep(StrEnum):
    """The steps of Epoch organization (p4) in which players choose."""

    SELECT_AREA_TOKENS = "select_area_tokens"
    SELECT_EVENT_CARDS = "select_event_cards"
    """Option 1: the Event cards passed down the gold order, each seat choosing one secretly."""
    CHOOSE_EMPIRE_CARDS = "choose_empire_cards"
    SELECT_HIDDEN_EMPIRE_CARDS = "select_hidden_empire_cards"
    """Option 2: the Empire cards passed up the gold order, each seat choosing one secretly."""


class Variant(StrEnum):
    """Variant rules the shared chapters know how to play, switched on per game by an edition's
    options (`Hotw2024.variant_options`). 2024 offers all four as its optional rules
    (p11-p12); another edition may offer some of them, under names of its own."""

    EVENT_CARD_SELECTION = "event_card_selection"
    """The player with most gold takes the Event cards and passes them on (organization)."""
    HIDDEN_EMPIRE_CARDS = "hidden_empire_cards"
    """Empire cards passed up the gold order and chosen in secret (organization)."""
    INVASION_AND_CONQUEST = "invasion_and_conquest"
    """Terrain dice, the Invasion modifier and conquest points (conquest)."""
    PAIRED_AREA_TOKENS = "paired_area_tokens"
    """One secret Paired Area token per player (organization, conclude the turn)."""


class Control(StrEnum):
    EMPIRE = "empire"
    FRIENDLY = "friendly"
    ENEMY = "enemy"
    UNCONTROLLED = "uncontrolled"


class PoolKind(StrEnum):
    """Where a placed piece came from."""

    EMPIRE = "empire"
    EVENT = "event"
    SUPPLY = "supply"
    """Straight from the shared supply (a Fleet Honor's fleet)."""


@dataclass(frozen=True, slots=True)
class LandState:
    """What stands in a land: at most one army or garrison, at most one building of each kind."""

    owner: int | None = None
    standing: bool = False
    """True for an army (placed this player turn), False for a garrison (laid down)."""
    buildings: frozenset[Building] = frozenset()
    great_wall: bool = False
    """The land's fort is one of the three Great Wall of China forts."""

    @property
    def is_empty(self) -> bool:
        return self.owner is None and not self.buildings

    def has(self, building: Building) -> bool:
        return building in self.buildings


EMPTY_LAND = LandState()


@dataclass(frozen=True)
class Player:
    """A player's array and pieces (p3 Setting up, step 6)."""

    name: str
    gold: int = 0
    arrival: int = 0
    """When the chest arrived on its space; the topmost chest (latest arrival) has most gold."""
    supply: int = 0
    honor_stack: tuple[str, ...] = ()
    """Face down, top first; its order is known to nobody."""
    honor_track: tuple[str, ...] = ()
    """Face up: index 0 is space 1 of the Honor track."""
    pool_honors: tuple[str, ...] = ()
    """Honors pushed off the track into the Empire pool: all must be played by end of revenue."""
    area_tokens: tuple[str, ...] = ()
    leader: bool = True
    event_card: str | None = None
    """This epoch's Event card, face down on the array until it is revealed."""
    empire_cards: tuple[str, ...] = ()
    event_cards: tuple[str, ...] = ()
    """Every card taken or played so far; the tie-breaks count their people and Honor icons."""

    @property
    def face_up_honors(self) -> tuple[str, ...]:
        return self.honor_track + self.pool_honors


@dataclass(frozen=True, slots=True)
class Pool:
    """The Empire pool or the Event pool: the pieces the current empire or event may place."""

    people: int = 0
    fleets: int = 0
    great_wall_forts: int = 0


EMPTY_POOL = Pool()


@dataclass(frozen=True)
class Turn:
    """The current player turn (p4): whose, which empire, which phase, what is in the pools."""

    seat: int
    card: str
    event_card: str | None = None
    empire_index: int = 0
    """Which Empire of the card is being played (the Incas, then the Aztecs)."""
    phase: Phase = Phase.REVEAL
    pool: Pool = EMPTY_POOL
    event_pool: Pool = EMPTY_POOL
    fleets: tuple[str, ...] = ()
    """Seas and oceans holding the Empire's fleets (removed in Conclude the turn)."""
    event_fleets: tuple[str, ...] = ()
    event_expand: bool = False
    """An Event played as if an Empire is expanding (phase A)."""
    leader_active: bool = False
    leader_ignores: str | None = None
    """Without dice, the Leader ignores `difficult` terrain or `fort`s (declared when used)."""
    modifier_land: str | None = None
    """Option 3: the land the Invasion modifier counter stands on (a frustrated invasion)."""
    invasion_modifier: int = 0
    """Option 3: what the counter adds to the Empire's score in that land (+2, then +4)."""


# --- the agenda: processes waiting for the current player's choices ---------------------------


@dataclass(frozen=True, slots=True)
class EffectTask:
    """The effects of an Event card or an Honor being carried out, one effect at a time."""

    seat: int
    source: str
    """`event` or `honor`."""
    source_id: str
    endgame: bool = False
    index: int = 0
    done: int = 0
    acted: tuple[str, ...] = ()
    """Lands (or waters) the current effect has acted on so far."""
    previous: tuple[str, ...] = ()
    """Lands the previous effect acted on (scope `previous`)."""
    area: str | None = None


@dataclass(frozen=True, slots=True)
class MonumentTask:
    """Monuments still to build in phase D."""

    seat: int
    remaining: int


@dataclass(frozen=True, slots=True)
class TakeBuildingTask:
    """A building kind ran out: one must be taken from an Enemy land for `land` (p10)."""

    seat: int
    building: Building
    land: str


@dataclass(frozen=True, slots=True)
class GreatWallRemovalTask:
    """A Dynasty arrives while Great Wall forts stand on the map: some must come off (p10)."""

    seat: int
    remaining: int


@dataclass(frozen=True, slots=True)
class StartLandTask:
    """An Event played as an Empire without a printed start-land (Ancients) needs one."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class ConquestTask:
    """Option 3: conquest points to spend on lands of `enemy` next to `lands` (the land invaded
    first, then each land conquered), each conquest placing an army from `pool`."""

    seat: int
    enemy: int
    points: int
    lands: tuple[str, ...]
    pool: str
    barbarian: bool = False


Task = (
    EffectTask
    | MonumentTask
    | TakeBuildingTask
    | GreatWallRemovalTask
    | StartLandTask
    | ConquestTask
)


@dataclass(frozen=True, slots=True)
class EndgameToken:
    """The Area token on one epoch's Endgame space."""

    epoch: int
    token: str
    face_up: bool
    known_by: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GameResult:
    """The final standing (p9 Winning)."""

    gold: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    """Groups of seats from first place down; a group of several is an actual tie."""
    people_shown: tuple[int, ...]
    honor_icons: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()


@dataclass(frozen=True)
class HotwState:
    epoch: int
    stage: Stage
    players: tuple[Player, ...]
    dice: bool = True
    options: frozenset[Variant] = frozenset()
    """The variant rules in force, fixed at creation."""
    lands: Mapping[str, LandState] = field(default_factory=dict)
    arrivals: int = 0
    """How many chest moves have happened: gives each arrival its place in a stack."""
    supply: Mapping[str, int] = field(default_factory=dict)
    """Shared buildings, fleets and Great Wall forts left in the Arctic space, by kind."""
    bag: tuple[str, ...] = ()
    """Area tokens in the cloth bag (only how many is public)."""
    active_areas: frozenset[str] = frozenset()
    endgame_tokens: tuple[EndgameToken, ...] = ()
    empire_decks: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    event_decks: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    """The cards counted out for each epoch at setup (face down until used)."""
    step: OrganizationStep | None = None
    offer: tuple[str, ...] = ()
    """Area tokens being passed down the gold order (seen only by the seat choosing)."""
    choosing: tuple[int, ...] = ()
    """Seats still to choose in this organization step, in order; the first chooses now."""
    displayed: tuple[str, ...] = ()
    """Empire cards on the map, not yet chosen."""
    empire_choices: Mapping[str, int] = field(default_factory=dict)
    """Empire card → seat, this epoch."""
    turn_order: tuple[str, ...] = ()
    """This epoch's chosen Empire cards in chronological order."""
    turn_index: int = 0
    turn: Turn | None = None
    great_wall_on_map: tuple[str, ...] = ()
    """Lands holding a Great Wall fort, oldest first."""
    agenda: tuple[Task, ...] = ()
    """Processes waiting for choices, innermost last."""
    endgame_order: tuple[int, ...] = ()
    """Seats in the order of their Epoch V turns (p9 Endgame)."""
    unrevealed: frozenset[str] = frozenset()
    """Option 2: Empire cards chosen in secret and not yet brought into play."""
    result: GameResult | None = None

    # --- reading the state -------------------------------------------------------------

    def land(self, land: str) -> LandState:
        return self.lands.get(land, EMPTY_LAND)

    def control_of(self, land: str, seat: int) -> Control:
        """p2: Empire, Friendly or Enemy land, or uncontrolled, as seen by `seat`."""
        state = self.lands.get(land)
        if state is None or state.owner is None:
            return Control.UNCONTROLLED
        if state.owner != seat:
            return Control.ENEMY
        return Control.EMPIRE if state.standing else Control.FRIENDLY

    def has_option(self, variant: Variant) -> bool:
        return variant in self.options

    @property
    def current_seat(self) -> int | None:
        return self.turn.seat if self.turn else None

    def gold_order(self) -> tuple[int, ...]:
        """Seats from most gold to least; on one space the topmost chest has more (p2)."""
        return tuple(
            sorted(
                range(len(self.players)),
                key=lambda s: (self.players[s].gold, self.players[s].arrival),
                reverse=True,
            )
        )

    def lands_of(self, seat: int, standing: bool | None = None) -> list[str]:
        """Lands holding `seat`'s people: armies (standing), garrisons (not), or both (None)."""
        return [
            land
            for land, state in self.lands.items()
            if state.owner == seat and (standing is None or state.standing == standing)
        ]

    def with_player(self, seat: int, player: Player) -> HotwState:
        players = list(self.players)
        players[seat] = player
        return evolved(self, players=tuple(players))

    def with_land(self, land: str, value: LandState) -> HotwState:
        return with_cell(self, land, value)
