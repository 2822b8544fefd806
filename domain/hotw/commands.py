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
from domain.core.ruleset import ArgSpec, CommandSpec
from domain.hotw.model import HotwState
from domain.hotw.pack import HotwPack

if TYPE_CHECKING:
    from domain.hotw.rules.context import Ctx

Doer = Callable[["Ctx", int, Command], None]
WhyNot = Callable[[HotwPack, HotwState, int, Command], RuleViolation | None]
Ids = Callable[[HotwPack], tuple[str, ...]]
"""The ids of the data pack an argument may name (the API documents them)."""


def lands(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.lands))


def waters(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.seas))


def areas(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.areas))


def area_tokens(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.area_tokens))


def any_area_tokens(pack: HotwPack) -> tuple[str, ...]:
    """Area tokens and (Option 4) Paired Area tokens."""
    return area_tokens(pack) + tuple(sorted(pack.board.paired_area_tokens))


def empire_cards(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(card.id for card in pack.cards.all_empires()))


def event_cards(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(card.id for card in pack.cards.all_events()))


def honors(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(honor.id for honor in pack.cards.honors))


@dataclass(frozen=True, slots=True)
class Arg:
    """An argument of a command: its name, what it names, and the ids it may take."""

    name: str
    description: str
    ids: Ids | tuple[str, ...]
    required: bool = True

    def spec(self, pack: HotwPack) -> ArgSpec:
        allowed = self.ids if isinstance(self.ids, tuple) else self.ids(pack)
        return ArgSpec(self.name, str, self.description, allowed=allowed, required=self.required)


def no_reason(pack: HotwPack, state: HotwState, seat: int, command: Command) -> None:
    """No more precise reason than the seat's legal actions: the ruleset's default refusal."""
    return None


@dataclass(frozen=True, slots=True)
class CommandRule:
    """One command of the family: who declares it, its arguments, its effect and its refusal."""

    name: str
    description: str
    args: tuple[Arg, ...]
    chapter: str
    do: Doer
    why_not: WhyNot

    def spec(self, pack: HotwPack) -> CommandSpec:
        """The command as the API documents it (a legal action is one of these)."""
        return CommandSpec(self.name, self.description, tuple(a.spec(pack) for a in self.args))


_COMMANDS: dict[str, CommandRule] = {}


def declares(
    name: str, description: str, *args: Arg, why_not: WhyNot = no_reason
) -> Callable[[Doer], Doer]:
    """Register the decorated function as what the command `name` does."""

    def register(do: Doer) -> Doer:
        if name in _COMMANDS and _COMMANDS[name].do is not do:
            raise ValueError(f"command {name} declared twice")
        chapter = do.__module__.rsplit(".", 1)[-1]
        _COMMANDS[name] = CommandRule(name, description, args, chapter, do, why_not)
        return do

    return register


def command_rule(name: str) -> CommandRule | None:
    return _COMMANDS.get(name)


def command_rules() -> Mapping[str, CommandRule]:
    return MappingProxyType(_COMMANDS)


def command_specs(pack: HotwPack) -> tuple[CommandSpec, ...]:
    """Every command of the family as the API documents it, ids from `pack`."""
    return tuple(_COMMANDS[name].spec(pack) for name in sorted(_COMMANDS))


def refused(message: str, rule: str, command: Command, also: tuple[str, ...] = ()) -> RuleViolation:
    """A refusal of `command` citing the shared rule key `rule` (and the keys `also`, the other
    rules that decide it, listed under `cites`)."""
    context: dict[str, object] = {"command": command.as_dict()}
    if also:
        context["cites"] = list(also)
    return IllegalAction(message, rule, context)
