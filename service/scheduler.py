"""What happens after a command, behind one interface: the steps no seat takes (closing an
epoch) and snapshots. The service decides when they are due; a scheduler decides where they
run: on an RQ worker (`workers.scheduling.QueueScheduler`, the default) or inside the request
that made them due (`service.wiring.InlineScheduler`, for a single process without workers).

Neither may fail the command that made them due: a step still due is asked for again by the
next command (and by the worker's sweeper), and a missed snapshot only makes a later load fold
more events.
"""

from __future__ import annotations

from typing import Protocol


class Scheduler(Protocol):
    steps_elsewhere: bool
    """Whether due steps run in another process, which loads the game from the store."""

    def system_steps(self, game_id: str, version: int) -> None:
        """Run, or have run, the game's steps due at `version`."""

    def snapshot(self, game_id: str, version: int) -> None:
        """Write, or have written, a snapshot of the game at (or after) `version`."""

    def bots(self, game_id: str, version: int) -> None:
        """Have the bots that hold the awaited seats play (`service.tables.play_bots`)."""

    def deliver(self, owner: str, hook_id: str, payload: str, notice_id: str = "") -> None:
        """POST a notification to a webhook, retried with backoff (`service.tables.deliver`);
        with `notice_id`, once per webhook however often it is asked."""


class NoScheduler:
    """Schedules nothing (tools that drive the service themselves, such as the golden corpus's
    recorder, which runs each due step as its own command)."""

    steps_elsewhere = False

    def system_steps(self, game_id: str, version: int) -> None:
        return None

    def snapshot(self, game_id: str, version: int) -> None:
        return None

    def bots(self, game_id: str, version: int) -> None:
        return None

    def deliver(self, owner: str, hook_id: str, payload: str, notice_id: str = "") -> None:
        return None


def snapshot_due(every: int, first_version: int, last_version: int) -> bool:
    """Whether a command's events (first..last) cross a multiple of `every` (0: never)."""
    return every > 0 and (first_version - 1) // every != last_version // every
