"""Patchistory: the registered ruleset `patchistory` (2-4 players, three Eras of five Rounds:
Auctions of Terrain Tiles patched onto each civilization, Diplomacy and Management, Movement of
Workers on the territory and the Trade Routes, Negotiation and War, Production, and in each
Era's last Round the Vote on Prosperity Cards). It imports nothing from `domain.hotw`."""

from __future__ import annotations

from domain.core.ruleset import OptionSpec, register_ruleset
from domain.patchistory.engine import PatchistoryRuleset
from domain.patchistory.rounds import ROUND_RULE
from domain.patchistory.setup import CAPITAL_SIDE, PLAYER_COUNT_RULE


@register_ruleset
class Patchistory(PatchistoryRuleset):
    name = "patchistory"
    title = "Patchistory"
    player_counts = (2, 3, 4)
    """patchistory.setup.players."""
    options = (
        OptionSpec(
            CAPITAL_SIDE,
            str,
            "equality",
            "The Capital Tiles' side everyone uses",
            allowed=("equality", "liberty"),
            rule="patchistory.setup.capital-side",
        ),
    )
    data_pack = "patchistory"
    turn_rule = ROUND_RULE
    end_rule = "patchistory.game.end"
    setup_rule = PLAYER_COUNT_RULE
    options_rule = "patchistory.setup.capital-side"
    undo_rule = ROUND_RULE
    setup_cites = (
        "patchistory.setup.capital-side",
        "patchistory.setup.supply",
        "patchistory.setup.prosperity",
        "patchistory.setup.trade-routes",
    )
