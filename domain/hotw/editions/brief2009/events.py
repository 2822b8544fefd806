"""Every event of A Brief History of the World, stored as `brief.<Name>`: each is declared,
with the fold that applies it (never checks, never draws), by the chapter whose rule it
records. This index imports every chapter, so that every event type and fold is registered,
and names them in one place."""

from __future__ import annotations

from domain.hotw.editions.brief2009.building import FortBuilt, MonumentBuilt, MonumentsUnbuilt
from domain.hotw.editions.brief2009.conclusion import (
    BonusDrawBegan,
    BonusDrawEnded,
    BonusTokenKept,
    BonusTokensOffered,
    BonusTokensRevealed,
    GameEnded,
    GoldTrackAdjusted,
)
from domain.hotw.editions.brief2009.context import FOLDS, BriefEvent
from domain.hotw.editions.brief2009.establishing import EmpireEstablished, EmpireSkipped, TurnBegan
from domain.hotw.editions.brief2009.event_cards import (
    EventCardPlayed,
    EventEmpireRaised,
    RedCardsDiscarded,
)
from domain.hotw.editions.brief2009.expansion import ArmyExpanded, ExpansionStopped, Surrendered
from domain.hotw.editions.brief2009.gold import GoldCollected
from domain.hotw.editions.brief2009.invasion import InvasionAbandoned, InvasionRolled, LandReduced
from domain.hotw.editions.brief2009.organisation import (
    AllocationBegan,
    AllocationRoundEnded,
    CardChosen,
    CardsPassed,
    EpochBegan,
    LastCardTaken,
)
from domain.hotw.editions.brief2009.overruns import LandOverrun, OverrunEnded
from domain.hotw.editions.brief2009.reorganising import EmpireReorganised, EventEmpireResigned
from domain.hotw.editions.brief2009.setup import (
    BonusTokensShuffled,
    StarterCardsDealt,
    StartingPlayerDrawn,
)

evolve = FOLDS.evolve
event_types = FOLDS.event_types

__all__ = [
    "AllocationBegan",
    "AllocationRoundEnded",
    "ArmyExpanded",
    "BonusDrawBegan",
    "BonusDrawEnded",
    "BonusTokenKept",
    "BonusTokensOffered",
    "BonusTokensRevealed",
    "BonusTokensShuffled",
    "BriefEvent",
    "CardChosen",
    "CardsPassed",
    "EmpireEstablished",
    "EmpireReorganised",
    "EmpireSkipped",
    "EpochBegan",
    "EventCardPlayed",
    "EventEmpireRaised",
    "EventEmpireResigned",
    "ExpansionStopped",
    "FortBuilt",
    "GameEnded",
    "GoldCollected",
    "GoldTrackAdjusted",
    "InvasionAbandoned",
    "InvasionRolled",
    "LandOverrun",
    "LandReduced",
    "LastCardTaken",
    "MonumentBuilt",
    "MonumentsUnbuilt",
    "OverrunEnded",
    "RedCardsDiscarded",
    "StarterCardsDealt",
    "StartingPlayerDrawn",
    "Surrendered",
    "TurnBegan",
    "event_types",
    "evolve",
]
