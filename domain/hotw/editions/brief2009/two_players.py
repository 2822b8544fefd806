"""The two-player game of A Brief History of the World: each player takes two colours
(brief.two-player.colours), an Empire may take the other colour's land by surrender
(`SURRENDER_RULE`, played in `expansion`), and a player's score is both colours' gold
(`COMBINED_GOLD_RULE`, counted in `conclusion`)."""

from __future__ import annotations

from domain.hotw.editions.brief2009.model import (
    BriefState,
)

COLOURS_RULE = "brief.two-player.colours"
SURRENDER_RULE = "brief.two-player.surrender"
COMBINED_GOLD_RULE = "brief.two-player.combined-gold"


def colour_count(players: int) -> int:
    """brief.two-player.colours: two players take two colours each."""
    return players if players >= 3 else players * 2


def two_colours_each(state: BriefState) -> bool:
    """Whether the players play two colours each (brief.two-player.colours)."""
    return len(state.colours) > len(state.players)


def score_of(state: BriefState, gold: tuple[int, ...], seat: int) -> int:
    """A player's gold: its colour's, or both its colours' (brief.two-player.combined-gold)."""
    return sum(gold[c] for c in state.colours_of(seat))
