"""The commands of the History of the World family, each declared by the chapter module whose
rules it plays: its name and arguments, what it does, and why it is refused when the seat's
legal actions do not list it. The turn structure (rules/actions.py) dispatches to them.

A refusal cites a shared rule key; the ruleset resolves it to the edition's own rule id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from domain.core.errors import IllegalAction, RuleViolation
from domain.core.messages import Command
from domain.hotw.model import HotwState
from domain.hotw.pack import HotwPack

if TYPE_CHECKING:
    from domain.hotw.rules.context import Ctx

Doer = Callable[["Ctx", int, Command], None]
WhyNot = Callable[[HotwPack, HotwState, int, Command], RuleViolation | None]


def no_reason(pack: HotwPack, state: HotwState, seat: int, command: Command) -> None:
    """No more precise reason than the seat's legal actions: the ruleset's default refusal."""
    return None


@dataclass(frozen=True, slots=True)
class CommandRule:
    """One command of the family: who declares it, its arguments, its effect and its refusal."""

    name: str
    args: tuple[str, ...]
    chapter: str
    do: Doer
    why_not: WhyNot


_COMMANDS: dict[str, CommandRule] = {}


def declares(name: str, *args: str, why_not: WhyNot = no_reason) -> Callable[[Doer], Doer]:
    """Register the decorated function as what the command `name` does."""

    def register(do: Doer) -> Doer:
        if name in _COMMANDS and _COMMANDS[name].do is not do:
            raise ValueError(f"command {name} declared twice")
        chapter = do.__module__.rsplit(".", 1)[-1]
        _COMMANDS[name] = CommandRule(name, args, chapter, do, why_not)
        return do

    return register


def command_rule(name: str) -> CommandRule | None:
    return _COMMANDS.get(name)


def command_rules() -> Mapping[str, CommandRule]:
    return MappingProxyType(_COMMANDS)


def refused(message: str, rule: str, command: Command) -> RuleViolation:
    """A refusal of `command` citing the shared rule key `rule`."""
    return IllegalAction(message, rule, {"command": command.as_dict()})
