"""What a one-move-ahead bot asks of a ruleset beyond the kernel functions.

A ruleset that bots can play well returns a `Strategy` from `Ruleset.strategy()`. The bot stays
generic: it turns what it is given (a state in-process, the seat's view over HTTP) into a state
with `position`, plays each listed action with `outcomes`, and ranks the actions by the change
of `value` weighted by the outcomes' probabilities, then by `preference`. Everything here is
pure (a strategy simulates with the ruleset's own `decide` and `evolve` on a scripted chance
source), so it lives in `domain/` beside the rules it reads.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from domain.core.messages import Command, Seat

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
