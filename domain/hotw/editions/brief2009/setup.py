"""Setup of A Brief History of the World: the colours' armies and the shared supply, the
starting player drawn and the Gold markers placed in order from it (brief.setup.starting-player,
brief.setup.gold-markers), Leader and Weaponry dealt to be had by every Empire
(brief.setup.leader-weaponry), and the Bonus tokens shuffled face down onto the Epoch spaces
(brief.setup.bonus-tokens, brief.setup.hidden).

The state a game starts in: the board's lands and barren lands empty (brief.components.board,
brief.components.barren), every colour's armies and the shared supply of pieces
(brief.components.pieces, brief.setup.supply), for the players and options chosen
(brief.setup.player-count, brief.setup.options)."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event, private_to
from domain.core.ruleset import Setup
from domain.hotw.changes import with_player
from domain.hotw.editions.brief2009.context import (
    FOLDS,
    BriefEvent,
    Ctx,
    with_gold,
)
from domain.hotw.editions.brief2009.model import (
    BriefState,
    Colour,
    Player,
    Stage,
)
from domain.hotw.editions.brief2009.tables import BriefTables
from domain.hotw.editions.brief2009.two_players import COLOURS_RULE, colour_count, two_colours_each

PLAYER_COUNT_RULE = "brief.setup.player-count"
"""The clause a player count the game is not for is refused by (the ruleset's `setup_rule`)."""
OPTIONS_RULE = "brief.setup.options"
"""The clause an option the game does not have is refused by."""
STARTING_STATE_RULES = ("brief.setup.supply",)
"""The clause that fixes the state the game starts in: every piece in its supply."""
COMPONENTS = ("brief.components.board", "brief.components.barren", "brief.components.pieces")
"""The components the game starts on, as the data pack reads them (board.yaml, pieces.yaml)."""


def initial_state(tables: BriefTables, setup: Setup) -> BriefState:
    numbers = tables.numbers
    colours = colour_count(len(setup.players))
    armies = numbers.supply["armies_per_colour"]
    return BriefState(
        epoch=0,
        stage=Stage.ALLOCATING,
        players=tuple(Player(name) for name in setup.players),
        colours=tuple(
            Colour(seat=c % len(setup.players), gold=0, supply=armies) for c in range(colours)
        ),
        supply={k: v for k, v in numbers.supply.items() if k != "armies_per_colour"},
    )


def set_up(ctx: Ctx) -> None:
    state, chance, tables = ctx.state, ctx.chance, ctx.tables
    count = len(state.colours)
    first = chance.below(count)
    gold = [0] * count
    for place in range(count):
        gold[(first + place) % count] = place + 1
    ctx.emit(
        StartingPlayerDrawn(
            rule="brief.setup.starting-player",
            cites=(
                "brief.setup.gold-markers",
                *((COLOURS_RULE,) if two_colours_each(state) else ()),
            ),
            first=first,
            gold=tuple(gold),
            draws=chance.take_draws(),
        )
    )
    starters = tuple(tables.starter(kind).id for kind in ("leader", "weaponry"))
    ctx.emit(StarterCardsDealt(rule="brief.setup.leader-weaponry", cards=starters))
    tokens = chance.shuffled([t.id for t in tables.bonus_tokens])
    per = tables.numbers.bonus_per_epoch
    spaces = tuple(tuple(tokens[i * per : (i + 1) * per]) for i in range(len(tokens) // per))
    ctx.emit(
        BonusTokensShuffled(
            rule="brief.setup.bonus-tokens",
            cites=("brief.setup.hidden",),
            spaces=spaces,
            visibility=private_to(redacted={"count": len(tokens)}),
            draws=chance.take_draws(),
        )
    )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class StartingPlayerDrawn(BriefEvent):
    """The starting colour, and each colour's first space on the Gold track."""

    first: int
    gold: tuple[int, ...]


@FOLDS.handles(StartingPlayerDrawn)
def _starting(t: BriefTables, s: BriefState, e: StartingPlayerDrawn) -> BriefState:
    for offset in range(len(e.gold)):
        colour = (e.first + offset) % len(e.gold)
        s = with_gold(s, colour, e.gold[colour] - s.colours[colour].gold)
    return s


@event
class StarterCardsDealt(BriefEvent):
    """Every player's Leader and Weaponry card (dealt face up: all hold the same pair)."""

    cards: tuple[str, ...]


@FOLDS.handles(StarterCardsDealt)
def _starters(t: BriefTables, s: BriefState, e: StarterCardsDealt) -> BriefState:
    for seat, player in enumerate(s.players):
        s = with_player(s, seat, hand=(*player.hand, *e.cards))
    return s


@event
class BonusTokensShuffled(BriefEvent):
    spaces: tuple[tuple[str, ...], ...]


@FOLDS.handles(BonusTokensShuffled)
def _shuffled(t: BriefTables, s: BriefState, e: BonusTokensShuffled) -> BriefState:
    return evolved(s, bonus_spaces=tuple(tuple(x) for x in e.spaces))
