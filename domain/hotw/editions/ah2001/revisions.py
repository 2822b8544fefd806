"""The revisions of the Avalon Hill 2001 rules as Chronicle plays them: a game is decided,
folded and scored under the revision it was created with, forever (README: "Changing a rule").
Each gate names the revision that introduced its rule."""

from __future__ import annotations

from domain.core.ruleset import FIRST_REVISION, Revision

COINS_TAKE_COUNTERS = 2
"""Coins from Event cards draw on the twelve shared coin/fleet counters."""

WALL_ONE_SIDED = 3
"""Difficult terrain is one-sided: the Great Wall defends only the land it stands in."""

CAPITALS_FALL_TO_ANY_ENTRY = 4
"""An army entering a land that holds a capital or city turns the capital over and sacks the
city, whether it won a battle there or walked into a vacant land (after a tie, a Plague...)."""

PESTILENCE_ANY_LAND = 5
"""Pestilence may be aimed at any land, an empty one included."""

TREACHERY_ONE_ATTACK = 6
"""Treachery wins the named land in one attack, however many armies stand there."""

REVISIONS = (
    FIRST_REVISION,
    Revision(
        COINS_TAKE_COUNTERS,
        "Coins draw on the twelve shared coin/fleet counters: a card gives at most the counters "
        "left, a spent coin gives its counter back, and unspent coins go back at the end of the "
        "turn (before, coins took no counter, so coins and fleets together could exceed twelve).",
        ("ah2001.components.coin-fleet",),
    ),
    Revision(
        WALL_ONE_SIDED,
        "The Great Wall is Difficult Terrain only for the land it stands in (Wei River, Yellow "
        "River): an army attacking out of those lands into Mongolia or the Gobi faces one die "
        "(before, the Wall gave two dice from either side, as if it were a strait).",
        ("ah2001.combat.difficult-terrain",),
    ),
    Revision(
        CAPITALS_FALL_TO_ANY_ENTRY,
        "Whenever an army takes over a land holding a capital, the capital becomes a city, and "
        "a city there is sacked, also when the land was vacant (after a tie, a Plague or a "
        "revolt): the first army to enter it sacks it (before, only a battle won sacked, so "
        "the army after a tie took the capital intact).",
        ("ah2001.combat.sack", "ah2001.combat.tie"),
    ),
    Revision(
        PESTILENCE_ANY_LAND,
        'Pestilence reads "Choose a Land" (the Plague, "an occupied Land"): an empty '
        "land may be chosen, and the armies in the lands next to it still roll two dice "
        "(before, only occupied lands were offered).",
        ("ah2001.events.pestilence",),
    ),
    Revision(
        TREACHERY_ONE_ATTACK,
        "Treachery wins the attack on the named land: with Multiple Armies, the whole stack "
        "there falls to one attack, which costs one army from the pool (before, each army of "
        "the stack cost a pool army of its own).",
        ("ah2001.events.treachery", "ah2001.option.multiple-armies"),
    ),
)
NEWEST = REVISIONS[-1].number
