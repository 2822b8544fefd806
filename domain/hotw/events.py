"""The events of History of the World: one frozen, past-tense type per fact (contracts §2).

Every event carries the rule id (data/hotw-2024/rules.yaml) that produced it. Events never
hold what can be recomputed; they hold choices, chance outcomes and revealed hidden facts.
Buildings are recorded by their kind's value (`capital`, `city`, `monument`, `fort`).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.messages import Event, event

# --- setting up -------------------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GoldChestsPlaced(Event):
    """The chests in random order: order[i] is the seat whose chest is on space i + 1."""

    order: tuple[int, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class HonorStackShuffled(Event):
    """A player's Honors shuffled face down (top first); private to nobody."""

    seat: int
    stack: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class HonorTurnedUp(Event):
    """The top Honor of the stack is turned face up onto space 1 of the Honor track (setup)."""

    REVEALS_HIDDEN = True

    seat: int
    honor: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class CardsCountedOut(Event):
    """One epoch's Empire and Event cards counted out face down; the rest removed unseen."""

    epoch: int
    empire_cards: tuple[str, ...]
    event_cards: tuple[str, ...]


# --- epoch organization -----------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EpochBegan(Event):
    epoch: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreasActivated(Event):
    epoch: int
    areas: tuple[str, ...]
    tokens: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaTokenDrawn(Event):
    """Epoch I: a player draws one token from the bag and keeps it secretly."""

    seat: int
    token: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaTokensDrawn(Event):
    """Epochs II-V: the player with most gold draws players + 1 tokens."""

    seat: int
    tokens: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaTokenChosen(Event):
    seat: int
    token: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaTokensPassed(Event):
    from_seat: int
    to_seat: int
    tokens: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EndgameTokenPlaced(Event):
    epoch: int
    token: str
    face_up: bool
    known_by: tuple[int, ...] = ()


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventCardDealt(Event):
    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpireCardsDisplayed(Event):
    REVEALS_HIDDEN = True

    epoch: int
    cards: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpireCardChosen(Event):
    seat: int
    card: str


# --- Option 1: Event card selection; Option 2: Hidden Empire cards -------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventCardsTaken(Event):
    """Option 1: the player with most gold takes the epoch's Event cards (seen by that seat)."""

    seat: int
    cards: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventCardChosen(Event):
    """Option 1: a player secretly keeps one of the Event cards on offer."""

    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventCardsPassed(Event):
    """Option 1: the remaining Event cards go to the player with the next most gold."""

    from_seat: int
    to_seat: int
    cards: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpireCardsTaken(Event):
    """Option 2: the player with least gold takes the epoch's Empire cards (seen by that seat)."""

    seat: int
    cards: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class HiddenEmpireCardChosen(Event):
    """Option 2: a player secretly keeps one of the Empire cards on offer."""

    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpireCardsPassed(Event):
    """Option 2: the remaining Empire cards go to the player with the next least gold."""

    from_seat: int
    to_seat: int
    cards: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpireCardRevealed(Event):
    """Option 2: a secretly chosen Empire card is shown as its turn comes."""

    REVEALS_HIDDEN = True

    seat: int
    card: str


# --- Option 4: Paired Area tokens ---------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PairedAreaTokenDrawn(Event):
    """Option 4: a player takes one face-down Paired Area token and keeps it secretly."""

    seat: int
    token: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EpochEnded(Event):
    epoch: int


# --- player turns -----------------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TurnBegan(Event):
    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PhaseBegan(Event):
    seat: int
    phase: str
    empire_index: int = 0


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventRevealed(Event):
    REVEALS_HIDDEN = True

    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventCarriedOut(Event):
    """A text Event's instructions begin (in phase A, or in its Later Event phase)."""

    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventPoolFilled(Event):
    seat: int
    people: int
    fleets: int = 0
    as_empire: bool = False


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EmpirePoolFilled(Event):
    seat: int
    people: int
    fleets: int = 0
    great_wall_forts: int = 0


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class StartLandChoiceOffered(Event):
    seat: int
    card: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingRemoved(Event):
    land: str
    building: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GarrisonRemoved(Event):
    land: str
    owner: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ArmyPlaced(Event):
    seat: int
    land: str
    pool: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GarrisonSurrendered(Event):
    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class InvasionSucceeded(Event):
    seat: int
    land: str
    enemy: int
    pool: str
    empire_dice: tuple[int, ...] = ()
    enemy_dice: tuple[int, ...] = ()


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class InvasionFrustrated(Event):
    seat: int
    land: str
    enemy: int
    pool: str
    empire_dice: tuple[int, ...] = ()
    enemy_dice: tuple[int, ...] = ()


# --- Option 3: Invasion and conquest ------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class InvasionRepulsed(Event):
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
class InvasionModifierSet(Event):
    """Option 3: the Invasion modifier counter goes on (or is turned to) `modifier` for the
    next invasion of `land`."""

    seat: int
    land: str
    modifier: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class InvasionModifierRemoved(Event):
    """Option 3: the counter comes off (the invasion succeeded, or the player did not go on)."""

    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ConquestPointsAwarded(Event):
    """Option 3: a successful invasion's winning margin, to spend on lands of `enemy`."""

    seat: int
    land: str
    enemy: int
    points: int
    pool: str
    barbarian: bool = False


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class LandConquered(Event):
    """Option 3: an army from the pool takes an Enemy land for `cost` conquest points, with no
    dice; the garrison is removed."""

    seat: int
    land: str
    enemy: int
    pool: str
    cost: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ConquestEnded(Event):
    """Option 3: the conquest is over; `unspent` points are lost."""

    seat: int
    unspent: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingsPlundered(Event):
    seat: int
    land: str
    gold: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingReduced(Event):
    land: str
    removed: tuple[str, ...]
    city_added: bool = False


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingPlaced(Event):
    land: str
    building: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingSupplyExhausted(Event):
    seat: int
    building: str
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingTaken(Event):
    """A building taken from an Enemy land because its kind ran out (p10)."""

    seat: int
    land: str
    building: str
    city_added: bool = False


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingNotPlaced(Event):
    land: str
    building: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class FleetPlaced(Event):
    seat: int
    water: str
    pool: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class FortBuilt(Event):
    """A people piece of the Empire pool is spent to build a fort (p7)."""

    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallFortPlaced(Event):
    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallFortsPooled(Event):
    """A Dynasty's Great Wall forts go from the supply into its Empire pool."""

    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallLimitReached(Event):
    """Too few Great Wall forts are left for an arriving Dynasty: `count` must come off."""

    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GreatWallFortRemoved(Event):
    """A Great Wall fort comes off the map into the arriving Dynasty's pool (p10)."""

    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class LeaderUsed(Event):
    seat: int
    ignores: str | None = None


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class LeaderRemoved(Event):
    seat: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PoolCleared(Event):
    """End of Expand: pieces left in the Empire pool are removed."""

    seat: int
    people: int
    fleets: int
    great_wall_forts: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EventConcluded(Event):
    """Before establishing: Event armies laid down, its fleets removed, its pool emptied."""

    seat: int
    card: str
    lands: tuple[str, ...]
    waters: tuple[str, ...]
    people: int
    fleets: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class MonumentsDue(Event):
    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class MonumentsUnbuilt(Event):
    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class HonorAwarded(Event):
    REVEALS_HIDDEN = True

    seat: int
    honor: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class HonorPlayed(Event):
    seat: int
    honor: str
    for_effect: bool
    endgame: bool = False


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GoldCollected(Event):
    seat: int
    amount: int
    reason: str = ""


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GoldLost(Event):
    seat: int
    amount: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PeopleRecruited(Event):
    seat: int
    count: int


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaChosen(Event):
    seat: int
    area: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class LandChosen(Event):
    seat: int
    land: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class WaterChosen(Event):
    seat: int
    water: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EffectCompleted(Event):
    seat: int
    index: int
    lands: tuple[str, ...] = ()


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EffectsEnded(Event):
    seat: int
    source: str
    source_id: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AreaTokenPlayed(Event):
    REVEALS_HIDDEN = True

    seat: int
    token: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ArmiesLaidDown(Event):
    seat: int
    lands: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class FleetsRemoved(Event):
    seat: int
    waters: tuple[str, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TurnEnded(Event):
    seat: int
    card: str


# --- endgame ----------------------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EndgameBegan(Event):
    order: tuple[int, ...]


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EndgameTokenRevealed(Event):
    REVEALS_HIDDEN = True

    epoch: int
    token: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GameEnded(Event):
    gold: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    people_shown: tuple[int, ...]
    honor_icons: tuple[int, ...]
