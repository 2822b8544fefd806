"""Stored events and snapshots, deflated.

An event payload is small JSON that repeats the same keys, types and rule ids, so each is
deflated on its own with a preset dictionary of typical payloads (events-2.txt): about 270
bytes become about 80, and any single entry still decodes without its neighbours. A stored
value names its dictionary (`2:` + base64 of raw deflate; values written with dictionary 1 read
as before); a value that starts with `{` is plain JSON, as events were first stored.
Snapshots, larger, are deflated without a dictionary (`z:`).
"""

from __future__ import annotations

import base64
import threading
import zlib
from functools import cache
from pathlib import Path

DICTIONARIES = Path(__file__).resolve().parent / "dictionaries"
CURRENT = "2"
WINDOW_BITS = 14  # a 16 KB window, the dictionary's size: small states copy fast
MEMORY_LEVEL = 4
_local = threading.local()


class UnreadablePayload(ValueError):
    """A stored value in no known encoding (or with an unknown dictionary)."""


@cache
def dictionary(name: str) -> bytes:
    path = DICTIONARIES / f"events-{name}.txt"
    if not name.isdigit() or not path.is_file():
        raise UnreadablePayload(f"no event dictionary {name!r}")
    return path.read_bytes()


def _primed_compressor() -> zlib._Compress:
    primed: zlib._Compress | None = getattr(_local, "primed", None)
    if primed is None:
        primed = zlib.compressobj(
            6,
            zlib.DEFLATED,
            -WINDOW_BITS,
            MEMORY_LEVEL,
            zlib.Z_DEFAULT_STRATEGY,
            dictionary(CURRENT),
        )
        _local.primed = primed
    return primed


def pack_event(payload: str) -> str:
    """The stored form of an event's JSON."""
    compressor = _primed_compressor().copy()
    raw = compressor.compress(payload.encode()) + compressor.flush()
    return f"{CURRENT}:{base64.b64encode(raw).decode('ascii')}"


def unpack_event(stored: str) -> str:
    """An event's JSON from its stored form (either encoding)."""
    if stored.startswith("{"):
        return stored
    name, sep, body = stored.partition(":")
    if not sep:
        raise UnreadablePayload("a stored event in no known encoding")
    try:
        inflater = zlib.decompressobj(-WINDOW_BITS, dictionary(name))
        text = inflater.decompress(base64.b64decode(body, validate=True)) + inflater.flush()
        if not inflater.eof or inflater.unused_data:
            raise ValueError("truncated or padded")
        return text.decode()
    except (ValueError, zlib.error) as exc:
        raise UnreadablePayload(f"a stored event that does not inflate: {exc}") from None


def pack_snapshot(text: str) -> str:
    return "z:" + base64.b64encode(zlib.compress(text.encode(), 6)).decode("ascii")


def unpack_snapshot(stored: str) -> str:
    if stored.startswith("{"):
        return stored
    if not stored.startswith("z:"):
        raise UnreadablePayload("a stored snapshot in no known encoding")
    try:
        return zlib.decompress(base64.b64decode(stored[2:])).decode()
    except (ValueError, zlib.error) as exc:
        raise UnreadablePayload(f"a stored snapshot that does not inflate: {exc}") from None
