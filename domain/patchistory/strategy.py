"""What the greedy bot plays Patchistory by: Culture in hand, plus what the civilization will
produce in the Rounds to come, plus a little for Goods, Votes and strength. Moves are simulated
with the ruleset's own `decide` on the position the seat may know (`view.seat_state`); a move
whose outcome hangs on what the seat cannot see (another seat's sealed choice) is rated
neutral."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.chance import Chance
from domain.core.messages import Command
from domain.core.ruleset import Ruleset
from domain.patchistory import territory as terr
from domain.patchistory.model import PState, decode
from domain.patchistory.view import known_position, seat_state


class FirstOutcomes:
    """A chance source whose every outcome is 0 (the bot's simulations need some draw; which
    Tile comes out next is not the bot's to know)."""

    def value(self, k: int) -> int:
        return 0


class PatchStrategy:
    def __init__(self, rules: Ruleset[PState]) -> None:
        self.rules = rules

    def position(self, given: Any, seat: int) -> PState:
        if isinstance(given, PState):
            return seat_state(given, seat)
        if isinstance(given, Mapping):
            body = given.get("view", given)
            if isinstance(body, Mapping) and "position" in body:
                return decode(PState, known_position(body["position"]))
        raise TypeError(f"not a Patchistory position: {type(given).__name__}")

    def outcomes(self, state: PState, seat: int, command: Command) -> list[tuple[float, PState]]:
        try:
            decided = self.rules.decision(state, seat, command, Chance(FirstOutcomes(), 0))
        except (KeyError, IndexError, ValueError, AssertionError, StopIteration):
            return []
        return [(1.0, decided.state if decided.state is not None else state)]

    def value(self, state: PState, seat: int) -> float:
        civ = state.civs[seat]
        if state.phase == "over":
            return float(civ.culture)
        board = terr.statuses(self.rules.pack, state, seat)
        rounds_left = max(0, 15 - state.serial) + 1
        ahead = min(rounds_left, 6)
        made = (
            board["culture"]
            + 0.3 * (board["coin"] + board["food"])
            + 0.5 * board["resource"]
            + 0.2 * (board["politics"] + board["transport"])
            + 0.15 * (board["military"] + board["defense"])
        )
        return (
            civ.culture
            + 0.2 * (civ.coin + civ.food)
            + 0.4 * civ.resource
            + 0.3 * civ.votes
            + ahead * made
        )

    def preference(self, before: PState, after: PState, seat: int, command: Command) -> float:
        """Between moves worth the same, act rather than pass, and bid low."""
        if command.type.startswith("end_") or command.type in ("pass", "decline", "forfeit_tile"):
            return -1.0
        if command.type == "bid":
            return -0.01 * float(command.arg("coin") or 0)
        return 0.0
