"""Players on Redis: who they are (the hash of their key, never the key), the games where they
hold a seat, their notifications (one stream each, read from any id onward, so a client
resumes where it stopped), their webhooks and the log of each webhook's deliveries; and the
indexes of tables: the lobby of public games with open seats, and the clocks' deadlines."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import redis

from store import blocking
from store.keys import PREFIX
from store.keys import meta as game_meta

DELIVERIES_KEPT = 200
PLAYER_TTL_S = 90 * 24 * 3600.0
"""A player nobody has used for this long (`CHRONICLE_PLAYER_TTL_S`) is forgotten: every key
of theirs carries this expiry, pushed back whenever their key is used."""
PLAYER_PARTS = ("", "games", "inbox", "webhooks", "delivered", "delivered-at")
"""The player's own keys (a webhook's delivery log carries the expiry from each entry)."""
GAME_OWNER = "game-"
"""The owner of a game's webhooks (service.tables.game_owner): no player, never expired."""
_touched: dict[str, float] = {}
"""When this process last pushed each player's expiry back (at most once a tenth of it)."""


def player_ttl_s() -> int:
    """The expiry in whole seconds (0: never)."""
    return max(0, round(float(os.environ.get("CHRONICLE_PLAYER_TTL_S", PLAYER_TTL_S))))


def player_key(player_id: str, part: str = "") -> str:
    return f"{PREFIX}:player:{{{player_id}}}" + (f":{part}" if part else "")


def key_index(key_hash: str) -> str:
    return f"{PREFIX}:player-keys:{key_hash}"


def lobby(ruleset: str | None = None) -> str:
    base = f"{PREFIX}:games:lobby"
    return base if ruleset is None else f"{base}:ruleset:{ruleset}"


CLOCKS = f"{PREFIX}:games:clocks"
"""Games under a clock, scored by their next deadline (seconds since the epoch)."""
BOTS_DUE = f"{PREFIX}:games:bots-due"
"""Games where a bot must move, scored by when it was asked for (the worker's safety net)."""
NOTIFY_DUE = f"{PREFIX}:games:notify-due"
"""Games with events whose notifications may not have been sent yet, scored by when the append
that may have left them was about to be made (the worker's catch-up reads the oldest)."""
NOTIFIED = "notified"
"""A game's meta field: the version up to which its notifications have been sent."""
DELIVERED_KEPT_S = 7 * 24 * 3600
"""How long a player remembers the ids of the notifications delivered to it (a catch-up runs
within seconds of the append it catches up on)."""

_NOTIFY_ONCE = """
local found = redis.call('HGET', KEYS[2], ARGV[1])
if found then return {0, found} end
local id = redis.call('XADD', KEYS[1], '*', 'kind', ARGV[2], 'body', ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], id)
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
local old = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[5], 'LIMIT', 0, 100)
if #old > 0 then
  redis.call('HDEL', KEYS[2], unpack(old))
  redis.call('ZREM', KEYS[3], unpack(old))
end
return {1, id}
"""
"""Append a notification to a player's inbox unless one of that id was (all in the player's
slot, at once): exactly once per notification id."""

_CURSOR_AT_LEAST = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if ARGV[2] == 'init' then
  redis.call('HSETNX', KEYS[1], 'notified', ARGV[1])
else
  local now = tonumber(redis.call('HGET', KEYS[1], 'notified') or '-1')
  if now == tonumber(ARGV[3]) and tonumber(ARGV[1]) > now then
    redis.call('HSET', KEYS[1], 'notified', ARGV[1])
  end
end
return tonumber(redis.call('HGET', KEYS[1], 'notified'))
"""
"""A game's notified-up-to version: set where it has none (`init`), or moved forward from where
the caller found it (`advance` from ARGV[3]: never over a gap someone else left); never on a
game that is gone (its meta is not made again)."""

_FORGET_IF_SAME = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""
"""Take a game off the catch-up list unless another append marked it again meanwhile."""


@dataclass(frozen=True)
class Page:
    """A page of an index: (id, score) of each entry in order, how many the index holds, and
    whether more entries follow the page."""

    entries: list[tuple[str, float]]
    total: int
    more: bool

    @property
    def ids(self) -> list[str]:
        return [entry_id for entry_id, _ in self.entries]

    @property
    def after(self) -> tuple[float, str] | None:
        """The cursor position of the page's last entry (None: none, or nothing follows)."""
        if not self.more or not self.entries:
            return None
        entry_id, score = self.entries[-1]
        return score, entry_id


@dataclass(frozen=True)
class Player:
    player_id: str
    name: str
    created_at: str


class PlayerStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._notify_once = client.register_script(_NOTIFY_ONCE)
        self._cursor = client.register_script(_CURSOR_AT_LEAST)
        self._forget = client.register_script(_FORGET_IF_SAME)

    # --- players --------------------------------------------------------------------------

    def create(self, player_id: str, name: str, key_hash: str) -> Player:
        created_at = f"{time.time():.6f}"
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(
            player_key(player_id),
            mapping={"name": name, "key_hash": key_hash, "created_at": created_at},
        )
        pipe.set(key_index(key_hash), player_id)
        ttl = player_ttl_s()
        if ttl:
            pipe.expire(player_key(player_id), ttl)
            pipe.expire(key_index(key_hash), ttl)
        pipe.execute()
        _touched[player_id] = time.monotonic()
        return Player(player_id, name, created_at)

    def by_key_hash(self, key_hash: str) -> Player | None:
        player_id = self.redis.get(key_index(key_hash))
        player = None if player_id is None else self.get(str(player_id))
        if player is not None:
            self.touch(player.player_id, key_hash)
        return player

    def touch(self, player_id: str, key_hash: str) -> None:
        """The player was used: everything of theirs lives another `player_ttl_s()`."""
        ttl = player_ttl_s()
        now = time.monotonic()
        if not ttl or now - _touched.get(player_id, -ttl) < ttl / 10:
            return
        _touched[player_id] = now
        pipe = self.redis.pipeline(transaction=False)
        pipe.expire(key_index(key_hash), ttl)
        for part in PLAYER_PARTS:
            pipe.expire(player_key(player_id, part), ttl)
        for hook_id in self.redis.hkeys(player_key(player_id, "webhooks")):
            pipe.expire(player_key(player_id, f"webhook:{hook_id}:deliveries"), ttl)
        pipe.execute()

    def _expires(self, player_id: str, part: str) -> None:
        """A key of the player's just written lives as long as the player (a game's webhooks,
        kept under the owner `game-<id>`, as long as the game)."""
        ttl = player_ttl_s()
        if ttl and not player_id.startswith(GAME_OWNER):
            self.redis.expire(player_key(player_id, part), ttl)

    def get(self, player_id: str) -> Player | None:
        raw = self.redis.hgetall(player_key(player_id))
        if not raw:
            return None
        return Player(player_id, raw.get("name", ""), raw.get("created_at", ""))

    def key_hash(self, player_id: str) -> str | None:
        found = self.redis.hget(player_key(player_id), "key_hash")
        return None if found is None else str(found)

    def ticket_secret(self, player_id: str, new: str | None = None) -> str | None:
        """The secret the player's stream tickets are signed under: `new` becomes it if the
        player has none yet (its first ticket); None when there is no such player."""
        key = player_key(player_id)
        if new is not None and self.redis.exists(key):
            self.redis.hsetnx(key, "ticket_secret", new)
        found = self.redis.hget(key, "ticket_secret")
        return None if found is None else str(found)

    # --- their games ----------------------------------------------------------------------

    def add_game(self, player_id: str, game_id: str) -> None:
        self.redis.zadd(player_key(player_id, "games"), {game_id: time.time()}, nx=True)
        self._expires(player_id, "games")

    def games(
        self, player_id: str, offset: int, limit: int, after: tuple[float, str] | None = None
    ) -> Page:
        return self._page(player_key(player_id, "games"), offset, limit, after)

    def _page(self, key: str, offset: int, limit: int, after: tuple[float, str] | None) -> Page:
        """A page of a sorted index, highest score first (ties: greater id first): after the
        entry `after` (a cursor's score and id), else from `offset`; whether more follow."""
        if after is None:
            entries = self.redis.zrevrange(key, offset, offset + limit, withscores=True)
        else:
            score, last = after
            entries, start = [], 0
            while len(entries) <= limit:
                batch = self.redis.zrevrangebyscore(
                    key, score, "-inf", start=start, num=limit + 1, withscores=True
                )
                if not batch:
                    break
                start += len(batch)
                entries += [(m, s) for m, s in batch if s < score or str(m) < last]
        shown = [(str(m), float(s)) for m, s in entries[:limit]]
        return Page(shown, int(self.redis.zcard(key)), len(entries) > limit)

    # --- notifications --------------------------------------------------------------------

    def notify(self, player_id: str, kind: str, body: Mapping[str, Any]) -> str:
        payload = json.dumps({"kind": kind, **body}, sort_keys=True, separators=(",", ":"))
        entry = self.redis.xadd(player_key(player_id, "inbox"), {"kind": kind, "body": payload})
        self._expires(player_id, "inbox")
        return str(entry)

    def inbox(
        self, player_id: str, after: str, block_ms: int | None, count: int = 100
    ) -> list[tuple[str, str, str]]:
        """Notifications after stream id `after` ("0": from the oldest kept), as (id, kind,
        JSON body); waits up to `block_ms` for one when there is none yet (None: no wait; a wait
        lasts no longer than `store.blocking` lets a read wait)."""
        key = player_key(player_id, "inbox")
        if block_ms is None:
            entries = self.redis.xrange(key, f"({after}" if after != "0" else "-", "+", count)
        else:
            found = blocking.blocking_read(
                self.redis,
                block_ms,
                lambda wait_ms: self.redis.xread({key: after}, count=count, block=wait_ms),
                None,
            )
            entries = found[0][1] if found else []
        return [(str(i), f["kind"], f["body"]) for i, f in entries]

    def notify_once(
        self, player_id: str, notice_id: str, kind: str, body: Mapping[str, Any]
    ) -> tuple[bool, str]:
        """Put a notification derived from a game's log in the player's inbox, exactly once
        per `notice_id`: (whether it was new, its inbox id)."""
        payload = json.dumps({"kind": kind, **body}, sort_keys=True, separators=(",", ":"))
        now = time.time()
        new, entry = self._notify_once(
            keys=[
                player_key(player_id, "inbox"),
                player_key(player_id, "delivered"),
                player_key(player_id, "delivered-at"),
            ],
            args=[notice_id, kind, payload, now, now - DELIVERED_KEPT_S],
        )
        for part in ("inbox", "delivered", "delivered-at"):
            self._expires(player_id, part)
        return bool(int(new)), str(entry)

    # --- the notifications of a game's log -------------------------------------------------

    def mark_unnotified(self, game_id: str, version_before: int) -> str:
        """Before an append to a table's game: its notifications up to `version_before` are
        sent (or were never due: a game from before the cursor), and it goes on the catch-up
        list. Returns the mark to `forget_notified` it by."""
        self._cursor(keys=[game_meta(game_id)], args=[version_before, "init", -1])
        mark = f"{time.time():.6f}"
        self.redis.zadd(NOTIFY_DUE, {game_id: mark})
        return str(float(mark))

    def notified_up_to(self, game_id: str) -> int | None:
        found = self.redis.hget(game_meta(game_id), NOTIFIED)
        return None if found is None else int(found)

    def advance_notified(self, game_id: str, version: int, from_version: int) -> int:
        """The game's notifications from `from_version` up to `version` are sent: the cursor
        moves there if it stood at `from_version`. Returns where it stands."""
        found = self._cursor(keys=[game_meta(game_id)], args=[version, "advance", from_version])
        return int(found)

    def forget_notified(self, game_id: str, mark: str) -> bool:
        """Off the catch-up list, unless an append marked it again after `mark`."""
        return bool(self._forget(keys=[NOTIFY_DUE], args=[game_id, mark]))

    def postpone_notified(self, game_id: str, until_s: float) -> None:
        """Still on the catch-up list, but not due before `until_s`."""
        self.redis.zadd(NOTIFY_DUE, {game_id: f"{until_s:.6f}"}, xx=True)

    def notify_due(self, before_s: float, limit: int = 200) -> list[tuple[str, str]]:
        """(game, mark) of the games on the catch-up list marked before `before_s`."""
        found = self.redis.zrangebyscore(NOTIFY_DUE, "-inf", before_s, 0, limit, withscores=True)
        return [(str(game_id), str(float(score))) for game_id, score in found]

    def notify_mark(self, game_id: str) -> str | None:
        score = self.redis.zscore(NOTIFY_DUE, game_id)
        return None if score is None else str(float(score))

    # --- webhooks -------------------------------------------------------------------------

    def add_webhook(self, owner: str, hook_id: str, hook: Mapping[str, Any]) -> None:
        self.redis.hset(player_key(owner, "webhooks"), hook_id, json.dumps(dict(hook)))
        self._expires(owner, "webhooks")

    def webhooks(self, owner: str) -> dict[str, dict[str, Any]]:
        raw = self.redis.hgetall(player_key(owner, "webhooks"))
        return {hook_id: json.loads(body) for hook_id, body in raw.items()}

    def hook_sent(self, owner: str, hook_id: str, notice_id: str, now: bool = False) -> bool:
        """Whether the webhook received that notification (`now`: it just did)."""
        key = player_key(owner, f"webhook:{hook_id}:sent:{notice_id}")
        if now:
            self.redis.set(key, "1", ex=DELIVERED_KEPT_S)
            return True
        return bool(self.redis.exists(key))

    def log_delivery(self, owner: str, hook_id: str, entry: Mapping[str, Any]) -> None:
        key = player_key(owner, f"webhook:{hook_id}:deliveries")
        pipe = self.redis.pipeline(transaction=False)
        pipe.lpush(key, json.dumps(dict(entry), sort_keys=True))
        pipe.ltrim(key, 0, DELIVERIES_KEPT - 1)
        if player_ttl_s() and not owner.startswith(GAME_OWNER):
            pipe.expire(key, player_ttl_s())
        pipe.execute()

    def deliveries(self, owner: str, hook_id: str) -> list[dict[str, Any]]:
        key = player_key(owner, f"webhook:{hook_id}:deliveries")
        return [json.loads(e) for e in self.redis.lrange(key, 0, DELIVERIES_KEPT - 1)]

    # --- the lobby and the clocks ---------------------------------------------------------

    def list_in_lobby(
        self, game_id: str, ruleset: str, created_at: float, again: bool = False
    ) -> None:
        """`again`: keep its place if it is listed already."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(lobby(), {game_id: created_at}, nx=again)
        pipe.zadd(lobby(ruleset), {game_id: created_at}, nx=again)
        pipe.execute()

    def leave_lobby(self, game_id: str, ruleset: str) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(lobby(), game_id)
        pipe.zrem(lobby(ruleset), game_id)
        pipe.execute()

    def lobby_page(
        self, ruleset: str | None, offset: int, limit: int, after: tuple[float, str] | None = None
    ) -> Page:
        return self._page(lobby(ruleset), offset, limit, after)

    def set_deadline(self, game_id: str, deadline_s: float | None) -> None:
        if deadline_s is None:
            self.redis.zrem(CLOCKS, game_id)
        else:
            self.redis.zadd(CLOCKS, {game_id: deadline_s})

    def deadlines_due(self, now_s: float, limit: int = 500) -> list[str]:
        return [str(i) for i in self.redis.zrangebyscore(CLOCKS, "-inf", now_s, 0, limit)]

    def bots_due(self, game_id: str, due: bool) -> None:
        if due:
            self.redis.zadd(BOTS_DUE, {game_id: time.time()}, nx=True)
        else:
            self.redis.zrem(BOTS_DUE, game_id)

    def games_awaiting_bots(self, before_s: float, limit: int = 500) -> list[str]:
        return [str(i) for i in self.redis.zrangebyscore(BOTS_DUE, "-inf", before_s, 0, limit)]
