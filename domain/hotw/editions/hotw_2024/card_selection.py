"""Optional rules 1 and 2 (p11): Event card selection (the richest player takes the epoch's
Event cards, keeps one secretly and passes the rest on) and Hidden Empire cards (the poorest
player takes the Empire cards, keeps one secretly until its turn and passes the rest on)."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event, private_to
from domain.hotw.changes import with_player
from domain.hotw.editions.hotw_2024.context import FOLDS, Ctx, HotwEvent, turns_begin
from domain.hotw.editions.hotw_2024.gold import least_gold_first, most_gold
from domain.hotw.editions.hotw_2024.model import HotwState, OrganizationStep
from domain.hotw.editions.hotw_2024.pack import HotwPack

# --- Option 1: Event card selection -------------------------------------------------------------


def take_event_cards(ctx: Ctx) -> None:
    """option1.event-selection: the player with most gold takes the epoch's Event cards
    (instead of their being dealt) and chooses first."""
    richest = most_gold(ctx.state)
    cards = tuple(sorted(ctx.state.event_decks.get(ctx.state.epoch, ())))
    ctx.emit(
        EventCardsTaken(
            rule="hotw24.option1.event-selection",
            seat=richest,
            cards=cards,
            visibility=private_to(richest, redacted={"seat": richest, "count": len(cards)}),
        )
    )


def choose_event_card(ctx: Ctx, seat: int, card: str) -> bool:
    """Keep one Event card secretly (option1.secret) and pass the rest to the player
    with the next most gold (option1.event-selection); False once everyone has one (the
    Empire cards are chosen next)."""
    ctx.emit(
        EventCardChosen(
            rule="hotw24.option1.secret",
            seat=seat,
            card=card,
            visibility=private_to(seat, redacted={"seat": seat}),
        )
    )
    return pass_the_rest(ctx, seat, EventCardsPassed, "hotw24.option1.event-selection")


def pass_the_rest(
    ctx: Ctx, seat: int, passed: type[EventCardsPassed | EmpireCardsPassed], rule: str
) -> bool:
    """The cards still on offer go, secretly, to the next seat in the choosing order; False
    when everyone has chosen."""
    state = ctx.state
    if not (state.choosing and state.offer):
        return False
    following = state.choosing[0]
    ctx.emit(
        passed(
            rule=rule,
            from_seat=seat,
            to_seat=following,
            cards=state.offer,
            visibility=private_to(
                seat,
                following,
                redacted={"from_seat": seat, "to_seat": following, "count": len(state.offer)},
            ),
        )
    )
    return True


# --- Option 2: Hidden Empire cards --------------------------------------------------------------


def take_empire_cards(ctx: Ctx) -> None:
    """option2.hidden-empires: the cards are not placed on the map; the player with
    least gold takes them and chooses first."""
    poorest = least_gold_first(ctx.state)[0]
    cards = tuple(
        sorted(
            ctx.state.empire_decks.get(ctx.state.epoch, ()),
            key=lambda c: ctx.cards.empire(c).number,
        )
    )
    ctx.emit(
        EmpireCardsTaken(
            rule="hotw24.option2.hidden-empires",
            seat=poorest,
            cards=cards,
            visibility=private_to(poorest, redacted={"seat": poorest, "count": len(cards)}),
        )
    )


def choose_hidden_empire_card(ctx: Ctx, seat: int, card: str) -> None:
    """Keep one Empire card secretly until its turn comes (option2.secret) and pass the
    rest to the player with the next least gold (option2.hidden-empires)."""
    ctx.emit(
        HiddenEmpireCardChosen(
            rule="hotw24.option2.secret",
            seat=seat,
            card=card,
            visibility=private_to(seat, redacted={"seat": seat}),
        )
    )
    pass_the_rest(ctx, seat, EmpireCardsPassed, "hotw24.option2.hidden-empires")


# --- vocabulary: the events of these options, and how each changes the state -------------


@event
class EventCardsTaken(HotwEvent):
    """Option 1: the player with most gold takes the epoch's Event cards (seen by that seat)."""

    seat: int
    cards: tuple[str, ...]


@event
class EventCardChosen(HotwEvent):
    """Option 1: a player secretly keeps one of the Event cards on offer."""

    seat: int
    card: str


@event
class EventCardsPassed(HotwEvent):
    """Option 1: the remaining Event cards go to the player with the next most gold."""

    from_seat: int
    to_seat: int
    cards: tuple[str, ...]


@event
class EmpireCardsTaken(HotwEvent):
    """Option 2: the player with least gold takes the epoch's Empire cards (seen by that seat)."""

    seat: int
    cards: tuple[str, ...]


@event
class HiddenEmpireCardChosen(HotwEvent):
    """Option 2: a player secretly keeps one of the Empire cards on offer."""

    seat: int
    card: str


@event
class EmpireCardsPassed(HotwEvent):
    """Option 2: the remaining Empire cards go to the player with the next least gold."""

    from_seat: int
    to_seat: int
    cards: tuple[str, ...]


@FOLDS.handles(EventCardsTaken)
def _event_cards_taken(pack: HotwPack, state: HotwState, e: EventCardsTaken) -> HotwState:
    return evolved(
        state,
        step=OrganizationStep.SELECT_EVENT_CARDS,
        offer=tuple(e.cards),
        choosing=state.gold_order(),
    )


@FOLDS.handles(EventCardChosen)
def _event_card_chosen(pack: HotwPack, state: HotwState, e: EventCardChosen) -> HotwState:
    state = with_player(state, e.seat, event_card=e.card)
    choosing = state.choosing[1:]
    return evolved(
        state,
        offer=tuple(c for c in state.offer if c != e.card),
        choosing=choosing,
        step=state.step if choosing else None,
    )


@FOLDS.handles(EventCardsPassed)
@FOLDS.handles(EmpireCardsPassed)
def _cards_passed(pack: HotwPack, state: HotwState, e: EventCardsPassed) -> HotwState:
    return state


@FOLDS.handles(EmpireCardsTaken)
def _empire_cards_taken(pack: HotwPack, state: HotwState, e: EmpireCardsTaken) -> HotwState:
    return evolved(
        state,
        step=OrganizationStep.SELECT_HIDDEN_EMPIRE_CARDS,
        offer=tuple(e.cards),
        choosing=tuple(reversed(state.gold_order())),
    )


@FOLDS.handles(HiddenEmpireCardChosen)
def _hidden_chosen(pack: HotwPack, state: HotwState, e: HiddenEmpireCardChosen) -> HotwState:
    choices = {**state.empire_choices, e.card: e.seat}
    state = with_player(state, e.seat, empire_cards=(*state.players[e.seat].empire_cards, e.card))
    state = evolved(
        state,
        empire_choices=choices,
        offer=tuple(c for c in state.offer if c != e.card),
        choosing=state.choosing[1:],
        unrevealed=state.unrevealed | {e.card},
    )
    return state if state.choosing else turns_begin(pack, state)
