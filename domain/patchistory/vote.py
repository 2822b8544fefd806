"""The Vote (patchistory.vote.*), in each Era's 5th Round: each player puts a Prosperity Card
to the Vote under seal (patchistory.vote.cards), the cards are turned up in a shuffled order and
each is voted on under seal (patchistory.vote.assign); with 3-4 players the card with the fewest
Votes is discarded (patchistory.vote.discard), and every card kept gives or takes Culture by
each player's rank in its status (patchistory.vote.points, patchistory.vote.ties); Votes left
are forfeited (patchistory.vote.forfeit). Examples: `WORKED_EXAMPLES`."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.core.turns import SealedCommand
from domain.patchistory import eras
from domain.patchistory import territory as terr
from domain.patchistory.context import (
    COMMANDS,
    FOLDS,
    Ctx,
    PatchEvent,
    behind_screen,
    goods_changed,
)
from domain.patchistory.model import PState
from domain.patchistory.pack import PatchPack
from domain.patchistory.revisions import GOODS_BEHIND_THE_SCREEN
from domain.patchistory.rounds import AT_ONCE, PhaseBegan, refused_by

WORKED_EXAMPLES = (
    "patchistory.example.vote",
    "patchistory.example.vote-ranks",
)
"""The rulebook's worked examples of this chapter, each played again by a test."""


def begin_vote(ctx: Ctx) -> None:
    state = ctx.state
    seats = tuple(s for s in state.in_order() if state.civs[s].prosperity)
    if not seats:
        eras.end_era(ctx)
        return
    ctx.emit(PhaseBegan(rule="patchistory.vote.cards", phase="vote-card", seats=seats))


def next_vote(ctx: Ctx) -> None:
    state = ctx.state
    if state.vote_index < len(state.vote_cards):
        ctx.emit(PhaseBegan(rule="patchistory.vote.assign", phase="vote", seats=state.in_order()))
        return
    score_vote(ctx)
    eras.end_era(ctx)


def vote_ranks(scores: list[int]) -> list[int]:
    """Each seat's place on a Prosperity Card: tied players are lowered by one less than their
    number (patchistory.vote.ties: two tied 2nd are both 3rd, three tied 2nd all 4th)."""
    places = []
    for score in scores:
        better = sum(1 for s in scores if s > score)
        tied = sum(1 for s in scores if s == score)
        places.append(better + tied)
    return places


def vote_culture(place: int, value: int, players: int) -> int:
    """patchistory.vote.points: 1st gains the value, 2nd half (down), 3rd nothing, 4th (4
    players) forfeits half; with 2 players the 2nd gains nothing."""
    if place == 1:
        return value
    if place == 2 and players >= 3:
        return value // 2
    if place == 4 and players == 4:
        return -(value // 2)
    return 0


def score_vote(ctx: Ctx) -> None:
    state = ctx.state
    cards, votes = state.vote_cards, state.votes_on
    n = state.players
    fewest = min(votes)
    kept = list(range(len(cards)))
    if n >= 3:
        kept = [i for i in kept if votes[i] != fewest]
        for i in range(len(cards)):
            if votes[i] == fewest:
                ctx.emit(
                    ProsperityDiscarded(
                        rule="patchistory.vote.discard", card=cards[i], votes=votes[i]
                    )
                )
    for i in kept:
        value = votes[i]
        if n == 2 and len(cards) == 2 and votes[i] == fewest and votes[0] != votes[1]:
            value = votes[i] // 2
        measure = ctx.pack.prosperity[cards[i]].measure
        scores = [terr.statuses(ctx.pack, ctx.state, s)[measure] for s in range(n)]
        ranks = vote_ranks(scores)
        culture = []
        for seat, place in enumerate(ranks):
            gain = vote_culture(place, value, n)
            if gain < 0 and not ctx.pack.since(GOODS_BEHIND_THE_SCREEN):
                gain = -min(-gain, ctx.state.civs[seat].culture)
            culture.append(gain)
        ctx.emit(
            ProsperityScored(
                rule="patchistory.vote.points",
                cites=("patchistory.vote.ties",),
                card=cards[i],
                votes=votes[i],
                value=value,
                ranks=tuple(ranks),
                culture=tuple(culture),
            )
        )
    ctx.emit(
        VotesForfeited(
            rule="patchistory.vote.forfeit",
            votes=tuple(c.votes for c in ctx.state.civs),
            visibility=behind_screen(ctx.pack),
        )
    )


# --- what a seat may do ------------------------------------------------------------------------


def card_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    for card in sorted(set(state.civs[seat].prosperity)):
        yield Command.of("choose_card", card=card)


def vote_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    for votes in range(state.civs[seat].votes + 1):
        yield Command.of("vote", votes=votes)


def prosperity_cards(pack: PatchPack) -> tuple[str, ...]:
    return tuple(sorted(pack.prosperity))


@COMMANDS.declares(
    "choose_card",
    "The Prosperity Card you put to the Vote, in secret.",
    Arg("card", "A Prosperity Card of your hand.", prosperity_cards),
    why_not=refused_by("patchistory.vote.cards"),
)
def choose_card(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        ProsperityChosen(
            rule="patchistory.vote.cards",
            seat=seat,
            card=str(command.arg("card")),
            visibility=AT_ONCE.sealed_visibility(seat),
        )
    )
    if not AT_ONCE.all_committed(ctx.state):
        return
    state = ctx.state
    chosen = state.sealed_map()
    cards = [state.civs[s].prosperity[chosen[s][0]] for s in sorted(chosen)]
    order = ctx.chance.shuffled(sorted(cards))
    ctx.emit(
        ProsperityRevealed(
            rule="patchistory.vote.cards", cards=order, draws=ctx.chance.take_draws()
        )
    )


@COMMANDS.declares(
    "vote",
    "Votes for the Prosperity Card being voted on, in secret.",
    Arg("votes", "Votes.", kind=int, minimum=0),
    why_not=refused_by("patchistory.vote.assign"),
)
def vote(ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    card = state.vote_cards[state.vote_index]
    ctx.emit(
        VotesCommitted(
            rule="patchistory.vote.assign",
            seat=seat,
            card=card,
            count=int(command.arg("votes")),
            visibility=AT_ONCE.sealed_visibility(seat, card=card),
        )
    )
    if not AT_ONCE.all_committed(ctx.state):
        return
    sealed = ctx.state.sealed_map()
    votes = tuple(sealed[s][0] for s in range(state.players))
    ctx.emit(
        VotesRevealed(rule="patchistory.vote.assign", card=card, votes=votes, total=sum(votes))
    )


# --- the events --------------------------------------------------------------------------------


@event
class ProsperityChosen(PatchEvent, SealedCommand):
    seat: int
    card: str


@FOLDS.handles(ProsperityChosen)
def _chosen(pack: PatchPack, state: PState, ev: ProsperityChosen) -> PState:
    index = state.civs[ev.seat].prosperity.index(ev.card)
    return evolved(state, sealed=(*state.sealed, (ev.seat, (index,))))


@event
class ProsperityRevealed(PatchEvent):
    """The chosen cards, shuffled and turned up (who chose which stays unknown)."""

    REVEALS_HIDDEN = True

    cards: tuple[str, ...]


@FOLDS.handles(ProsperityRevealed)
def _revealed(pack: PatchPack, state: PState, ev: ProsperityRevealed) -> PState:
    chosen = dict(state.sealed)
    civs = tuple(
        evolved(c, prosperity=tuple(p for i, p in enumerate(c.prosperity) if i != chosen[s][0]))
        if s in chosen
        else c
        for s, c in enumerate(state.civs)
    )
    return evolved(
        state,
        civs=civs,
        sealed=(),
        sealing=(),
        vote_cards=ev.cards,
        vote_index=0,
        votes_on=(0,) * len(ev.cards),
    )


@event
class VotesCommitted(PatchEvent, SealedCommand):
    seat: int
    card: str
    count: int


@FOLDS.handles(VotesCommitted)
def _votes(pack: PatchPack, state: PState, ev: VotesCommitted) -> PState:
    return evolved(state, sealed=(*state.sealed, (ev.seat, (ev.count,))))


@event
class VotesRevealed(PatchEvent):
    REVEALS_HIDDEN = True

    card: str
    votes: tuple[int, ...]
    total: int


@FOLDS.handles(VotesRevealed)
def _votes_revealed(pack: PatchPack, state: PState, ev: VotesRevealed) -> PState:
    civs = tuple(evolved(c, votes=c.votes - ev.votes[s]) for s, c in enumerate(state.civs))
    on = list(state.votes_on)
    on[state.vote_index] = ev.total
    return evolved(
        state, civs=civs, votes_on=tuple(on), vote_index=state.vote_index + 1, sealed=(), sealing=()
    )


@event
class ProsperityScored(PatchEvent):
    card: str
    votes: int
    value: int
    """Culture per first place (the Votes, or half of them: 2-player fewer card)."""
    ranks: tuple[int, ...]
    culture: tuple[int, ...]
    """What each seat gains, or loses as due (from revision 3; before, as paid): a loss never
    takes Culture below 0 (patchistory.culture.floor), which the screen hides."""


@FOLDS.handles(ProsperityScored)
def _scored(pack: PatchPack, state: PState, ev: ProsperityScored) -> PState:
    for seat, delta in enumerate(ev.culture):
        # A loss is recorded as due; Culture stops at 0 (patchistory.culture.floor).
        state = goods_changed(state, seat, culture=max(delta, -state.civs[seat].culture))
    return state


@event
class ProsperityDiscarded(PatchEvent):
    card: str
    votes: int


@FOLDS.handles(ProsperityDiscarded)
def _discarded(pack: PatchPack, state: PState, ev: ProsperityDiscarded) -> PState:
    return state


@event
class VotesForfeited(PatchEvent):
    votes: tuple[int, ...]


@FOLDS.handles(VotesForfeited)
def _forfeit_votes(pack: PatchPack, state: PState, ev: VotesForfeited) -> PState:
    civs = tuple(evolved(c, votes=0) for c in state.civs)
    return evolved(state, civs=civs, vote_cards=(), votes_on=(), vote_index=0)
