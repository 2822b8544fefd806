"""Named points in the command path where a crash test stops a process, to kill it there.
Nothing is installed at any point in production: reaching one does nothing. A test's served
processes install pauses through the test harness (`tests/support/faults.py`)."""

from __future__ import annotations

from collections.abc import Callable

BEFORE_WORKER_APPEND = "before_worker_append"
"""A worker's step decided, not yet appended."""
BEFORE_APPEND = "before_append"
"""A command decided, not yet appended."""
AFTER_APPEND = "after_append"
"""A command appended, nothing after it done and nothing answered."""
POINTS = (BEFORE_WORKER_APPEND, BEFORE_APPEND, AFTER_APPEND)

Hook = Callable[[str, str, str], None]
"""Called with the point, the game id and the command id."""

_installed: dict[str, Hook] = {}


def install(point: str, hook: Hook) -> None:
    if point not in POINTS:
        raise ValueError(f"no fault point {point!r}: there are {', '.join(POINTS)}")
    _installed[point] = hook


def reached(point: str, game_id: str, command_id: str) -> None:
    hook = _installed.get(point)
    if hook is not None:
        hook(point, game_id, command_id)
