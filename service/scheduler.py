"""What happens after a command, behind one interface: the steps no seat takes (closing an
epoch) and snapshots. The service decides when they are due; a scheduler decides where they
run: on an RQ worker (`workers.scheduling.QueueScheduler`, the default) or inside the request
that made them due (`InlineScheduler`, for a single process without workers).

Neither may fail the command that made them due: a step still due is asked for again by the
next command (and by the worker's sweeper), and a missed snapshot only makes a later load fold
more events.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from service.games import GameService

log = logging.getLogger("chronicle.service")


class Scheduler(Protocol):
    def system_steps(self, game_id: str, version: int) -> None:
        """Run, or have run, the game's steps due at `version`."""

    def snapshot(self, game_id: str, version: int) -> None:
        """Write, or have written, a snapshot of the game at (or after) `version`."""


class InlineScheduler:
    """Runs the steps and writes the snapshots in the calling process."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    def system_steps(self, game_id: str, version: int) -> None:
        self.service.run_system_steps(game_id)

    def snapshot(self, game_id: str, version: int) -> None:
        self.service.write_snapshot(game_id)


class NoScheduler:
    """Schedules nothing (tools that drive the service themselves, such as the golden corpus's
    recorder, which runs each due step as its own command)."""

    def system_steps(self, game_id: str, version: int) -> None:
        return None

    def snapshot(self, game_id: str, version: int) -> None:
        return None


def snapshot_due(every: int, first_version: int, last_version: int) -> bool:
    """Whether a command's events (first..last) cross a multiple of `every` (0: never)."""
    return every > 0 and (first_version - 1) // every != last_version // every
