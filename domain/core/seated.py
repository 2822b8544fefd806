"""The kernel's side of the seating (`domain.core.seating`): when a game is over (by its rules,
or because every person left), the seating commands decided against the game, the seats bots
play now, and the clock moved on by each command."""

from __future__ import annotations

from typing import Any, TypeVar

from domain.core.errors import GameOver
from domain.core.frozen import evolved
from domain.core.game import Game
from domain.core.messages import Actor, Command, Event, Recorded
from domain.core.ruleset import Ruleset
from domain.core.seating import (
    PERSON,
    Timepiece,
    clock_after_command,
    decide_seating,
    instant_ms,
)

S = TypeVar("S")


def is_over(ruleset: Ruleset[S], game: Game[S]) -> bool:
    """The game has ended: by its rules, or because every person left the table."""
    return ruleset.is_over(game.state) or (game.seating is not None and game.seating.abandoned)


def seat_rule(ruleset: Ruleset[S]) -> str:
    return ruleset.seat_rule or ruleset.turn_rule


def seating_decision(
    ruleset: Ruleset[S],
    game: Game[S],
    actor: Actor,
    command: Command,
    timepiece: Timepiece | None,
) -> list[Event]:
    if ruleset.is_over(game.state):
        raise GameOver("the game is over", ruleset.end_rule)
    awaited = sorted(ruleset.awaited_seats(game.state))
    return decide_seating(
        game.seating,
        len(game.setup.players),
        actor,
        command,
        seat_rule(ruleset),
        awaited,
        timepiece,
    )


def bot_seats_awaited(ruleset: Ruleset[S], game: Game[S]) -> list[int]:
    """The awaited seats a bot plays now (handed over, resigned or timed out)."""
    seating = game.seating
    if seating is None or not seating.started or is_over(ruleset, game):
        return []
    return [
        s for s in sorted(ruleset.awaited_seats(game.state)) if seating.controllers[s] != PERSON
    ]


def clocked(
    ruleset: Ruleset[Any], game: Game[Any], new_command: bool, recorded: Recorded
) -> Game[Any]:
    """The game (after an event) with its clock moved on by the event (a seat's bank charged
    once per command, at its first event; the seats awaited after it timed from when each
    became awaited)."""
    seating = game.seating
    if seating is None or seating.clock is None:
        return game
    seat = recorded.actor if isinstance(recorded.actor, int) and new_command else None
    at_ms = instant_ms(recorded.recorded_at)
    return evolved(
        game, seating=clock_after_command(seating, seat, at_ms, clock_awaits(ruleset, game))
    )


def clock_awaits(ruleset: Ruleset[Any], game: Game[Any]) -> frozenset[int]:
    """The seats whose clocks run in `game`: those it awaits, until it is over."""
    if ruleset.is_over(game.state):
        return frozenset()
    return frozenset(ruleset.awaited_seats(game.state))
