"""Auditing chance (contracts §4): once the seed is revealed, recompute every recorded draw.

The audit needs nothing but the public log: the commitment in GameCreated, the seed in
SeedRevealed, and each event's draws `[k, n, result]`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.core.chance import outcome_in_range
from domain.core.kernel import ChanceScripted, GameCreated, SeedRevealed
from domain.core.messages import Recorded
from service.chance import raw_outcome, verify_commitment


class EventsHidden(Exception):
    """Some events of the log are redacted (the game is not over): they cannot be re-verified
    from the public log yet."""


def audit_export(game_id: str, lines: Iterable[Mapping[str, Any]]) -> AuditReport:
    """The audit of a game from its exported log as anyone may read it: once the game is over,
    every event is there in full (private ones included), so every draw is re-verified here,
    with no token and without trusting the server's own report."""
    from service.rulesets import import_rulesets_once

    import_rulesets_once()
    bodies = list(lines)
    hidden = [int(body["version"]) for body in bodies if body.get("redacted")]
    if hidden:
        raise EventsHidden(f"{len(hidden)} events of game {game_id} are still hidden")
    return audit_events(game_id, (Recorded.from_dict(body) for body in bodies))


class SeedNotRevealed(Exception):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"the seed of game {game_id} is not revealed yet")
        self.game_id = game_id


@dataclass(frozen=True)
class Mismatch:
    version: int
    event_type: str
    k: int
    n: int
    recorded: int
    expected: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "event_type": self.event_type,
            "k": self.k,
            "n": self.n,
            "recorded": self.recorded,
            "expected": self.expected,
        }


@dataclass(frozen=True)
class AuditReport:
    game_id: str
    seed_commitment: str
    seed: str
    commitment_verified: bool
    outcomes_checked: int
    counters_in_order: bool
    mismatches: tuple[Mismatch, ...] = field(default=())
    chance: str = "committed"
    """`committed`: every draw an outcome of the seed committed to at creation, recomputed from
    the revealed seed. `scripted`: a sandbox's what-if, every draw checked against the script
    recorded at its creation (`ChanceScripted`); no seed stands behind it, and no commitment is
    verified (`commitment_verified` is false)."""

    @property
    def clean(self) -> bool:
        verified = self.commitment_verified or self.chance == "scripted"
        return verified and self.counters_in_order and not self.mismatches

    def as_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "seed_commitment": self.seed_commitment,
            "seed": self.seed,
            "commitment_verified": self.commitment_verified,
            "outcomes_checked": self.outcomes_checked,
            "counters_in_order": self.counters_in_order,
            "mismatches": [m.as_dict() for m in self.mismatches],
            "chance": self.chance,
            "clean": self.clean,
        }


def audit_events(game_id: str, events: Iterable[Recorded]) -> AuditReport:
    """Check the commitment, then every draw of every event, against the revealed seed; or,
    in a sandbox whose chance was scripted, every draw against its script."""
    log = list(events)
    commitment = next(r.event.seed_commitment for r in log if isinstance(r.event, GameCreated))
    script = next((r.event.script for r in log if isinstance(r.event, ChanceScripted)), None)
    if script is not None:
        return audit_script(game_id, commitment, script, log)
    revealed = next((r.event.seed for r in log if isinstance(r.event, SeedRevealed)), None)
    if revealed is None:
        raise SeedNotRevealed(game_id)
    seed = bytes.fromhex(revealed)
    mismatches: list[Mismatch] = []
    checked = 0
    expected_k = 0
    in_order = True
    for recorded in log:
        for draw in recorded.event.draws:
            checked += 1
            in_order = in_order and draw.k == expected_k
            expected_k = draw.k + 1
            expected = outcome_in_range(raw_outcome(seed, draw.k), draw.n)
            if expected != draw.result:
                mismatches.append(
                    Mismatch(
                        recorded.version, recorded.event.type, draw.k, draw.n, draw.result, expected
                    )
                )
    return AuditReport(
        game_id=game_id,
        seed_commitment=commitment,
        seed=revealed,
        commitment_verified=verify_commitment(seed, commitment),
        outcomes_checked=checked,
        counters_in_order=in_order,
        mismatches=tuple(mismatches),
    )


def audit_script(
    game_id: str,
    commitment: str,
    script: tuple[tuple[int, int], ...],
    log: list[Recorded],
) -> AuditReport:
    """A scripted sandbox's audit: each draw k must be entry k of its script, marked scripted.
    Its chance was scripted, not committed: the seed (revealed or not) is not checked, and the
    commitment is never reported verified."""
    mismatches: list[Mismatch] = []
    checked = 0
    expected_k = 0
    in_order = True
    for recorded in log:
        for draw in recorded.event.draws:
            checked += 1
            in_order = in_order and draw.k == expected_k
            expected_k = draw.k + 1
            entry = script[draw.k] if 0 <= draw.k < len(script) else None
            fits = entry is not None and entry == (draw.n, draw.result) and draw.scripted
            if not fits:
                expected = entry[1] if entry is not None and entry[0] == draw.n else -1
                mismatches.append(
                    Mismatch(
                        recorded.version, recorded.event.type, draw.k, draw.n, draw.result, expected
                    )
                )
    revealed = next((r.event.seed for r in log if isinstance(r.event, SeedRevealed)), "")
    return AuditReport(
        game_id=game_id,
        seed_commitment=commitment,
        seed=revealed,
        commitment_verified=False,
        outcomes_checked=checked,
        counters_in_order=in_order,
        mismatches=tuple(mismatches),
        chance="scripted",
    )
