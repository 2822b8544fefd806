"""A. Reveal the Event (p4): the turn's Event card turned face up, an Honor for its icon, and
the Event carried out: its text now (or in a later phase), or its pieces played as an Empire."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.changes import added, with_player, with_turn
from domain.hotw.editions.hotw_2024.cards import EventCard, EventKind, Phase
from domain.hotw.editions.hotw_2024.context import (
    FOLDS,
    Ctx,
    HotwEvent,
    cited,
)
from domain.hotw.editions.hotw_2024.effects import people_for_event
from domain.hotw.editions.hotw_2024.establish import establish_in
from domain.hotw.editions.hotw_2024.honors import (
    award_honor,
)
from domain.hotw.editions.hotw_2024.model import (
    EffectTask,
    HotwState,
    Pool,
    StartLandTask,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack


def event_card(ctx: Ctx) -> EventCard | None:
    card = ctx.turn.event_card
    return ctx.cards.event(card) if card else None


def reveal_entry(ctx: Ctx) -> None:
    """reveal.flip, .honor-icon, .kinds, .later-event."""
    card = event_card(ctx)
    if card is None:
        return
    seat = ctx.seat
    ctx.emit(EventRevealed(rule="hotw24.reveal.flip", seat=seat, card=card.id))
    if card.honor_icon:
        award_honor(ctx, seat, "hotw24.reveal.honor-icon", ("hotw24.honors.award.event-icon",))
    if card.later_event is not None:
        return
    if card.kind is EventKind.TEXT:
        carry_out_text_event(ctx, card)
    else:
        event_as_empire(ctx, card)


def carry_out_text_event(ctx: Ctx, card: EventCard, also: tuple[str, ...] = ()) -> None:
    rule = "hotw24.reveal.kinds" if card.later_event is None else "hotw24.reveal.later-event"
    ctx.emit(EventCarriedOut(rule=rule, cites=cited(*also), seat=ctx.seat, card=card.id))
    people = min(people_for_event(ctx.pack, card.id), ctx.state.players[ctx.seat].supply)
    if people:
        ctx.emit(EventPoolFilled(rule="hotw24.events.pool", seat=ctx.seat, people=people))


def carry_out_later_event(ctx: Ctx, phase: Phase) -> None:
    """A Later Event is carried out in the phase its icon shows, in each such phase of the
    turn (so twice for the Incas & Aztecs, empires.incas-aztecs.ocean-trade)."""
    card = event_card(ctx)
    if card is not None and card.later_event is phase and card.kind is EventKind.TEXT:
        two_empires = len(ctx.cards.empire(ctx.turn.card).empires) > 1
        carry_out_text_event(
            ctx, card, ("hotw24.empires.incas-aztecs.ocean-trade",) if two_empires else ()
        )


def event_as_empire(ctx: Ctx, card: EventCard) -> None:
    """events.as-empire: a textless Event is established and expanded like an Empire,
    from its Event pool (events.pool)."""
    spec = card.pieces
    assert spec is not None
    seat = ctx.seat
    people = min(spec.people, ctx.state.players[seat].supply)
    fleets = min(spec.fleets, ctx.state.supply.get("fleet", 0))
    ctx.emit(
        EventPoolFilled(
            rule="hotw24.events.pool", seat=seat, people=people, fleets=fleets, as_empire=True
        )
    )
    if spec.start_land_choice is not None:
        if start_land_options(ctx.pack, ctx.state, card.id):
            ctx.emit(StartLandChoiceOffered(rule="hotw24.events.ancients", seat=seat, card=card.id))
        return
    establish_in(ctx, spec, spec.start_lands, "event")


def start_land_options(pack: HotwPack, state: HotwState, card_id: str) -> list[str]:
    from domain.hotw.editions.hotw_2024.effects import select_lands
    from domain.hotw.editions.hotw_2024.model import EffectTask

    spec = pack.cards.event(card_id).pieces
    assert spec is not None and spec.start_land_choice is not None and state.turn is not None
    probe = EffectTask(state.turn.seat, "event", card_id)
    return select_lands(pack.board, state, state.turn.seat, spec.start_land_choice, probe)


@event
class EventRevealed(HotwEvent):
    REVEALS_HIDDEN = True

    seat: int
    card: str


@event
class EventCarriedOut(HotwEvent):
    """A text Event's instructions begin (in phase A, or in its Later Event phase)."""

    seat: int
    card: str


@event
class EventPoolFilled(HotwEvent):
    seat: int
    people: int
    fleets: int = 0
    as_empire: bool = False


@event
class StartLandChoiceOffered(HotwEvent):
    seat: int
    card: str


@FOLDS.handles(EventRevealed)
def _revealed(pack: HotwPack, state: HotwState, e: EventRevealed) -> HotwState:
    player = state.players[e.seat]
    return with_player(state, e.seat, event_card=None, event_cards=(*player.event_cards, e.card))


@FOLDS.handles(EventCarriedOut)
def _carried_out(pack: HotwPack, state: HotwState, e: EventCarriedOut) -> HotwState:
    return evolved(state, agenda=(*state.agenda, EffectTask(e.seat, "event", e.card)))


@FOLDS.handles(EventPoolFilled)
def _event_pool(pack: HotwPack, state: HotwState, e: EventPoolFilled) -> HotwState:
    assert state.turn is not None
    pool = state.turn.event_pool
    state = with_turn(
        state,
        event_pool=Pool(pool.people + e.people, pool.fleets + e.fleets, pool.great_wall_forts),
        event_expand=state.turn.event_expand or e.as_empire,
    )
    state = with_player(state, e.seat, supply=state.players[e.seat].supply - e.people)
    return evolved(state, supply=added(state.supply, fleet=-e.fleets))


@FOLDS.handles(StartLandChoiceOffered)
def start_land_offered(pack: HotwPack, state: HotwState, e: StartLandChoiceOffered) -> HotwState:
    return evolved(state, agenda=(*state.agenda, StartLandTask(e.seat, e.card)))
