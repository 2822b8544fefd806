"""The table procedures of every ruleset: undo and rewind (contracts §7): what a seat may ask of
the table, the undo step it may take back, and the events an undo or a rewind decides."""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache
from typing import Any, TypeVar

from domain.core.errors import GameOver, IllegalAction
from domain.core.game import Game
from domain.core.messages import (
    Actor,
    Command,
    Event,
    plain_value,
)
from domain.core.ruleset import Ruleset
from domain.core.table import (
    ACCEPT_REWIND,
    ADMIN,
    ORDER_REWIND,
    PROPOSE_REWIND,
    REFUSE_REWIND,
    UNDO,
    ActionsUndone,
    GameRewound,
    RewindAnswered,
    RewindProposed,
    UndoStep,
)
from domain.core.turns import seats_act_independently

S = TypeVar("S")


def table_actions(ruleset: Ruleset[S], game: Game[S], seat: int) -> list[Command]:
    """The undo and rewind commands open to `seat` now, in a fixed order."""
    actions: list[Command] = []
    if can_undo(ruleset, game, seat):
        actions.append(Command.of(UNDO))
    proposal = game.proposal
    if proposal is not None:
        if seat not in proposal.accepted:
            actions += [Command.of(ACCEPT_REWIND), Command.of(REFUSE_REWIND)]
    elif not ruleset.is_over(game.state) and game.last_commands and game.last_commands[seat]:
        actions.append(Command.of(PROPOSE_REWIND, to_version=game.last_commands[seat] - 1))
    return actions


def can_undo(ruleset: Ruleset[S], game: Game[S], seat: int) -> bool:
    return undo_step(ruleset, game, seat) is not None


def undo_step(ruleset: Ruleset[S], game: Game[S], seat: int) -> UndoStep | None:
    """The command `seat` would take back by undoing now, if any: its own latest command of the
    current undo scope. In sequential play that is the last undoable command, and only its
    seat's; under sealed, simultaneous play (`turns.Simultaneous`) each seat's own latest sealed
    command, whoever committed after it."""
    steps = game.undoable
    if not steps or ruleset.is_over(game.state):
        return None
    top = steps[-1]
    if top.scope != scope_key(ruleset, game.state):
        return None
    if top.seat == seat:
        return top
    if not seats_act_independently(ruleset, game.state):
        return None
    return next((step for step in reversed(steps) if step.seat == seat), None)


def scope_key(ruleset: Ruleset[S], state: S) -> str:
    """The undo scope as a canonical string, so that it survives a snapshot unchanged."""
    return _scope_repr(ruleset.undo_scope(state))


@lru_cache(maxsize=4096)
def _scope_repr(scope: Hashable) -> str:
    """`plain_repr` of a scope, remembered: a game has few scopes (a turn, a seat), each met
    at every command of that turn. A ruleset's scopes hold the same types in the same places,
    so scopes equal as values (the cache's key) have one string."""
    return plain_repr(scope)


_AS_IS = frozenset({str, int, float, bool, type(None)})


def plain_repr(value: Any) -> str:
    """`repr(plain_value(value))`, written out without building the plain value first (a
    scope is a tuple of scalars and tuples; anything else takes the long way)."""
    kind = type(value)
    if kind in _AS_IS:
        return repr(value)
    if kind is tuple or kind is list:
        as_is = _AS_IS
        parts = [repr(item) if type(item) in as_is else plain_repr(item) for item in value]
        return "[" + ", ".join(parts) + "]"
    return repr(plain_value(value))


def decide_table(ruleset: Ruleset[S], game: Game[S], actor: Actor, command: Command) -> list[Event]:
    rule = ruleset.undo_rule or ruleset.turn_rule
    if command.type == ORDER_REWIND:
        if actor != ADMIN:
            raise IllegalAction("only the game's admin may order a rewind", rule)
        target = _rewind_target(ruleset, game, command.arg("to_version"), rule)
        return [
            GameRewound(rule=rule, to_version=target, undone_through=game.version, ordered_by=ADMIN)
        ]
    if not isinstance(actor, int):
        raise IllegalAction(f"{command.type} is for seats", rule)
    seat = actor
    if command.type == UNDO:
        step = undo_step(ruleset, game, seat)
        if step is None:
            raise IllegalAction(
                "only your own last actions of this turn, back to the last chance outcome or "
                "hidden-information reveal, can be undone; further back needs a rewind",
                rule,
                {"undoable": bool(game.undoable)},
            )
        # The last undoable command takes everything after it back with it (as ever); a sealed
        # command with other seats' commands after it, exactly its own versions.
        through = game.version if step is game.undoable[-1] else step.to_version
        return [
            ActionsUndone(
                rule=rule, seat=seat, undone_from=step.from_version, undone_through=through
            )
        ]
    if command.type == PROPOSE_REWIND:
        if ruleset.is_over(game.state):
            raise GameOver("the game is over; only the admin may order a rewind", ruleset.end_rule)
        if game.proposal is not None:
            raise IllegalAction("a rewind is already proposed: answer it first", rule)
        target = _rewind_target(ruleset, game, command.arg("to_version"), rule)
        return [RewindProposed(rule=rule, seat=seat, to_version=target)]
    proposal = game.proposal
    if proposal is None or seat in proposal.accepted:
        raise IllegalAction("there is no rewind proposal for you to answer", rule)
    accepted = command.type == ACCEPT_REWIND
    events: list[Event] = [RewindAnswered(rule=rule, seat=seat, accepted=accepted)]
    if accepted and proposal.accepted | {seat} >= set(game.setup.seats):
        events.append(
            GameRewound(
                rule=rule,
                to_version=proposal.to_version,
                undone_through=game.version + 1,
                ordered_by="table",
            )
        )
    return events


def _rewind_target(ruleset: Ruleset[S], game: Game[S], to_version: Any, rule: str) -> int:
    if not isinstance(to_version, int) or isinstance(to_version, bool):
        raise IllegalAction("to_version must be a whole number", rule)
    if not game.first_playable <= to_version < game.version:
        raise IllegalAction(
            f"a rewind goes back to a version from {game.first_playable} to {game.version - 1}",
            rule,
            {"to_version": to_version},
        )
    return to_version
