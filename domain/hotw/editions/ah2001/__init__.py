"""History of the World, Avalon Hill 2001: the registered ruleset `hotw-ah2001`.

Drawing Empire cards (keep or pass), each Empire's turn (army pool, capital, fleets, start
land, expansion over land and fleets, combat with its terrain, sea and fort rules, forts,
monuments, clean-up and scoring), pre-eminence between epochs, and the end with its tie-breaks.
Every Event card is played before the first army (Minor Empires and the Crusade expand as an
Empire of their own inside the Active Empire's turn). Options: no pre-eminence markers, Minor
Empires dealt to every player, multiple armies in a land, naval
control of the seas.
"""

from __future__ import annotations

from domain.core.ruleset import OptionSpec, register_ruleset
from domain.hotw.editions.ah2001.context import (
    MINOR_EMPIRES,
    MULTIPLE_ARMIES,
    NAVAL_CONTROL,
    NO_PRE_EMINENCE,
    SIMULTANEOUS,
)
from domain.hotw.editions.ah2001.engine import Ah2001Ruleset


@register_ruleset
class HotwAh2001(Ah2001Ruleset):
    name = "hotw-ah2001"
    title = "History of the World (Avalon Hill, 2001)"
    player_counts = (3, 4, 5, 6)
    """ah2001.setup.player-count."""
    options = (
        OptionSpec(
            NO_PRE_EMINENCE,
            bool,
            False,
            "Optional rule: no pre-eminence markers are awarded",
            rule="ah2001.option.no-pre-eminence",
        ),
        OptionSpec(
            MINOR_EMPIRES,
            bool,
            False,
            "Optional rule: every player is dealt one Minor Empire card and two other Greater "
            "Events",
            rule="ah2001.option.minor-empires",
        ),
        OptionSpec(
            MULTIPLE_ARMIES,
            bool,
            False,
            "Optional rule: up to three figures of a player in a land - three armies, or two "
            "and a fort; the extra figures only absorb losses",
            rule="ah2001.option.multiple-armies",
        ),
        OptionSpec(
            NAVAL_CONTROL,
            bool,
            False,
            "Optional rule: an Active Empire may put pool armies on its fleets in seas; those "
            "fleets stay, score one point per sea and must be fought by other players' fleets",
            rule="ah2001.option.naval-control",
        ),
        OptionSpec(
            SIMULTANEOUS,
            bool,
            False,
            "Variant: the epoch's Empires play pseudo-simultaneously, one expansion attempt "
            "each per round (the Simultaneous Empires variant)",
            rule="ah2001.variant.simultaneous",
        ),
    )
    data_pack = "hotw-ah2001"
    turn_rule = "ah2001.turn.parts"
    end_rule = "ah2001.winning.most-points"
    setup_rule = "ah2001.setup.player-count"
    options_rule = "ah2001.setup.options"
    undo_rule = "ah2001.turn.parts"
    seat_rule = "ah2001.table.seats"
    setup_cites = (
        "ah2001.components.pieces",
        "ah2001.components.coin-fleet",
        "ah2001.setup.pieces",
        "ah2001.setup.board",
        "ah2001.setup.score-charts",
    )
    """The clauses that fix the state the game starts in: the shared supply of pieces (coin and
    fleet counters one supply), every colour's figures, the board and every score at 0."""
