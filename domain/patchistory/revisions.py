"""The revisions of Patchistory's rules as Chronicle plays them: a game is decided, folded and
scored under the revision it was created with, forever (README: "Changing a rule"). Each gate
names the revision that introduced its rule."""

from __future__ import annotations

from domain.core.ruleset import FIRST_REVISION, Revision

EXCHANGES_BEHIND_THE_SCREEN = 2
"""What an Exchange gives and takes is seen by its player alone."""

GOODS_BEHIND_THE_SCREEN = 3
"""Every other amount that depends on what is behind a screen is hidden too: upkeep paid,
Goods taken by a Threat or a crushing War or given as Aid, Culture paid for a Coin or lost to a
Ziggurat, unused Votes forfeited; a Prosperity Card's loss is recorded as due (the fold stops
at 0)."""
WAR_ORDER_CHOSEN = 4
"""A player in two Wars at its turn chooses which to resolve first."""
WORKERS_SHARE_DURING_MOVEMENT = 5
"""A Worker may stop on a space another Worker holds during Movement; the Movement ends with one
Worker per space."""

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
        GOODS_BEHIND_THE_SCREEN,
        "Every amount paid out of what is behind the Player Screen, or that would show how much is "
        "there, stays behind it: Worker and Hero/Wonder upkeep (a shortfall showed the Food "
        "left), what a Threat or a crushing War takes and what Aid gives (seen by the two "
        "players alone), the Culture paid for a Coin at an Auction, a Ziggurat's loss, the "
        "unused Votes forfeited; a Prosperity Card's loss is recorded as due and stops at 0 "
        "Culture when folded (before, the amount paid showed the Culture left).",
        (
            "patchistory.hidden.screen",
            "patchistory.maintenance.workers",
            "patchistory.maintenance.heroes-wonders",
            "patchistory.diplomacy.threaten",
            "patchistory.diplomacy.aid",
            "patchistory.war.spoils",
            "patchistory.auction.no-coin",
            "patchistory.tile.ziggurat",
            "patchistory.vote.points",
            "patchistory.vote.forfeit",
            "patchistory.culture.floor",
        ),
    ),
    Revision(
        WAR_ORDER_CHOSEN,
        '"If a player is involved in two Wars when it is their turn, they may choose which War '
        'to resolve first": such a player is asked (`choose_war`), before each of its Wars, '
        "which of them comes next (before, the Routes' order decided).",
        ("patchistory.war.order",),
    ),
    Revision(
        WORKERS_SHARE_DURING_MOVEMENT,
        '"At the end of Movement, be sure that there is only one Worker per space. Only during '
        'Movement may you have more than one Worker on a space": a Worker may end its move on a '
        "space another of your Workers holds (so two Workers can swap), while every Worker can "
        "still end on a space of its own; Trade Route moves and the end of the Movement wait "
        "until no two share a space (before, a Worker passed through an occupied space but "
        "never stopped on one).",
        ("patchistory.movement.one-per-space", "patchistory.movement.territory"),
    ),
)
NEWEST = REVISIONS[-1].number
