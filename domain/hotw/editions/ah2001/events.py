"""Every event of an Avalon Hill 2001 game, stored as `ah2001.<Name>`: each is declared, with
the fold that applies it (never checks, never draws), by the chapter whose rule it records.
This index imports every chapter, so that every event type and fold is registered, and names
them in one place."""

from __future__ import annotations

from domain.hotw.editions.ah2001.building import FortBuilt, MonumentBuilt, MonumentsUnbuilt
from domain.hotw.editions.ah2001.combat import BattleFought
from domain.hotw.editions.ah2001.context import FOLDS, Ah2001Event
from domain.hotw.editions.ah2001.empires import (
    EmpireCardDrawn,
    EmpireCardGiven,
    EmpireCardLearned,
    EmpireCardsHandedOut,
    EmpireSkipped,
)
from domain.hotw.editions.ah2001.event_cards import (
    CardEmpireBegan,
    CardEmpireEnded,
    CoinSpent,
    CrusadersFortified,
    EventCardPlayed,
    ExpansionBegan,
    FleetReallocated,
    KingdomPlaced,
)
from domain.hotw.editions.ah2001.expansion import ExpansionEnded
from domain.hotw.editions.ah2001.lesser_events import (
    ArmiesLanded,
    ArmiesStruck,
    CardResolved,
    FleetAdded,
    MonumentsDestroyed,
    RevoltFought,
    TargetChosen,
    TreacheryNamed,
)
from domain.hotw.editions.ah2001.optional import (
    FleetManned,
    FleetReclaimed,
    FleetsReclaimed,
    NavalBattleFought,
)
from domain.hotw.editions.ah2001.pre_eminence import GameEnded, PreEminenceTaken
from domain.hotw.editions.ah2001.sack import LandSacked
from domain.hotw.editions.ah2001.scoring import TurnScored
from domain.hotw.editions.ah2001.setup import (
    DrawOrderRolled,
    EpochBegan,
    EventCardsDealt,
    MarkersShuffled,
)
from domain.hotw.editions.ah2001.simultaneous import (
    ExpansionAttempted,
    MonumentsDone,
    MonumentsEarned,
)
from domain.hotw.editions.ah2001.simultaneous_rounds import (
    EmpireActivated,
    EmpireParked,
    EmpireTerminated,
    MinorEmpireWaits,
)
from domain.hotw.editions.ah2001.turn import ArmyPlaced, StartLandCleared, TurnBegan

evolve = FOLDS.evolve
event_types = FOLDS.event_types

__all__ = [
    "Ah2001Event",
    "ArmiesLanded",
    "ArmiesStruck",
    "ArmyPlaced",
    "BattleFought",
    "CardEmpireBegan",
    "CardEmpireEnded",
    "CardResolved",
    "CoinSpent",
    "CrusadersFortified",
    "DrawOrderRolled",
    "EmpireActivated",
    "EmpireCardDrawn",
    "EmpireCardGiven",
    "EmpireCardLearned",
    "EmpireCardsHandedOut",
    "EmpireParked",
    "EmpireSkipped",
    "EmpireTerminated",
    "EpochBegan",
    "EventCardPlayed",
    "EventCardsDealt",
    "ExpansionAttempted",
    "ExpansionBegan",
    "ExpansionEnded",
    "FleetAdded",
    "FleetManned",
    "FleetReallocated",
    "FleetReclaimed",
    "FleetsReclaimed",
    "FortBuilt",
    "GameEnded",
    "KingdomPlaced",
    "LandSacked",
    "MarkersShuffled",
    "MinorEmpireWaits",
    "MonumentBuilt",
    "MonumentsDestroyed",
    "MonumentsDone",
    "MonumentsEarned",
    "MonumentsUnbuilt",
    "NavalBattleFought",
    "PreEminenceTaken",
    "RevoltFought",
    "StartLandCleared",
    "TargetChosen",
    "TreacheryNamed",
    "TurnBegan",
    "TurnScored",
    "event_types",
    "evolve",
]
