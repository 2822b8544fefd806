"""The game-agnostic kernel: a game is its setup, its version, its chance cursor and the
ruleset's state. `start`, `decide`, `fold` and `replay` work for every ruleset alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from domain.core.chance import Chance
from domain.core.errors import GameOver, NotYourTurn, RuleViolation
from domain.core.messages import (
    SYSTEM,
    WORKER,
    Actor,
    Command,
    Event,
    Recorded,
    event,
    plain_value,
    private_to,
)
from domain.core.ruleset import Ruleset, Setup

S = TypeVar("S")


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GameCreated(Event):
    """The game exists: its ruleset, players and options, and the commitment to its seed."""

    ruleset: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    seed_commitment: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class SeedRevealed(Event):
    """The secret seed, published so that anyone can re-verify every draw."""

    seed: str


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PositionLoaded(Event):
    """A sandbox game starts from a given position (the ruleset's encoded state) instead of the
    ruleset's setting up. Private to no seat: each seat sees the position only through its view."""

    state: Any
    source_game: str


KERNEL_EVENTS = (GameCreated, SeedRevealed, PositionLoaded)


@dataclass(frozen=True, slots=True)
class Game(Generic[S]):
    """A game as the kernel sees it."""

    setup: Setup
    version: int
    draws: int
    state: S
    seed_revealed: str | None = None


class CommandMisused(RuntimeError):
    """A ruleset broke the kernel's contract (a programming error, never a player's)."""


def creation_events(
    ruleset: Ruleset[S],
    players: tuple[str, ...],
    options: Mapping[str, Any],
    seed_commitment: str,
    chance: Chance,
) -> list[Event]:
    """The events that create a game: GameCreated, then the ruleset's setting up."""
    ruleset.check_players(players)
    chosen = ruleset.check_options(options)
    created = GameCreated(
        rule=ruleset.setup_rule,
        ruleset=ruleset.name,
        players=tuple(players),
        options=chosen,
        seed_commitment=seed_commitment,
    )
    setup = setup_of(created)
    game = Game(setup, 1, 0, ruleset.initial_state(setup))
    events: list[Event] = [created, *ruleset.set_up(game.state, chance)]
    _require_draws_recorded(chance)
    return events


def position_events(
    ruleset: Ruleset[S],
    players: tuple[str, ...],
    options: Mapping[str, Any],
    seed_commitment: str,
    state: Any,
    source_game: str,
) -> list[Event]:
    """The events that create a sandbox game: GameCreated, then the position it starts from."""
    ruleset.check_players(players)
    created = GameCreated(
        rule=ruleset.setup_rule,
        ruleset=ruleset.name,
        players=tuple(players),
        options=ruleset.check_options(options),
        seed_commitment=seed_commitment,
    )
    loaded = PositionLoaded(
        rule=ruleset.setup_rule,
        state=state,
        source_game=source_game,
        visibility=private_to(redacted={"source_game": source_game}),
    )
    return [created, loaded]


def setup_of(created: GameCreated) -> Setup:
    return Setup(
        ruleset=created.ruleset,
        players=tuple(created.players),
        options=dict(created.options),
        seed_commitment=created.seed_commitment,
    )


def decide(
    ruleset: Ruleset[S], game: Game[S], actor: Actor, command: Command, chance: Chance
) -> list[Event]:
    """Check a command against the rules and return the events it produces.

    Seats may only play what `legal_actions` lists for them; the system may only run the
    command the ruleset says is due.
    """
    if ruleset.is_over(game.state):
        raise GameOver("the game is over", ruleset.end_rule)
    if actor in (SYSTEM, WORKER):
        events = _decide_system(ruleset, game, command, chance)
    else:
        events = _decide_for_seat(ruleset, game, int(actor), command, chance)
    _require_draws_recorded(chance)
    return events


def _decide_for_seat(
    ruleset: Ruleset[S], game: Game[S], seat: int, command: Command, chance: Chance
) -> list[Event]:
    if seat not in ruleset.awaited_seats(game.state):
        raise NotYourTurn(
            f"seat {seat} may not act now",
            ruleset.turn_rule,
            {"awaited": sorted(ruleset.awaited_seats(game.state))},
        )
    if command not in set(ruleset.legal_actions(game.state, seat)):
        refusal = ruleset.refusal(game.state, seat, command)
        if not isinstance(refusal, RuleViolation):
            raise CommandMisused("a refusal must be a RuleViolation")
        raise refusal
    return ruleset.decide(game.state, seat, command, chance)


def _decide_system(
    ruleset: Ruleset[S], game: Game[S], command: Command, chance: Chance
) -> list[Event]:
    due = ruleset.system_action(game.state)
    if due is None or due != command:
        raise NotYourTurn(
            "no such system step is due now",
            ruleset.turn_rule,
            {"due": due.as_dict() if due else None},
        )
    return ruleset.decide_system(game.state, command, chance)


def _require_draws_recorded(chance: Chance) -> None:
    if chance.untaken:
        raise CommandMisused(f"{chance.untaken} chance draw(s) not recorded in any event")


def fold(ruleset: Ruleset[S], game: Game[S] | None, recorded: Recorded) -> Game[S]:
    """Apply one recorded event to a game (None before the game exists)."""
    ev = recorded.event
    if isinstance(ev, GameCreated):
        setup = setup_of(ev)
        return Game(setup, recorded.version, 0, ruleset.initial_state(setup))
    if game is None:
        raise CommandMisused("a game's first event must be GameCreated")
    draws = game.draws + len(ev.draws)
    if isinstance(ev, SeedRevealed):
        return replace(game, version=recorded.version, draws=draws, seed_revealed=ev.seed)
    if isinstance(ev, PositionLoaded):
        state = ruleset.decode_state(plain_value(ev.state))
        return Game(game.setup, recorded.version, draws, state, game.seed_revealed)
    return Game(
        game.setup, recorded.version, draws, ruleset.evolve(game.state, ev), game.seed_revealed
    )


def replay(ruleset: Ruleset[S], events: Iterable[Recorded], game: Game[S] | None = None) -> Game[S]:
    """Fold a sequence of recorded events, from the start or onto `game`."""
    for recorded in events:
        game = fold(ruleset, game, recorded)
    if game is None:
        raise CommandMisused("no events to replay")
    return game
