"""A game as the kernel sees it, and the kernel's own events: the game created (its ruleset,
the revision of its rules, its players, options and the commitment to its seed), the seed
revealed, and a position loaded into a sandbox."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from domain.core.messages import Event, event, upcaster
from domain.core.ruleset import Setup
from domain.core.seating import Seating
from domain.core.table import Proposal, UndoStep

S = TypeVar("S")


@event
class GameCreated(Event):
    """The game exists: its ruleset and the revision of its rules, the digest of the data pack,
    its players and options, and the commitment to its seed."""

    # Schema 1 had no revision: those games were created before revisions existed, under
    # revision 1, with no pack digest recorded (`_created_before_revisions`).
    SCHEMA_VERSION: ClassVar[int] = 2

    ruleset: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    seed_commitment: str
    revision: int = 1
    pack_digest: str = ""


@upcaster("GameCreated", 1)
def _created_before_revisions(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "revision": 1, "pack_digest": ""}


@event
class SeedRevealed(Event):
    """The secret seed, published so that anyone can re-verify every draw: when the game ends,
    or earlier if the admin orders it (`early`)."""

    seed: str
    early: bool = False


@event
class PositionLoaded(Event):
    """A sandbox game starts from a given position (the ruleset's encoded state) instead of the
    ruleset's setting up. Private to no seat: each seat sees the position only through its view."""

    state: Any
    source_game: str


@event
class ChanceScripted(Event):
    """A sandbox's chance is scripted (a what-if: "had I rolled a 6"): its draw k is entry k of
    `script`, each entry `[n, result]` (a whole number in [0, n); a die face f of a d6 is
    `[6, f - 1]`), not an outcome of the committed seed. Only a sandbox records it, right after
    its PositionLoaded; every event decided on it carries `scripted: true`."""

    script: tuple[tuple[int, int], ...]


KERNEL_EVENTS = (GameCreated, SeedRevealed, PositionLoaded, ChanceScripted)


@dataclass(frozen=True)
class Game(Generic[S]):
    """A game as the kernel sees it. Unslotted, so that `fold` can build the next one through
    its ``__dict__`` (a third of the cost of the frozen ``__init__``, paid for every event)."""

    setup: Setup
    version: int
    draws: int
    state: S
    seed_revealed: str | None = None
    undoable: tuple[UndoStep, ...] = ()
    """The commands that may still be undone, oldest first: the acting seat's in sequential
    play, every committed seat's sealed commands of an open simultaneous round."""
    barrier_command: str = ""
    """A command that drew chance or revealed something (`command_key`: actor and id): none of
    its events may be undone."""
    proposal: Proposal | None = None
    last_commands: tuple[int, ...] = ()
    """Per seat, the first version of its most recent command (0: none yet)."""
    created_through: int = 0
    """The last version of the game's creation: nothing before it can be rewound to."""
    creation_command: str = ""
    chance_script: tuple[tuple[int, int], ...] | None = None
    """A sandbox's scripted chance (`ChanceScripted`), None where chance is the committed seed's."""
    seating: Seating | None = None
    """Who sits where (open seats, bots, seats that left, the clock); None for a game created
    the classic way in which no seating event has happened."""

    @property
    def first_playable(self) -> int:
        return max(self.created_through, 1)


class CommandMisused(RuntimeError):
    """A ruleset broke the kernel's contract (a programming error, never a player's)."""


def setup_of(created: GameCreated) -> Setup:
    return Setup(
        ruleset=created.ruleset,
        players=tuple(created.players),
        options=dict(created.options),
        seed_commitment=created.seed_commitment,
        revision=created.revision,
        pack_digest=created.pack_digest,
    )
