"""The chance interface: every random outcome of a game comes through here.

Contracts §4: outcome k is a 256-bit number drawn from a counter-based source, where k counts the
chance draws of the game's effective history. The domain never sees the source's secret, only
numbers; the source itself (HMAC-SHA256 over the game's seed) lives outside `domain/`.

Every primitive draw is "a whole number in [0, n)": dice, shuffles and picks are built from it,
so an auditor needs nothing but (k, n, result) to re-verify any outcome.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

T = TypeVar("T")


class ChanceSource(Protocol):
    def value(self, k: int) -> int:
        """The k-th raw outcome of the game: a number in [0, 2**256)."""
        ...


@dataclass(frozen=True, slots=True)
class Draw:
    """One primitive draw: the k-th outcome reduced to a whole number in [0, n)."""

    k: int
    n: int
    result: int
    scripted: bool = False
    """Given by a sandbox's chance script (`ScriptedChance`), not drawn from a committed seed."""


def outcome_in_range(value: int, n: int) -> int:
    """Reduce a raw 256-bit outcome to [0, n); the bias (n / 2**256) is negligible."""
    return value % n


class NoChanceAvailable(RuntimeError):
    """Raised when code that must not draw (evolve, legal-action listing) tries to."""


class _NoSource:
    def value(self, k: int) -> int:
        raise NoChanceAvailable("this step may not draw chance")


class Chance:
    """Draws outcomes in order from a source, starting at the game's cursor, and logs them.

    The events that use an outcome must carry its draws (`take_draws`), so that `evolve` can move
    the cursor on and an audit can re-verify them.
    """

    def __init__(self, source: ChanceSource, cursor: int) -> None:
        self._source = source
        self.cursor = cursor
        self._pending: list[Draw] = []

    @classmethod
    def forbidden(cls) -> Chance:
        """A chance object that refuses to draw."""
        return cls(_NoSource(), 0)

    def below(self, n: int) -> int:
        """A whole number in [0, n)."""
        if n < 1:
            raise ValueError("cannot draw from an empty range")
        result = outcome_in_range(self._source.value(self.cursor), n)
        self._pending.append(Draw(self.cursor, n, result))
        self.cursor += 1
        return result

    def die(self, sides: int = 6) -> int:
        """One die face, 1..sides."""
        return self.below(sides) + 1

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        return tuple(self.die(sides) for _ in range(count))

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """A Fisher–Yates shuffle: n-1 draws for n items."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return tuple(result)

    def pick(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def take_draws(self) -> tuple[Draw, ...]:
        """The draws made since the last call, to be recorded in the event that uses them."""
        taken = tuple(self._pending)
        self._pending.clear()
        return taken

    @property
    def untaken(self) -> int:
        return len(self._pending)


class ChanceScriptError(Exception):
    """A sandbox's chance script cannot give the draw asked for: it has run out (`needed` is
    then None), or its next entry is of another range than the draw's."""

    def __init__(self, k: int, n: int, scripted: tuple[int, int] | None, given: int) -> None:
        self.k = k
        self.n = n
        self.scripted = scripted
        self.given = given
        if scripted is None:
            message = (
                f"the sandbox's chance script has run out: draw {k} (a whole number below {n}) "
                f"was asked for, and the script gives {given} draws"
            )
        else:
            message = (
                f"the sandbox's chance script does not fit: draw {k} is a whole number below "
                f"{n}, and the script's entry {k} is one below {scripted[0]} "
                f"({list(scripted)}); write it as [{n}, result]"
            )
        super().__init__(message)
        self.message = message

    @property
    def exhausted(self) -> bool:
        return self.scripted is None


class ScriptedChance(Chance):
    """A sandbox's scripted chance: draw k is entry k of the script, each entry a pair
    `(n, result)` (a die face f of a d6 is `(6, f - 1)`), instead of an outcome of the
    committed seed. Counter-based like the seed (an undo or rewind followed by the same action
    gets the same entries). A draw of another range than its entry's, or past the script's end,
    raises `ChanceScriptError`: a script never falls back to a seed."""

    def __init__(self, script: Sequence[tuple[int, int]], cursor: int) -> None:
        super().__init__(_NoSource(), cursor)
        self.script = tuple(script)

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError("cannot draw from an empty range")
        k = self.cursor
        if k >= len(self.script):
            raise ChanceScriptError(k, n, None, len(self.script))
        entry = self.script[k]
        if entry[0] != n:
            raise ChanceScriptError(k, n, entry, len(self.script))
        self._pending.append(Draw(k, n, entry[1], scripted=True))
        self.cursor += 1
        return entry[1]


def script_problems(script: Sequence[tuple[int, int]]) -> list[str]:
    """What is wrong with a chance script: every entry a range n of at least 1 and a result in
    [0, n)."""
    return [
        f"entry {i}: {list(entry)} is not a whole number in [0, {entry[0]})"
        if entry[0] >= 1
        else f"entry {i}: {list(entry)} draws from an empty range"
        for i, entry in enumerate(script)
        if not (entry[0] >= 1 and 0 <= entry[1] < entry[0])
    ]


class ScriptedFaces:
    """A chance source rolling the die faces it is given, in order, then ones."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self.faces = list(faces)
        self.start: int | None = None

    def value(self, k: int) -> int:
        if self.start is None:
            self.start = k
        index = k - self.start
        return self.faces[index] - 1 if index < len(self.faces) else 0
