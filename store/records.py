"""What the store answers with: stored events, an append's result, a game's meta, a page of
listed games, a snapshot."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple


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


META_FIELDS = ("ruleset", "status", "players", "version", "created_at")
PRIVATE = "private"
"""A private table's `listing`: found by its invitation or its players, never listed."""


def flat_meta(fields: Mapping[str, Any]) -> list[str]:
    flat: list[str] = []
    for name, value in fields.items():
        flat += [name, value if isinstance(value, str) else json.dumps(value)]
    return flat


def meta_from(game_id: str, raw: Mapping[str, str]) -> GameMeta:
    """A game's meta from its stored hash."""
    return GameMeta(
        game_id=game_id,
        ruleset=raw.get("ruleset", ""),
        status=raw.get("status", ""),
        players=tuple(json.loads(raw.get("players", "[]"))),
        version=int(raw.get("version", 0)),
        created_at=raw.get("created_at", ""),
        extra={k: v for k, v in raw.items() if k not in META_FIELDS},
    )
