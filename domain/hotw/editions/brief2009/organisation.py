"""Organisation and Allocation in A Brief History of the World: each Epoch's Area values
(brief.organisation.area-values), then the Empire cards dealt to the poorest colour and the
Event cards to the richest (brief.organisation.set-out); in each round the two choosers seal
their choice at once (brief.organisation.simultaneous; the middle player chooses both,
brief.organisation.middle-player) and pass the rest on (brief.organisation.empire-cards,
brief.organisation.event-cards); the last colour takes the card left
(brief.organisation.last-card)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event, private_to
from domain.core.turns import SealedCommand, Simultaneous
from domain.hotw.changes import with_player
from domain.hotw.editions.brief2009.context import (
    COMMANDS,
    FOLDS,
    KINDS,
    BriefEvent,
    Ctx,
    by_gold,
    with_colour,
)
from domain.hotw.editions.brief2009.model import (
    Allocation,
    BriefState,
    Stage,
)
from domain.hotw.editions.brief2009.tables import BriefTables
from domain.hotw.refusals import refused


def _choosers(state: BriefState) -> set[int]:
    allocation = state.allocation
    if allocation is None or state.stage is not Stage.ALLOCATING:
        return set()
    return {state.owner(allocation.picker(kind)) for kind in KINDS}


def sealed(state: BriefState) -> Mapping[int, tuple[str, ...]]:
    """The seats whose every choice of this round is sealed (the middle player makes two)."""
    allocation = state.allocation
    if allocation is None:
        return {}
    done: dict[int, tuple[str, ...]] = {}
    for seat in _choosers(state):
        owed = [k for k in KINDS if state.owner(allocation.picker(k)) == seat]
        if all(k in allocation.chosen for k in owed):
            done[seat] = tuple(owed)
    return done


def _round(state: BriefState) -> tuple[int, int]:
    return (state.epoch, state.allocation.round if state.allocation is not None else -1)


SELECTION: Simultaneous[BriefState] = Simultaneous(
    seats=_choosers, sealed=sealed, order=lambda s: sorted(_choosers(s)), round=_round
)
"""brief.organisation.simultaneous: the round's two choosers seal their choices at once; the
last choice passes the cards on."""


def allocation_actions(state: BriefState, seat: int) -> Iterator[Command]:
    """A card of each pile the seat chooses from this round, not chosen yet."""
    allocation = state.allocation
    assert allocation is not None
    for kind in KINDS:
        if state.owner(allocation.picker(kind)) == seat and kind not in allocation.chosen:
            for card in sorted(set(allocation.pools.get(kind, ()))):
                yield Command.of(f"select_{kind}_card", card=card)


def why_not_empire(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "choose one of the Empire cards in front of you", "brief.organisation.empire-cards", command
    )


def why_not_event(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "choose one of the Event cards in front of you", "brief.organisation.event-cards", command
    )


@COMMANDS.declares(
    "select_empire_card",
    "Keep one of the Empire cards in front of you (the rest pass on, sealed).",
    Arg("card", "An Empire card id.", ids=lambda t: tuple(sorted(e.id for e in t.empires))),
    why_not=why_not_empire,
)
def select_empire_card(ctx: Ctx, seat: int, command: Command) -> None:
    choose(ctx, seat, "empire", str(command.arg("card")))


@COMMANDS.declares(
    "select_event_card",
    "Keep one of the Event cards in front of you (the rest pass on, sealed).",
    Arg("card", "An Event card id.", ids=lambda t: tuple(sorted(c.id for c in t.events))),
    why_not=why_not_event,
)
def select_event_card(ctx: Ctx, seat: int, command: Command) -> None:
    choose(ctx, seat, "event", str(command.arg("card")))


def choose(ctx: Ctx, seat: int, kind: str, card: str) -> None:
    allocation = ctx.state.allocation
    assert allocation is not None
    colour = allocation.picker(kind)
    middle = allocation.picker("empire") == allocation.picker("event")
    ctx.emit(
        CardChosen(
            rule=f"brief.organisation.{kind}-cards",
            cites=(
                "brief.organisation.simultaneous",
                *(("brief.organisation.middle-player",) if middle else ()),
            ),
            seat=seat,
            colour=colour,
            kind=kind,
            card=card,
            visibility=SELECTION.sealed_visibility(seat, colour=colour, kind=kind),
        )
    )


def allocation_step(ctx: Ctx) -> bool:
    """The last card of a pile is taken; once both choices of the round are made, the rest
    pass on."""
    state = ctx.state
    allocation = state.allocation
    if allocation is None:
        return False
    for kind in KINDS:
        pool = allocation.pools.get(kind, ())
        if kind not in allocation.chosen and len(pool) == 1:
            colour = allocation.picker(kind)
            ctx.emit(
                LastCardTaken(
                    rule="brief.organisation.last-card",
                    colour=colour,
                    kind=kind,
                    card=pool[0],
                    visibility=private_to(
                        state.owner(colour), redacted={"colour": colour, "kind": kind}
                    ),
                )
            )
            return True
    if not all(kind in allocation.chosen for kind in KINDS):
        return False
    remaining = {
        kind: tuple(c for c in allocation.pools[kind] if c != allocation.chosen[kind])
        for kind in KINDS
    }
    ctx.emit(AllocationRoundEnded(rule="brief.organisation.simultaneous", round=allocation.round))
    following = ctx.state.allocation
    if following is not None:
        for kind in KINDS:
            pass_cards(ctx, kind, following.picker(kind), remaining[kind])
    return True


def pass_cards(
    ctx: Ctx, kind: str, colour: int, cards: tuple[str, ...], first: bool = False
) -> None:
    key = (
        "brief.organisation.empire-cards" if kind == "empire" else "brief.organisation.event-cards"
    )
    ctx.emit(
        CardsPassed(
            rule="brief.organisation.set-out" if first else key,
            cites=(key,) if first else (),
            colour=colour,
            kind=kind,
            cards=tuple(sorted(cards)),
            visibility=private_to(
                ctx.state.owner(colour),
                redacted={"colour": colour, "kind": kind, "count": len(cards)},
            ),
            draws=ctx.chance.take_draws(),
        )
    )


def begin_epoch(ctx: Ctx, epoch: int) -> None:
    """The Epoch's Area values, then the piles set out (brief.epoch.phases)."""
    tables = ctx.tables
    values = tuple((area, tables.area(area).value(epoch)) for area in tables.spiral)
    ctx.emit(
        EpochBegan(
            rule="brief.organisation.area-values",
            cites=("brief.epoch.phases",),
            epoch=epoch,
            area_values=values,
        )
    )
    poorest, richest = by_gold(ctx.state, False), by_gold(ctx.state, True)
    ctx.emit(
        AllocationBegan(
            rule="brief.organisation.simultaneous",
            cites=("brief.organisation.empire-cards", "brief.organisation.event-cards"),
            empire_order=poorest,
            event_order=richest,
        )
    )
    count = len(ctx.state.colours)
    empires = ctx.chance.shuffled([e.id for e in tables.empires_by_epoch[epoch]])[:count]
    pass_cards(ctx, "empire", poorest[0], empires, first=True)
    cards = ctx.chance.shuffled(list(tables.deck_by_epoch[epoch]))[:count]
    pass_cards(ctx, "event", richest[0], cards, first=True)


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class EpochBegan(BriefEvent):
    """A new Epoch, its Area value tiles face up."""

    epoch: int
    area_values: tuple[tuple[str, int], ...]


@FOLDS.handles(EpochBegan)
def _epoch(t: BriefTables, s: BriefState, e: EpochBegan) -> BriefState:
    return evolved(
        s,
        epoch=e.epoch,
        stage=Stage.ALLOCATING,
        area_values=dict(e.area_values),
        call_index=0,
        turn=None,
    )


@event
class AllocationBegan(BriefEvent):
    """The two orders of the selection: least gold first for Empire cards, most for Event."""

    empire_order: tuple[int, ...]
    event_order: tuple[int, ...]


@FOLDS.handles(AllocationBegan)
def _allocation(t: BriefTables, s: BriefState, e: AllocationBegan) -> BriefState:
    allocation = Allocation(0, tuple(e.empire_order), tuple(e.event_order), {}, {})
    return evolved(s, allocation=allocation)


@event
class CardsPassed(BriefEvent):
    """The cards of one kind reach the colour that chooses from them next (set out at random
    for the first chooser)."""

    kind: str
    colour: int
    cards: tuple[str, ...]


@FOLDS.handles(CardsPassed)
def _passed(t: BriefTables, s: BriefState, e: CardsPassed) -> BriefState:
    assert s.allocation is not None
    pools = {**s.allocation.pools, e.kind: tuple(e.cards)}
    return evolved(s, allocation=evolved(s.allocation, pools=pools))


@event
class CardChosen(BriefEvent, SealedCommand):
    """A colour's sealed choice of one card of the pile in front of it."""

    seat: int
    colour: int
    kind: str
    card: str


@event
class LastCardTaken(BriefEvent):
    """The last colour of an order takes the one card left."""

    colour: int
    kind: str
    card: str


def _chosen(t: BriefTables, s: BriefState, e: CardChosen | LastCardTaken) -> BriefState:
    assert s.allocation is not None
    chosen = {**s.allocation.chosen, e.kind: e.card}
    return evolved(s, allocation=evolved(s.allocation, chosen=chosen))


FOLDS.handles(CardChosen)(_chosen)
FOLDS.handles(LastCardTaken)(_chosen)


@event
class AllocationRoundEnded(BriefEvent):
    """Both choices of a round are made: each chooser keeps its card, the rest pass on."""

    round: int


@FOLDS.handles(AllocationRoundEnded)
def _round_ended(t: BriefTables, s: BriefState, e: AllocationRoundEnded) -> BriefState:
    allocation = s.allocation
    assert allocation is not None
    for kind, card in sorted(allocation.chosen.items()):
        colour = allocation.picker(kind)
        if kind == "empire":
            s = with_colour(s, colour, empire=card)
        else:
            seat = s.owner(colour)
            s = with_player(s, seat, hand=(*s.players[seat].hand, card))
    if allocation.round + 1 >= len(s.colours):
        return evolved(s, allocation=None, stage=Stage.TURNS)
    following = evolved(allocation, round=allocation.round + 1, pools={}, chosen={})
    return evolved(s, allocation=following)
