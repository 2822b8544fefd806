"""Player names people can tell apart.

A name is stored in Unicode's composed form (NFC), so that the same letters typed on two
keyboards are the same name. A name may not hold characters nobody sees (controls, zero-width
and other format characters, unassigned or private-use code points, line separators), and no
two seats of a game may have names that differ only in case, width, accents' encoding, spacing
or letters that look alike (Cyrillic `а` for Latin `a`, Greek `Ο` for `O`...).

The look-alike table is a small hand-made subset of Unicode's confusables (the Cyrillic and
Greek letters that match Latin ones in common fonts, and a few digits and symbols); it does not
claim to catch every homoglyph in Unicode.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
"""Controls, format characters (zero-width joiners, direction marks...), private use,
unassigned, surrogates, line and paragraph separators."""
BLANKS = frozenset({"\u3164", "\uffa0", "\u115f", "\u1160", "\u2800", "\u034f", "\u17b4", "\u17b5"})
"""Characters that draw nothing though Unicode files them as letters or marks (Hangul fillers,
the blank Braille pattern, the combining grapheme joiner, Khmer's inherent vowels)."""
IGNORABLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): what a renderer shows
as nothing. Variation selectors are among them: a name may hold them (an emoji's text or
picture form), but two names that differ only by them are the same name."""
BASE_CATEGORIES = ("L", "N", "S", "P")
"""What a mark can sit on: letters, digits, symbols, punctuation."""
LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d",
        "ԛ": "q", "ԝ": "w", "ӏ": "l", "ь": "b", "г": "r", "п": "n", "ɡ": "g",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ζ": "z", "μ": "u",
        # digits and symbols that pass for letters
        "0": "o", "1": "l", "|": "l", "ı": "i", "ℓ": "l",
    }
)  # fmt: skip


@dataclass(frozen=True)
class NameProblem:
    seat: int
    message: str


def normalised(name: str) -> str:
    """The name as stored: NFC, without surrounding spaces."""
    return unicodedata.normalize("NFC", name).strip()


def invisible(name: str) -> list[str]:
    """The code points of `name` that nobody sees, as U+XXXX."""
    return [
        f"U+{ord(ch):04X}"
        for ch in name
        if unicodedata.category(ch) in INVISIBLE_CATEGORIES or ch in BLANKS
    ]


def ignorable(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in IGNORABLE_RANGES)


def without_base(name: str) -> bool:
    """Whether the name begins with a mark (which would sit on whatever is shown before it)
    or has no character a mark can sit on (a lone combining accent)."""
    shown = [ch for ch in name if not ignorable(ch) and not ch.isspace()]
    if not shown or unicodedata.category(shown[0]).startswith("M"):
        return True
    return not any(unicodedata.category(ch)[0] in BASE_CATEGORIES for ch in shown)


def skeleton(name: str) -> str:
    """What a name looks like: compatibility forms folded (full-width, ligatures), accents as
    separate marks, case and look-alike letters folded, what draws nothing dropped, runs of
    spaces as one."""
    folded = unicodedata.normalize("NFKD", name).casefold().translate(LOOK_ALIKES)
    return " ".join("".join(ch for ch in folded if not ignorable(ch)).split())


def problems(names: Sequence[str]) -> list[NameProblem]:
    """Why these names (normalised) cannot be the seats' names: a blank or invisible
    character, or two that look the same."""
    found: list[NameProblem] = []
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        if not name.strip():
            found.append(NameProblem(seat, "A name must show at least one character."))
            continue
        hidden = invisible(name)
        if hidden:
            found.append(
                NameProblem(seat, f"The name holds characters nobody sees: {', '.join(hidden)}.")
            )
            continue
        if without_base(name):
            found.append(
                NameProblem(seat, "A name must start with a letter, digit or symbol, not a mark.")
            )
            continue
        key = skeleton(name)
        if key in seen:
            found.append(
                NameProblem(
                    seat,
                    f"The name {name!r} looks the same as seat {seen[key]}'s {names[seen[key]]!r}.",
                )
            )
            continue
        seen[key] = seat
    return found
