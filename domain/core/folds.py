"""How a ruleset family folds its events into its state, and the working state a decision
builds: one fold function registered per event type (`@FOLDS.handles(Kind)`), and a context
that applies each event as it is emitted, so that later rules see its effect."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from domain.core.chance import Chance
from domain.core.messages import Event

D = TypeVar("D")
"""What a fold reads besides the state: the family's pack or printed tables."""
S = TypeVar("S")
F = TypeVar("F", bound=Callable[..., Any])


class Folds(Generic[D, S]):
    """A family's event types, each with the function that folds it into the state."""

    __slots__ = ("_by_type",)

    def __init__(self) -> None:
        self._by_type: dict[type[Event], Callable[[D, S, Any], S]] = {}

    def handles(self, kind: type[Event]) -> Callable[[F], F]:
        def register(fold: F) -> F:
            self._by_type[kind] = fold
            return fold

        return register

    def evolve(self, data: D, state: S, event: Event) -> S:
        return self._by_type[type(event)](data, state, event)

    def event_types(self) -> tuple[type[Event], ...]:
        """Every event type folded, in the order they were registered."""
        return tuple(self._by_type)


class Working(Generic[D, S]):
    """The decide-side working state: events pile up in `events`, each folded on at once.
    A family names its `folds`; `data` is what they read besides the state."""

    folds: ClassVar[Folds[Any, Any]]

    def __init__(self, data: D, state: S, chance: Chance) -> None:
        self.data = data
        self.state = state
        self.chance = chance
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = self.folds.evolve(self.data, self.state, event)
