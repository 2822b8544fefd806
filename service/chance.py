"""The game's chance source: outcome k = HMAC-SHA256(seed, k) (contracts §4).

k is encoded as 8 bytes, big-endian; the outcome is the digest read as a big-endian integer.
The commitment published at creation is SHA-256 of the seed, in hex. Anyone holding the
revealed seed can recompute every draw with `verify_draw`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable

from domain.core.chance import Draw, outcome_in_range

SEED_BYTES = 32


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def raw_outcome(seed: bytes, k: int) -> int:
    digest = hmac.new(seed, k.to_bytes(8, "big"), hashlib.sha256).digest()
    return int.from_bytes(digest, "big")


class HmacSource:
    """Counter-based: the same seed and k always give the same outcome."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed

    def value(self, k: int) -> int:
        return raw_outcome(self._seed, k)


class LazyHmacSource:
    """An HMAC source that fetches the seed only when a draw is actually made."""

    def __init__(self, fetch_seed: Callable[[], bytes]) -> None:
        self._fetch = fetch_seed
        self._source: HmacSource | None = None

    def value(self, k: int) -> int:
        if self._source is None:
            self._source = HmacSource(self._fetch())
        return self._source.value(k)


def verify_draw(seed: bytes, draw: Draw) -> bool:
    return outcome_in_range(raw_outcome(seed, draw.k), draw.n) == draw.result


def verify_commitment(seed: bytes, published: str) -> bool:
    return hmac.compare_digest(commitment(seed), published)
