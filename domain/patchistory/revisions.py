"""The revisions of Patchistory's rules as Chronicle plays them: a game is decided, folded and
scored under the revision it was created with, forever (README: "Changing a rule"). Each gate
names the revision that introduced its rule."""

from __future__ import annotations

from domain.core.ruleset import FIRST_REVISION, Revision

EXCHANGES_BEHIND_THE_SCREEN = 2
"""What an Exchange gives and takes is seen by its player alone."""

WAR_ORDER_CHOSEN = 3
"""A player in two Wars at its turn chooses which to resolve first."""

REVISIONS = (
    FIRST_REVISION,
    Revision(
        EXCHANGES_BEHIND_THE_SCREEN,
        "What an Exchange gives and takes stays behind the Player Screen: the event is private "
        "to the exchanging seat, the others see that it exchanged and the Political Point it "
        "spent (before, every seat saw the amounts, so hidden Goods could be rebuilt).",
        ("patchistory.management.exchange", "patchistory.hidden.screen"),
    ),
    Revision(
        WAR_ORDER_CHOSEN,
        '"If a player is involved in two Wars when it is their turn, they may choose which War '
        'to resolve first": such a player is asked (`choose_war`), before each of its Wars, '
        "which of them comes next (before, the Routes' order decided).",
        ("patchistory.war.order",),
    ),
)
NEWEST = REVISIONS[-1].number
