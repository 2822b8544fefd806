"""Chapter VII of the Avalon Hill 2001 rules, Between Epochs and Winning the Game: after each
epoch the player with most points alone takes a pre-eminence marker (ah2001.between.pre-eminence,
unless ah2001.option.no-pre-eminence), the drawing order for the next epoch
(ah2001.between.draw-order), and after Epoch VII the winner with its tie-breaks
(ah2001.winning.most-points, ah2001.winning.pre-eminence, ah2001.winning.tie.*)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.core.frozen import evolved
from domain.core.messages import event, private_to
from domain.hotw.changes import with_player
from domain.hotw.editions.ah2001.context import (
    FOLDS,
    NO_PRE_EMINENCE,
    Ah2001Event,
    Ctx,
    empire,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Stage,
)
from domain.hotw.editions.ah2001.setup import EpochBegan
from domain.hotw.editions.ah2001.tables import Ah2001Tables


@dataclass(frozen=True)
class Record:
    """A player's standing: Victory Points, and the Empires played so far (by strength, and
    each one's place in its epoch's calling order)."""

    points: int
    strengths: tuple[int, ...] = ()
    called: tuple[int, ...] = ()
    pre_eminence: int = 0


def draw_order(records: Sequence[Record]) -> tuple[int, ...]:
    """ah2001.between.draw-order: fewest points first; equal points, the weaker Empire of the
    last epoch first; still equal, the one that played earlier in it."""

    def key(seat: int) -> tuple[int, int, int]:
        record = records[seat]
        strength = record.strengths[-1] if record.strengths else 0
        called = record.called[-1] if record.called else 0
        return (record.points, strength, called)

    return tuple(sorted(range(len(records)), key=key))


def pre_eminent(points: Sequence[int]) -> int | None:
    """ah2001.between.pre-eminence: the sole leader; nobody when the lead is shared."""
    best = max(points)
    leaders = [seat for seat, p in enumerate(points) if p == best]
    return leaders[0] if len(leaders) == 1 else None


def final_ranking(records: Sequence[Record]) -> tuple[tuple[int, ...], ...]:
    """ah2001.winning.*: most points (pre-eminence added); ties go to the lower combined
    strength of the seven Empires, then more pre-eminence points, then the lower Epoch VII
    strength; still level, a shared place."""

    def key(seat: int) -> tuple[int, int, int, int]:
        record = records[seat]
        last = record.strengths[-1] if record.strengths else 0
        return (-record.points, sum(record.strengths), -record.pre_eminence, last)

    ranking: list[list[int]] = []
    for seat in sorted(range(len(records)), key=key):
        if ranking and key(ranking[-1][0]) == key(seat):
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return tuple(tuple(group) for group in ranking)


def records(tables: Ah2001Tables, state: Ah2001State) -> list[Record]:
    return [
        Record(
            p.points,
            tuple(empire(tables, e).strength for e in p.empires),
            p.called,
            sum(p.pre_eminence),
        )
        for p in state.players
    ]


def end_epoch(ctx: Ctx) -> None:
    """The epoch's pre-eminence marker, then the next epoch's drawing order, or the end."""
    state = ctx.state
    if NO_PRE_EMINENCE not in state.options and state.markers:
        leader = pre_eminent([p.points for p in state.players])
        if leader is not None:
            ctx.emit(
                PreEminenceTaken(
                    rule="ah2001.between.pre-eminence",
                    seat=leader,
                    marker=state.markers[0],
                    visibility=private_to(redacted={"seat": leader}),
                )
            )
    if ctx.state.epoch < max(ctx.tables.empires_by_epoch):  # after Epoch VII, the end
        order = draw_order(records(ctx.tables, ctx.state))
        ctx.emit(
            EpochBegan(rule="ah2001.between.draw-order", epoch=ctx.state.epoch + 1, order=order)
        )
        return
    end_game(ctx)


def end_game(ctx: Ctx) -> None:
    final = records(ctx.tables, ctx.state)
    markers = tuple(sum(p.pre_eminence) for p in ctx.state.players)
    totals = tuple(r.points + m for r, m in zip(final, markers, strict=True))
    ranked = final_ranking(
        [
            Record(t, r.strengths, r.called, m)
            for t, r, m in zip(totals, final, markers, strict=True)
        ]
    )
    ctx.emit(
        GameEnded(
            rule="ah2001.winning.most-points",
            cites=(
                "ah2001.winning.pre-eminence",
                "ah2001.winning.tie.strength",
                "ah2001.winning.tie.pre-eminence",
                "ah2001.winning.tie.last-epoch",
            ),
            markers=markers,
            points=totals,
            ranking=ranked,
        )
    )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class PreEminenceTaken(Ah2001Event):
    seat: int
    marker: int


@FOLDS.handles(PreEminenceTaken)
def _pre_eminence(t: Ah2001Tables, s: Ah2001State, e: PreEminenceTaken) -> Ah2001State:
    player = s.players[e.seat]
    s = with_player(s, e.seat, pre_eminence=(*player.pre_eminence, e.marker))
    return evolved(s, markers=s.markers[1:])


@event
class GameEnded(Ah2001Event):
    REVEALS_HIDDEN = True

    markers: tuple[int, ...]
    """Each player's pre-eminence points, added to the score."""
    points: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]


@FOLDS.handles(GameEnded)
def _ended(t: Ah2001Tables, s: Ah2001State, e: GameEnded) -> Ah2001State:
    players = tuple(
        evolved(p, points=points) for p, points in zip(s.players, e.points, strict=True)
    )
    ranking = tuple(tuple(group) for group in e.ranking)
    return evolved(s, players=players, stage=Stage.OVER, result=ranking, turn=None)
