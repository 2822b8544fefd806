"""Setting up (p3) and Epoch organization (p4): chests, Honor stacks, counted-out cards, areas
made active, Area tokens selected, Event cards received and Empire cards chosen."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event, private_to
from domain.hotw.changes import with_player
from domain.hotw.editions.hotw_2024.card_selection import (
    choose_event_card,
    choose_hidden_empire_card,
    take_empire_cards,
    take_event_cards,
)
from domain.hotw.editions.hotw_2024.context import (
    COMMANDS,
    FOLDS,
    Arg,
    Ctx,
    HotwEvent,
    area_tokens,
    cited,
    empire_cards,
    event_cards,
    out_of_bag,
    refused,
    turns_begin,
)
from domain.hotw.editions.hotw_2024.gold import most_gold
from domain.hotw.editions.hotw_2024.honors import HonorTurnedUp
from domain.hotw.editions.hotw_2024.model import (
    EndgameToken,
    HotwState,
    OrganizationStep,
    Stage,
    Variant,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack

NOBODY = private_to()
KEPT_SECRET = ("hotw24.general.area-tokens.selection", "hotw24.organization.area-tokens.secret")
"""Drawn Area tokens are kept to be cashed in later, and their areas stay hidden."""


def set_up(ctx: Ctx) -> None:
    """setup.*: random chest order on spaces 1..n, each Honor stack shuffled with its top
    Honor face up on track space 1, and as many Empire and Event cards per epoch as players
    counted out (the rest removed unseen); then Epoch I's organization."""
    players = len(ctx.state.players)
    order = ctx.chance.shuffled(range(players))
    ctx.emit(
        GoldChestsPlaced(rule="hotw24.setup.gold-order", order=order, draws=ctx.chance.take_draws())
    )
    honors = [honor.id for honor in ctx.cards.honors]
    for seat in range(players):
        stack = ctx.chance.shuffled(honors)
        ctx.emit(
            HonorStackShuffled(
                rule="hotw24.setup.honor-stack",
                seat=seat,
                stack=stack,
                visibility=private_to(redacted={"seat": seat, "count": len(stack)}),
                draws=ctx.chance.take_draws(),
            )
        )
        ctx.emit(HonorTurnedUp(rule="hotw24.setup.honor-stack", seat=seat, honor=stack[0]))
    for epoch in ctx.pack.edition.epochs:
        empires = ctx.chance.shuffled([c.id for c in ctx.cards.empires_by_epoch[epoch]])[:players]
        events = ctx.chance.shuffled([c.id for c in ctx.cards.events_by_epoch[epoch]])[:players]
        ctx.emit(
            CardsCountedOut(
                rule="hotw24.setup.cards.unseen",
                cites=cited("hotw24.setup.cards"),
                epoch=epoch,
                empire_cards=empires,
                event_cards=events,
                visibility=private_to(redacted={"epoch": epoch, "count": players}),
                draws=ctx.chance.take_draws(),
            )
        )
    if ctx.state.has_option(Variant.PAIRED_AREA_TOKENS):
        take_paired_area_tokens(ctx)
    begin_epoch(ctx, 1)


def take_paired_area_tokens(ctx: Ctx) -> None:
    """option4.paired-tokens: after setting up, each player takes one of the six
    face-down Paired Area tokens and keeps it secretly; the rest are removed unseen (they stay
    where nobody draws them)."""
    face_down = sorted(ctx.board.paired_area_tokens)
    for seat in range(len(ctx.state.players)):
        if not face_down:
            return
        token = face_down.pop(ctx.chance.below(len(face_down)))
        ctx.emit(
            PairedAreaTokenDrawn(
                rule="hotw24.option4.paired-tokens",
                seat=seat,
                token=token,
                visibility=private_to(seat, redacted={"seat": seat}),
                draws=ctx.chance.take_draws(),
            )
        )


def draw_from_bag(ctx: Ctx, count: int) -> tuple[str, ...]:
    bag = list(ctx.state.bag)
    drawn = []
    for _ in range(min(count, len(bag))):
        drawn.append(bag.pop(ctx.chance.below(len(bag))))
    return tuple(drawn)


def begin_epoch(ctx: Ctx, epoch: int) -> None:
    """organization.activate-areas, then the Area tokens
    (organization.area-tokens.*)."""
    ctx.emit(EpochBegan(rule="hotw24.epoch.structure", epoch=epoch))
    areas = tuple(a for a in ctx.board.areas if ctx.board.areas[a].epoch == epoch)
    tokens = ctx.board.tokens_activated_in(epoch)
    ctx.emit(
        AreasActivated(
            rule="hotw24.organization.activate-areas",
            cites=cited("hotw24.general.area-tokens.active"),
            epoch=epoch,
            areas=areas,
            tokens=tokens,
        )
    )
    players = len(ctx.state.players)
    if epoch == 1:
        rule = "hotw24.organization.area-tokens.epoch-one"
        (face_up,) = draw_from_bag(ctx, 1)
        ctx.emit(
            EndgameTokenPlaced(
                rule=rule,
                epoch=1,
                token=face_up,
                face_up=True,
                draws=ctx.chance.take_draws(),
            )
        )
        for seat in range(players):
            (token,) = draw_from_bag(ctx, 1)
            ctx.emit(
                AreaTokenDrawn(
                    rule=rule,
                    cites=cited(
                        "hotw24.general.area-tokens.selection",
                        "hotw24.organization.area-tokens.secret",
                    ),
                    seat=seat,
                    token=token,
                    visibility=private_to(seat, redacted={"seat": seat}),
                    draws=ctx.chance.take_draws(),
                )
            )
        deal_and_display(ctx)
        return
    richest = most_gold(ctx.state)
    drawn = draw_from_bag(ctx, players + 1)
    ctx.emit(
        AreaTokensDrawn(
            rule="hotw24.organization.area-tokens.later",
            cites=cited(*KEPT_SECRET),
            seat=richest,
            tokens=drawn,
            visibility=private_to(richest, redacted={"seat": richest, "count": len(drawn)}),
            draws=ctx.chance.take_draws(),
        )
    )


def choose_area_token(ctx: Ctx, seat: int, token: str) -> None:
    """Keep one token and pass the rest down the gold order; the one left over goes face down
    on the epoch's Endgame space (organization.area-tokens.later, .leftover, .secret)."""
    rule = "hotw24.organization.area-tokens.later"
    ctx.emit(
        AreaTokenChosen(
            rule=rule,
            cites=cited("hotw24.organization.area-tokens.secret"),
            seat=seat,
            token=token,
            visibility=private_to(seat, redacted={"seat": seat}),
        )
    )
    state = ctx.state
    rest = state.offer
    if state.choosing and rest:
        following = state.choosing[0]
        ctx.emit(
            AreaTokensPassed(
                rule=rule,
                from_seat=seat,
                to_seat=following,
                tokens=rest,
                visibility=private_to(
                    seat,
                    following,
                    redacted={"from_seat": seat, "to_seat": following, "count": len(rest)},
                ),
            )
        )
        return
    for leftover in rest:
        ctx.emit(
            EndgameTokenPlaced(
                rule="hotw24.organization.area-tokens.leftover",
                cites=cited("hotw24.organization.area-tokens.secret"),
                epoch=state.epoch,
                token=leftover,
                face_up=False,
                known_by=(seat,),
                visibility=private_to(seat, redacted={"epoch": state.epoch, "face_up": False}),
            )
        )
    deal_and_display(ctx)


def deal_and_display(ctx: Ctx) -> None:
    """Step 3, Receive Event cards, then step 4, Choose Empire cards."""
    if ctx.state.has_option(Variant.EVENT_CARD_SELECTION):
        take_event_cards(ctx)
        return
    deal_event_cards(ctx)
    offer_empire_cards(ctx)


def deal_event_cards(ctx: Ctx) -> None:
    """organization.event-cards: one to each player, secretly."""
    epoch = ctx.state.epoch
    for seat, card in enumerate(ctx.state.event_decks.get(epoch, ())):
        ctx.emit(
            EventCardDealt(
                rule="hotw24.organization.event-cards",
                seat=seat,
                card=card,
                visibility=private_to(seat, redacted={"seat": seat}),
            )
        )


def offer_empire_cards(ctx: Ctx) -> None:
    """organization.empire-cards.display: face up on the map; under Option 2 the
    player with least gold takes them instead (option2.hidden-empires)."""
    if ctx.state.has_option(Variant.HIDDEN_EMPIRE_CARDS):
        take_empire_cards(ctx)
        return
    epoch = ctx.state.epoch
    cards = tuple(
        sorted(ctx.state.empire_decks.get(epoch, ()), key=lambda c: ctx.cards.empire(c).number)
    )
    ctx.emit(
        EmpireCardsDisplayed(
            rule="hotw24.organization.empire-cards.display", epoch=epoch, cards=cards
        )
    )


def choose_empire_card(ctx: Ctx, seat: int, card: str) -> None:
    """organization.empire-cards.choice: least gold chooses first."""
    ctx.emit(EmpireCardChosen(rule="hotw24.organization.empire-cards.choice", seat=seat, card=card))


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class GoldChestsPlaced(HotwEvent):
    """The chests in random order: order[i] is the seat whose chest is on space i + 1."""

    order: tuple[int, ...]


@event
class HonorStackShuffled(HotwEvent):
    """A player's Honors shuffled face down (top first); private to nobody."""

    seat: int
    stack: tuple[str, ...]


@event
class CardsCountedOut(HotwEvent):
    """One epoch's Empire and Event cards counted out face down; the rest removed unseen."""

    epoch: int
    empire_cards: tuple[str, ...]
    event_cards: tuple[str, ...]


@event
class EpochBegan(HotwEvent):
    epoch: int


@event
class AreasActivated(HotwEvent):
    epoch: int
    areas: tuple[str, ...]
    tokens: tuple[str, ...]


@event
class AreaTokenDrawn(HotwEvent):
    """Epoch I: a player draws one token from the bag and keeps it secretly."""

    seat: int
    token: str


@event
class AreaTokensDrawn(HotwEvent):
    """Epochs II-V: the player with most gold draws players + 1 tokens."""

    seat: int
    tokens: tuple[str, ...]


@event
class AreaTokenChosen(HotwEvent):
    seat: int
    token: str


@event
class AreaTokensPassed(HotwEvent):
    from_seat: int
    to_seat: int
    tokens: tuple[str, ...]


@event
class EndgameTokenPlaced(HotwEvent):
    epoch: int
    token: str
    face_up: bool
    known_by: tuple[int, ...] = ()


@event
class EventCardDealt(HotwEvent):
    seat: int
    card: str


@event
class EmpireCardsDisplayed(HotwEvent):
    REVEALS_HIDDEN = True

    epoch: int
    cards: tuple[str, ...]


@event
class EmpireCardChosen(HotwEvent):
    seat: int
    card: str


@event
class PairedAreaTokenDrawn(HotwEvent):
    """Option 4: a player takes one face-down Paired Area token and keeps it secretly."""

    seat: int
    token: str


@FOLDS.handles(GoldChestsPlaced)
def _chests(pack: HotwPack, state: HotwState, e: GoldChestsPlaced) -> HotwState:
    players = list(state.players)
    for space, seat in enumerate(e.order, start=1):
        players[seat] = evolved(players[seat], gold=space, arrival=space)
    return evolved(state, players=tuple(players), arrivals=len(e.order))


@FOLDS.handles(HonorStackShuffled)
def _stack(pack: HotwPack, state: HotwState, e: HonorStackShuffled) -> HotwState:
    return with_player(state, e.seat, honor_stack=tuple(e.stack))


@FOLDS.handles(CardsCountedOut)
def _counted(pack: HotwPack, state: HotwState, e: CardsCountedOut) -> HotwState:
    empire_decks = {**state.empire_decks, e.epoch: tuple(e.empire_cards)}
    event_decks = {**state.event_decks, e.epoch: tuple(e.event_cards)}
    return evolved(state, empire_decks=empire_decks, event_decks=event_decks)


@FOLDS.handles(EpochBegan)
def _epoch(pack: HotwPack, state: HotwState, e: EpochBegan) -> HotwState:
    return evolved(
        state,
        epoch=e.epoch,
        stage=Stage.ORGANIZATION,
        step=None,
        offer=(),
        choosing=(),
        displayed=(),
        empire_choices={},
        turn_order=(),
        turn_index=0,
        turn=None,
    )


@FOLDS.handles(AreasActivated)
def _activated(pack: HotwPack, state: HotwState, e: AreasActivated) -> HotwState:
    return evolved(
        state,
        active_areas=state.active_areas | frozenset(e.areas),
        bag=(*state.bag, *e.tokens),
    )


@FOLDS.handles(AreaTokenDrawn)
def _token_drawn(pack: HotwPack, state: HotwState, e: AreaTokenDrawn) -> HotwState:
    state = with_player(state, e.seat, area_tokens=(*state.players[e.seat].area_tokens, e.token))
    return evolved(state, bag=out_of_bag(state.bag, (e.token,)))


@FOLDS.handles(AreaTokensDrawn)
def _tokens_drawn(pack: HotwPack, state: HotwState, e: AreaTokensDrawn) -> HotwState:
    return evolved(
        state,
        bag=out_of_bag(state.bag, tuple(e.tokens)),
        step=OrganizationStep.SELECT_AREA_TOKENS,
        offer=tuple(e.tokens),
        choosing=state.gold_order(),
    )


@FOLDS.handles(AreaTokenChosen)
def _token_chosen(pack: HotwPack, state: HotwState, e: AreaTokenChosen) -> HotwState:
    state = with_player(state, e.seat, area_tokens=(*state.players[e.seat].area_tokens, e.token))
    return evolved(
        state, offer=tuple(t for t in state.offer if t != e.token), choosing=state.choosing[1:]
    )


@FOLDS.handles(AreaTokensPassed)
def _passed(pack: HotwPack, state: HotwState, e: AreaTokensPassed) -> HotwState:
    return state


@FOLDS.handles(EndgameTokenPlaced)
def _endgame_token(pack: HotwPack, state: HotwState, e: EndgameTokenPlaced) -> HotwState:
    token = EndgameToken(e.epoch, e.token, e.face_up, tuple(e.known_by))
    return evolved(
        state,
        endgame_tokens=(*state.endgame_tokens, token),
        bag=out_of_bag(state.bag, (e.token,)),
        offer=tuple(t for t in state.offer if t != e.token),
        step=None,
        choosing=(),
    )


@FOLDS.handles(EventCardDealt)
def _dealt(pack: HotwPack, state: HotwState, e: EventCardDealt) -> HotwState:
    return with_player(state, e.seat, event_card=e.card)


@FOLDS.handles(EmpireCardsDisplayed)
def _displayed(pack: HotwPack, state: HotwState, e: EmpireCardsDisplayed) -> HotwState:
    return evolved(
        state,
        step=OrganizationStep.CHOOSE_EMPIRE_CARDS,
        displayed=tuple(e.cards),
        choosing=tuple(reversed(state.gold_order())),
    )


@FOLDS.handles(EmpireCardChosen)
def _chosen(pack: HotwPack, state: HotwState, e: EmpireCardChosen) -> HotwState:
    choices = {**state.empire_choices, e.card: e.seat}
    state = with_player(state, e.seat, empire_cards=(*state.players[e.seat].empire_cards, e.card))
    displayed = tuple(c for c in state.displayed if c != e.card)
    choosing = state.choosing[1:]
    state = evolved(state, empire_choices=choices, displayed=displayed, choosing=choosing)
    return state if choosing else turns_begin(pack, state)


@FOLDS.handles(PairedAreaTokenDrawn)
def _paired_drawn(pack: HotwPack, state: HotwState, e: PairedAreaTokenDrawn) -> HotwState:
    return with_player(state, e.seat, area_tokens=(*state.players[e.seat].area_tokens, e.token))


# --- commands: the choices of epoch organization ----------------------------------------------


def organization_actions(state: HotwState) -> Iterator[Command]:
    """The Area token, Event card or Empire card choices on offer to the choosing seat."""
    if state.step is OrganizationStep.SELECT_AREA_TOKENS:
        for token in sorted(state.offer):
            yield Command.of("choose_area_token", token=token)
    elif state.step is OrganizationStep.SELECT_EVENT_CARDS:
        for card in sorted(state.offer):
            yield Command.of("choose_event_card", card=card)
    else:
        hidden = state.step is OrganizationStep.SELECT_HIDDEN_EMPIRE_CARDS
        for card in state.offer if hidden else state.displayed:
            yield Command.of("choose_empire_card", card=card)


def why_not_choose_area_token(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "that Area token is not on offer", "hotw24.organization.area-tokens.later", command
    )


def why_not_choose_event_card(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation:
    if not state.has_option(Variant.EVENT_CARD_SELECTION):
        return refused(
            "Event cards are dealt, not chosen (Option 1 is not in play)",
            "hotw24.organization.event-cards",
            command,
        )
    return refused(
        "that Event card is not among those passed to you",
        "hotw24.option1.event-selection",
        command,
    )


def why_not_choose_empire_card(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation:
    if state.step is OrganizationStep.SELECT_HIDDEN_EMPIRE_CARDS:
        return refused(
            "that Empire card is not among those passed to you",
            "hotw24.option2.hidden-empires",
            command,
        )
    return refused(
        "that Empire card is not on offer", "hotw24.organization.empire-cards.choice", command
    )


@COMMANDS.declares(
    "choose_area_token",
    "Organization: take one of the Area tokens on offer.",
    Arg("token", "An Area token id.", area_tokens),
    why_not=why_not_choose_area_token,
)
def do_choose_area_token(ctx: Ctx, seat: int, command: Command) -> None:
    choose_area_token(ctx, seat, str(command.arg("token")))


@COMMANDS.declares(
    "choose_event_card",
    "Organization (Option 1): keep one Event card of those dealt to you.",
    Arg("card", "An Event card id.", event_cards),
    why_not=why_not_choose_event_card,
)
def do_choose_event_card(ctx: Ctx, seat: int, command: Command) -> None:
    if not choose_event_card(ctx, seat, str(command.arg("card"))):
        offer_empire_cards(ctx)


@COMMANDS.declares(
    "choose_empire_card",
    "Organization: take an Empire card for this epoch (or pass one on).",
    Arg("card", "An Empire card id.", empire_cards),
    why_not=why_not_choose_empire_card,
)
def do_choose_empire_card(ctx: Ctx, seat: int, command: Command) -> None:
    card = str(command.arg("card"))
    if ctx.state.step is OrganizationStep.SELECT_HIDDEN_EMPIRE_CARDS:
        choose_hidden_empire_card(ctx, seat, card)
    else:
        choose_empire_card(ctx, seat, card)


ORGANIZATION_COMMANDS = frozenset({"choose_area_token", "choose_event_card", "choose_empire_card"})
