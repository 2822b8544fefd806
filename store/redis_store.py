"""The event store on Redis Streams (contracts §3).

One stream per game; stream entry ids are `<version>-0`, so reading from version N is an XRANGE
that starts at N (no scan from the start). Appending is one Lua script (store/scripts.py):
compare the expected version, append every event of the command, bump the version and record the
idempotency key with its result — all or nothing. Nothing here deletes, trims or rewrites an
event. The games' global indexes are store/indexes.py's (EventStore inherits them); a game's
token hashes and seed are store/credentials.py's.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.commands.core import Script

from store import blocking, keys
from store.compression import pack_event, pack_snapshot, unpack_event, unpack_snapshot
from store.connect import client_from_url
from store.errors import (
    CredentialChanged,
    GameExists,
    GameNotFound,
    IdempotencyKeyReused,
    MalformedAppend,
    VersionConflict,
)
from store.indexes import GameIndexes
from store.records import (
    PRIVATE,
    AppendResult,
    GameMeta,
    Snapshot,
    StoredEvent,
    flat_meta,
    meta_from,
)
from store.replication import replicated_write
from store.scripts import APPEND, CREATE, EXPIRE, SAVE_SNAPSHOT


class EventStore(GameIndexes):
    """Streams, metadata, idempotency records and snapshots of games."""

    def __init__(
        self, client: redis.Redis, *, wait_replicas: int = 0, wait_timeout_ms: int = 1000
    ) -> None:
        """`wait_replicas`: before an append or a creation returns, that many replicas of its
        master must have acknowledged it (Redis `WAIT`, up to `wait_timeout_ms`), else
        `NotReplicated` is raised; 0 returns once the master has it (and, with `appendfsync
        always`, has it on disk)."""
        self.redis = client
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self._append = client.register_script(APPEND)
        self._create = client.register_script(CREATE)
        self._save_snapshot = client.register_script(SAVE_SNAPSHOT)
        self._expire = client.register_script(EXPIRE)

    @classmethod
    def from_url(cls, url: str, **options: int) -> EventStore:
        return cls(client_from_url(url), **options)

    @property
    def is_cluster(self) -> bool:
        return isinstance(self.redis, RedisCluster)

    def _write(self, script: Script, keys: list[str], args: list[Any]) -> Any:
        return replicated_write(
            self.redis, script, keys, args, self.wait_replicas, self.wait_timeout_ms
        )

    # --- games ----------------------------------------------------------------------------

    def create(
        self,
        game_id: str,
        *,
        ruleset: str,
        players: Sequence[str],
        status: str,
        events: Sequence[str],
        seed: bytes,
        token_hashes: Mapping[str, str] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> int:
        """Create a game with its first events, its secret seed and its token hashes, at once."""
        if not keys.GAME_ID.match(game_id):
            raise MalformedAppend(f"bad game id {game_id!r}")
        created_at = f"{time.time():.6f}"
        fields = {
            "ruleset": ruleset,
            "status": status,
            "players": json.dumps(list(players)),
            "created_at": created_at,
            **(extra or {}),
        }
        token_pairs = [item for pair in (token_hashes or {}).items() for item in pair]
        reply = self._write(
            self._create,
            keys=[
                keys.meta(game_id),
                keys.events(game_id),
                keys.secrets(game_id),
                keys.tokens(game_id),
            ],
            args=[
                seed.hex(),
                len(fields),
                len(token_pairs) // 2,
                *flat_meta(fields),
                *token_pairs,
                *(pack_event(event) if event else "" for event in events),
            ],
        )
        if reply[0] == "exists":
            raise GameExists(game_id)
        if reply[0] == "malformed":
            raise MalformedAppend("an event payload is empty")
        self.redis.zadd(keys.GAME_INDEX, {game_id: float(created_at)})
        revealed = str((extra or {}).get("seed_revealed", "")).lower() == "true"
        listed = (extra or {}).get("listing") != PRIVATE
        self._index_new(
            game_id, ruleset, status, float(created_at), reveal=not revealed, listed=listed
        )
        return int(reply[1])

    def expire_game(self, game_id: str, version: int) -> bool:
        """Delete every key of a game that is still at `version` (checked and deleted in one
        script, so a command appended meanwhile keeps the game), and its index entries."""
        meta = self.redis.hgetall(keys.meta(game_id))
        deleted = self._write(self._expire, keys=keys.game_keys(game_id), args=[version])
        if not deleted:
            return False
        self._unindex_expired(game_id, meta)
        return True

    def meta(self, game_id: str) -> GameMeta:
        raw = self.redis.hgetall(keys.meta(game_id))
        if not raw:
            raise GameNotFound(game_id)
        return meta_from(game_id, raw)

    def version(self, game_id: str) -> int:
        value = self.redis.hget(keys.meta(game_id), "version")
        if value is None:
            raise GameNotFound(game_id)
        return int(value)

    def set_meta(self, game_id: str, **fields: Any) -> None:
        """Update descriptive fields (never the version, which only an append moves); a new
        status moves the game between the status indexes."""
        fields.pop("version", None)
        moved: tuple[str, str] | None = None
        if "status" in fields:
            ruleset, was = self.redis.hmget(keys.meta(game_id), ["ruleset", "status"])
            if ruleset is not None and was != fields["status"]:
                self.index_status(game_id, ruleset, str(fields["status"]))
                moved = (ruleset, str(was or ""))
        if fields:
            self.redis.hset(
                keys.meta(game_id),
                mapping=dict(
                    zip(
                        fields,
                        (v if isinstance(v, str) else json.dumps(v) for v in fields.values()),
                        strict=True,
                    )
                ),
            )
        if moved is not None:
            self.unindex_status(game_id, *moved)

    # --- events ---------------------------------------------------------------------------

    def append(
        self,
        game_id: str,
        events: Sequence[str],
        *,
        expected_version: int,
        idempotency_key: str | None = None,
        fingerprint: str = "",
        meta: Mapping[str, Any] | None = None,
        credential: tuple[str, str] | None = None,
    ) -> AppendResult:
        """Append all events of one command at versions expected+1.., or nothing at all.
        `credential`: (role, token hash) that must still be the role's hash in the game's
        tokens when the events are appended (checked in the same script), else
        `CredentialChanged`."""
        meta = dict(meta or {})
        meta.pop("version", None)
        if meta.get("status") == "finished" and meta.get("seed_revealed") is not True:
            # before the append, so that a crash after it leaves the reveal to the sweep
            self.redis.zadd(keys.REVEAL_PENDING, {game_id: time.time()}, nx=True)
        reply = self._write(
            self._append,
            keys=[
                keys.meta(game_id),
                keys.events(game_id),
                keys.idempotency(game_id),
                keys.tokens(game_id),
            ],
            args=[
                expected_version,
                idempotency_key or "",
                fingerprint.replace("|", "/"),
                *(credential or ("", "")),
                len(meta),
                *flat_meta(meta),
                *(pack_event(event) if event else "" for event in events),
            ],
        )
        outcome = reply[0]
        if outcome == "ok" or outcome == "duplicate":
            first, last = (int(v) for v in reply[2].split("-"))
            return AppendResult(first, last, duplicate=outcome == "duplicate")
        if outcome == "missing":
            raise GameNotFound(game_id)
        if outcome == "conflict":
            raise VersionConflict(expected_version, int(reply[1]))
        if outcome == "reused":
            raise IdempotencyKeyReused(idempotency_key or "", int(reply[1]))
        if outcome == "credential":
            raise CredentialChanged(game_id)
        raise MalformedAppend(f"append refused: {outcome}")

    def idempotent_result(
        self, game_id: str, idempotency_key: str
    ) -> tuple[str, AppendResult] | None:
        """The fingerprint and result recorded for an idempotency key, if any."""
        prior = self.redis.hget(keys.idempotency(game_id), idempotency_key)
        if prior is None:
            return None
        fingerprint, result = prior.split("|", 1)
        first, last = (int(v) for v in result.split("-"))
        return fingerprint, AppendResult(first, last, duplicate=True)

    def read(
        self,
        game_id: str,
        from_version: int = 1,
        to_version: int | None = None,
        count: int | None = None,
    ) -> list[StoredEvent]:
        """Events with from_version <= version <= to_version, in order."""
        start = f"{max(from_version, 1)}-0"
        end = "+" if to_version is None else f"{to_version}-0"
        if to_version is not None and to_version < from_version:
            return []
        entries = self.redis.xrange(keys.events(game_id), start, end, count=count)
        return [
            StoredEvent(int(entry_id.split("-")[0]), unpack_event(fields["e"]))
            for entry_id, fields in entries
        ]

    def read_after(
        self, game_id: str, after_version: int, *, block_ms: int, count: int = 100
    ) -> list[StoredEvent]:
        """Events after `after_version`, waiting up to `block_ms` for one to arrive (XREAD BLOCK,
        for no longer than `store.blocking` lets a read wait).

        Returns at once when there are events already; an empty list when none came in time.
        """
        stream = {keys.events(game_id): f"{max(after_version, 0)}-0"}
        reply = blocking.blocking_read(
            self.redis,
            block_ms,
            lambda wait_ms: self.redis.xread(stream, count=count, block=wait_ms),
            None,
        )
        streams = reply.items() if isinstance(reply, dict) else reply or ()  # RESP3 / RESP2
        return [
            StoredEvent(int(entry_id.split("-")[0]), unpack_event(fields["e"]))
            for _stream, entries in streams
            for entry_id, fields in entries
        ]

    # --- snapshots ------------------------------------------------------------------------

    def save_snapshot(self, game_id: str, version: int, state: str, state_hash: str) -> bool:
        payload = pack_snapshot(json.dumps({"state": state, "hash": state_hash}))
        saved = self._save_snapshot(
            keys=[keys.snapshots(game_id), keys.snapshot_index(game_id), keys.meta(game_id)],
            args=[version, payload],
        )
        return bool(saved)

    def latest_snapshot(self, game_id: str, at_most: int | None = None) -> Snapshot | None:
        version = self.newest_snapshot_version(game_id, at_most)
        return None if version is None else self.snapshot(game_id, version)

    def newest_snapshot_version(self, game_id: str, at_most: int | None = None) -> int | None:
        high = "+inf" if at_most is None else at_most
        versions = self.redis.zrevrangebyscore(keys.snapshot_index(game_id), high, "-inf", 0, 1)
        return int(versions[0]) if versions else None

    def snapshot(self, game_id: str, version: int) -> Snapshot | None:
        raw = self.redis.hget(keys.snapshots(game_id), str(version))
        if raw is None:
            return None
        body = json.loads(unpack_snapshot(raw))
        return Snapshot(version, body["state"], body["hash"])

    def mark_snapshot_untrusted(self, game_id: str, version: int) -> None:
        """A snapshot that disagreed with a replay: kept for the record, never loaded again."""
        self.redis.sadd(keys.untrusted_snapshots(game_id), str(version))

    def untrusted_snapshots(self, game_id: str) -> set[int]:
        return {int(v) for v in self.redis.smembers(keys.untrusted_snapshots(game_id))}

    def snapshot_versions(self, game_id: str) -> list[int]:
        return [int(v) for v in self.redis.zrange(keys.snapshot_index(game_id), 0, -1)]
