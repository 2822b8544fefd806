"""Between epochs and the end of the game in the Avalon Hill 2001 edition (Chapter VII): who
draws Empire cards first, who is pre-eminent, and who wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


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
