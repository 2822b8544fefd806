"""The store's refusals, and a write its replicas did not acknowledge in time."""

from __future__ import annotations

import redis


class StoreError(Exception):
    """Base of the store's refusals."""


class GameNotFound(StoreError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


class GameExists(StoreError):
    pass


class VersionConflict(StoreError):
    """The game moved on: the expected version is stale."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(f"expected version {expected}, but the game is at version {current}")
        self.expected = expected
        self.current = current


class IdempotencyKeyReused(StoreError):
    """The idempotency key was used before for a different request."""

    def __init__(self, key: str, current: int) -> None:
        super().__init__(f"idempotency key {key!r} was already used for a different request")
        self.key = key
        self.current = current


class MalformedAppend(StoreError):
    pass


class CredentialChanged(StoreError):
    """The token hash an append was made under is no longer its role's (the token was re-issued
    since it was checked): nothing was appended."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"the credential of this command was re-issued in game {game_id!r}")
        self.game_id = game_id


class NotReplicated(redis.exceptions.TimeoutError):
    """A write reached its master, but fewer replicas than asked acknowledged it in time (WAIT).

    Not acknowledged to the client (503): the write may survive or be lost with its master, and
    the client's retry with the same Idempotency-Key finds it done or does it anew."""

    def __init__(self, asked: int, acknowledged: int, timeout_ms: int) -> None:
        super().__init__(
            f"the write reached its Redis master but {acknowledged} of the {asked} replica(s) "
            f"asked for acknowledged it within {timeout_ms} ms"
        )
        self.asked = asked
        self.acknowledged = acknowledged
