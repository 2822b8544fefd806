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

LOST_LANDS_NOT_HELD = 7
"""Simultaneous empires: a land an Empire lost between its rounds is no longer its own."""
POINTS_ONCE_PER_EPOCH = 8
"""Simultaneous empires: a player holding two Empires counts the epoch's points once."""
TERMINATION_CHOSEN = 9
"""Simultaneous empires: an Empire's expansion ends by its player's choice or its strength."""

MINOR_BEFORE_OR_AFTER = 10
"""Simultaneous empires: a Minor Empire moves before or after its main Empire each round."""

ALLIES_IN_THE_DECK = 11
"""The Lesser deck holds the two Allies cards (49 cards of 22 types): their coins buy armies
that only expand into unoccupied lands."""

MIGRANTS_PLACE_TWO = 11
"""Migrants place both their armies while vacant lands of their area are left."""

RECLAIM_CHOSEN = 11
"""Naval Control: the Active Empire chooses which fleets of the oldest epoch are taken back."""

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
    Revision(
        LOST_LANDS_NOT_HELD,
        'Simultaneous empires, rule 3 ("normal expansion and combat rules"): a land an '
        "Empire lost between its rounds is no longer held: it may be attacked again, and no "
        "expansion starts from it (before, the Empire still counted it as its own).",
        ("ah2001.variant.one-attempt",),
    ),
    Revision(
        POINTS_ONCE_PER_EPOCH,
        'Simultaneous empires, rule 9 ("he may only count victory points once per epoch"): '
        "a player holding two Empires in one epoch counts the epoch's points once, when the "
        "last of them terminates (before, each Empire's termination counted them).",
        ("ah2001.variant.terminate",),
    ),
    Revision(
        TERMINATION_CHOSEN,
        "Simultaneous empires, rules 4 and 9: an Empire's expansion ends when its player "
        "terminates it or its strength runs out, never because a round passed without an "
        "attempt; an Empire that passes with strength left but no expansion left to attempt "
        "terminates (before, a round without any attempt terminated every Empire).",
        ("ah2001.variant.rounds", "ah2001.variant.terminate"),
    ),
    Revision(
        MINOR_BEFORE_OR_AFTER,
        'Simultaneous empires, rule 10: the Minor Empire makes its attempt "either before OR '
        "after the normal empire's move\": in each round it may wait (`move_after_main`) and "
        "move right after its main Empire (before, it had to move first, and letting the main "
        "Empire go first forfeited its attempt).",
        ("ah2001.variant.minor-empire",),
    ),
    Revision(
        ALLIES_IN_THE_DECK,
        'The Lesser deck holds the two Allies cards its table prints last ("Event Cards (22 '
        'Greater Events, 49 Lesser Events)"): two coins, and an army a coin of theirs returns '
        "to the pool may only expand into an unoccupied land (before, the deck held 47 cards "
        'of 21 types). Migrants "Place two armies": they stop short only when fewer vacant '
        "lands of their area are left than armies to place (before, the player could stop "
        'after one). Naval Control: "The Active Empire ... decides which fleets to take '
        'within this Epoch and in what order": short of fleet counters, it chooses each '
        "fleet it takes back within the oldest epoch that has more than it needs (before, "
        "the seas' alphabetical order chose).",
        (
            "ah2001.events.allies",
            "ah2001.events.lesser-kinds",
            "ah2001.events.migrants",
            "ah2001.option.naval-control",
        ),
    ),
)
NEWEST = REVISIONS[-1].number
