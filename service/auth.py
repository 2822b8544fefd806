"""Access tokens: ≥128-bit random, stored only as SHA-256 hashes, compared in constant time.

A token reads `<game id>.<192 random bits>`: the game id is public, and naming it lets the API
tell a token of another game (403) from a token nobody issued (401).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

ADMIN = "admin"

Credential = tuple[str, str]
"""(role, token hash): what a write made under a token asks the store to find still issued."""


TOKEN_SEPARATOR = "."


def new_token(game_id: str = "") -> str:
    random_part = secrets.token_urlsafe(24)  # 192 bits
    return f"{game_id}{TOKEN_SEPARATOR}{random_part}" if game_id else random_part


def game_named_by(token: str) -> str | None:
    """The game id a token names, if it names one."""
    game_id, separator, _ = token.rpartition(TOKEN_SEPARATOR)
    return game_id if separator and game_id else None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_role(seat: int) -> str:
    return f"seat:{seat}"


@dataclass(frozen=True)
class IssuedTokens:
    admin: str
    seats: tuple[str, ...]

    @classmethod
    def issue(cls, players: int, game_id: str = "") -> IssuedTokens:
        return cls(new_token(game_id), tuple(new_token(game_id) for _ in range(players)))

    def hashes(self) -> dict[str, str]:
        hashes = {ADMIN: token_hash(self.admin)}
        hashes.update({seat_role(i): token_hash(t) for i, t in enumerate(self.seats)})
        return hashes


def role_of(token: str, hashes: Mapping[str, str]) -> str | None:
    """The role a token grants (`admin` or `seat:N`), or None. Checks every role in full."""
    presented = token_hash(token)
    found: str | None = None
    for role, stored in hashes.items():
        if hmac.compare_digest(presented, stored):
            found = role
    return found
