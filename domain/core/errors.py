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
