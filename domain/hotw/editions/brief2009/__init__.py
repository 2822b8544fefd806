"""A Brief History of the World (2009): the registered ruleset `brief-2009`, an edition of the
History of the World family on its shared world board and levels of control.

Setup (a Leader and a Weaponry card each, the Gold track, the Bonus tokens), Organisation and
Allocation (the poorest chooses Empire cards first while the richest chooses Event cards, in
sealed simultaneous rounds), the Empire turns in each Epoch's fixed order (establishing,
expansion, invasion with the Invasion dial, overruns, surrender, reduction and barbarian gold,
forts, monuments, Features, Event cards and their Event Empires, reorganising, collecting gold
along the spiral), the Conclusion (stacked gold markers, Bonus tokens) and the end after Epoch
6. Two players play two colours each.
"""

from __future__ import annotations

from domain.core.ruleset import register_ruleset
from domain.hotw.editions.brief2009.engine import BriefRuleset
from domain.hotw.editions.brief2009.setup import (
    OPTIONS_RULE,
    PLAYER_COUNT_RULE,
    STARTING_STATE_RULES,
)


@register_ruleset
class Brief2009(BriefRuleset):
    name = "brief-2009"
    title = "A Brief History of the World (2009)"
    player_counts = (2, 3, 4, 5, 6)
    """The players the game is for (`setup.PLAYER_COUNT_RULE`; two: `two_players`)."""
    data_pack = "brief-2009"
    turn_rule = "brief.table.procedure"
    end_rule = "brief.end.after-epoch-6"
    setup_rule = PLAYER_COUNT_RULE
    options_rule = OPTIONS_RULE
    undo_rule = "brief.table.procedure"
    seat_rule = "brief.table.seats"
    setup_cites = STARTING_STATE_RULES
