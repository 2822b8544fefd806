"""Players on Redis: who they are (the hash of their key, never the key), the games where they
hold a seat, their notifications (one stream each, read from any id onward, so a client
resumes where it stopped), their webhooks and the log of each webhook's deliveries; and the
indexes of tables: the lobby of public games with open seats, and the clocks' deadlines."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import redis

from store.keys import PREFIX

DELIVERIES_KEPT = 200


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


@dataclass(frozen=True)
class Player:
    player_id: str
    name: str
    created_at: str


class PlayerStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    # --- players --------------------------------------------------------------------------

    def create(self, player_id: str, name: str, key_hash: str) -> Player:
        created_at = f"{time.time():.6f}"
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(
            player_key(player_id),
            mapping={"name": name, "key_hash": key_hash, "created_at": created_at},
        )
        pipe.set(key_index(key_hash), player_id)
        pipe.execute()
        return Player(player_id, name, created_at)

    def by_key_hash(self, key_hash: str) -> Player | None:
        player_id = self.redis.get(key_index(key_hash))
        return None if player_id is None else self.get(str(player_id))

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

    def games(self, player_id: str, offset: int, limit: int) -> tuple[list[str], int]:
        key = player_key(player_id, "games")
        ids = self.redis.zrevrange(key, offset, offset + limit - 1)
        return [str(i) for i in ids], int(self.redis.zcard(key))

    # --- notifications --------------------------------------------------------------------

    def notify(self, player_id: str, kind: str, body: Mapping[str, Any]) -> str:
        payload = json.dumps({"kind": kind, **body}, sort_keys=True, separators=(",", ":"))
        entry = self.redis.xadd(player_key(player_id, "inbox"), {"kind": kind, "body": payload})
        return str(entry)

    def inbox(
        self, player_id: str, after: str, block_ms: int | None, count: int = 100
    ) -> list[tuple[str, str, str]]:
        """Notifications after stream id `after` ("0": from the oldest kept), as (id, kind,
        JSON body); waits up to `block_ms` for one when there is none yet (None: no wait)."""
        key = player_key(player_id, "inbox")
        if block_ms is None:
            entries = self.redis.xrange(key, f"({after}" if after != "0" else "-", "+", count)
        else:
            found = self.redis.xread({key: after}, count=count, block=block_ms)
            entries = found[0][1] if found else []
        return [(str(i), f["kind"], f["body"]) for i, f in entries]

    # --- webhooks -------------------------------------------------------------------------

    def add_webhook(self, owner: str, hook_id: str, hook: Mapping[str, Any]) -> None:
        self.redis.hset(player_key(owner, "webhooks"), hook_id, json.dumps(dict(hook)))

    def webhooks(self, owner: str) -> dict[str, dict[str, Any]]:
        raw = self.redis.hgetall(player_key(owner, "webhooks"))
        return {hook_id: json.loads(body) for hook_id, body in raw.items()}

    def log_delivery(self, owner: str, hook_id: str, entry: Mapping[str, Any]) -> None:
        key = player_key(owner, f"webhook:{hook_id}:deliveries")
        pipe = self.redis.pipeline(transaction=False)
        pipe.lpush(key, json.dumps(dict(entry), sort_keys=True))
        pipe.ltrim(key, 0, DELIVERIES_KEPT - 1)
        pipe.execute()

    def deliveries(self, owner: str, hook_id: str) -> list[dict[str, Any]]:
        key = player_key(owner, f"webhook:{hook_id}:deliveries")
        return [json.loads(e) for e in self.redis.lrange(key, 0, DELIVERIES_KEPT - 1)]

    # --- the lobby and the clocks ---------------------------------------------------------

    def list_in_lobby(self, game_id: str, ruleset: str, created_at: float) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(lobby(), {game_id: created_at})
        pipe.zadd(lobby(ruleset), {game_id: created_at})
        pipe.execute()

    def leave_lobby(self, game_id: str, ruleset: str) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(lobby(), game_id)
        pipe.zrem(lobby(ruleset), game_id)
        pipe.execute()

    def lobby_page(self, ruleset: str | None, offset: int, limit: int) -> tuple[list[str], int]:
        key = lobby(ruleset)
        ids = self.redis.zrevrange(key, offset, offset + limit - 1)
        return [str(i) for i in ids], int(self.redis.zcard(key))

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
