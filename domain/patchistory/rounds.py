"""The Round (patchistory.round.phases): its Phases, who acts in each (in turn, or all at once
under seal), the turn passing on, and the decisions the rules wait for. A seat's undo stays
within its own turn of a phase."""

from __future__ import annotations

from collections.abc import Hashable

from domain.core.declare import WhyNot
from domain.core.errors import IllegalAction
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.core.turns import Sequential, Simultaneous, TurnModel
from domain.patchistory.context import FOLDS, Ctx, PatchEvent, done_pending
from domain.patchistory.model import Pending, PState
from domain.patchistory.pack import PatchPack
from domain.patchistory.territory import has

TURN_PHASES = frozenset(
    {"vasco", "auction", "patching", "diplomacy", "management", "movement", "chichen"}
)
SEALED_PHASES = frozenset({"auction-sealed", "negotiation", "war", "vote-card", "vote"})


# --- who acts --------------------------------------------------------------------------------


ROUND_RULE = "patchistory.round.phases"
"""The Round's Phases in order (the ruleset's `turn_rule`: whose turn it is)."""


def actor(state: PState) -> int | None:
    if state.phase == "over":
        return None
    if state.pending:
        return state.pending[0].seat
    if state.phase == "patching":
        return state.won[0].seat if state.won else None
    if state.phase in TURN_PHASES and state.turn >= 0:
        return state.turn
    return None


def turn_key(state: PState) -> Hashable:
    """One seat's turn: its undo stays within it (the seat acting, in this phase of this Round,
    before anybody passes or a decision is waited for)."""
    return (state.serial, state.phase, actor(state), len(state.passed), len(state.pending))


def _sealing(state: PState) -> tuple[int, ...]:
    return state.sealing


def _sealed(state: PState) -> dict[int, tuple[int, ...]]:
    return state.sealed_map()


def _seal_no(state: PState) -> int:
    return state.seal_no


IN_TURN: Sequential[PState] = Sequential(actor, turn=turn_key)
AT_ONCE: Simultaneous[PState] = Simultaneous(
    seats=_sealing, sealed=_sealed, order=_sealing, round=_seal_no
)
"""The sealed steps (the 2-player Auction, Negotiation, War, the Vote): the last seat's sealed
command reveals them all."""


def turn_model(state: PState) -> TurnModel[PState] | None:
    if state.phase == "over":
        return None
    if not state.pending and state.phase in SEALED_PHASES and state.sealing:
        return AT_ONCE
    return IN_TURN


def awaited(state: PState) -> frozenset[int]:
    model = turn_model(state)
    return frozenset() if model is None else model.awaited(state)


def next_in_turn(state: PState, seat: int) -> int:
    order = state.in_order()
    done = {*state.passed, seat}
    for s in order[order.index(seat) + 1 :]:
        if s not in done:
            return s
    return -1


def next_holder(pack: PatchPack, state: PState, ability: str, after: int) -> int:
    """The next seat in turn order after `after` holding `ability` (-1: none)."""
    order = state.in_order()
    for seat in order[order.index(after) + 1 :]:
        if has(pack, state.civs[seat], ability):
            return seat
    return -1


def pass_turn(ctx: Ctx, rule: str, seat: int) -> None:
    """`seat` is done with its part of the phase (by the clause `rule`, its full id); the next
    seat in turn order acts."""
    ctx.emit(TurnPassed(rule=rule, seat=seat, next=next_in_turn(ctx.state, seat)))


# --- refusals ----------------------------------------------------------------------------------


def refused_by(rule: str) -> WhyNot[PatchPack, PState]:
    """A command's refusal when the seat is awaited but the listed actions lack it: the rule
    `rule` (its full id) that its listing reads (None for a seat not awaited: the turn's
    general refusal)."""

    def why_not(
        pack: PatchPack, state: PState, seat: int, command: Command
    ) -> IllegalAction | None:
        if seat not in awaited(state):
            return None
        return IllegalAction(
            f"{command.type!r} with these arguments is not allowed now ({state.phase})",
            rule,
            {"command": command.as_dict(), "phase": state.phase},
        )

    return why_not


@event
class PhaseBegan(PatchEvent):
    phase: str
    seats: tuple[int, ...] = ()
    """The seats taking part (a sealed step) or in turn order."""


@FOLDS.handles(PhaseBegan)
def _phase(pack: PatchPack, state: PState, ev: PhaseBegan) -> PState:
    sealing = ev.seats if ev.phase in SEALED_PHASES else ()
    turn = ev.seats[0] if ev.seats and ev.phase not in SEALED_PHASES else -1
    return evolved(
        state,
        phase=ev.phase,
        sealing=sealing,
        sealed=(),
        seal_no=state.seal_no + (1 if sealing else 0),
        turn=turn,
        passed=(),
        moved=(),
        routes_moved=(),
        participants=ev.seats if ev.phase in ("auction", "auction-sealed") else state.participants,
    )


@event
class TurnPassed(PatchEvent):
    """A seat is done with its part of the phase; the turn goes to `next` (-1: nobody)."""

    seat: int
    next: int


@FOLDS.handles(TurnPassed)
def _turn(pack: PatchPack, state: PState, ev: TurnPassed) -> PState:
    return evolved(state, passed=(*state.passed, ev.seat), turn=ev.next, moved=(), routes_moved=())


@event
class DecisionAwaited(PatchEvent):
    """The rules wait for `seat` to decide `kind` (a Worker to place, Aid to answer ...)."""

    kind: str
    seat: int
    numbers: tuple[int, ...] = ()
    text: str = ""


@FOLDS.handles(DecisionAwaited)
def _awaited(pack: PatchPack, state: PState, ev: DecisionAwaited) -> PState:
    return evolved(state, pending=(*state.pending, Pending(ev.kind, ev.seat, ev.numbers, ev.text)))


@event
class DecisionDeclined(PatchEvent):
    """A seat lets an optional decision go (Stealth Aircraft, Chichen-Itza)."""

    seat: int
    kind: str


@FOLDS.handles(DecisionDeclined)
def _declined(pack: PatchPack, state: PState, ev: DecisionDeclined) -> PState:
    return done_pending(state, ev.seat, (ev.kind,))
