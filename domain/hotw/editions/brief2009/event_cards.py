"""Events in A Brief History of the World: Event cards are played on the colour's own turn, any
number (brief.events.any-number), each paying its gold (brief.events.price) and discarded
(brief.events.discard) - one active at a time (brief.events.one-active), never mid-invasion or
during overruns (brief.events.not-mid-invasion); red cards before the Empire is established and
discarded at the Epoch's end if unplayed (brief.events.red), black ones in their Epoch or later
(brief.events.black; Israel: brief.events.israel). Leader, Weaponry and Astronomy help the
Empire; Kingdoms, Minor Empires, Barbarians and the Civil War raise an Event Empire from the
colour's supply (brief.events.event-empire, brief.events.supply-armies).

The cards, each cited as `events.<kind>`: brief.events.leader and brief.events.weaponry (the
dice of `invasion`), brief.events.astronomy (a fleet), brief.events.kingdom,
brief.events.minor-empire, brief.events.barbarians and brief.events.civil-war (Event Empires)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.messages import Command, event, private_to
from domain.hotw.changes import with_player, with_turn
from domain.hotw.editions.brief2009.context import (
    COMMANDS,
    FOLDS,
    BriefEvent,
    Ctx,
    placed,
    with_gold,
    with_shared,
)
from domain.hotw.editions.brief2009.model import (
    BriefState,
    Force,
    Phase,
    Stage,
)
from domain.hotw.editions.brief2009.tables import BriefTables, EventCard
from domain.hotw.refusals import refused

EVENT_CARDS = {
    "leader": "brief.events.leader",
    "weaponry": "brief.events.weaponry",
    "kingdom": "brief.events.kingdom",
    "minor-empire": "brief.events.minor-empire",
    "civil-war": "brief.events.civil-war",
    "barbarians": "brief.events.barbarians",
    "astronomy": "brief.events.astronomy",
}
"""The clause of each kind of Event card, by kind (Israel, a Kingdom, has one of its own)."""


def playable(tables: BriefTables, state: BriefState, seat: int) -> Iterator[tuple[str, str]]:
    """(card, target) for each Event card the player may play now (brief.events.*): one
    active at a time, not mid-invasion or during overruns, in its Epoch (or later for
    black cards and Israel), red ones before the Empire is established, with gold enough."""
    turn = state.turn
    assert turn is not None
    force = turn.active
    if force is not None and force.event:
        return
    gold = state.colours[turn.colour].gold
    for card_id in sorted(set(state.players[seat].hand)):
        card = tables.card(card_id)
        if not card.playable_in(state.epoch) or card.price > gold:
            continue
        if card.at_turn_start and turn.phase is not Phase.OPENING:
            continue
        for target in card_targets(tables, state, card):
            yield card_id, target


def event_actions(tables: BriefTables, state: BriefState, seat: int) -> Iterator[Command]:
    for card, target in playable(tables, state, seat):
        yield Command.of("play_event", card=card, target=target)


def card_targets(tables: BriefTables, state: BriefState, card: EventCard) -> list[str]:
    turn = state.turn
    assert turn is not None
    board = tables.board
    seat = state.owner(turn.colour)
    if card.kind == "leader":
        return [] if turn.leader else [""]
    if card.kind == "weaponry":
        return [] if turn.weaponry else [""]
    if card.kind == "astronomy":
        if state.supply.get("fleets", 0) <= 0:
            return []
        return sorted(w for w in board.waters if w not in turn.fleets)
    if card.raises_empire and state.colours[turn.colour].supply <= 0:
        return []  # brief.events.supply-armies: no army to raise it with
    if card.kind in ("kingdom", "minor-empire"):
        assert card.land is not None
        cell = state.land(card.land)
        return [] if (cell.colour == turn.colour and cell.standing) else [card.land]
    if card.kind == "barbarians":
        return sorted(
            land.id
            for land in board.lands.values()
            if land.barren
            and not (state.land(land.id).colour == turn.colour and state.land(land.id).standing)
        )
    if card.kind == "civil-war":
        return sorted(
            land
            for land, cell in state.lands.items()
            if cell.colour is not None
            and state.owner(cell.colour) != seat
            and not cell.standing
            and not cell.buildings & {"capital", "fort"}
            and not board.lands[land].barren
        )
    return []


def why_not_play(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    """The clause a refused card breaks, where one says more than one-at-a-time."""
    key = "brief.events.one-active"
    turn = state.turn
    if state.stage is Stage.TURNS and turn is not None:
        card = tables.events_by_id.get(str(command.arg("card")))
        if turn.invasion is not None or turn.overrun is not None:
            key = "brief.events.not-mid-invasion"
        elif turn.active is not None and turn.active.event:
            key = "brief.events.one-active"
        elif card is not None and card.at_turn_start and turn.phase is Phase.EXPANDING:
            key = "brief.events.red"
    return refused(
        "an Event card is played in its Epoch (black: or later; red: before establishing), "
        "with gold enough, one active at a time, never mid-invasion or during overruns",
        key,
        command,
    )


@COMMANDS.declares(
    "play_event",
    "Play an Event card from your hand, paying its gold.",
    Arg("card", "An Event card id.", ids=lambda t: tuple(sorted(c.id for c in t.events))),
    Arg(
        "target",
        "The land (Civil War, Barbarians, Kingdoms, Minor Empires) or water "
        "(Astronomy) it names; empty for none.",
        ids=lambda t: ("", *sorted({*t.board.lands, *t.board.waters})),
    ),
    why_not=why_not_play,
)
def play_event(ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    turn = state.turn
    assert turn is not None
    card = ctx.tables.card(str(command.arg("card")))
    target = str(command.arg("target"))
    key = "brief.events.israel" if card.id == "israel" else EVENT_CARDS[card.kind]
    timing = "brief.events.red" if card.at_turn_start else "brief.events.black"
    ctx.emit(
        EventCardPlayed(
            rule=key,
            cites=(
                "brief.events.any-number",
                timing,
                "brief.events.price",
                "brief.events.discard",
            ),
            seat=seat,
            colour=turn.colour,
            card=card.id,
            price=card.price,
            target=target,
        )
    )
    if card.raises_empire:
        raise_empire(ctx, card, target)


def raise_empire(ctx: Ctx, card: EventCard, land: str) -> None:
    """brief.events.event-empire: the card's armies from the supply, one standing in its
    land, the others in its own Array."""
    state = ctx.state
    turn = state.turn
    assert turn is not None
    cell = state.land(land)
    removed = () if card.kind == "civil-war" else tuple(sorted(cell.buildings))
    available = state.colours[turn.colour].supply + (1 if cell.colour == turn.colour else 0)
    armies = min(card.armies, available)
    counters = state.supply.get("capitals_and_cities", 0)
    counters += sum(b in ("capital", "city") for b in removed)
    ctx.emit(
        EventEmpireRaised(
            rule="brief.events.event-empire",
            cites=("brief.events.supply-armies", EVENT_CARDS[card.kind]),
            colour=turn.colour,
            card=card.id,
            land=land,
            removed_colour=cell.colour,
            removed=removed,
            armies=armies,
            capital=card.capital and counters > 0 and armies > 0,
            barbarian=not card.capital,
        )
    )


def discard_red(ctx: Ctx, seats: Iterable[int] | None = None) -> None:
    """brief.events.red: the red cards of this Epoch (or earlier) that a player (of `seats`,
    default every player) still holds are discarded: at the Epoch's end, and from revision 5
    when the player establishes its Empire without having played them."""
    state = ctx.state
    chosen = set(range(len(state.players)) if seats is None else seats)
    for seat, player in enumerate(state.players):
        if seat not in chosen:
            continue
        red = tuple(
            card
            for card in player.hand
            if (spec := ctx.tables.events_by_id.get(card)) is not None
            and spec.timing == "red"
            and not spec.later_epochs
            and spec.epoch <= state.epoch
        )
        if red:
            ctx.emit(
                RedCardsDiscarded(
                    rule="brief.events.red",
                    seat=seat,
                    cards=red,
                    visibility=private_to(seat, redacted={"seat": seat, "count": len(red)}),
                )
            )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class EventCardPlayed(BriefEvent):
    seat: int
    colour: int
    card: str
    price: int
    target: str


@FOLDS.handles(EventCardPlayed)
def _played(t: BriefTables, s: BriefState, e: EventCardPlayed) -> BriefState:
    hand = list(s.players[e.seat].hand)
    hand.remove(e.card)
    s = with_player(s, e.seat, hand=tuple(hand))
    s = with_gold(s, e.colour, -e.price)
    kind = t.card(e.card).kind
    if kind == "leader":
        return with_turn(s, leader=True)
    if kind == "weaponry":
        return with_turn(s, weaponry=True)
    if kind == "astronomy":
        turn = s.turn
        assert turn is not None
        s = with_shared(s, fleets=-1)
        return with_turn(s, astronomy=True, fleets=(*turn.fleets, e.target))
    return s


@event
class EventEmpireRaised(BriefEvent):
    """An Event card's Empire: its army stands in its land (what stood there gone), the rest of
    the armies it brings from the supply wait in its own Array."""

    colour: int
    card: str
    land: str
    removed_colour: int | None
    removed: tuple[str, ...]
    armies: int
    capital: bool
    barbarian: bool


@FOLDS.handles(EventEmpireRaised)
def _raised(t: BriefTables, s: BriefState, e: EventEmpireRaised) -> BriefState:
    s = placed(s, e.land, e.colour, (e.removed_colour, e.removed), e.armies, e.capital)
    lands = (e.land,) if e.armies else ()
    force = Force(e.card, True, max(0, e.armies - 1), e.barbarian, None, 0, lands)
    assert s.turn is not None
    return with_turn(s, forces=(*s.turn.forces, force))


@event
class RedCardsDiscarded(BriefEvent):
    """Red cards of the Epoch never played are discarded unseen."""

    seat: int
    cards: tuple[str, ...]


@FOLDS.handles(RedCardsDiscarded)
def _discarded(t: BriefTables, s: BriefState, e: RedCardsDiscarded) -> BriefState:
    hand = list(s.players[e.seat].hand)
    for card in e.cards:
        hand.remove(card)
    return with_player(s, e.seat, hand=tuple(hand))
