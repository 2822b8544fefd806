"""A game played through the kernel the way the service plays it, for rule tests: each
command's events are folded on, an undo's log is replayed from the start."""

from __future__ import annotations

from typing import Any

from domain.core.chance import Chance
from domain.core.kernel import Game, creation_events, decide, fold, replay
from domain.core.messages import SYSTEM, Actor, Command, Recorded
from domain.core.table import is_skipped, skipped_ranges
from service.chance import HmacSource, commitment


class Table:
    """One game, its log and the game its log folds to."""

    def __init__(self, rules: Any, players: tuple[str, ...], seed: bytes, **options: Any):
        self.rules = rules
        self.seed = seed
        chance = Chance(HmacSource(seed), 0)
        events = creation_events(self.rules, players, options, commitment(seed), chance)
        self.log = [Recorded(n, e, SYSTEM, "create") for n, e in enumerate(events, 1)]
        self.game: Game[Any] = replay(self.rules, self.log)

    def play(self, actor: Actor, command: Command) -> list[Recorded]:
        chance = Chance(HmacSource(self.seed), self.game.draws)
        events = decide(self.rules, self.game, actor, command, chance)
        new = [
            Recorded(self.game.version + n, e, actor, f"c{len(self.log)}")
            for n, e in enumerate(events, 1)
        ]
        self.log += new
        if command.type == "undo":
            self.game = replay(self.rules, self.log)
        else:
            for recorded in new:
                self.game = fold(self.rules, self.game, recorded)
        return new

    def resolve(self) -> list[Recorded]:
        due = self.rules.system_action(self.game.state)
        assert due is not None, "no resolving step is due"
        return self.play(SYSTEM, due)

    @property
    def state(self) -> Any:
        return self.game.state

    def awaited(self) -> frozenset[int]:
        return frozenset(self.rules.awaited_seats(self.state))


def folded_one_by_one(rules: Any, log: list[Recorded], game: Game[Any] | None = None) -> Any:
    """`replay` as the fold's definition states it: every event not taken back, one by one."""
    ranges = skipped_ranges(log)
    for recorded in log:
        if not is_skipped(recorded.version, ranges):
            game = fold(rules, game, recorded)
    return game
