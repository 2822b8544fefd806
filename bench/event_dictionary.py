"""How store/dictionaries/events-N.txt are made: the preset dictionaries that stored events are
deflated with (store/compression.py). Dictionary 2 followed the namespaced event types
(`hotw.ArmyPlaced`) and the `cites` every ruling carries, which dictionary 1 had never seen.

The file is data, not output: events stored with it can only be read with it, byte for byte, so
it is committed once and never regenerated in place. A better dictionary is a new file with the
next number (`events-2.txt`), read alongside the old one.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from bench.measure import recorded_game
from service.codec import envelope_payload
from service.rulesets import ruleset

LIMIT = 16 * 1024  # the deflate window of store/compression.py (2 ** WINDOW_BITS)


def sample_payloads(games: int = 6) -> list[str]:
    """Stored payloads of random hotw-2024 games with 3 to 6 players, as the service writes
    them (real-looking command ids and times)."""
    rules = ruleset("hotw-2024")
    payloads = []
    for seed in range(games):
        for recorded in recorded_game(rules, 3 + seed % 4, 1000 + seed):
            at = f"2026-{1 + seed % 12:02d}-{10 + seed:02d}T0{seed}:1{seed}:2{seed}.{seed}04512Z"
            command = uuid.UUID(int=(seed + 1) * (recorded.version + 7) * 7919).hex
            payloads.append(envelope_payload(recorded.event, recorded.actor, command, at))
    return payloads


def build(payloads: list[str]) -> bytes:
    """One payload of each kind (type, rule, data fields), rarest first: deflate finds the
    nearest match cheapest, so the commonest kinds go last."""
    kinds: Counter[tuple[Any, ...]] = Counter()
    example: dict[tuple[Any, ...], str] = {}
    for text in payloads:
        body = json.loads(text)
        kind = (
            body["type"],
            body["rule"],
            tuple(sorted(body["data"])),
            tuple(body.get("cites", ())),
        )
        kinds[kind] += 1
        example.setdefault(kind, text)
    ordered = sorted(kinds, key=lambda kind: (kinds[kind], kind))
    chosen: list[bytes] = []
    size = 0
    for kind in reversed(ordered):
        piece = example[kind].encode()
        if size + len(piece) > LIMIT:
            break
        chosen.append(piece)
        size += len(piece)
    return b"".join(reversed(chosen))


def write(path: Path) -> int:
    data = build(sample_payloads())
    path.write_bytes(data)
    return len(data)


if __name__ == "__main__":
    import sys

    number = sys.argv[1] if len(sys.argv) > 1 else "2"
    target = Path(__file__).resolve().parents[1] / "store" / "dictionaries" / f"events-{number}.txt"
    if target.exists():
        raise SystemExit(f"{target} exists: events stored with it need it as it is")
    target.parent.mkdir(exist_ok=True)
    print(write(target), "bytes written to", target)
