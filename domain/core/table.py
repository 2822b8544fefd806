"""Table procedures that every ruleset shares: undo and rewind (contracts §7).

Undo is an event, never a deletion. A seat may undo its own last commands within its current
turn, back to the last chance outcome or hidden-information reveal (under sealed, simultaneous
play, each seat its own sealed commands, see `domain.core.turns`). Going further back is a
rewind: one seat proposes a target version and every other seat accepts (or the admin orders
it). `replay` skips the undone or rewound ranges; the log keeps them for audit. Because chance
is counter-based, repeating an action after an undo or a rewind draws the same outcomes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from domain.core.messages import Command, Event, Recorded, event, upcaster
from domain.core.ruleset import ArgSpec, CommandSpec
from domain.core.turns import SealedCommand

UNDO = "undo"
PROPOSE_REWIND = "propose_rewind"
ACCEPT_REWIND = "accept_rewind"
REFUSE_REWIND = "refuse_rewind"
ORDER_REWIND = "order_rewind"
TABLE_COMMANDS = frozenset({UNDO, PROPOSE_REWIND, ACCEPT_REWIND, REFUSE_REWIND, ORDER_REWIND})
ADMIN = "admin"

TABLE_COMMAND_SPECS: tuple[CommandSpec, ...] = (
    CommandSpec(
        UNDO,
        "Take back your own last command of this turn (back to the last chance outcome or "
        "hidden-information reveal).",
    ),
    CommandSpec(
        PROPOSE_REWIND,
        "Propose to take the game back to how it stood after `to_version` (the end of a "
        "command); every other seat must accept.",
        (ArgSpec("to_version", int, "The version to go back to.", minimum=1),),
    ),
    CommandSpec(ACCEPT_REWIND, "Accept the rewind proposed."),
    CommandSpec(REFUSE_REWIND, "Refuse the rewind proposed (it is dropped)."),
)
"""The table procedures a seat posts like any command (the admin orders a rewind elsewhere)."""


@event
class ActionsUndone(Event):
    """The seat took back its own last command: versions undone_from..undone_through no longer
    count (under sealed, simultaneous play exactly its command's versions, other seats' later
    commands staying).

    Schema 2 (schema 1 named the range `from_version`..`to_version`, where `to_version` was the
    last version taken back, not a version returned to)."""

    SCHEMA_VERSION: ClassVar[int] = 2

    seat: int
    undone_from: int
    undone_through: int

    @property
    def skipped(self) -> tuple[int, int]:
        return self.undone_from, self.undone_through


@event
class RewindProposed(Event):
    """A seat asks the table to go back to the game as it stood after `to_version`."""

    seat: int
    to_version: int


@event
class RewindAnswered(Event):
    seat: int
    accepted: bool


@event
class GameRewound(Event):
    """The game stands again as it stood after `to_version` (the version returned to, as in
    `RewindProposed` and the rewind commands): versions to_version + 1..undone_through no longer
    count. `ordered_by` is `table` (every seat accepted) or `admin`.

    Schema 2 (schema 1 named the range taken back `from_version`..`to_version`, so that its
    `to_version` was the last version taken back, not the version returned to)."""

    SCHEMA_VERSION: ClassVar[int] = 2

    to_version: int
    undone_through: int
    ordered_by: str

    @property
    def skipped(self) -> tuple[int, int]:
        return self.to_version + 1, self.undone_through


@upcaster("ActionsUndone", 1)
def _undo_range_named_undone(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "seat": data["seat"],
        "undone_from": data["from_version"],
        "undone_through": data["to_version"],
    }


@upcaster("GameRewound", 1)
def _rewind_names_the_version_returned_to(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "to_version": data["from_version"] - 1,
        "undone_through": data["to_version"],
        "ordered_by": data["ordered_by"],
    }


TABLE_EVENTS = (ActionsUndone, RewindProposed, RewindAnswered, GameRewound)


class UndoStep(NamedTuple):
    """One command of the acting seat that may still be undone. A named tuple: every folded
    event of a seat's command rebuilds the step it extends."""

    seat: int
    command_id: str
    from_version: int
    to_version: int
    scope: str


@dataclass(frozen=True, slots=True)
class Proposal:
    seat: int
    to_version: int
    accepted: frozenset[int]


_TAKING_BACK = (ActionsUndone, GameRewound)


def skipped_ranges(events: Iterable[Recorded]) -> list[tuple[int, int]]:
    """The version ranges that undos and rewinds in `events` take out of the history."""
    return [
        recorded.event.skipped for recorded in events if isinstance(recorded.event, _TAKING_BACK)
    ]


def is_skipped(version: int, ranges: list[tuple[int, int]]) -> bool:
    return any(low <= version <= high for low, high in ranges)


def is_barrier(recorded: Recorded) -> bool:
    """Chance outcomes and hidden-information reveals cannot be undone past. A private event
    is a reveal to the seats it shows to, unless it is a seat's own sealed command, private to
    that seat alone (it shows the seat nothing it did not choose itself)."""
    ev = recorded.event
    if ev.draws or ev.REVEALS_HIDDEN:
        return True
    seats = ev.visibility.seats
    return seats is not None and not (
        isinstance(ev, SealedCommand) and len(seats) == 1 and recorded.actor in seats
    )


def undo_command() -> Command:
    return Command.of(UNDO)


def rewind_target_command(to_version: int) -> Command:
    return Command.of(PROPOSE_REWIND, to_version=to_version)


def answer_commands() -> list[Command]:
    return [Command.of(ACCEPT_REWIND), Command.of(REFUSE_REWIND)]


def is_table_event(ev: Event) -> bool:
    return isinstance(ev, TABLE_EVENTS)
