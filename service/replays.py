"""Replay verification: fold a game's whole stream from event 1 and check every snapshot.

Snapshots are a cache (contracts §3): a replay from event 1 must give the same state hash at
every snapshot's version. The first divergence is reported with its version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.core.kernel import Game, fold_in_history
from domain.core.messages import Recorded
from service.codec import encode_game, recorded_from, state_hash
from service.games import GameService

Progress = Callable[[int, int], None]
PAGE = 1000


@dataclass(frozen=True)
class Divergence:
    version: int
    snapshot_hash: str
    replay_hash: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "snapshot_hash": self.snapshot_hash,
            "replay_hash": self.replay_hash,
        }


@dataclass(frozen=True)
class VerifyReport:
    game_id: str
    events: int
    snapshots_checked: int
    final_hash: str
    divergences: tuple[Divergence, ...] = field(default=())
    ruleset: str = ""
    revision: int = 1
    """The revision of the rules the game was folded under: the one it was created with."""
    pack_digest: str = ""
    """The data pack's digest the game recorded at its creation."""
    pack_digest_now: str = ""
    """The digest of the pack this server folded it with (they differ when the pack changed
    since in a way that its revisions say changed no decision, fold or score)."""

    @property
    def ok(self) -> bool:
        return not self.divergences

    @property
    def first_divergence(self) -> Divergence | None:
        return self.divergences[0] if self.divergences else None

    def as_dict(self) -> dict[str, Any]:
        first = self.first_divergence
        return {
            "game_id": self.game_id,
            "ruleset": self.ruleset,
            "revision": self.revision,
            "pack_digest": self.pack_digest,
            "pack_digest_now": self.pack_digest_now,
            "events": self.events,
            "snapshots_checked": self.snapshots_checked,
            "final_hash": self.final_hash,
            "ok": self.ok,
            "first_divergence": first.as_dict() if first else None,
            "divergences": [d.as_dict() for d in self.divergences],
        }


def verify_game(
    service: GameService, game_id: str, progress: Progress | None = None
) -> VerifyReport:
    """Fold every event from version 1, comparing the state hash at each snapshot version. A
    snapshot that disagrees is reported and marked untrusted, so that no load uses it again."""
    rules = service.ruleset_of(game_id)
    total = service.store.version(game_id)
    snapshots = {
        v: service.store.snapshot(game_id, v) for v in service.store.snapshot_versions(game_id)
    }
    game: Game[Any] | None = None
    history: list[Recorded] = []
    divergences: list[Divergence] = []
    checked = 0
    version = 0
    while version < total:
        page = service.store.read(game_id, version + 1, total, count=PAGE)
        if not page:
            raise ValueError(f"game {game_id} is missing events after version {version}")
        for stored in page:
            history.append(recorded_from(stored))
            game = fold_in_history(rules, game, history)
            version = stored.version
            snapshot = snapshots.get(version)
            if snapshot is not None:
                checked += 1
                replayed = state_hash(encode_game(rules, game))
                if replayed != snapshot.state_hash:
                    divergences.append(Divergence(version, snapshot.state_hash, replayed))
                    service.store.mark_snapshot_untrusted(game_id, version)
        if progress is not None:
            progress(version, total)
    if game is None:
        raise ValueError(f"game {game_id} has no events")
    return VerifyReport(
        game_id=game_id,
        events=version,
        snapshots_checked=checked,
        final_hash=state_hash(encode_game(rules, game)),
        divergences=tuple(divergences),
        ruleset=rules.name,
        revision=game.setup.revision,
        pack_digest=game.setup.pack_digest,
        pack_digest_now=rules.pack_digest,
    )
