"""The greedy bot's evaluation for Patchistory (filled in below)."""

from __future__ import annotations

from typing import Any


class PatchStrategy:
    def __init__(self, rules: Any) -> None:
        self.rules = rules
