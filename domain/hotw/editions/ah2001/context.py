"""What every chapter of the Avalon Hill 2001 rules works with: the edition's event base and
folds, the decide-side context, the command book the chapters declare their commands in, the
rule ids they cite, and the few readings of the state several chapters share."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.declare import CommandBook
from domain.core.folds import Folds, Working
from domain.core.frozen import evolved
from domain.core.messages import Event
from domain.hotw.changes import added
from domain.hotw.editions.ah2001.model import Ah2001State, Stage
from domain.hotw.editions.ah2001.tables import Ah2001Tables, EmpireStats, EventCardKind

NO_PRE_EMINENCE = "no_pre_eminence"
MINOR_EMPIRES = "minor_empires"
MULTIPLE_ARMIES = "multiple_armies"
NAVAL_CONTROL = "naval_control"
SIMULTANEOUS = "simultaneous_empires"


@dataclass(frozen=True, kw_only=True, slots=True)
class Ah2001Event(Event):
    FAMILY = "ah2001"


FOLDS: Folds[Ah2001Tables, Ah2001State] = Folds()
"""Every event type of the edition, each with its fold, registered by the chapter declaring it."""


def with_supply(state: Ah2001State, **deltas: int) -> Ah2001State:
    return evolved(state, supply=added(state.supply, **deltas))


class Ctx(Working[Ah2001Tables, Ah2001State]):
    """The decide-side working state of one command (`Working`); `data` is the printed tables,
    whose revision answers the revision gates (`tables.since`)."""

    folds = FOLDS

    @property
    def tables(self) -> Ah2001Tables:
        return self.data


COMMANDS: CommandBook[Ah2001Tables, Ah2001State, Ctx] = CommandBook()
"""The edition's commands (`domain.core.declare`), each declared by the chapter that plays it."""


def card(tables: Ah2001Tables, card_id: str) -> EventCardKind:
    (found,) = tables.events_by_id.get(card_id, ())
    return found


def empire(tables: Ah2001Tables, empire_id: str) -> EmpireStats:
    (found,) = tables.empires_by_id.get(empire_id, ())
    return found


def far_epoch(tables: Ah2001Tables, epoch: int) -> int:
    """ah2001.events.far-epoch reading: Epoch VII figures early in the game, Epoch I late."""
    return tables.far_epoch.of(epoch)


def held_by_turn(state: Ah2001State, land: str) -> bool:
    """Whether the active Empire's own army stands in `land`."""
    turn = state.turn
    return turn is not None and land in turn.lands and state.land(land).owner == turn.seat


def holds_any(state: Ah2001State) -> bool:
    """Whether the active Empire still holds a land (ah2001.variant.no-lands-left)."""
    turn = state.turn
    return turn is not None and any(state.land(land).owner == turn.seat for land in turn.lands)


def acting(state: Ah2001State, seat: int) -> bool:
    """Whether `seat` plays the Empire whose turn it is."""
    return state.turn is not None and state.turn.seat == seat


def in_turn(state: Ah2001State, seat: int) -> bool:
    """Whether `seat` is the Active Empire's player, its turn under way (not its monuments)."""
    return acting(state, seat) and state.stage is Stage.TURNS
