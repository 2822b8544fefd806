"""The vocabulary of History of the World: every event type of the family, each declared in the
rulebook chapter module that owns it (hotw_2024/*), gathered here for readers and
tools that want the whole list."""

from __future__ import annotations

from domain.hotw.editions.hotw_2024.buildings import (
    BuildingNotPlaced,
    BuildingPlaced,
    BuildingReduced,
    BuildingRemoved,
    BuildingsPlundered,
    BuildingSupplyExhausted,
    BuildingTaken,
    FortBuilt,
)
from domain.hotw.editions.hotw_2024.card_selection import (
    EmpireCardsPassed,
    EmpireCardsTaken,
    EventCardChosen,
    EventCardsPassed,
    EventCardsTaken,
    HiddenEmpireCardChosen,
)
from domain.hotw.editions.hotw_2024.conquest import (
    ConquestEnded,
    ConquestPointsAwarded,
    InvasionModifierSet,
    InvasionRepulsed,
    LandConquered,
)
from domain.hotw.editions.hotw_2024.context import HotwEvent
from domain.hotw.editions.hotw_2024.effects import (
    AreaChosen,
    EffectCompleted,
    EffectsEnded,
    EventConcluded,
    GoldLost,
    LandChosen,
    PeopleRecruited,
    WaterChosen,
)
from domain.hotw.editions.hotw_2024.endgame import (
    EndgameBegan,
    EndgameTokenRevealed,
    GameEnded,
)
from domain.hotw.editions.hotw_2024.establish import (
    EmpirePoolFilled,
)
from domain.hotw.editions.hotw_2024.expand import (
    FleetPlaced,
    GreatWallFortPlaced,
    GreatWallFortRemoved,
    GreatWallFortsPooled,
    GreatWallLimitReached,
    PoolCleared,
)
from domain.hotw.editions.hotw_2024.gold import (
    GoldCollected,
)
from domain.hotw.editions.hotw_2024.honors import (
    HonorAwarded,
    HonorPlayed,
    HonorTurnedUp,
)
from domain.hotw.editions.hotw_2024.invasion import (
    ArmyPlaced,
    GarrisonRemoved,
    GarrisonSurrendered,
    InvasionFrustrated,
    InvasionModifierRemoved,
    InvasionSucceeded,
    LeaderRemoved,
    LeaderUsed,
)
from domain.hotw.editions.hotw_2024.monuments import (
    MonumentsDue,
    MonumentsUnbuilt,
)
from domain.hotw.editions.hotw_2024.organization import (
    AreasActivated,
    AreaTokenChosen,
    AreaTokenDrawn,
    AreaTokensDrawn,
    AreaTokensPassed,
    CardsCountedOut,
    EmpireCardChosen,
    EmpireCardsDisplayed,
    EndgameTokenPlaced,
    EpochBegan,
    EventCardDealt,
    GoldChestsPlaced,
    HonorStackShuffled,
    PairedAreaTokenDrawn,
)
from domain.hotw.editions.hotw_2024.reveal import (
    EventCarriedOut,
    EventPoolFilled,
    EventRevealed,
    StartLandChoiceOffered,
)
from domain.hotw.editions.hotw_2024.turn import (
    AreaTokenPlayed,
    ArmiesLaidDown,
    EmpireCardRevealed,
    EpochEnded,
    FleetsRemoved,
    PhaseBegan,
    TurnBegan,
    TurnEnded,
)

__all__ = [
    "AreaChosen",
    "AreaTokenChosen",
    "AreaTokenDrawn",
    "AreaTokenPlayed",
    "AreaTokensDrawn",
    "AreaTokensPassed",
    "AreasActivated",
    "ArmiesLaidDown",
    "ArmyPlaced",
    "BuildingNotPlaced",
    "BuildingPlaced",
    "BuildingReduced",
    "BuildingRemoved",
    "BuildingSupplyExhausted",
    "BuildingTaken",
    "BuildingsPlundered",
    "CardsCountedOut",
    "ConquestEnded",
    "ConquestPointsAwarded",
    "EffectCompleted",
    "EffectsEnded",
    "EmpireCardChosen",
    "EmpireCardRevealed",
    "EmpireCardsDisplayed",
    "EmpireCardsPassed",
    "EmpireCardsTaken",
    "EmpirePoolFilled",
    "EndgameBegan",
    "EndgameTokenPlaced",
    "EndgameTokenRevealed",
    "EpochBegan",
    "EpochEnded",
    "EventCardChosen",
    "EventCardDealt",
    "EventCardsPassed",
    "EventCardsTaken",
    "EventCarriedOut",
    "EventConcluded",
    "EventPoolFilled",
    "EventRevealed",
    "FleetPlaced",
    "FleetsRemoved",
    "FortBuilt",
    "GameEnded",
    "GarrisonRemoved",
    "GarrisonSurrendered",
    "GoldChestsPlaced",
    "GoldCollected",
    "GoldLost",
    "GreatWallFortPlaced",
    "GreatWallFortRemoved",
    "GreatWallFortsPooled",
    "GreatWallLimitReached",
    "HiddenEmpireCardChosen",
    "HonorAwarded",
    "HonorPlayed",
    "HonorStackShuffled",
    "HonorTurnedUp",
    "HotwEvent",
    "InvasionFrustrated",
    "InvasionModifierRemoved",
    "InvasionModifierSet",
    "InvasionRepulsed",
    "InvasionSucceeded",
    "LandChosen",
    "LandConquered",
    "LeaderRemoved",
    "LeaderUsed",
    "MonumentsDue",
    "MonumentsUnbuilt",
    "PairedAreaTokenDrawn",
    "PeopleRecruited",
    "PhaseBegan",
    "PoolCleared",
    "StartLandChoiceOffered",
    "TurnBegan",
    "TurnEnded",
    "WaterChosen",
]
