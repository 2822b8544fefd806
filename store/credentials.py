"""A game's credentials: the hashes of its access tokens, and its secret seed."""

from __future__ import annotations

import threading
from collections import OrderedDict

import redis

from store import keys
from store.errors import GameNotFound


class TokenHashes:
    """Hashes of a game's access tokens (admin and one per seat); never the tokens.

    `of` reads them from Redis: the admin may re-issue a seat's token (`replace`), and the old
    one must be refused at once by every API process. `remembered_of` answers from this process's
    memory, for a check that the store confirms in the same script as the write it allows (a
    command's append, `EventStore.append(credential=...)`); anything else uses `of`."""

    REPLACE = """
    if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
    redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
    return 1
    """

    def __init__(self, client: redis.Redis, remembered: int = 4096) -> None:
        self.redis = client
        self._replace = client.register_script(self.REPLACE)
        self.remembered = remembered
        self._known: OrderedDict[str, dict[str, str]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, game_id: str) -> dict[str, str]:
        """The hashes as stored now (remembered for `remembered`)."""
        hashes = dict(self.redis.hgetall(keys.tokens(game_id)))
        if hashes:
            with self._lock:
                self._known[game_id] = hashes
                self._known.move_to_end(game_id)
                while len(self._known) > self.remembered:
                    self._known.popitem(last=False)
        return hashes

    def remembered_of(self, game_id: str) -> dict[str, str] | None:
        """The hashes last read in this process, which may since have been re-issued."""
        with self._lock:
            return self._known.get(game_id)

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._known.pop(game_id, None)

    def replace(self, game_id: str, role: str, token_hash: str) -> bool:
        """Make `token_hash` the only hash of `role` (the old token stops working at once);
        False when the game has no such role."""
        return bool(self._replace(keys=[keys.tokens(game_id)], args=[role, token_hash]))


class SecretVault:
    """The per-game secrets slot. No event, view or listing path reads it."""

    def __init__(self, client: redis.Redis, remembered: int = 4096) -> None:
        self.redis = client
        self.remembered = remembered
        self._known: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def seed(self, game_id: str) -> bytes:
        """The game's seed; written once with the game, so kept once read."""
        with self._lock:
            known = self._known.get(game_id)
        if known is not None:
            return known
        value = self.redis.hget(keys.secrets(game_id), "seed")
        if value is None:
            raise GameNotFound(game_id)
        seed = bytes.fromhex(value)
        with self._lock:
            self._known[game_id] = seed
            while len(self._known) > self.remembered:
                self._known.popitem(last=False)
        return seed
