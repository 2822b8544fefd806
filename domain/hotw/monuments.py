"""Where a monument goes in the editions that place it by priority (Avalon Hill 2001:
ah2001.monuments.placement; A Brief History of the World: brief.monuments.priority): the
capital's land, else a city's, else a resource land's."""

from __future__ import annotations

from collections.abc import Iterable


def by_priority(*tiers: Iterable[str]) -> list[str]:
    """The lands of the first tier that has any, sorted (none: an empty list)."""
    for tier in tiers:
        found = sorted(tier)
        if found:
            return found
    return []
