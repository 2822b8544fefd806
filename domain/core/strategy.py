"""What a one-move-ahead bot asks of a ruleset beyond the kernel functions.

A ruleset that bots can play well returns a `Strategy` from `Ruleset.strategy()`. The bot stays
generic: it turns what it is given (a state in-process, the seat's view over HTTP) into a state
with `position`, plays each listed action with `outcomes`, and ranks the actions by the change
of `value` weighted by the outcomes' probabilities, then by `preference`. Everything here is
pure (a strategy simulates with the ruleset's own `decide` and `evolve` on a scripted chance
source), so it lives in `domain/` beside the rules it reads.
"""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar

from domain.core.chance import Chance, ScriptedFaces
from domain.core.messages import Command, Event, Seat

S = TypeVar("S")


class Strategy(Protocol[S]):
    """The evaluation a greedy bot plays by, for one ruleset (its states are `S`)."""

    def position(self, given: Any, seat: Seat) -> S:
        """What `seat` may know of `given` as a state to simulate on. `given` is a domain state
        (cut down to what the seat may see, so a bot plays on the same facts in-process as over
        HTTP) or the seat's view: the API's `/state` answer or the `view` inside it. Raises
        TypeError for anything else."""
        ...

    def outcomes(self, state: S, seat: Seat, command: Command) -> list[tuple[float, S]]:
        """The states `command` of `seat` may lead to, each with its probability (they sum to
        1); empty when the move cannot be simulated on `state` (the bot then rates it neutral)."""
        ...

    def value(self, state: S, seat: Seat) -> float:
        """What `state` is worth to `seat` (in the game's own score: gold, points)."""
        ...

    def preference(self, before: S, after: S, seat: Seat, command: Command) -> float:
        """Breaks ties between moves worth the same value (higher is preferred); `after` is the
        most likely outcome of `command` (or `before` when it could not be simulated)."""
        ...


Played = tuple[S, list[Event]]


class Simulated(Protocol[S]):
    """What a lookahead plays a move with: the ruleset's own decide and evolve."""

    def decide(self, state: S, seat: Seat, command: Command, chance: Chance) -> list[Event]: ...

    def evolve(self, state: S, event: Event) -> S: ...


class Lookahead(Generic[S]):
    """One move ahead on a ruleset's own rules: a move played on scripted dice, and a battle's
    two outcomes (every die at its best for the attacker, or at its worst) weighted by the
    exact chance the strategy computes."""

    def __init__(self, rules: Simulated[S]) -> None:
        self.rules = rules

    def play(
        self, state: S, seat: Seat, command: Command, faces: tuple[int, ...]
    ) -> Played[S] | None:
        """The state after `command` with the dice rolling `faces` (then ones), and its events;
        None when it cannot be played on `state`."""
        try:
            events = self.rules.decide(state, seat, command, Chance(ScriptedFaces(faces), 0))
            for event in events:
                state = self.rules.evolve(state, event)
        except Exception:  # a view-rebuilt state may lack what a hidden card would need
            return None
        return state, events

    def won_or_lost(
        self,
        state: S,
        seat: Seat,
        command: Command,
        dice: tuple[int, int],
        chance: float,
        after: S,
    ) -> list[tuple[float, S]]:
        """The attack of `dice` (attacker's, defender's) won with probability `chance`, else
        lost; `after` alone when either cannot be played."""
        attack, defence = dice
        wins = self.play(state, seat, command, (6,) * attack + (1,) * defence)
        loses = self.play(state, seat, command, (1,) * attack + (6,) * defence)
        if wins is None or loses is None:
            return [(1.0, after)]
        return [(chance, wins[0]), (1.0 - chance, loses[0])]
