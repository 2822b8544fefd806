"""Key names. Every key of a game shares the hash tag {<game_id>} (one Redis Cluster slot)."""

from __future__ import annotations

import re

PREFIX = "chronicle"
GAME_INDEX = f"{PREFIX}:games"
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def game_key(game_id: str, part: str) -> str:
    return f"{PREFIX}:game:{{{game_id}}}:{part}"


def events(game_id: str) -> str:
    return game_key(game_id, "events")


def meta(game_id: str) -> str:
    return game_key(game_id, "meta")


def idempotency(game_id: str) -> str:
    return game_key(game_id, "idem")


def snapshots(game_id: str) -> str:
    return game_key(game_id, "snapshots")


def snapshot_index(game_id: str) -> str:
    return game_key(game_id, "snapshot-versions")


def untrusted_snapshots(game_id: str) -> str:
    return game_key(game_id, "snapshots-untrusted")


def secrets(game_id: str) -> str:
    return game_key(game_id, "secret")


def tokens(game_id: str) -> str:
    return game_key(game_id, "tokens")
