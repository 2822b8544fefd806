"""Sealed Bids: a tiny ruleset that exercises every part of the kernel.

Each round every seat secretly seals a bid of chips at the same time (sealed, simultaneous
choices: `turns.Simultaneous`); when all are in, the bids are revealed; the single highest
bidder rolls a die (chance, sequential: `turns.Sequential`) and scores its face. Seating order is
drawn at setup (chance in set-up). In `SealedBids` the last bid reveals them all; in
`SealedBidsResolvedBySystem` a system step does, opening the bids in seating order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from domain.core.chance import Chance
from domain.core.errors import IllegalAction
from domain.core.messages import Command, Event, event
from domain.core.ruleset import (
    ArgSpec,
    CommandSpec,
    OptionSpec,
    Ruleset,
    Setup,
    register_ruleset,
)
from domain.core.turns import SealedCommand, Sequential, Simultaneous, TurnModel, TurnTaking

START_CHIPS = 5


@event
class ToySeatingDrawn(Event):
    order: tuple[int, ...]


@event
class ToyBidSealed(Event, SealedCommand):
    seat: int
    chips: int


@event
class ToyBidsRevealed(Event):
    REVEALS_HIDDEN = True

    bids: tuple[int, ...]
    winner: int | None


@event
class ToyDieRolled(Event):
    seat: int
    face: int


@dataclass(frozen=True, slots=True)
class ToyState:
    players: int
    rounds: int
    sides: int
    round: int = 1
    phase: str = "bid"
    order: tuple[int, ...] = ()
    chips: tuple[int, ...] = ()
    sealed: Mapping[int, int] | None = None
    scores: tuple[int, ...] = ()
    roller: int | None = None


def _seats(state: ToyState) -> range:
    return range(state.players)


def _sealed(state: ToyState) -> Mapping[int, int]:
    return state.sealed or {}


def _round(state: ToyState) -> int:
    return state.round


def _roller(state: ToyState) -> int | None:
    return state.roller


@register_ruleset
class SealedBids(TurnTaking[ToyState], Ruleset[ToyState]):
    name = "toy-sealed-bids"
    title = "Sealed Bids (kernel test game)"
    player_counts = (2, 3, 4)
    options = (
        OptionSpec("rounds", int, 3, "rounds to play", allowed=(1, 2, 3, 4, 5)),
        OptionSpec("die_sides", int, 6, "sides of the die", allowed=(4, 6, 8)),
        OptionSpec("bonus", bool, False, "double the last round"),
    )
    turn_rule = "toy.turn"
    undo_rule = "toy.table"
    end_rule = "toy.end"
    setup_rule = "toy.setup"
    bidding: Simultaneous[ToyState] = Simultaneous(
        seats=_seats, sealed=_sealed, order=_seats, round=_round
    )
    """Bids are sealed by every seat at once, taken in seat order; the last bid reveals them."""
    rolling: Sequential[ToyState] = Sequential(_roller, turn=_round)

    def initial_state(self, setup: Setup) -> ToyState:
        n = len(setup.players)
        return ToyState(
            players=n,
            rounds=int(setup.options["rounds"]),
            sides=int(setup.options["die_sides"]),
            chips=(START_CHIPS,) * n,
            sealed={},
            scores=(0,) * n,
        )

    def set_up(self, state: ToyState, chance: Chance) -> list[Event]:
        order = chance.shuffled(range(state.players))
        return [ToySeatingDrawn(rule="toy.seating", order=order, draws=chance.take_draws())]

    def turn_model(self, state: ToyState) -> TurnModel[ToyState] | None:
        if state.phase == "bid":
            return self.bidding
        if state.phase == "roll":
            return self.rolling
        return None

    def legal_actions(self, state: ToyState, seat: int) -> Iterable[Command]:
        if seat not in self.awaited_seats(state):
            return
        if state.phase == "bid":
            for chips in range(state.chips[seat] + 1):
                yield Command.of("bid", chips=chips)
        elif state.phase == "roll":
            yield Command.of("roll")

    def command_schemas(self) -> tuple[CommandSpec, ...]:
        return (
            CommandSpec(
                "bid",
                "Seal a bid of chips (revealed when every seat has bid).",
                # up to twice what a seat starts with: a bid past its chips is well formed, and
                # refused by the rule (toy.bid), not by the schema
                (ArgSpec("chips", int, "Chips bid.", allowed=tuple(range(2 * START_CHIPS + 1))),),
            ),
            CommandSpec("roll", "The highest bidder rolls the die and scores its face."),
        )

    def refusal(self, state: ToyState, seat: int, command: Command) -> Exception:
        if command.type == "bid":
            return IllegalAction(
                "you cannot bid more chips than you have", "toy.bid", {"chips": state.chips[seat]}
            )
        return super().refusal(state, seat, command)

    def decide(self, state: ToyState, seat: int, command: Command, chance: Chance) -> list[Event]:
        if command.type == "bid":
            return self._seal_bid(state, seat, int(command.arg("chips")))
        face = chance.die(state.sides)
        return [ToyDieRolled(rule="toy.roll", seat=seat, face=face, draws=chance.take_draws())]

    def _seal_bid(self, state: ToyState, seat: int, chips: int) -> list[Event]:
        sealed = ToyBidSealed(
            rule="toy.bid",
            seat=seat,
            chips=chips,
            visibility=self.bidding.sealed_visibility(seat),
        )
        after = self.evolve(state, sealed)
        if self.bidding.step is None and self.bidding.all_committed(after):
            return [sealed, self._revealed(after)]
        return [sealed]

    def _revealed(self, state: ToyState) -> ToyBidsRevealed:
        """All bids face up (seat-indexed); the single highest bidder wins the roll."""
        sealed = _sealed(state)
        bids = tuple(sealed[s] for s in range(state.players))
        top = max(bids)
        winner = bids.index(top) if bids.count(top) == 1 else None
        return ToyBidsRevealed(rule="toy.reveal", bids=bids, winner=winner)

    def evolve(self, state: ToyState, event: Event) -> ToyState:
        if isinstance(event, ToySeatingDrawn):
            return replace(state, order=event.order)
        if isinstance(event, ToyBidSealed):
            return replace(state, sealed={**(state.sealed or {}), event.seat: event.chips})
        if isinstance(event, ToyBidsRevealed):
            chips = tuple(c - b for c, b in zip(state.chips, event.bids, strict=True))
            if event.winner is None:
                return self._next_round(replace(state, chips=chips))
            return replace(state, chips=chips, phase="roll", roller=event.winner)
        if isinstance(event, ToyDieRolled):
            scores = list(state.scores)
            scores[event.seat] += event.face
            return self._next_round(replace(state, scores=tuple(scores)))
        raise TypeError(f"unknown event {event.type}")

    def _next_round(self, state: ToyState) -> ToyState:
        if state.round >= state.rounds:
            return replace(state, phase="over", sealed={}, roller=None)
        return replace(state, round=state.round + 1, phase="bid", sealed={}, roller=None)

    def is_over(self, state: ToyState) -> bool:
        return state.phase == "over"

    def result(self, state: ToyState) -> dict[str, Any]:
        """Highest score wins; a tie goes to the seat with more chips left; still tied, shared."""
        seats = range(state.players)

        def standing(seat: int) -> tuple[int, int]:
            return (state.scores[seat], state.chips[seat])

        best_first = sorted(seats, key=lambda s: (-state.scores[s], -state.chips[s], s))
        ranking = [
            {
                "seat": seat,
                "place": 1 + sum(standing(other) > standing(seat) for other in seats),
                "score": state.scores[seat],
                "tie_break": {"chips": state.chips[seat]},
            }
            for seat in best_first
        ]
        return {"scores": list(state.scores), "ranking": ranking, "tie_breaks": ["chips left"]}

    def view(self, state: ToyState, viewer: int | None) -> dict[str, Any]:
        body = self.encode_state(state)
        body["sealed"] = {str(s): c for s, c in (state.sealed or {}).items() if s == viewer}
        body["sealed_by"] = sorted(state.sealed or {})
        return body

    def summary(self, state: ToyState) -> dict[str, Any]:
        return {"round": state.round, "phase": state.phase}

    def encode_state(self, state: ToyState) -> dict[str, Any]:
        return {
            "players": state.players,
            "rounds": state.rounds,
            "sides": state.sides,
            "round": state.round,
            "phase": state.phase,
            "order": list(state.order),
            "chips": list(state.chips),
            "sealed": {str(k): v for k, v in (state.sealed or {}).items()},
            "scores": list(state.scores),
            "roller": state.roller,
        }

    def decode_state(self, data: Any) -> ToyState:
        return ToyState(
            players=data["players"],
            rounds=data["rounds"],
            sides=data["sides"],
            round=data["round"],
            phase=data["phase"],
            order=tuple(data["order"]),
            chips=tuple(data["chips"]),
            sealed={int(k): v for k, v in data["sealed"].items()},
            scores=tuple(data["scores"]),
            roller=data["roller"],
        )


@event
class ToyRoundClosed(Event):
    round: int


@register_ruleset
class SealedBidsClosedBySystem(SealedBids):
    """The toy with a step no seat takes: the system closes each round (as History of the World
    closes an epoch), so the game waits for no seat until that step has run."""

    name = "toy-sealed-bids-closing"
    title = "Sealed Bids, rounds closed by the system (kernel test game)"

    def _next_round(self, state: ToyState) -> ToyState:
        return replace(state, phase="closing", sealed={}, roller=None)

    def system_action(self, state: ToyState) -> Command | None:
        return Command.of("close_round", round=state.round) if state.phase == "closing" else None

    def decide_system(self, state: ToyState, command: Command, chance: Chance) -> list[Event]:
        return [ToyRoundClosed(rule="toy.close", round=state.round)]

    def evolve(self, state: ToyState, event: Event) -> ToyState:
        if isinstance(event, ToyRoundClosed):
            return SealedBids._next_round(self, state)
        return super().evolve(state, event)


@event
class ToyBidOpened(Event):
    """One sealed bid turned face up by the resolving step."""

    REVEALS_HIDDEN = True

    seat: int
    chips: int


def _seating(state: ToyState) -> tuple[int, ...]:
    return state.order


@register_ruleset
class SealedBidsResolvedBySystem(SealedBids):
    """The toy with a resolving step no seat takes: once every seat has sealed its bid, the
    system opens the bids one by one in seating order (the drawn `order`), then reveals them."""

    name = "toy-sealed-bids-resolved"
    title = "Sealed Bids, bids opened by the system (kernel test game)"
    bidding = Simultaneous(
        seats=_seats, sealed=_sealed, order=_seating, round=_round, step="open_bids"
    )

    def decide_system(self, state: ToyState, command: Command, chance: Chance) -> list[Event]:
        opened: list[Event] = [
            ToyBidOpened(rule="toy.open", seat=seat, chips=chips)
            for seat, chips in self.bidding.in_declared_order(state)
        ]
        return [*opened, self._revealed(state)]

    def evolve(self, state: ToyState, event: Event) -> ToyState:
        if isinstance(event, ToyBidOpened):
            return state
        return super().evolve(state, event)
