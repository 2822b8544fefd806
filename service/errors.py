"""Every failure the service lets through to its callers, from one place: the domain's typed
refusals, the store's conflicts, and the service's own (the API maps each to its answer)."""

from __future__ import annotations

import redis.exceptions

from domain.core.errors import (
    EventSchemaUnavailable,
    InvalidOptions,
    RulesetRevisionUnavailable,
    RuleViolation,
    UnknownRuleset,
)
from service.games import (
    ChanceScriptUnusable,
    CommandRefused,
    GameBusy,
    InvalidChanceScript,
    InvalidPosition,
    VersionOutOfRange,
)
from store.errors import CredentialChanged, GameNotFound, IdempotencyKeyReused, VersionConflict

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
    "UnknownRuleset",
    "VersionConflict",
    "VersionOutOfRange",
    "store_failure",
]
