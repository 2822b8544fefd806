"""What every oracle does with an event: settle what the previous events left owing, then run
its check named after the event's type (`_LandSacked` for a LandSacked), counting the checks
so a test can tell the oracle looked."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any


class EventChecks:
    version: int
    checked: Counter[str]

    def observe(self, before: Any, event: Any, after: Any) -> list[str]:
        self.version += 1
        kind = type(event).__name__
        found = list(self._settle(kind, event))
        check = getattr(self, f"_{kind}", None)
        if check is not None:
            self.checked[kind] += 1
            found += check(before, event, after)
        self._seen(kind, event, after)
        return [f"v{self.version} {kind}: {problem}" for problem in found]

    def finish(self) -> list[str]:
        """What was still owed when the game ended."""
        return [f"end: {p}" for p in self._settle("end", None)]

    def _settle(self, kind: str, event: Any) -> Iterator[str]:
        """What was owed before this event and is not paid by it (`kind` "end": by the end)."""
        return iter(())

    def _seen(self, kind: str, event: Any, after: Any) -> None:
        """Remember what a later check needs of this event."""
