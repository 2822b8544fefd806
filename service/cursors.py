"""Listing cursors: opaque, and checked to be one this server gave out."""

from __future__ import annotations

import base64
import math
import re

from store.keys import GAME_ID


class BadCursor(ValueError):
    """A listing cursor this server did not give out."""


CURSOR_PREFIX = "c1."


def encode_cursor(after: tuple[float, str]) -> str:
    """An opaque listing cursor: the score (a creation time, a version) and id of the last
    entry of a page (every listing pages by one: `next_cursor`, passed back as `cursor`)."""
    raw = f"{after[0]!r}|{after[1]}".encode()
    return CURSOR_PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, key: re.Pattern[str] = GAME_ID) -> tuple[float, str]:
    """The (score, id) of an `encode_cursor`; `key`: what the id of that listing looks like."""
    if not cursor.startswith(CURSOR_PREFIX):
        raise BadCursor("not a listing cursor (use a next_cursor as it was given)")
    body = cursor[len(CURSOR_PREFIX) :]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()
        score_text, game_id = raw.split("|", 1)
        score = float(score_text)
    except (ValueError, UnicodeDecodeError):
        raise BadCursor("not a listing cursor (use a next_cursor as it was given)") from None
    if not math.isfinite(score) or not key.match(game_id):
        raise BadCursor("not a listing cursor (use a next_cursor as it was given)")
    return score, game_id


VERSION_KEY = re.compile(r"^v$")


def version_cursor(version: int | None) -> str | None:
    """The cursor of a page of a game's events starting at `version` (None: no next page)."""
    return None if version is None else encode_cursor((float(version), "v"))


def cursor_version(cursor: str) -> int:
    """The version a page of events starts at, from its cursor (BadCursor: not one)."""
    score, _ = decode_cursor(cursor, VERSION_KEY)
    if not 1 <= score <= 2**53 or not score.is_integer():
        raise BadCursor("not an events cursor (use a next_cursor as it was given)")
    return int(score)
