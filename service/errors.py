"""Every failure the service lets through to its callers, from one place: the domain's typed
refusals, the store's conflicts, and the service's own (the API maps each to its answer)."""

from __future__ import annotations

from typing import Any

import redis.exceptions

from domain.core.errors import (
    EventSchemaUnavailable,
    InvalidOptions,
    RulesetRevisionUnavailable,
    RuleViolation,
    UnknownRuleset,
)
from service.loading import VersionOutOfRange
from service.sandboxes import ChanceScriptUnusable, InvalidChanceScript, InvalidPosition
from store.errors import CredentialChanged, GameNotFound, IdempotencyKeyReused, VersionConflict


class SeatNotPlayable(Exception):
    """A person's command for a seat that a bot plays since the seat left the game."""

    def __init__(self, seat: int, why: str) -> None:
        super().__init__(f"seat {seat} has left the game ({why}): a bot plays it now")
        self.seat = seat
        self.why = why


class CommandRefused(Exception):
    """A command the rules refuse, with the catalogue entry of the rule it breaks (None: the
    ruleset has no catalogue) and the version it was judged at."""

    def __init__(
        self, violation: RuleViolation, entry: dict[str, Any] | None, current_version: int
    ) -> None:
        super().__init__(violation.message)
        self.violation = violation
        self.entry = entry
        self.current_version = current_version


class GameBusy(Exception):
    """The game cannot take a seat's command now: it is contended, or a system step (such as
    closing an epoch) must run first."""

    def __init__(self, game_id: str, version: int | None = None) -> None:
        super().__init__(f"game {game_id} is busy; retry shortly")
        self.game_id = game_id
        self.version = version  # where a due step was found (None: contended, not read)


STORE_FAILURES = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterError,
    redis.exceptions.RedisClusterException,
)
"""Redis is down, unreachable, still loading its data, or too slow to answer; a Redis Cluster
is failing a master over (its slots are down, moving or not yet served by the promoted replica);
or too few replicas acknowledged a write (`NotReplicated`, a TimeoutError): whatever the request
asked, it cannot be done now, and can be retried as it is (a command with the same
Idempotency-Key) once Redis is back."""


def store_failure(exc: BaseException) -> BaseException | None:
    """The Redis connection or timeout error behind `exc`: `exc` itself, or the error it was
    raised from or while handling (as when RQ fails to enqueue a job), if there is one."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, STORE_FAILURES):
            return current
        seen.add(id(current))
        current = current.__cause__ or (
            None if current.__suppress_context__ else current.__context__
        )
    return None


__all__ = [
    "STORE_FAILURES",
    "ChanceScriptUnusable",
    "CommandRefused",
    "CredentialChanged",
    "EventSchemaUnavailable",
    "GameBusy",
    "GameNotFound",
    "IdempotencyKeyReused",
    "InvalidChanceScript",
    "InvalidOptions",
    "InvalidPosition",
    "RuleViolation",
    "RulesetRevisionUnavailable",
    "SeatNotPlayable",
    "UnknownRuleset",
    "VersionConflict",
    "VersionOutOfRange",
    "store_failure",
]
