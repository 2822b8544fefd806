"""History of the World, Rio Grande Games 2024: the registered ruleset `hotw-2024`.

Every rule of the 2024 rulebook except its four optional rules, which come later as options
(Option 3 replaces `resolve_invasion`).
"""

from __future__ import annotations

from domain.core.ruleset import OptionSpec, register_ruleset
from domain.hotw.engine import HotwRuleset


@register_ruleset
class Hotw2024(HotwRuleset):
    name = "hotw-2024"
    title = "History of the World (Rio Grande Games, 2024)"
    player_counts = (3, 4, 5, 6)
    """hotw24.setup.player-count (reading: the text is silent; 3-6 as the other editions)."""
    options = (
        OptionSpec(
            "dice",
            bool,
            True,
            "play invasions with dice (true) or without dice (false); every player uses the "
            "same system (hotw24.intro.one-system, hotw24.setup.dice)",
        ),
    )
    data_pack = "hotw-2024"
    turn_rule = "hotw24.turn.current-player-only"
    end_rule = "hotw24.winning.most-gold"
    setup_rule = "hotw24.setup.player-count"
    undo_rule = "hotw24.table.undo-and-rewind"
