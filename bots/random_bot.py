"""A seeded bot that picks uniformly among the listed legal actions."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from bots.base import as_commands
from domain.core.messages import Command


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random | int | str | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def choose(self, position: Any, actions: Iterable[Any], seat: int) -> Command:
        return self.rng.choice(as_commands(actions))
