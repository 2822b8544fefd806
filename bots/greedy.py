"""A greedy bot: it takes the legal action worth the most to its seat, looking one move ahead.

The bot is generic: what a move is worth comes from the ruleset's strategy
(`Ruleset.strategy()`, a `domain.core.strategy.Strategy`). The bot turns what it is given (a
state in-process, the seat's view over HTTP) into the position its seat may know, plays each
listed action there (`outcomes`: the states it may lead to, with their probabilities), and scores
it as the expected change of the seat's `value`. Equal scores are broken by the strategy's
`preference` (for the most likely outcome), then by the bot's seeded random generator.

History of the World's strategy (gold, revenue to come, invasions at their exact odds) lives
with its rules, in the domain; a ruleset without a strategy cannot be played by this bot.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from bots.base import as_commands
from domain.core.messages import Command
from domain.core.ruleset import Ruleset
from domain.core.strategy import Strategy

EPSILON = 1e-6


class GreedyBot:
    name = "greedy"

    def __init__(self, rules: Ruleset[Any], rng: random.Random | int | str | None = None) -> None:
        strategy = rules.strategy()
        if strategy is None:
            raise TypeError(f"the greedy bot has no strategy for {rules.name}")
        self.rules = rules
        self.strategy: Strategy[Any] = strategy
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    # --- the interface ----------------------------------------------------------------------

    def choose(self, position: Any, actions: Iterable[Any], seat: int) -> Command:
        commands = as_commands(actions)
        if len(commands) == 1:
            return commands[0]
        scored = self.scores(self.state_of(position, seat), commands, seat)
        best_gold = max(gold for gold, _ in scored.values())
        near = {c: tie for c, (gold, tie) in scored.items() if gold >= best_gold - EPSILON}
        best_tie = max(near.values())
        top = [c for c in commands if c in near and near[c] >= best_tie - EPSILON]
        return top[0] if len(top) == 1 else self.rng.choice(top)

    def state_of(self, position: Any, seat: int) -> Any:
        """What `seat` may know of the position, as a state to simulate on (the strategy's
        `position`: a domain state cut down to the seat's view, or the view rebuilt)."""
        return self.strategy.position(position, seat)

    def scores(
        self, state: Any, commands: Iterable[Command], seat: int
    ) -> dict[Command, tuple[float, float]]:
        """Each command's (expected value change, tie-break preference) for `seat`."""
        strategy = self.strategy
        before = strategy.value(state, seat)
        scored = {}
        for command in commands:
            outcomes = strategy.outcomes(state, seat, command)
            if not outcomes:  # the simulation could not be run: neutral
                scored[command] = (0.0, strategy.preference(state, state, seat, command))
                continue
            gold = sum(p * (strategy.value(after, seat) - before) for p, after in outcomes)
            likely = max(outcomes, key=lambda o: o[0])[1]
            preference = strategy.preference(state, likely, seat, command)
            scored[command] = (round(gold, 6), round(preference, 6))
        return scored

    def expected_gold(self, position: Any, seat: int, command: Command) -> float:
        """The value (for History of the World: gold, this turn's revenue included) `command`
        is expected to bring `seat`."""
        state = self.state_of(position, seat)
        return self.scores(state, [command], seat)[command][0]
