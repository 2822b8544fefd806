"""The revisions of Patchistory's rules as Chronicle plays them: a game is decided, folded and
scored under the revision it was created with, forever (README: "Changing a rule"). Each gate
names the revision that introduced its rule."""

from __future__ import annotations

from domain.core.ruleset import FIRST_REVISION, Revision

EXCHANGES_BEHIND_THE_SCREEN = 2
"""What an Exchange gives and takes is seen by its player alone."""

REVISIONS = (
    FIRST_REVISION,
    Revision(
        EXCHANGES_BEHIND_THE_SCREEN,
        "What an Exchange gives and takes stays behind the Player Screen: the event is private "
        "to the exchanging seat, the others see that it exchanged and the Political Point it "
        "spent (before, every seat saw the amounts, so hidden Goods could be rebuilt).",
        ("patchistory.management.exchange", "patchistory.hidden.screen"),
    ),
)
NEWEST = REVISIONS[-1].number
