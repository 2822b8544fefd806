"""Levels of control in an area, as the Avalon Hill 2001 edition and A Brief History of the
World both count them: presence (an army), dominance (two or more, more than any other
player), control or mastery (three or more, nobody else). An area pays its value times the
level reached."""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum


class Level(IntEnum):
    """The level of control in an area, worth the area's value times its number."""

    NONE = 0
    PRESENCE = 1
    DOMINANCE = 2
    CONTROL = 3
    MASTERY = 3
    """A Brief History of the World's name for control."""


def level_in_area(own: int, others: Iterable[int]) -> Level:
    """Control: three or more armies and no other player's there; dominance: two or more and
    more than any other player; presence: at least one."""
    rivals = [n for n in others if n]
    if own >= 3 and not rivals:
        return Level.CONTROL
    if own >= 2 and own > max(rivals, default=0):
        return Level.DOMINANCE
    return Level.PRESENCE if own >= 1 else Level.NONE
