"""The event store on Redis Streams (contracts §3).

One stream per game; stream entry ids are `<version>-0`, so reading from version N is an XRANGE
that starts at N (no scan from the start). Appending is one Lua script: compare the expected
version, append every event of the command, bump the version and record the idempotency key
with its result — all or nothing. Nothing here deletes, trims or rewrites an event.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, NamedTuple

import redis
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.exceptions import AskError, MovedError, NoScriptError, TryAgainError

from store import blocking, keys
from store.compression import pack_event, pack_snapshot, unpack_event, unpack_snapshot
from store.connect import client_from_url

# Lua runs atomically; Redis does not roll a script back on a runtime error, so every check
# happens before the first write.
APPEND = """
local meta, stream, idem, tokens = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local expected = tonumber(ARGV[1])
local idem_key, fingerprint = ARGV[2], ARGV[3]
local role, token_hash = ARGV[4], ARGV[5]
local n_meta = tonumber(ARGV[6])
local first_event = 7 + 2 * n_meta
local n_events = #ARGV - first_event + 1

local current = redis.call('HGET', meta, 'version')
if not current then return {'missing', 0} end
current = tonumber(current)
if role ~= '' and redis.call('HGET', tokens, role) ~= token_hash then
  return {'credential', current}
end

if idem_key ~= '' then
  local prior = redis.call('HGET', idem, idem_key)
  if prior then
    local sep = string.find(prior, '|', 1, true)
    if string.sub(prior, 1, math.min(sep - 1, #fingerprint)) ~= fingerprint then
      return {'reused', current}
    end
    return {'duplicate', current, string.sub(prior, sep + 1)}
  end
end
if expected ~= current then return {'conflict', current} end
if n_events < 1 then return {'empty', current} end
for i = first_event, #ARGV do
  if ARGV[i] == '' then return {'malformed', current} end
end

for i = first_event, #ARGV do
  redis.call('XADD', stream, tostring(current + i - first_event + 1) .. '-0', 'e', ARGV[i])
end
local last = current + n_events
local fields = {'version', tostring(last)}
for i = 0, n_meta - 1 do
  fields[#fields + 1] = ARGV[7 + 2 * i]
  fields[#fields + 1] = ARGV[8 + 2 * i]
end
redis.call('HSET', meta, unpack(fields))
local result = tostring(current + 1) .. '-' .. tostring(last)
if idem_key ~= '' then redis.call('HSET', idem, idem_key, fingerprint .. '|' .. result) end
return {'ok', last, result}
"""

CREATE = """
local meta, stream, secret, tokens = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
if redis.call('EXISTS', meta) == 1 then return {'exists'} end
local n_meta, n_tokens = tonumber(ARGV[2]), tonumber(ARGV[3])
local first_token = 4 + 2 * n_meta
local first_event = first_token + 2 * n_tokens
if first_event > #ARGV then return {'malformed'} end
for i = first_event, #ARGV do
  if ARGV[i] == '' then return {'malformed'} end
end
redis.call('HSET', secret, 'seed', ARGV[1])
if n_tokens > 0 then
  redis.call('HSET', tokens, unpack(ARGV, first_token, first_event - 1))
end
for i = first_event, #ARGV do
  redis.call('XADD', stream, tostring(i - first_event + 1) .. '-0', 'e', ARGV[i])
end
local fields = {'version', tostring(#ARGV - first_event + 1)}
for i = 4, first_token - 1 do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', meta, unpack(fields))
return {'ok', #ARGV - first_event + 1}
"""

EXPIRE = """
-- KEYS: every key of one game, its meta second; ARGV[1]: the version it must still be at
if redis.call('HGET', KEYS[2], 'version') ~= ARGV[1] then return 0 end
redis.call('DEL', unpack(KEYS))
return 1
"""

SAVE_SNAPSHOT = """
local snaps, index, meta = KEYS[1], KEYS[2], KEYS[3]
local version = tonumber(ARGV[1])
local current = tonumber(redis.call('HGET', meta, 'version') or '-1')
if version > current then return 0 end
redis.call('HSET', snaps, ARGV[1], ARGV[2])
redis.call('ZADD', index, version, ARGV[1])
return 1
"""


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


@dataclass(frozen=True)
class StoredEvent:
    version: int
    payload: str

    def decoded(self) -> dict[str, Any]:
        body: dict[str, Any] = json.loads(self.payload)
        body["version"] = self.version
        return body


@dataclass(frozen=True)
class AppendResult:
    first_version: int
    last_version: int
    duplicate: bool = False


class ListedPage(NamedTuple):
    games: list[GameMeta]
    total: int
    """The size of the index read (it may still hold a few stale entries)."""
    next_after: tuple[float, str] | None
    """Where the next page starts (None: this is the last page)."""


@dataclass(frozen=True)
class GameMeta:
    game_id: str
    ruleset: str
    status: str
    players: tuple[str, ...]
    version: int
    created_at: str
    extra: Mapping[str, str]

    def as_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "ruleset": self.ruleset,
            "status": self.status,
            "players": list(self.players),
            "version": self.version,
            "created_at": self.created_at,
            **{k: v for k, v in self.extra.items()},
        }


@dataclass(frozen=True)
class Snapshot:
    version: int
    state: str
    state_hash: str


_META_FIELDS = ("ruleset", "status", "players", "version", "created_at")
PRIVATE = "private"
"""A private table's `listing`: found by its invitation or its players, never listed."""


def _flat_meta(fields: Mapping[str, Any]) -> list[str]:
    flat: list[str] = []
    for name, value in fields.items():
        flat += [name, value if isinstance(value, str) else json.dumps(value)]
    return flat


class EventStore:
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
        """Run a write script on the master of its keys' slot; with `wait_replicas`, on one
        connection followed by `WAIT` (which counts the writes of its own connection only)."""
        if not self.wait_replicas:
            return script(keys=keys, args=args)
        for _attempt in range(3):
            target = self._master_of(keys[0])
            pipe = target.pipeline(transaction=False)
            pipe.evalsha(script.sha, len(keys), *keys, *args)
            pipe.execute_command("WAIT", self.wait_replicas, self.wait_timeout_ms)
            try:
                reply, acknowledged = pipe.execute(raise_on_error=False)
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
                self._relearn_slots()
                raise
            if isinstance(reply, NoScriptError):  # a new master, or a restarted one
                target.script_load(script.script)
                continue
            if isinstance(reply, MovedError | AskError | TryAgainError):  # a failover moved it
                self._relearn_slots()
                continue
            if isinstance(reply, Exception):
                raise reply
            if isinstance(acknowledged, Exception):
                raise acknowledged
            if int(acknowledged) < self.wait_replicas:
                raise NotReplicated(self.wait_replicas, int(acknowledged), self.wait_timeout_ms)
            return reply
        raise redis.exceptions.ConnectionError(
            f"the slot of {keys[0]!r} kept moving: the cluster is failing over"
        )

    def _master_of(self, key: str) -> redis.Redis:
        if not isinstance(self.redis, RedisCluster):
            return self.redis
        return self.redis.get_redis_connection(self.redis.get_node_from_key(key))

    def _relearn_slots(self) -> None:
        """Ask the cluster again which master serves which slot (after a failover)."""
        if isinstance(self.redis, RedisCluster):
            with suppress(redis.exceptions.RedisError):
                self.redis.nodes_manager.initialize()

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
                *_flat_meta(fields),
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

    # --- indexes (global keys, written by commands of their own after a game's script) -------

    def _index_new(
        self,
        game_id: str,
        ruleset: str,
        status: str,
        created_at: float,
        reveal: bool,
        listed: bool = True,
    ) -> None:
        pipe = self.redis.pipeline(transaction=False)
        if listed:  # a private table is never on a listed index, not even for a moment
            for index in keys.listed_indexes(status, ruleset):
                pipe.zadd(index, {game_id: created_at})
        pipe.zadd(keys.ruleset_index(ruleset), {game_id: created_at})
        pipe.zadd(keys.status_index(status), {game_id: created_at})
        pipe.zadd(keys.status_index(status, ruleset), {game_id: created_at})
        pipe.zadd(keys.UNSTARTED, {game_id: created_at})
        if status == "finished" and reveal:
            pipe.zadd(keys.REVEAL_PENDING, {game_id: created_at})
        pipe.execute()

    def index_status(self, game_id: str, ruleset: str, status: str) -> None:
        """List the game under `status` too: called before the append that moves it there, so
        that a game is always in the index of its status (a reader drops the stale entries
        it meets: an append that failed after this, or the status it left)."""
        asked = self.redis.pipeline(transaction=False)
        asked.zscore(keys.GAME_INDEX, game_id)
        asked.hget(keys.meta(game_id), "listing")
        score, listing = asked.execute()
        created_at = score or time.time()
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(keys.status_index(status), {game_id: created_at})
        pipe.zadd(keys.status_index(status, ruleset), {game_id: created_at})
        if listing != PRIVATE:
            pipe.zadd(keys.listed_index(status), {game_id: created_at})
            pipe.zadd(keys.listed_index(status, ruleset), {game_id: created_at})
        pipe.execute()

    def unindex_status(self, game_id: str, ruleset: str, status: str) -> None:
        """The game has left `status`."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(keys.status_index(status), game_id)
        pipe.zrem(keys.status_index(status, ruleset), game_id)
        pipe.zrem(keys.listed_index(status), game_id)
        pipe.zrem(keys.listed_index(status, ruleset), game_id)
        pipe.execute()

    def ensure_indexed(self) -> None:
        """Build the indexes of games made before they existed (once per database and index
        layout: O(games) that one time). Every unfinished game goes on the unstarted list too,
        where the sweep checks it once: an older game no seat acted in expires like a new one,
        and one a seat acted in leaves the list. Every game but a private table goes on the
        listed indexes (`GET /games`)."""
        if self.redis.get(keys.INDEXED) == keys.INDEX_LAYOUT:
            return
        start = 0
        while ids := self.redis.zrange(keys.GAME_INDEX, start, start + 499, withscores=True):
            metas = {m.game_id: m for m in self._metas([game_id for game_id, _ in ids])}
            pipe = self.redis.pipeline(transaction=False)
            for game_id, created_at in ids:
                meta = metas.get(game_id)
                if meta is None:
                    continue
                pipe.zadd(keys.ruleset_index(meta.ruleset), {game_id: created_at})
                pipe.zadd(keys.status_index(meta.status), {game_id: created_at})
                pipe.zadd(keys.status_index(meta.status, meta.ruleset), {game_id: created_at})
                if meta.status == "finished" and meta.extra.get("seed_revealed") != "true":
                    pipe.zadd(keys.REVEAL_PENDING, {game_id: created_at})
                if meta.status != "finished":
                    pipe.zadd(keys.UNSTARTED, {game_id: created_at})
                if meta.extra.get("listing") != PRIVATE:
                    for index in keys.listed_indexes(meta.status, meta.ruleset):
                        pipe.zadd(index, {game_id: created_at})
            pipe.execute()
            start += len(ids)
        self.redis.set(keys.INDEXED, keys.INDEX_LAYOUT)

    def unstarted_before(self, created_before: float, limit: int) -> list[str]:
        """Games on the unstarted list created before that time (oldest first)."""
        found: list[str] = self.redis.zrangebyscore(
            keys.UNSTARTED, "-inf", f"({created_before}", start=0, num=limit
        )
        return found

    def forget_unstarted(self, *game_ids: str) -> None:
        if game_ids:
            self.redis.zrem(keys.UNSTARTED, *game_ids)

    def reveal_pending(self, limit: int) -> list[str]:
        found: list[str] = self.redis.zrange(keys.REVEAL_PENDING, 0, limit - 1)
        return found

    def forget_reveal_pending(self, *game_ids: str) -> None:
        if game_ids:
            self.redis.zrem(keys.REVEAL_PENDING, *game_ids)

    def expire_game(self, game_id: str, version: int) -> bool:
        """Delete every key of a game that is still at `version` (checked and deleted in one
        script, so a command appended meanwhile keeps the game), and its index entries."""
        meta = self.redis.hgetall(keys.meta(game_id))
        deleted = self._write(self._expire, keys=keys.game_keys(game_id), args=[version])
        if not deleted:
            return False
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(keys.GAME_INDEX, game_id)
        pipe.zrem(keys.UNSTARTED, game_id)
        pipe.zrem(keys.REVEAL_PENDING, game_id)
        if meta:
            ruleset, status = meta.get("ruleset", ""), meta.get("status", "")
            pipe.zrem(keys.ruleset_index(ruleset), game_id)
            pipe.zrem(keys.status_index(status), game_id)
            pipe.zrem(keys.status_index(status, ruleset), game_id)
            for index in keys.listed_indexes(status, ruleset):
                pipe.zrem(index, game_id)
        pipe.execute()
        return True

    def meta(self, game_id: str) -> GameMeta:
        raw = self.redis.hgetall(keys.meta(game_id))
        if not raw:
            raise GameNotFound(game_id)
        return self._meta_from(game_id, raw)

    @staticmethod
    def _meta_from(game_id: str, raw: Mapping[str, str]) -> GameMeta:
        return GameMeta(
            game_id=game_id,
            ruleset=raw.get("ruleset", ""),
            status=raw.get("status", ""),
            players=tuple(json.loads(raw.get("players", "[]"))),
            version=int(raw.get("version", 0)),
            created_at=raw.get("created_at", ""),
            extra={k: v for k, v in raw.items() if k not in _META_FIELDS},
        )

    def version(self, game_id: str) -> int:
        value = self.redis.hget(keys.meta(game_id), "version")
        if value is None:
            raise GameNotFound(game_id)
        return int(value)

    def list_games(
        self,
        *,
        offset: int = 0,
        limit: int = 50,
        status: str | None = None,
        ruleset: str | None = None,
        public_only: bool = False,
    ) -> tuple[list[GameMeta], int]:
        """Games newest first, filtered; returns one page and the number that matched. Reads
        one index (all games, a status, a ruleset, or both) a page at a time: O(page), however
        many games there are. An index entry whose game has since left that status is dropped
        as it is met (the count is the index's size, which may still hold a few of those).
        `public_only`: the listed games only (`listed_page`)."""
        if public_only:
            listed = self.listed_page(status=status, ruleset=ruleset, limit=limit, offset=offset)
            return listed.games, listed.total
        if status is None and ruleset is None:
            index = keys.GAME_INDEX
        else:
            self.ensure_indexed()
            if status is None:
                index = keys.ruleset_index(str(ruleset))
            else:
                index = keys.status_index(status, ruleset)
        page: list[GameMeta] = []
        stale: list[str] = []
        start = offset
        while len(page) < limit:
            want = limit - len(page)
            ids = self.redis.zrevrange(index, start, start + want - 1)
            if not ids:
                break
            metas = {m.game_id: m for m in self._metas(ids)}
            for game_id in ids:
                meta = metas.get(game_id)
                if meta is None and index == keys.GAME_INDEX:
                    continue
                if meta is None or (status is not None and meta.status != status):
                    stale.append(game_id)
                    continue
                page.append(meta)
            start += len(ids)
        if stale:
            self.redis.zrem(index, *stale)
        return page, max(0, int(self.redis.zcard(index)))

    def listed_page(
        self,
        *,
        status: str | None = None,
        ruleset: str | None = None,
        limit: int = 50,
        offset: int = 0,
        after: tuple[float, str] | None = None,
    ) -> ListedPage:
        """One page of the listed games (every game but a private table), newest first, from
        the listed index of that status and ruleset: O(page), however many games (public or
        private) there are. `after` (a cursor: the creation score and id of the last game of the
        page before) gives the games after that one in this order, so a page never repeats or
        skips a game because others were created meanwhile; without it, `offset` skips some.
        An entry whose game has left the status, expired or turned private is dropped from the
        index as it is met."""
        self.ensure_indexed()
        index = keys.listed_index(status, ruleset)
        page: list[GameMeta] = []
        last: tuple[float, str] | None = after
        stale: list[str] = []
        start = 0 if after is not None else offset
        exhausted = False
        while len(page) < limit:
            want = limit - len(page)
            entries = self._listed_after(index, after, start, want)
            if not entries:
                exhausted = True
                break
            start += len(entries)
            shown = [
                (game_id, score)
                for game_id, score in entries
                if after is None or score < after[0] or game_id < after[1]
            ]
            metas = {m.game_id: m for m in self._metas([game_id for game_id, _ in shown])}
            for game_id, score in shown:
                meta = metas.get(game_id)
                if (
                    meta is None
                    or (status is not None and meta.status != status)
                    or meta.extra.get("listing") == PRIVATE
                ):
                    stale.append(game_id)
                    continue
                if len(page) < limit:
                    page.append(meta)
                    last = (score, game_id)
        if stale:
            self.redis.zrem(index, *stale)
        more = not exhausted and last is not None and self._any_after(index, last)
        return ListedPage(page, int(self.redis.zcard(index)), last if more else None)

    def _listed_after(
        self, index: str, after: tuple[float, str] | None, start: int, count: int
    ) -> list[tuple[str, float]]:
        """Index entries newest first, from the `start`th on; with `after`, of those at or
        below its score (the caller drops the ties at or before its id: Redis orders the games
        of one score by id, descending here)."""
        if after is None:
            found = self.redis.zrevrange(index, start, start + count - 1, withscores=True)
        else:
            found = self.redis.zrevrangebyscore(
                index, repr(after[0]), "-inf", start=start, num=count, withscores=True
            )
        return [(str(game_id), float(score)) for game_id, score in found]

    def _any_after(self, index: str, after: tuple[float, str]) -> bool:
        start = 0
        while entries := self._listed_after(index, after, start, 50):
            if any(score < after[0] or game_id < after[1] for game_id, score in entries):
                return True
            start += len(entries)
        return False

    def metas(self, game_ids: Sequence[str]) -> list[GameMeta]:
        """The metas of those games that exist, in order."""
        return self._metas(game_ids)

    def _metas(self, game_ids: Sequence[str]) -> list[GameMeta]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(keys.meta(game_id))
        return [
            self._meta_from(game_id, raw)
            for game_id, raw in zip(game_ids, pipe.execute(), strict=True)
            if raw
        ]

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
                *_flat_meta(meta),
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
