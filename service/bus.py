"""The messages a command publishes and the subscribers that take them, as
`service.games.GameService` runs them: load → decide → append → publish.

Around each append, every append subscriber is called once before it (what must be in place
should the process die right after the append: an index entry, a mark on a catch-up list) and
returns what it does once the append has landed (or None). After a command or a creation, the
handlers of `CommandPlayed` and `GameCreated` take what it made due. Each subscriber keeps its
own failure policy: the bus catches nothing. Which subscribers there are is wired in one place,
`service.subscribers`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from domain.core.kernel import Game
from domain.core.ruleset import Ruleset
from service.loading import StateCache, status_of
from service.scheduler import Scheduler
from store.redis_store import EventStore


class Service(Protocol):
    """What a subscriber may use of the service that publishes to it."""

    store: EventStore
    scheduler: Scheduler
    cache: StateCache
    snapshot_every: int

    def rules_of(self, game: Game[Any]) -> Ruleset[Any]: ...

    def system_step_due(self, game_id: str) -> bool: ...

    def save_snapshot(self, rules: Ruleset[Any], game_id: str, game: Game[Any]) -> int: ...

    def reveal_seed(self, game_id: str, early: bool = False) -> object: ...


@dataclass(frozen=True)
class Change:
    """A command's events, decided and folded, about to be appended to its game's log:
    `before`, the game they follow (None: the game's creation), `after`, the game they leave."""

    rules: Ruleset[Any]
    game_id: str
    before: Game[Any] | None
    after: Game[Any]

    @functools.cached_property
    def status(self) -> str:
        """The game's status after the append (`service.loading.status_of`)."""
        return status_of(self.rules, self.after)


Follow = Callable[[], object]
"""What an append subscriber does once the append has landed."""

AppendSubscriber = Callable[[Service, Change], Follow | None]


@dataclass(frozen=True)
class GameCreated:
    game_id: str
    version: int


@dataclass(frozen=True)
class CommandPlayed:
    """A seat's (or the admin's) new command, appended: its events `first_version`..`version`;
    `system_step_due`, whether the game now waits for a step no seat takes."""

    game_id: str
    first_version: int
    version: int
    system_step_due: bool | None


Handler = Callable[[Service, Any], None]


@dataclass(frozen=True)
class Subscribers:
    on_append: Sequence[AppendSubscriber]
    handlers: Mapping[type, Sequence[Handler]]

    def appending(self, service: Service, change: Change) -> list[Follow]:
        """Each append subscriber's part before the append, in their order; returns what each
        leaves to do once the append has landed."""
        follows = []
        for subscriber in self.on_append:
            follow = subscriber(service, change)
            if follow is not None:
                follows.append(follow)
        return follows

    @staticmethod
    def appended(follows: Sequence[Follow]) -> None:
        for follow in follows:
            follow()

    def publish(self, service: Service, message: GameCreated | CommandPlayed) -> None:
        for handler in self.handlers.get(type(message), ()):
            handler(service, message)
