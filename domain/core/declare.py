"""The one way a ruleset declares its commands: each chapter module decorates the function that
plays a command with `@COMMANDS.declares(name, description, *args, why_not=...)`, on the book
of its ruleset family. The book dispatches a listed command to it, documents every command for
the API (`specs`), and asks the command's own `why_not` why a command the seat's legal actions
lack is refused (None: the ruleset's general refusal)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from domain.core.errors import RuleViolation
from domain.core.messages import Command
from domain.core.ruleset import ArgSpec, CommandSpec

P = TypeVar("P")
"""What a command's argument ids and refusals read: the ruleset's data pack."""
S = TypeVar("S")
"""The ruleset's state."""
X = TypeVar("X")
"""The decide-side context a command is played on (`domain.core.folds.Working`)."""

Ids = Callable[[P], tuple[Any, ...]]
WhyNot = Callable[[P, S, int, Command], RuleViolation | None]


@dataclass(frozen=True, slots=True)
class Arg(Generic[P]):
    """An argument of a command: its name, what it names, the values it may take (fixed, or the
    ids a pack holds), its type and, for a number, its least value."""

    name: str
    description: str
    ids: Ids[P] | tuple[Any, ...] | None = None
    kind: type = str
    required: bool = True
    minimum: int | None = None

    def spec(self, pack: P) -> ArgSpec:
        allowed = self.ids(pack) if callable(self.ids) else self.ids
        return ArgSpec(
            self.name,
            self.kind,
            self.description,
            allowed=allowed,
            required=self.required,
            minimum=self.minimum,
        )


@dataclass(frozen=True, slots=True)
class Declared(Generic[P, S, X]):
    """One command: its name and arguments, the chapter declaring it, what it does, and why it
    is refused when the seat's legal actions do not list it."""

    name: str
    description: str
    args: tuple[Arg[P], ...]
    chapter: str
    do: Callable[[X, int, Command], None]
    why_not: WhyNot[P, S] | None

    def spec(self, pack: P) -> CommandSpec:
        """The command as the API documents it (a legal action is one of these)."""
        return CommandSpec(self.name, self.description, tuple(a.spec(pack) for a in self.args))


class CommandBook(Generic[P, S, X]):
    """A ruleset family's commands, each declared once by the chapter that plays it."""

    __slots__ = ("_declared",)

    def __init__(self) -> None:
        self._declared: dict[str, Declared[P, S, X]] = {}

    def declares(
        self,
        name: str,
        description: str,
        *args: Arg[P],
        why_not: WhyNot[P, S] | None = None,
    ) -> Callable[[Callable[[X, int, Command], None]], Callable[[X, int, Command], None]]:
        """Register the decorated function as what the command `name` does."""

        def register(do: Callable[[X, int, Command], None]) -> Callable[[X, int, Command], None]:
            known = self._declared.get(name)
            if known is not None and known.do is not do:
                raise ValueError(f"command {name} declared twice")
            chapter = do.__module__.rsplit(".", 1)[-1]
            self._declared[name] = Declared(name, description, args, chapter, do, why_not)
            return do

        return register

    def play(self, ctx: X, seat: int, command: Command) -> None:
        """Play a listed command: what the chapter declaring it says it does."""
        declared = self._declared.get(command.type)
        if declared is None:  # the kernel passes only listed commands
            raise ValueError(f"unknown command {command.type}")
        declared.do(ctx, seat, command)

    def get(self, name: str) -> Declared[P, S, X] | None:
        return self._declared.get(name)

    def declared(self) -> Mapping[str, Declared[P, S, X]]:
        return MappingProxyType(self._declared)

    def specs(self, pack: P) -> tuple[CommandSpec, ...]:
        """Every command as the API documents it, in name order, ids from `pack`."""
        return tuple(self._declared[name].spec(pack) for name in sorted(self._declared))

    def why_not(self, pack: P, state: S, seat: int, command: Command) -> RuleViolation | None:
        """The command's own reason for a refusal (None: none more precise than the general)."""
        declared = self._declared.get(command.type)
        if declared is None or declared.why_not is None:
            return None
        return declared.why_not(pack, state, seat, command)
