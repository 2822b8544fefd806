"""What every chapter of the Patchistory rules shares: the rule ids they cite, the event base
and the folds its events register with, the decide-side working state (`Ctx`), the book of
commands each chapter declares its own in, and the few state updates the folds share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.core.declare import CommandBook
from domain.core.folds import Folds, Working
from domain.core.frozen import evolved
from domain.core.messages import PUBLIC, Event, Visibility, private_to
from domain.patchistory.model import Cell, Civ, PState
from domain.patchistory.pack import PatchPack
from domain.patchistory.revisions import GOODS_BEHIND_THE_SCREEN


@dataclass(frozen=True, kw_only=True, slots=True)
class PatchEvent(Event):
    """An event of Patchistory (stored as `patchistory.<Name>`)."""

    FAMILY = "patchistory"


FOLDS: Folds[PatchPack, PState] = Folds()
"""Every Patchistory event type with its fold, each registered by the chapter declaring it."""


class Ctx(Working[PatchPack, PState]):
    """The decide-side working state of one command (`Working`): `data` is the data pack."""

    folds = FOLDS

    @property
    def pack(self) -> PatchPack:
        return self.data


def behind_screen(pack: PatchPack, *seats: int, **shown: Any) -> Visibility:
    """Who sees an amount paid out of, or telling of, what is behind a Player Screen
    (patchistory.hidden.screen): `seats` in full, everyone else `shown`; public in games of
    the revisions before the screen hid it."""
    if pack.since(GOODS_BEHIND_THE_SCREEN):
        return private_to(*seats, redacted=shown)
    return PUBLIC


COMMANDS: CommandBook[PatchPack, PState, Ctx] = CommandBook()
"""Patchistory's commands (`domain.core.declare`): each declared by the chapter that plays it."""


# --- state updates the folds share ----------------------------------------------------------


def civ_changed(state: PState, seat: int, **changes: Any) -> PState:
    return state.with_civ(seat, evolved(state.civs[seat], **changes))


def goods_changed(state: PState, seat: int, **deltas: int) -> PState:
    civ = state.civs[seat]
    return civ_changed(state, seat, **{k: civ.goods(k) + v for k, v in deltas.items() if v})


def spend_points(state: PState, seat: int, cost: int) -> PState:
    pp = list(state.pp)
    pp[seat] -= cost
    return evolved(state, pp=tuple(pp))


def without_worker(civ: Civ, at: Cell) -> tuple[Cell, ...]:
    workers = list(civ.workers)
    workers.remove(at)
    return tuple(workers)


def done_pending(state: PState, seat: int, kinds: tuple[str, ...]) -> PState:
    """The state without its first awaited decision, when it is `seat`'s of one of `kinds`."""
    if state.pending and state.pending[0].seat == seat and state.pending[0].kind in kinds:
        return evolved(state, pending=state.pending[1:])
    return state
