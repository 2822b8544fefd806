"""Tampered games for the oracles' tests: a real random game (tests/oracle/explore.py) with one
event changed or removed, the way a broken engine would have decided it."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from tests.oracle.explore import oracle_problems, recorded_steps

Step = tuple[Any, Any, Any]


@cache
def played(name: str, index: int) -> tuple[Step, ...]:
    return tuple(recorded_steps(name, index))


def first(name: str, match: Callable[[Any, Any], bool], games: int) -> tuple[list[Step], int]:
    """The steps of the first game (of the first `games`) with an event that `match`es (given
    the state before and the event), and the index of that event."""
    for game in range(games):
        steps = list(played(name, game))
        for index, (before, event, _) in enumerate(steps):
            if match(before, event):
                return steps, index
    raise AssertionError(f"no {name} game of the first {games} had such an event")


def tampered_problems(
    name: str,
    match: Callable[[Any, Any], bool],
    change: Callable[[Any, Any], Any | None],
    games: int = 40,
) -> list[str]:
    """What the oracle says of the first matching event changed by `change(before, event)`
    (None: the event removed), and did not say of the game as it was played."""
    steps, index = first(name, match, games)
    untouched = set(oracle_problems(name, steps))
    before, event, after = steps[index]
    changed = change(before, event)
    if changed is None:
        del steps[index]
    else:
        steps[index] = (before, changed, after)
    return [p for p in oracle_problems(name, steps) if p not in untouched]


def untampered_problems(name: str, games: int) -> list[str]:
    found: list[str] = []
    for game in range(games):
        found += oracle_problems(name, played(name, game))
    return found
