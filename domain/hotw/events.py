"""The events of History of the World: one frozen, past-tense type per fact (contracts §2).

Every event carries the rule id (data/hotw-2024/rules.yaml) that produced it. Events never
hold what can be recomputed; they hold choices, chance outcomes and revealed hidden facts.
Buildings are recorded by their kind's value (`capital`, `city`, `monument`, `fort`).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.messages import Event, event


@dataclass(frozen=True, kw_only=True, slots=True)
class HotwEvent(Event):
    """An event of the History of the World family (every edition shares the vocabulary)."""

    FAMILY = "hotw"


# --- setting up -------------------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GoldChestsPlaced(HotwEvent):
    """The chests in random order: order[i] is the seat whose chest is on space i + 1."""

    order: tuple[int, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class HonorStackShuffled(HotwEvent):
    """A player's Honors shuffled face down (top first); private to nobody."""

    seat: int
    stack: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class HonorTurnedUp(HotwEvent):
    """The top Honor of the stack is turned face up onto space 1 of the Honor track (setup)."""

    REVEALS_HIDDEN = True

    seat: int
    honor: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class CardsCountedOut(HotwEvent):
    """One epoch's Empire and Event cards counted out face down; the rest removed unseen."""

    epoch: int
    empire_cards: tuple[str, ...]
    event_cards: tuple[str, ...]


# --- epoch organization -----------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EpochBegan(HotwEvent):
    epoch: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreasActivated(HotwEvent):
    epoch: int
    areas: tuple[str, ...]
    tokens: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaTokenDrawn(HotwEvent):
    """Epoch I: a player draws one token from the bag and keeps it secretly."""

    seat: int
    token: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaTokensDrawn(HotwEvent):
    """Epochs II-V: the player with most gold draws players + 1 tokens."""

    seat: int
    tokens: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaTokenChosen(HotwEvent):
    seat: int
    token: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaTokensPassed(HotwEvent):
    from_seat: int
    to_seat: int
    tokens: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EndgameTokenPlaced(HotwEvent):
    epoch: int
    token: str
    face_up: bool
    known_by: tuple[int, ...] = ()


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventCardDealt(HotwEvent):
    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpireCardsDisplayed(HotwEvent):
    REVEALS_HIDDEN = True

    epoch: int
    cards: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpireCardChosen(HotwEvent):
    seat: int
    card: str


# --- Option 1: Event card selection; Option 2: Hidden Empire cards -------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventCardsTaken(HotwEvent):
    """Option 1: the player with most gold takes the epoch's Event cards (seen by that seat)."""

    seat: int
    cards: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventCardChosen(HotwEvent):
    """Option 1: a player secretly keeps one of the Event cards on offer."""

    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventCardsPassed(HotwEvent):
    """Option 1: the remaining Event cards go to the player with the next most gold."""

    from_seat: int
    to_seat: int
    cards: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpireCardsTaken(HotwEvent):
    """Option 2: the player with least gold takes the epoch's Empire cards (seen by that seat)."""

    seat: int
    cards: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class HiddenEmpireCardChosen(HotwEvent):
    """Option 2: a player secretly keeps one of the Empire cards on offer."""

    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpireCardsPassed(HotwEvent):
    """Option 2: the remaining Empire cards go to the player with the next least gold."""

    from_seat: int
    to_seat: int
    cards: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpireCardRevealed(HotwEvent):
    """Option 2: a secretly chosen Empire card is shown as its turn comes."""

    REVEALS_HIDDEN = True

    seat: int
    card: str


# --- Option 4: Paired Area tokens ---------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PairedAreaTokenDrawn(HotwEvent):
    """Option 4: a player takes one face-down Paired Area token and keeps it secretly."""

    seat: int
    token: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EpochEnded(HotwEvent):
    epoch: int


# --- player turns -----------------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TurnBegan(HotwEvent):
    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PhaseBegan(HotwEvent):
    seat: int
    phase: str
    empire_index: int = 0


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventRevealed(HotwEvent):
    REVEALS_HIDDEN = True

    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventCarriedOut(HotwEvent):
    """A text Event's instructions begin (in phase A, or in its Later Event phase)."""

    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventPoolFilled(HotwEvent):
    seat: int
    people: int
    fleets: int = 0
    as_empire: bool = False


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpirePoolFilled(HotwEvent):
    seat: int
    people: int
    fleets: int = 0
    great_wall_forts: int = 0


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class StartLandChoiceOffered(HotwEvent):
    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingRemoved(HotwEvent):
    land: str
    building: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GarrisonRemoved(HotwEvent):
    land: str
    owner: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ArmyPlaced(HotwEvent):
    seat: int
    land: str
    pool: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GarrisonSurrendered(HotwEvent):
    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class InvasionSucceeded(HotwEvent):
    seat: int
    land: str
    enemy: int
    pool: str
    empire_dice: tuple[int, ...] = ()
    enemy_dice: tuple[int, ...] = ()


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class InvasionFrustrated(HotwEvent):
    seat: int
    land: str
    enemy: int
    pool: str
    empire_dice: tuple[int, ...] = ()
    enemy_dice: tuple[int, ...] = ()


# --- Option 3: Invasion and conquest ------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class InvasionRepulsed(HotwEvent):
    """Option 3: the invasion is frustrated; only the Empire's army is removed, the garrison
    holds the land."""

    seat: int
    land: str
    enemy: int
    pool: str
    empire_dice: tuple[int, ...]
    enemy_dice: tuple[int, ...]
    modifier: int = 0


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class InvasionModifierSet(HotwEvent):
    """Option 3: the Invasion modifier counter goes on (or is turned to) `modifier` for the
    next invasion of `land`."""

    seat: int
    land: str
    modifier: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class InvasionModifierRemoved(HotwEvent):
    """Option 3: the counter comes off (the invasion succeeded, or the player did not go on)."""

    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ConquestPointsAwarded(HotwEvent):
    """Option 3: a successful invasion's winning margin, to spend on lands of `enemy`."""

    seat: int
    land: str
    enemy: int
    points: int
    pool: str
    barbarian: bool = False


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class LandConquered(HotwEvent):
    """Option 3: an army from the pool takes an Enemy land for `cost` conquest points, with no
    dice; the garrison is removed."""

    seat: int
    land: str
    enemy: int
    pool: str
    cost: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ConquestEnded(HotwEvent):
    """Option 3: the conquest is over; `unspent` points are lost."""

    seat: int
    unspent: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingsPlundered(HotwEvent):
    seat: int
    land: str
    gold: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingReduced(HotwEvent):
    land: str
    removed: tuple[str, ...]
    city_added: bool = False


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingPlaced(HotwEvent):
    land: str
    building: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingSupplyExhausted(HotwEvent):
    seat: int
    building: str
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingTaken(HotwEvent):
    """A building taken from an Enemy land because its kind ran out (p10)."""

    seat: int
    land: str
    building: str
    city_added: bool = False


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingNotPlaced(HotwEvent):
    land: str
    building: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class FleetPlaced(HotwEvent):
    seat: int
    water: str
    pool: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class FortBuilt(HotwEvent):
    """A people piece of the Empire pool is spent to build a fort (p7)."""

    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallFortPlaced(HotwEvent):
    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallFortsPooled(HotwEvent):
    """A Dynasty's Great Wall forts go from the supply into its Empire pool."""

    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallLimitReached(HotwEvent):
    """Too few Great Wall forts are left for an arriving Dynasty: `count` must come off."""

    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallFortRemoved(HotwEvent):
    """A Great Wall fort comes off the map into the arriving Dynasty's pool (p10)."""

    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class LeaderUsed(HotwEvent):
    seat: int
    ignores: str | None = None


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class LeaderRemoved(HotwEvent):
    seat: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PoolCleared(HotwEvent):
    """End of Expand: pieces left in the Empire pool are removed."""

    seat: int
    people: int
    fleets: int
    great_wall_forts: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventConcluded(HotwEvent):
    """Before establishing: Event armies laid down, its fleets removed, its pool emptied."""

    seat: int
    card: str
    lands: tuple[str, ...]
    waters: tuple[str, ...]
    people: int
    fleets: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class MonumentsDue(HotwEvent):
    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class MonumentsUnbuilt(HotwEvent):
    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class HonorAwarded(HotwEvent):
    REVEALS_HIDDEN = True

    seat: int
    honor: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class HonorPlayed(HotwEvent):
    seat: int
    honor: str
    for_effect: bool
    endgame: bool = False


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GoldCollected(HotwEvent):
    seat: int
    amount: int
    reason: str = ""


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GoldLost(HotwEvent):
    seat: int
    amount: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PeopleRecruited(HotwEvent):
    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaChosen(HotwEvent):
    seat: int
    area: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class LandChosen(HotwEvent):
    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class WaterChosen(HotwEvent):
    seat: int
    water: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EffectCompleted(HotwEvent):
    seat: int
    index: int
    lands: tuple[str, ...] = ()


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EffectsEnded(HotwEvent):
    seat: int
    source: str
    source_id: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaTokenPlayed(HotwEvent):
    REVEALS_HIDDEN = True

    seat: int
    token: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ArmiesLaidDown(HotwEvent):
    seat: int
    lands: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class FleetsRemoved(HotwEvent):
    seat: int
    waters: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TurnEnded(HotwEvent):
    seat: int
    card: str


# --- endgame ----------------------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EndgameBegan(HotwEvent):
    order: tuple[int, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EndgameTokenRevealed(HotwEvent):
    REVEALS_HIDDEN = True

    epoch: int
    token: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GameEnded(HotwEvent):
    gold: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    people_shown: tuple[int, ...]
    honor_icons: tuple[int, ...]
