"""The revisions of A Brief History of the World's rules as Chronicle plays them: a game is
decided, folded and scored under the revision it was created with, forever (README: "Changing a
rule"). Each gate names the revision that introduced its rule."""

from __future__ import annotations

from domain.core.ruleset import FIRST_REVISION, Revision

OVERRUNS_BY_PLAYER = 2
"""Overrun lands belong to the same defending player, whichever of its colours holds them."""
OWN_COLOURS_NOT_RIVALS = 3
"""Two players: a player's other colour is no rival for control when a colour collects gold."""

FRANCE_ALONE = 4
"""France's Feature spares monuments in France's conquests only."""
RED_CARDS_AT_TURN_START = 5
"""A red card not played at the start of its player's turn is discarded then."""

REVISIONS = (
    FIRST_REVISION,
    Revision(
        OVERRUNS_BY_PLAYER,
        'Overrun lands "Must belong to same defending player": in the two-player game, where '
        '"each player controls two colors", a land of the defending player\'s other colour may '
        "be overrun too (before, only the invaded land's own colour could be).",
        ("brief.overrun.same-defender", "brief.two-player.colours"),
    ),
    Revision(
        OWN_COLOURS_NOT_RIVALS,
        "Two players: when a colour collects gold for an Area, the lands of its player's other "
        "colour are no rival's (before, the player's second colour counted against the first "
        "for presence, dominance and mastery).",
        ("brief.gold.presence", "brief.two-player.colours"),
    ),
    Revision(
        FRANCE_ALONE,
        "France's Feature (\"Monuments not reduced on invasion or in Gaul\") is France's "
        "alone, like every Feature printed on an Empire card: France's invasions and overruns "
        "spare monuments anywhere, and France taking a land of Gaul (by surrender too) spares "
        "its monument; another Empire invading Gaul reduces as anywhere (before, any Empire's "
        "conquest of Gaul spared its monument).",
        ("brief.features.france",),
    ),
    Revision(
        RED_CARDS_AT_TURN_START,
        'Red cards "must play at start of turn, before establishing empire; else discard": '
        "the red cards of the Epoch a player has not played when establishing its Empire are "
        "discarded then, so in the two-player game none survives to the player's second "
        "colour's turn (before, they were discarded at the Epoch's end).",
        ("brief.events.red",),
    ),
)
NEWEST = REVISIONS[-1].number
