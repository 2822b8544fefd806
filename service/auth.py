"""Access tokens: ≥128-bit random, stored only as SHA-256 hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

ADMIN = "admin"


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_role(seat: int) -> str:
    return f"seat:{seat}"


@dataclass(frozen=True)
class IssuedTokens:
    admin: str
    seats: tuple[str, ...]

    @classmethod
    def issue(cls, players: int) -> IssuedTokens:
        return cls(new_token(), tuple(new_token() for _ in range(players)))

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
