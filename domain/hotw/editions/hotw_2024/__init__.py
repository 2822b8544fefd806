"""History of the World, Rio Grande Games 2024: the registered ruleset `hotw-2024`.

Every rule of the 2024 rulebook, with its four optional rules (p11-p12) as boolean options, off
by default, in any combination except Option 3 without dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from domain.core.errors import InvalidOptions
from domain.core.ruleset import FIRST_REVISION, OptionSpec, Revision, register_ruleset
from domain.hotw.editions.hotw_2024.engine import HotwRuleset
from domain.hotw.editions.hotw_2024.model import Variant
from domain.hotw.editions.hotw_2024.revisions import LIBERATE_UP_TO_TWO

REVISIONS = (
    FIRST_REVISION,
    Revision(
        LIBERATE_UP_TO_TWO,
        'Liberate reads alike in Epochs III, IV and V: "Choose up to two Enemy lands next to '
        'your Friendly lands": with Liberate IV and V too the player may stop after one land or '
        "none (`stop_choosing`), so no other player gains an Honor it did not choose to give "
        "(before, only Liberate III's effect carried the card's \"up to\").",
        ("hotw24.events.effects",),
    ),
)
"""The revisions of the 2024 rules as Chronicle plays them (domain/hotw/editions/hotw_2024/
revisions.py; README "Changing a rule")."""


class Option(StrEnum):
    """The four optional rules of the 2024 rulebook (p11-p12), each a shared variant rule."""

    EVENT_CARD_SELECTION = Variant.EVENT_CARD_SELECTION.value
    HIDDEN_EMPIRE_CARDS = Variant.HIDDEN_EMPIRE_CARDS.value
    INVASION_AND_CONQUEST = Variant.INVASION_AND_CONQUEST.value
    PAIRED_AREA_TOKENS = Variant.PAIRED_AREA_TOKENS.value


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
            "Play invasions with dice, or without them; every player uses the same system",
            rule="hotw24.setup.dice",
        ),
        OptionSpec(
            Option.EVENT_CARD_SELECTION.value,
            bool,
            False,
            "Option 1: the player with most gold takes the Event cards, secretly keeps one and "
            "passes the rest down the gold order",
        ),
        OptionSpec(
            Option.HIDDEN_EMPIRE_CARDS.value,
            bool,
            False,
            "Option 2: the player with least gold takes the Empire cards, secretly keeps one and "
            "passes the rest up the gold order; each stays secret until its turn",
        ),
        OptionSpec(
            Option.INVASION_AND_CONQUEST.value,
            bool,
            False,
            "Option 3: the Enemy's dice depend on terrain and forts, ties go to the Empire, "
            "frustrated invasions may go on with the Invasion modifier, successes earn conquest "
            "points; only with dice",
        ),
        OptionSpec(
            Option.PAIRED_AREA_TOKENS.value,
            bool,
            False,
            "Option 4: each player secretly holds one Paired Area token, played in any Conclude "
            "the turn phase for gold in both its areas",
        ),
    )
    variant_options = {option.value: Variant(option.value) for option in Option}
    data_pack = "hotw-2024"
    turn_rule = "hotw24.turn.current-player-only"
    end_rule = "hotw24.winning.most-gold"
    setup_rule = "hotw24.setup.player-count"
    setup_cites = (
        "hotw24.setup.player-set",
        "hotw24.setup.leader",
        "hotw24.setup.arctic",
        "hotw24.setup.area-tokens",
        "hotw24.setup.dice",
        "hotw24.setup.options",
    )
    options_rule = "hotw24.options"
    chance_rule = "hotw24.table.chance"
    undo_rule = "hotw24.table.undo-and-rewind"
    seat_rule = "hotw24.table.seats"
    revisions = REVISIONS

    def check_option_combination(self, options: Mapping[str, Any]) -> None:
        """hotw24.option3.dice: Option 3 gives its rules for play with dice only."""
        if options.get(Option.INVASION_AND_CONQUEST.value) and not options.get("dice", True):
            raise InvalidOptions(
                "option 'invasion_and_conquest' needs dice: Option 3 gives invasion and "
                "conquest rules only for play with dice",
                "hotw24.option3.dice",
                {"options": {Option.INVASION_AND_CONQUEST.value: True, "dice": False}},
            )
