"""Turn models that a ruleset composes: who is awaited, what a seat's undo stays within, and
how sealed, simultaneous commands are recorded and resolved.

- `Sequential`: one seat acts at a time (the ruleset names it); a seat's undo stays within its
  own turn and takes back its last command only (the kernel's undo stack).
- `Simultaneous`: every taking-part seat seals a command at the same time. A sealed command is
  recorded privately (visible to its seat, redacted for everyone else) in an event type that
  is a `SealedCommand`; it reveals nothing to its own seat, so it is no undo barrier. While the
  round is open each seat may undo its own sealed commands, whoever committed after it, and no
  seat another's. When every awaited seat has committed, the ruleset's `system_action` is the
  model's `resolving_step`, and the resolution takes the sealed commands `in_declared_order`.
  The resolving step is the system's, so nothing can be undone past it (the model may instead
  let the last seat's command resolve the round itself: `step=None`; that command then carries
  a reveal, which is a barrier).

A ruleset mixes in `TurnTaking` and names the model of the stage its state is in
(`turn_model`); `awaited_seats`, `undo_scope` and `system_action` then follow the model.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from domain.core.messages import Command, Seat, Visibility, private_to

S = TypeVar("S")


class SealedCommand:
    """Marks an event type that records a seat's sealed command. Recorded private to the acting
    seat alone (as `Simultaneous.sealed_visibility` makes it), it reveals nothing to anyone, so
    an undo may go back past it (any other private event is a hidden-information reveal)."""

    __slots__ = ()


class TurnModel(ABC, Generic[S]):
    """How the seats take their turns during a stage of the game."""

    independent_seats: bool = False
    """Whether the seats' commands within one undo scope stand apart from each other, so that a
    seat may undo its own while other seats' later ones stay."""

    @abstractmethod
    def awaited(self, state: S) -> frozenset[Seat]:
        """The seats the game waits for now."""

    @abstractmethod
    def undo_scope(self, state: S) -> Hashable:
        """What a seat's undo stays within (see `Ruleset.undo_scope`)."""

    def resolving_step(self, state: S) -> Command | None:
        """The system step due now (None: none)."""
        return None


class Sequential(TurnModel[S]):
    """One seat acts at a time: `seat(state)` names it (None: nobody); `turn(state)` tells one
    turn from the next when the same seat acts again (the default: the seat alone)."""

    def __init__(
        self,
        seat: Callable[[S], Seat | None],
        turn: Callable[[S], Hashable] | None = None,
    ) -> None:
        self.seat = seat
        self.turn = turn

    def awaited(self, state: S) -> frozenset[Seat]:
        seat = self.seat(state)
        return frozenset() if seat is None else frozenset({seat})

    def undo_scope(self, state: S) -> Hashable:
        turn = self.turn(state) if self.turn is not None else None
        return ("turn", turn, self.seat(state))


class Simultaneous(TurnModel[S]):
    """Every seat of `seats(state)` seals a command at the same time; `sealed(state)` maps the
    seats that have committed to what they sealed (the ruleset's state keeps it), `order(state)`
    is the declared order the resolution takes them in, and `round(state)` tells one sealed
    round from the next. `step` names the system's resolving step (None: the last seat's
    command resolves the round itself)."""

    independent_seats = True

    def __init__(
        self,
        *,
        seats: Callable[[S], Iterable[Seat]],
        sealed: Callable[[S], Mapping[Seat, Any]],
        order: Callable[[S], Sequence[Seat]],
        round: Callable[[S], Hashable],
        step: str | None = None,
    ) -> None:
        self.seats = seats
        self.sealed = sealed
        self.order = order
        self.round = round
        self.step = step

    def awaited(self, state: S) -> frozenset[Seat]:
        sealed = self.sealed(state)
        return frozenset(seat for seat in self.seats(state) if seat not in sealed)

    def undo_scope(self, state: S) -> Hashable:
        return ("sealed", self.round(state))

    def all_committed(self, state: S) -> bool:
        """Whether every taking-part seat has sealed its command."""
        sealed = self.sealed(state)
        return bool(sealed) and all(seat in sealed for seat in self.seats(state))

    def resolving_step(self, state: S) -> Command | None:
        if self.step is None or not self.all_committed(state):
            return None
        return Command.of(self.step, round=self.round(state))

    def in_declared_order(self, state: S) -> list[tuple[Seat, Any]]:
        """The sealed commands as the resolution takes them: (seat, what it sealed), in the
        declared order (seats missing from the order come last, by seat)."""
        sealed = self.sealed(state)
        order = list(self.order(state))
        order += sorted(seat for seat in sealed if seat not in order)
        return [(seat, sealed[seat]) for seat in order if seat in sealed]

    @staticmethod
    def sealed_visibility(seat: Seat, **redacted: Any) -> Visibility:
        """A sealed command's visibility: in full to its seat; everyone else learns only that
        the seat has committed (and whatever else `redacted` shows)."""
        return private_to(seat, redacted={"seat": seat, **redacted})


class TurnTaking(Generic[S]):
    """Mix into a ruleset (before `Ruleset`) that composes turn models: `turn_model(state)`
    names the model of the stage the game is in (None: nobody acts, e.g. the game is over), and
    the ruleset's awaited seats, undo scope and system step follow it."""

    def turn_model(self, state: S) -> TurnModel[S] | None:
        raise NotImplementedError

    def awaited_seats(self, state: S) -> frozenset[Seat]:
        model = self.turn_model(state)
        return frozenset() if model is None else model.awaited(state)

    def undo_scope(self, state: S) -> Hashable:
        model = self.turn_model(state)
        return None if model is None else model.undo_scope(state)

    def system_action(self, state: S) -> Command | None:
        model = self.turn_model(state)
        return None if model is None else model.resolving_step(state)


def seats_act_independently(ruleset: object, state: Any) -> bool:
    """Whether, in `state`, the seats' commands of one undo scope stand apart (sealed,
    simultaneous play): only a `TurnTaking` ruleset in a `Simultaneous` stage says so."""
    if not isinstance(ruleset, TurnTaking):
        return False
    model = ruleset.turn_model(state)
    return model is not None and model.independent_seats
