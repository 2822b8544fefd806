"""Typed refusals. Every refusal names the rule it applies (a rules-catalogue id)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class RuleViolation(Exception):
    """A command the rules do not allow. Carries the rule id it breaks and what decided it."""

    code = "rule_violation"

    def __init__(self, message: str, rule: str, context: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.context: Mapping[str, Any] = dict(context or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, rule={self.rule!r})"


class NotYourTurn(RuleViolation):
    """The seat is not one the game is waiting for."""

    code = "not_your_turn"


class IllegalAction(RuleViolation):
    """The command is not among the seat's legal actions in this position."""

    code = "illegal_action"


class UnknownCommand(RuleViolation):
    """The command type is not one the ruleset knows at all."""

    code = "unknown_command"


class GameOver(RuleViolation):
    """The game has ended; nothing more may be played."""

    code = "game_over"


class InvalidOptions(RuleViolation):
    """The options given at game creation are unknown, of the wrong type or incompatible."""

    code = "invalid_options"


class InvalidPlayerCount(RuleViolation):
    """The ruleset is not played with that many players."""

    code = "invalid_player_count"


class UnknownRuleset(LookupError):
    """No ruleset is registered under that name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no ruleset named {name!r}")
        self.name = name


class RulesetRevisionUnavailable(LookupError):
    """A game (or a position) was made under a revision of its ruleset that this server does
    not have: it is never decided or folded under other rules instead."""

    code = "ruleset_revision_unavailable"

    def __init__(self, ruleset: str, revision: int, known: tuple[int, ...]) -> None:
        super().__init__(
            f"{ruleset} revision {revision} is not available on this server "
            f"(it has revision{'s' if len(known) > 1 else ''} {', '.join(map(str, known))})"
        )
        self.ruleset = ruleset
        self.revision = revision
        self.known = known
        self.in_request = False
        """Whether the revision came in the request (a position to load), not a stored game."""


class RulesetRevisionMismatch(RuntimeError):
    """A game was folded with its ruleset bound to another revision than the game's (a caller's
    mistake: bind the ruleset with `Ruleset.at_revision(game's revision)`)."""


class EventSchemaUnavailable(LookupError):
    """A stored event of a type, or a schema version of it, that this server does not know (a
    newer server wrote it): it is refused, never misread."""

    code = "event_schema_unavailable"

    def __init__(self, type_name: str, schema_version: int | None, known: int | None) -> None:
        if known is None:
            message = f"unknown event type {type_name!r}"
        else:
            message = (
                f"event {type_name} has schema version {schema_version}; this server reads up "
                f"to {known}"
            )
        super().__init__(message)
        self.type_name = type_name
        self.schema_version = schema_version
        self.known = known
