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
import threading
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from service.games import GameService

log = logging.getLogger("chronicle.service")


class _Playing(threading.local):
    def __init__(self) -> None:
        self.games: set[str] = set()


_playing = _Playing()


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


class InlineScheduler:
    """Runs the steps and writes the snapshots in the calling process."""

    steps_elsewhere = False

    def __init__(self, service: GameService) -> None:
        self.service = service

    def system_steps(self, game_id: str, version: int) -> None:
        self.service.run_system_steps(game_id)

    def snapshot(self, game_id: str, version: int) -> None:
        self.service.write_snapshot(game_id)

    def bots(self, game_id: str, version: int) -> None:
        from service.tables import play_bots

        if game_id in _playing.games:
            return  # the bots' own moves ask again: the running loop plays them
        _playing.games.add(game_id)
        try:
            play_bots(self.service, game_id, delay_s=0)
        finally:
            _playing.games.discard(game_id)

    def deliver(self, owner: str, hook_id: str, payload: str, notice_id: str = "") -> None:
        from service.tables import deliver

        try:
            deliver(self.service, owner, hook_id, payload, 1)
        except Exception:  # inline: one attempt, logged in the delivery log
            log.warning("webhook %s of %s failed", hook_id, owner, exc_info=True)


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
