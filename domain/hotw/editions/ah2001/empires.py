"""Chapter III of the Avalon Hill 2001 rules, Drawing Empire Cards and Going Through the
Epoch: each player in the drawing order draws a card and keeps it or passes it unseen to a
player without one (ah2001.empires.*), then the Empires are called in their order
(ah2001.epoch.call-order).

The card a player holds names the Empire it plays when that Empire is called
(ah2001.empires.card)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event, private_to
from domain.hotw.editions.ah2001.context import (
    COMMANDS,
    FOLDS,
    NAVAL_CONTROL,
    Ah2001Event,
    Ctx,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Stage,
)
from domain.hotw.editions.ah2001.optional import fleets_to_choose
from domain.hotw.editions.ah2001.pre_eminence import end_epoch
from domain.hotw.editions.ah2001.revisions import RECLAIM_CHOSEN
from domain.hotw.editions.ah2001.tables import Ah2001Tables, EmpireStats
from domain.hotw.editions.ah2001.turn import begin_turn, wanted_fleets
from domain.hotw.refusals import refused


def drawer(state: Ah2001State) -> int | None:
    drawing = state.drawing
    if drawing is None or drawing.position >= len(drawing.order):
        return None
    return drawing.order[drawing.position]


def without_card(state: Ah2001State) -> list[int]:
    assert state.drawing is not None
    holding = set(state.drawing.holders.values())
    return [seat for seat in range(len(state.players)) if seat not in holding]


def calling_order(tables: Ah2001Tables, epoch: int) -> tuple[EmpireStats, ...]:
    return tables.empires_by_epoch[epoch]


def drawing_actions(state: Ah2001State, seat: int) -> Iterator[Command]:
    """The drawer keeps the card (unless given one already) or passes it to a player still
    without one."""
    assert state.drawing is not None
    if seat not in state.drawing.holders.values():
        yield Command.of("keep_empire")
    for other in without_card(state):
        if other != seat:
            yield Command.of("pass_empire", to=other)


def why_not_keep(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "a player given a card must pass the one drawn", "ah2001.empires.one-card", command
    )


def why_not_pass(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused("a card goes to a player still without one", "ah2001.empires.draw", command)


@COMMANDS.declares("keep_empire", "Keep the Empire card drawn.", why_not=why_not_keep)
def keep_empire(ctx: Ctx, seat: int, command: Command) -> None:
    give(ctx, seat, seat)


@COMMANDS.declares(
    "pass_empire",
    "Give the Empire card drawn to a player without one.",
    Arg("to", "A seat.", kind=int, minimum=0),
    why_not=why_not_pass,
)
def pass_empire(ctx: Ctx, seat: int, command: Command) -> None:
    give(ctx, seat, int(command.arg("to")))


def give(ctx: Ctx, seat: int, to: int) -> None:
    drawing = ctx.state.drawing
    assert drawing is not None and drawing.drawn is not None
    key = "ah2001.empires.draw" if to == seat else "ah2001.empires.passed-unseen"
    ctx.emit(
        EmpireCardGiven(
            rule=key,
            from_seat=seat,
            to_seat=to,
            card=drawing.drawn,
            visibility=private_to(seat, redacted={"from_seat": seat, "to_seat": to}),
        )
    )


def drawing_step(ctx: Ctx) -> bool:
    """Hand the cards out once everyone holds one; else the drawer draws, and the last drawer,
    with no choice left, gives the card where it must go (ah2001.empires.last-drawer)."""
    state = ctx.state
    drawing = state.drawing
    assert drawing is not None
    if len(drawing.holders) == len(state.players):
        for held, seat in sorted(drawing.holders.items()):
            ctx.emit(
                EmpireCardLearned(
                    rule="ah2001.empires.passed-unseen",
                    seat=seat,
                    card=held,
                    visibility=private_to(seat, redacted={"seat": seat}),
                )
            )
        ctx.emit(EmpireCardsHandedOut(rule="ah2001.empires.unused", epoch=state.epoch))
        return True
    current = drawer(state)
    if current is None:
        return False
    seat = current
    if drawing.drawn is None:
        drawn = ctx.chance.pick(sorted(drawing.deck))
        ctx.emit(
            EmpireCardDrawn(
                rule="ah2001.empires.draw",
                seat=seat,
                card=drawn,
                visibility=private_to(seat, redacted={"seat": seat}),
                draws=ctx.chance.take_draws(),
            )
        )
        return True
    options = list(drawing_actions(state, seat))
    if len(options) == 1:  # the last drawer has no choice (ah2001.empires.last-drawer)
        command = options[0]
        to = seat if command.type == "keep_empire" else int(command.arg("to"))
        ctx.emit(
            EmpireCardGiven(
                rule="ah2001.empires.last-drawer",
                from_seat=seat,
                to_seat=to,
                card=drawing.drawn,
                visibility=private_to(seat, redacted={"from_seat": seat, "to_seat": to}),
            )
        )
        return True
    return False


def call_next(ctx: Ctx) -> bool:
    """ah2001.epoch.call-order: the next Empire of the epoch is called; an Empire nobody holds
    is skipped; after the last, the epoch ends."""
    state = ctx.state
    order = calling_order(ctx.tables, state.epoch)
    if state.call_index >= len(order):
        end_epoch(ctx)
        return True
    spec = order[state.call_index]
    holder = state.holders.get(spec.card)
    if holder is None:
        ctx.emit(EmpireSkipped(rule="ah2001.epoch.call-order", empire=spec.id))
        return True
    return begin_turn(ctx, holder, spec)


def reclaim_choice(tables: Ah2001Tables, state: Ah2001State) -> tuple[int, tuple[str, ...]]:
    """ah2001.option.naval-control from revision 11: the holder of the Empire called next, if
    it must choose which fleets with armies of the oldest epoch leave for the fleet counters
    it lacks, and the fleets it chooses among (nobody, no fleet: no choice to make)."""
    none: tuple[int, tuple[str, ...]] = (-1, ())
    if NAVAL_CONTROL not in state.options or not state.seas or not tables.since(RECLAIM_CHOSEN):
        return none
    if state.stage is not Stage.TURNS or state.turn is not None:
        return none
    order = calling_order(tables, state.epoch)
    if state.call_index >= len(order):
        return none
    spec = order[state.call_index]
    holder = state.holders.get(spec.card)
    if holder is None:
        return none
    choices = fleets_to_choose(state, wanted_fleets(tables, spec))
    return (holder, choices) if choices else none


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class EmpireCardDrawn(Ah2001Event):
    REVEALS_HIDDEN = True

    seat: int
    card: str


@FOLDS.handles(EmpireCardDrawn)
def _drawn(t: Ah2001Tables, s: Ah2001State, e: EmpireCardDrawn) -> Ah2001State:
    assert s.drawing is not None
    deck = tuple(c for c in s.drawing.deck if c != e.card)
    return evolved(s, drawing=evolved(s.drawing, deck=deck, drawn=e.card))


@event
class EmpireCardGiven(Ah2001Event):
    """The drawer keeps the card (`to_seat` is the drawer) or passes it on unseen."""

    from_seat: int
    to_seat: int
    card: str


@FOLDS.handles(EmpireCardGiven)
def _given(t: Ah2001Tables, s: Ah2001State, e: EmpireCardGiven) -> Ah2001State:
    assert s.drawing is not None
    holders = {**s.drawing.holders, e.card: e.to_seat}
    drawing = evolved(s.drawing, holders=holders, drawn=None, position=s.drawing.position + 1)
    return evolved(s, drawing=drawing)


@event
class EmpireCardLearned(Ah2001Event):
    """Once every card is handed out, a player given a card may look at it."""

    REVEALS_HIDDEN = True

    seat: int
    card: str


@FOLDS.handles(EmpireCardLearned)
def _learned(t: Ah2001Tables, s: Ah2001State, e: EmpireCardLearned) -> Ah2001State:
    return s


@event
class EmpireCardsHandedOut(Ah2001Event):
    epoch: int


@FOLDS.handles(EmpireCardsHandedOut)
def _handed_out(t: Ah2001Tables, s: Ah2001State, e: EmpireCardsHandedOut) -> Ah2001State:
    assert s.drawing is not None
    return evolved(s, holders=dict(s.drawing.holders), drawing=None, stage=Stage.TURNS)


@event
class EmpireSkipped(Ah2001Event):
    empire: str


@FOLDS.handles(EmpireSkipped)
def _skipped(t: Ah2001Tables, s: Ah2001State, e: EmpireSkipped) -> Ah2001State:
    return evolved(s, call_index=s.call_index + 1)
