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

from domain.core.ruleset import register_ruleset
from domain.hotw.editions.ah2001.engine import Ah2001Ruleset
from domain.hotw.editions.ah2001.optional import OPTIONS
from domain.hotw.editions.ah2001.setup import OPTIONS_RULE, PLAYER_COUNT_RULE, STARTING_STATE_RULES
from domain.hotw.editions.ah2001.simultaneous_rounds import VARIANT


@register_ruleset
class HotwAh2001(Ah2001Ruleset):
    name = "hotw-ah2001"
    title = "History of the World (Avalon Hill, 2001)"
    player_counts = (3, 4, 5, 6)
    """The players the game is for (`setup.PLAYER_COUNT_RULE`)."""
    options = (*OPTIONS, VARIANT)
    data_pack = "hotw-ah2001"
    turn_rule = "ah2001.turn.parts"
    end_rule = "ah2001.winning.most-points"
    setup_rule = PLAYER_COUNT_RULE
    options_rule = OPTIONS_RULE
    undo_rule = "ah2001.turn.parts"
    seat_rule = "ah2001.table.seats"
    setup_cites = STARTING_STATE_RULES
