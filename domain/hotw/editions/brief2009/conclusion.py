"""The Conclusion of each Epoch and the end of A Brief History of the World: unplayed red cards go
(brief.events.red); the Gold track's stacks are separated (brief.conclusion.adjust); the richest
colours each keep a Bonus token, hidden, the first choosing from the Epoch's space and the second
taking the other (brief.conclusion.bonus-first, brief.conclusion.bonus-second,
brief.conclusion.hidden); after Epoch VI the tokens are revealed (brief.end.reveal-bonus,
brief.end.after-epoch-6) and the most gold wins, ties sharing (brief.object.most-gold,
brief.end.most-gold, brief.end.ties)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event, private_to
from domain.core.turns import Sequential
from domain.hotw.editions.brief2009.context import (
    COMMANDS,
    FOLDS,
    BriefEvent,
    Ctx,
    by_gold,
    with_colour,
    with_gold,
)
from domain.hotw.editions.brief2009.event_cards import discard_red
from domain.hotw.editions.brief2009.gold import separated
from domain.hotw.editions.brief2009.model import (
    BonusDraw,
    BriefState,
    Stage,
)
from domain.hotw.editions.brief2009.organisation import begin_epoch
from domain.hotw.editions.brief2009.tables import BriefTables
from domain.hotw.editions.brief2009.two_players import (
    COMBINED_GOLD_RULE,
    score_of,
    two_colours_each,
)
from domain.hotw.refusals import refused


def _bonus_seat(state: BriefState) -> int | None:
    bonus = state.bonus
    if state.stage is Stage.BONUS and bonus is not None and bonus.position < len(bonus.order):
        return state.owner(bonus.order[bonus.position])
    return None


def _turn_key(state: BriefState) -> tuple[int, int, str]:
    return (state.epoch, state.call_index, state.stage.value)


BONUS: Sequential[BriefState] = Sequential(_bonus_seat, turn=_turn_key)
"""The Bonus draw: the richest colour's player, then the second's."""


def end_epoch(ctx: Ctx) -> None:
    state = ctx.state
    discard_red(ctx)
    colours = ctx.state.colours
    moves = separated([c.gold for c in colours], [c.arrived for c in colours])
    ctx.emit(GoldTrackAdjusted(rule="brief.conclusion.adjust", moves=tuple(moves)))
    order = by_gold(ctx.state, True)[: ctx.tables.numbers.bonus_per_epoch]
    ctx.emit(BonusDrawBegan(rule="brief.conclusion.bonus-first", epoch=state.epoch, order=order))
    offer(ctx, order[0], ctx.state.bonus_spaces[state.epoch - 1])


def bonus_actions(state: BriefState) -> Iterator[Command]:
    assert state.bonus is not None
    for token in sorted(set(state.bonus.offered)):
        yield Command.of("keep_bonus_token", token=token)


def why_not_keep(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "keep one of the Bonus tokens in front of you", "brief.conclusion.bonus-first", command
    )


@COMMANDS.declares(
    "keep_bonus_token",
    "Keep one of the Bonus tokens in front of you (the rest pass on).",
    Arg("token", "A Bonus token id.", ids=lambda t: tuple(sorted(x.id for x in t.bonus_tokens))),
    why_not=why_not_keep,
)
def keep_bonus_token(ctx: Ctx, seat: int, command: Command) -> None:
    bonus = ctx.state.bonus
    assert bonus is not None
    colour = bonus.order[bonus.position]
    key = "brief.conclusion.bonus-first" if bonus.position == 0 else "brief.conclusion.bonus-second"
    keep_token(ctx, colour, str(command.arg("token")), key)


def keep_token(ctx: Ctx, colour: int, token: str, rule: str) -> None:
    seat = ctx.state.owner(colour)
    ctx.emit(
        BonusTokenKept(
            rule=rule,
            cites=("brief.conclusion.hidden",),
            colour=colour,
            token=token,
            visibility=private_to(seat, redacted={"colour": colour}),
        )
    )
    bonus = ctx.state.bonus
    assert bonus is not None
    if bonus.offered and bonus.position < len(bonus.order):
        offer(ctx, bonus.order[bonus.position], bonus.offered)


def offer(ctx: Ctx, colour: int, tokens: tuple[str, ...]) -> None:
    seat = ctx.state.owner(colour)
    first = ctx.state.bonus is not None and ctx.state.bonus.position == 0
    ctx.emit(
        BonusTokensOffered(
            rule="brief.conclusion.bonus-first" if first else "brief.conclusion.bonus-second",
            colour=colour,
            tokens=tokens,
            visibility=private_to(seat, redacted={"colour": colour, "count": len(tokens)}),
        )
    )


def bonus_step(ctx: Ctx) -> bool:
    """The last token of a space goes to the second colour without a choice; then the next
    Epoch begins, or the game ends."""
    state = ctx.state
    bonus = state.bonus
    assert bonus is not None
    if bonus.offered and bonus.position < len(bonus.order):
        if len(bonus.offered) > 1:
            return False
        colour = bonus.order[bonus.position]
        keep_token(ctx, colour, bonus.offered[0], "brief.conclusion.bonus-second")
        return True
    ctx.emit(BonusDrawEnded(rule="brief.conclusion.bonus-second", epoch=state.epoch))
    if state.epoch < ctx.tables.numbers.epochs:
        begin_epoch(ctx, state.epoch + 1)
    else:
        end_game(ctx)
    return True


def end_game(ctx: Ctx) -> None:
    state = ctx.state
    tokens = tuple(c.bonus for c in state.colours)
    values = tuple(sum(ctx.tables.token(t).value for t in held) for held in tokens)
    ctx.emit(
        BonusTokensRevealed(
            rule="brief.end.reveal-bonus",
            cites=("brief.end.after-epoch-6",),
            tokens=tokens,
            values=values,
        )
    )
    gold = tuple(c.gold + v for c, v in zip(state.colours, values, strict=True))
    scores = tuple(score_of(state, gold, seat) for seat in range(len(state.players)))
    ctx.emit(
        GameEnded(
            rule="brief.end.most-gold",
            cites=(
                "brief.object.most-gold",
                "brief.end.ties",
                *((COMBINED_GOLD_RULE,) if two_colours_each(state) else ()),
            ),
            gold=gold,
            scores=scores,
            ranking=ranked(scores),
        )
    )


def ranked(scores: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """brief.end.most-gold and .ties: best first, equal scores sharing a place."""
    groups: list[list[int]] = []
    for seat in sorted(range(len(scores)), key=lambda s: (-scores[s], s)):
        if groups and scores[groups[-1][0]] == scores[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return tuple(tuple(g) for g in groups)


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class GoldTrackAdjusted(BriefEvent):
    """Stacked markers moved forward: (colour, from, to)."""

    moves: tuple[tuple[int, int, int], ...]


@FOLDS.handles(GoldTrackAdjusted)
def _adjusted(t: BriefTables, s: BriefState, e: GoldTrackAdjusted) -> BriefState:
    for colour, old, new in e.moves:
        s = with_gold(s, colour, new - old)
    return s


@event
class BonusDrawBegan(BriefEvent):
    """The richest colours, in order, who take the Epoch's Bonus tokens."""

    epoch: int
    order: tuple[int, ...]


@FOLDS.handles(BonusDrawBegan)
def _bonus_began(t: BriefTables, s: BriefState, e: BonusDrawBegan) -> BriefState:
    return evolved(s, stage=Stage.BONUS, bonus=BonusDraw(tuple(e.order)))


@event
class BonusTokensOffered(BriefEvent):
    colour: int
    tokens: tuple[str, ...]


@FOLDS.handles(BonusTokensOffered)
def _offered(t: BriefTables, s: BriefState, e: BonusTokensOffered) -> BriefState:
    assert s.bonus is not None
    return evolved(s, bonus=evolved(s.bonus, offered=tuple(e.tokens)))


@event
class BonusTokenKept(BriefEvent):
    colour: int
    token: str


@FOLDS.handles(BonusTokenKept)
def _kept(t: BriefTables, s: BriefState, e: BonusTokenKept) -> BriefState:
    bonus = s.bonus
    assert bonus is not None
    s = with_colour(s, e.colour, bonus=(*s.colours[e.colour].bonus, e.token))
    offered = tuple(x for x in bonus.offered if x != e.token)
    return evolved(s, bonus=evolved(bonus, offered=offered, position=bonus.position + 1))


@event
class BonusDrawEnded(BriefEvent):
    epoch: int


@FOLDS.handles(BonusDrawEnded)
def _bonus_ended(t: BriefTables, s: BriefState, e: BonusDrawEnded) -> BriefState:
    spaces = tuple(() if i == e.epoch - 1 else x for i, x in enumerate(s.bonus_spaces))
    return evolved(s, bonus=None, bonus_spaces=spaces)


@event
class BonusTokensRevealed(BriefEvent):
    REVEALS_HIDDEN = True

    tokens: tuple[tuple[str, ...], ...]
    values: tuple[int, ...]


@FOLDS.handles(BonusTokensRevealed)
def _revealed(t: BriefTables, s: BriefState, e: BonusTokensRevealed) -> BriefState:
    return s


@event
class GameEnded(BriefEvent):
    """Each colour's gold with its Bonus tokens, each player's total, and the ranking (tied
    players share a place)."""

    gold: tuple[int, ...]
    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]


@FOLDS.handles(GameEnded)
def _ended(t: BriefTables, s: BriefState, e: GameEnded) -> BriefState:
    return evolved(
        s,
        stage=Stage.OVER,
        final=tuple(e.scores),
        result=tuple(tuple(g) for g in e.ranking),
    )
