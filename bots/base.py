"""The bot interface and the shapes of legal actions a bot accepts."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from domain.core.messages import Command
from domain.core.ruleset import Ruleset

BOT_NAMES = ("random", "greedy")


class Bot(Protocol):
    """Chooses one of `actions` for `seat`.

    `position` is what the bot may look at: the domain state in-process, or over HTTP the
    caller's view (the `/state` answer or its `view`). `actions` are the listed legal actions:
    `Command`s, command bodies (`{"type": ...}`) or legal-actions entries
    (`{"command": {...}, "expected_version": n}`). The answer is always one of them."""

    name: str

    def choose(self, position: Any, actions: Iterable[Any], seat: int) -> Command: ...


def as_command(action: Any) -> Command:
    if isinstance(action, Command):
        return action
    if isinstance(action, Mapping):
        body = action.get("command", action)
        if isinstance(body, Mapping) and "type" in body:
            return Command.from_dict(body)
    raise TypeError(f"not a legal action: {action!r}")


def as_commands(actions: Iterable[Any]) -> list[Command]:
    commands = [as_command(a) for a in actions]
    if not commands:
        raise ValueError("a bot needs at least one legal action to choose from")
    return commands


def make_bot(name: str, rules: Ruleset[Any] | None, rng: random.Random) -> Bot:
    """A bot by name (`random` or `greedy`, which needs the ruleset) drawing from `rng`."""
    from bots.greedy import GreedyBot
    from bots.random_bot import RandomBot

    if name == "random":
        return RandomBot(rng)
    if name == "greedy":
        if rules is None:
            raise ValueError("the greedy bot needs the ruleset")
        return GreedyBot(rules, rng)
    raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOT_NAMES)}")
