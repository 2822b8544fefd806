"""Key names. Every key of a game shares the hash tag {<game_id>} (one Redis Cluster slot)."""

from __future__ import annotations

import re

PREFIX = "chronicle"
GAME_INDEX = f"{PREFIX}:games"
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
INDEXED = f"{PREFIX}:games:indexed"
"""The layout (`INDEX_LAYOUT`) the indexes below were last built in from `GAME_INDEX`."""
INDEX_LAYOUT = "3"
"""1: the status, ruleset and reveal indexes; 2: also every unfinished game on `UNSTARTED`;
3: also the listed (public) games' indexes (`listed_index`)."""
UNSTARTED = f"{PREFIX}:games:unstarted"
"""Games no seat may have acted in yet, by creation time (the sweep expires the old ones)."""
REVEAL_PENDING = f"{PREFIX}:games:reveal-pending"
"""Games that finished, until the sweep has seen their seed revealed."""


def status_index(status: str, ruleset: str | None = None) -> str:
    """Games of a status (and of a ruleset), by creation time."""
    base = f"{PREFIX}:games:status:{status}"
    return base if ruleset is None else f"{base}:ruleset:{ruleset}"


def listed_index(status: str | None = None, ruleset: str | None = None) -> str:
    """Listed games (every game but a private table: `GET /games`), by creation time: all of
    them, of a status, of a ruleset, or of both."""
    base = f"{PREFIX}:games:listed"
    if status is not None:
        base = f"{base}:status:{status}"
    return base if ruleset is None else f"{base}:ruleset:{ruleset}"


def listed_indexes(status: str, ruleset: str) -> list[str]:
    """The four listed indexes a listed game of that status and ruleset is on."""
    return [
        listed_index(),
        listed_index(None, ruleset),
        listed_index(status),
        listed_index(status, ruleset),
    ]


def ruleset_index(ruleset: str) -> str:
    return f"{PREFIX}:games:ruleset:{ruleset}"


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


def game_keys(game_id: str) -> list[str]:
    """Every key a game has (all in its slot)."""
    return [
        events(game_id),
        meta(game_id),
        idempotency(game_id),
        snapshots(game_id),
        snapshot_index(game_id),
        untrusted_snapshots(game_id),
        secrets(game_id),
        tokens(game_id),
    ]
