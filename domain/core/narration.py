"""Events in words, for people following or replaying a game.

`plain_words` tells any event (as a viewer sees it: `type`, `data`, `actor`, `redacted`) in a
sentence: the kernel's own events (creation, undo, rewinds, the seed) in words of their own,
any other as its type in words followed by its data, with seats named by their players and pack
ids by their names. A ruleset's `narrate` hook does better for its own events and falls back on
this.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

SEAT_KEYS = frozenset({"seat", "from_seat", "to_seat", "enemy", "owner", "winner"})
"""Data fields that hold a seat number."""
SEATS_KEYS = frozenset({"order", "known_by"})
"""Data fields that hold a list of seats."""
SKIPPED_KEYS = frozenset({"context"})


def humanised(type_name: str) -> str:
    """`hotw.ArmyPlaced` → `Army placed`; `ToyBidSealed` → `Toy bid sealed`."""
    bare = type_name.rsplit(".", 1)[-1]
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", bare)
    text = " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in words)
    return text[:1].upper() + text[1:]


class Namer:
    """Names for seats (their players) and pack ids (their names), for use in sentences."""

    def __init__(self, players: Sequence[str], names: Mapping[str, str]) -> None:
        self.players = list(players)
        self.names = names

    def seat(self, value: Any) -> str:
        if isinstance(value, bool) or not isinstance(value, int):
            return "someone" if value is None else str(value)
        if 0 <= value < len(self.players):
            return self.players[value]
        return f"seat {value}"

    def actor(self, value: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            return self.seat(value)
        return {"system": "the rules", "worker": "the rules", "admin": "the admin"}.get(
            str(value), str(value)
        )

    def thing(self, value: Any) -> str:
        """A pack id by its name; other values as they read."""
        if isinstance(value, str):
            return self.names.get(value, value.replace("-", " ").replace("_", " "))
        if isinstance(value, bool):
            return "yes" if value else "no"
        if value is None:
            return "none"
        if isinstance(value, list | tuple):
            return listed([self.thing(v) for v in value]) if value else "none"
        if isinstance(value, Mapping):
            return "; ".join(f"{k.replace('_', ' ')} {self.thing(v)}" for k, v in value.items())
        return str(value)

    def field(self, key: str, value: Any) -> str:
        if key in SEAT_KEYS:
            return self.seat(value)
        if key in SEATS_KEYS and isinstance(value, list | tuple):
            return listed([self.seat(v) for v in value]) if value else "nobody"
        return self.thing(value)


def listed(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def generic(event: Mapping[str, Any], namer: Namer) -> str:
    """The event's type in words, then each field of its data."""
    data = event.get("data")
    data = data if isinstance(data, Mapping) else {}
    parts = [
        f"{key.replace('_', ' ')} {namer.field(key, value)}"
        for key, value in data.items()
        if key not in SKIPPED_KEYS
    ]
    head = humanised(str(event.get("type", "")))
    return head + (": " + ", ".join(parts) if parts else "") + "."


Teller = Callable[[Mapping[str, Any], Namer], str]


def _created(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    players = listed([str(p) for p in data.get("players", [])])
    options = data.get("options") or {}
    chosen = ", ".join(f"{k.replace('_', ' ')} {namer.thing(v)}" for k, v in options.items())
    return (
        f"A game of {data.get('ruleset', '?')} was created for {players}"
        + (f" (options: {chosen})" if chosen else "")
        + "; the chance seed's SHA-256 was published."
    )


def _seed(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    early = " early, by the admin" if data.get("early") else ""
    return f"The chance seed was revealed{early}: anyone can now re-verify every roll and draw."


def _undone(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    return (
        f"{namer.seat(data.get('seat'))} took back their last command "
        f"(versions {data.get('undone_from')} to {data.get('undone_through')} no longer count)."
    )


def _proposed(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    return (
        f"{namer.seat(data.get('seat'))} proposed to take the game back to version "
        f"{data.get('to_version')}; every other seat must accept."
    )


def _answered(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    answer = "accepted" if data.get("accepted") else "refused"
    return f"{namer.seat(data.get('seat'))} {answer} the rewind proposed."


def _rewound(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    by = "by the admin's order" if data.get("ordered_by") == "admin" else "as the table agreed"
    return (
        f"The game went back to version {data.get('to_version')} {by} (versions up to "
        f"{data.get('undone_through')} after it no longer count)."
    )


def _loaded(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    source = data.get("source_game")
    return (
        "The game starts from a given position" + (f" (of game {source})" if source else "") + "."
    )


KERNEL_TELLERS: dict[str, Teller] = {
    "GameCreated": _created,
    "SeedRevealed": _seed,
    "ActionsUndone": _undone,
    "RewindProposed": _proposed,
    "RewindAnswered": _answered,
    "GameRewound": _rewound,
    "PositionLoaded": _loaded,
}


def plain_words(
    event: Mapping[str, Any],
    players: Sequence[str],
    names: Mapping[str, str] | None = None,
    tellers: Mapping[str, Teller] | None = None,
) -> str:
    """The event in a sentence: by its own teller if it has one (the ruleset's `tellers`, then
    the kernel's), else generically; a redacted event says that its details are hidden."""
    namer = Namer(players, names or {})
    kind = str(event.get("type", ""))
    teller = (tellers or {}).get(kind) or KERNEL_TELLERS.get(kind)
    if event.get("redacted"):
        data = event.get("data")
        who = ""
        if isinstance(data, Mapping) and "seat" in data:
            who = f" ({namer.seat(data['seat'])})"
        return f"{humanised(kind)}{who}: the details are hidden from you."
    try:
        return teller(event, namer) if teller is not None else generic(event, namer)
    except (KeyError, TypeError, ValueError, AttributeError):
        return generic(event, namer)
