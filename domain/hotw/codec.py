"""The state codec of the History of the World editions whose states tag no union (the Avalon
Hill 2001 edition and A Brief History of the World): `domain.core.codec.Codec`."""

from __future__ import annotations

from typing import Any

from domain.core.codec import Codec

CODEC = Codec()


def encode(value: Any) -> Any:
    return CODEC.encode(value)


def decode(kind: Any, data: Any) -> Any:
    return CODEC.decode(kind, data)
