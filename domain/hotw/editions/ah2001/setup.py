"""Chapter II of the Avalon Hill 2001 rules, Object and Setup: the Event cards dealt, the
pre-eminence markers shuffled, the first drawing order rolled, and the seven epochs begun
(ah2001.object.epochs, ah2001.setup.event-cards, ah2001.setup.pre-eminence,
ah2001.empires.first-draw-order; with ah2001.option.minor-empires, the Minor Empire deal).

The state a game starts in: every colour's figures and the shared supply of capitals and
cities, forts, monuments and counters (ah2001.components.pieces, ah2001.setup.pieces; coins and
fleets share the counters: ah2001.components.coin-fleet), the board empty and every score at 0
(ah2001.setup.board, ah2001.setup.score-charts), for the players and options chosen
(ah2001.setup.player-count, ah2001.setup.options)."""

from __future__ import annotations

from domain.core.chance import Chance
from domain.core.frozen import evolved
from domain.core.messages import event, private_to
from domain.core.ruleset import Setup
from domain.hotw.changes import with_player
from domain.hotw.editions.ah2001.context import (
    FOLDS,
    MINOR_EMPIRES,
    Ah2001Event,
    Ctx,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Drawing,
    Player,
    Stage,
)
from domain.hotw.editions.ah2001.tables import Ah2001Tables

PLAYER_COUNT_RULE = "ah2001.setup.player-count"
"""The clause a player count the game is not for is refused by (the ruleset's `setup_rule`)."""
OPTIONS_RULE = "ah2001.setup.options"
"""The clause an option the game does not have is refused by."""
STARTING_STATE_RULES = (
    "ah2001.components.pieces",
    "ah2001.components.coin-fleet",
    "ah2001.setup.pieces",
    "ah2001.setup.board",
    "ah2001.setup.score-charts",
)
"""The clauses that fix the state the game starts in: the shared supply of pieces (coin and
fleet counters one supply), every colour's figures, the board and every score at 0."""


def initial_state(tables: Ah2001Tables, setup: Setup) -> Ah2001State:
    """Epoch 0, drawing: the players' empty hands and scores, the shared supply, the options."""
    pieces = tables.pieces
    return Ah2001State(
        epoch=0,
        stage=Stage.DRAWING,
        players=tuple(Player(name) for name in setup.players),
        supply={
            "capitals_and_cities": pieces.capitals_and_cities,
            "forts": pieces.forts,
            "monuments": pieces.monuments,
            "counters": pieces.coins_and_fleets,
        },
        options=frozenset(k for k, v in setup.options.items() if v is True),
    )


def set_up(ctx: Ctx) -> None:
    """Roll for the first drawing order (ties roll again), deal the Event cards, shuffle the
    pre-eminence markers and begin Epoch I."""
    state, chance = ctx.state, ctx.chance
    seats = len(state.players)
    rolls: list[tuple[int, ...]] = [chance.dice(2) for _ in range(seats)]
    contenders = list(range(seats))
    while True:
        best = max(sum(rolls[s]) for s in contenders)
        contenders = [s for s in contenders if sum(rolls[s]) == best]
        if len(contenders) == 1:
            break
        for seat in contenders:
            rolls[seat] = (*rolls[seat], *chance.dice(2))
    first = contenders[0]
    order = tuple((first + i) % seats for i in range(seats))
    ctx.emit(
        DrawOrderRolled(
            rule="ah2001.empires.first-draw-order",
            rolls=tuple(rolls),
            order=order,
            draws=chance.take_draws(),
        )
    )
    hands = deal(ctx.tables, state, chance)
    dealt = chance.take_draws()
    minors = MINOR_EMPIRES in state.options
    for seat, hand in enumerate(hands):
        ctx.emit(
            EventCardsDealt(
                rule="ah2001.option.minor-empires" if minors else "ah2001.setup.event-cards",
                seat=seat,
                cards=hand,
                visibility=private_to(seat, redacted={"seat": seat, "count": len(hand)}),
                draws=dealt if seat == 0 else (),
            )
        )
    markers = chance.shuffled(ctx.tables.pieces.pre_eminence_markers)
    ctx.emit(
        MarkersShuffled(
            rule="ah2001.setup.pre-eminence",
            markers=markers,
            visibility=private_to(redacted={"count": len(markers)}),
            draws=chance.take_draws(),
        )
    )
    ctx.emit(EpochBegan(rule="ah2001.object.epochs", epoch=1, order=order))


def deal(tables: Ah2001Tables, state: Ah2001State, chance: Chance) -> list[tuple[str, ...]]:
    """ah2001.setup.event-cards: Greater and Lesser cards dealt from shuffled decks; with
    ah2001.option.minor-empires each player gets one Minor Empire and two other Greater."""
    seats = len(state.players)
    pieces = tables.pieces
    greater_ids = tables.deck("greater")
    minor_ids = {c.id for c in tables.events if c.kind == "minor-empire"}
    minors: list[str] = []
    per_seat = pieces.greater_dealt
    if MINOR_EMPIRES in state.options:
        minors = list(chance.shuffled(tuple(c for c in greater_ids if c in minor_ids)))
        greater_ids = tuple(c for c in greater_ids if c not in minor_ids)
        per_seat -= 1
    greater = list(chance.shuffled(greater_ids))
    lesser = list(chance.shuffled(tables.deck("lesser")))
    return [
        (
            *minors[seat : seat + 1],
            *greater[seat * per_seat : (seat + 1) * per_seat],
            *lesser[seat * pieces.lesser_dealt : (seat + 1) * pieces.lesser_dealt],
        )
        for seat in range(seats)
    ]


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class DrawOrderRolled(Ah2001Event):
    """Epoch I: each player's two dice, and the drawing order they give."""

    rolls: tuple[tuple[int, ...], ...]
    order: tuple[int, ...]


@FOLDS.handles(DrawOrderRolled)
def _draw_order(t: Ah2001Tables, s: Ah2001State, e: DrawOrderRolled) -> Ah2001State:
    return evolved(s, first_order=tuple(e.order))


@event
class EventCardsDealt(Ah2001Event):
    seat: int
    cards: tuple[str, ...]


@FOLDS.handles(EventCardsDealt)
def _dealt(t: Ah2001Tables, s: Ah2001State, e: EventCardsDealt) -> Ah2001State:
    return with_player(s, e.seat, hand=tuple(e.cards))


@event
class MarkersShuffled(Ah2001Event):
    markers: tuple[int, ...]


@FOLDS.handles(MarkersShuffled)
def _markers(t: Ah2001Tables, s: Ah2001State, e: MarkersShuffled) -> Ah2001State:
    return evolved(s, markers=tuple(e.markers))


@event
class EpochBegan(Ah2001Event):
    epoch: int
    order: tuple[int, ...]
    """The drawing order for this epoch's Empire cards."""


@FOLDS.handles(EpochBegan)
def _epoch(t: Ah2001Tables, s: Ah2001State, e: EpochBegan) -> Ah2001State:
    cards = tuple(dict.fromkeys(x.card for x in t.empires_by_epoch[e.epoch]))
    drawing = Drawing(order=tuple(e.order), deck=cards, holders={})
    return evolved(
        s,
        epoch=e.epoch,
        stage=Stage.DRAWING,
        drawing=drawing,
        holders={},
        call_index=0,
        turn=None,
        parked=(),
        slot=None,
        cursor=0,
    )
