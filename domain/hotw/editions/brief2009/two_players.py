"""The two-player game of A Brief History of the World: each player takes two colours
(brief.two-player.colours), an Empire may take the other colour's land by surrender
(brief.two-player.surrender, in `expansion`), and a player's score is both colours' gold
(brief.two-player.combined-gold, in `conclusion`)."""

from __future__ import annotations

from domain.hotw.editions.brief2009.model import (
    BriefState,
)


def colour_count(players: int) -> int:
    """brief.two-player.colours: two players take two colours each."""
    return players if players >= 3 else players * 2


def two_colours_each(state: BriefState) -> bool:
    """Whether the players play two colours each (brief.two-player.colours)."""
    return len(state.colours) > len(state.players)


def score_of(state: BriefState, gold: tuple[int, ...], seat: int) -> int:
    """A player's gold: its colour's, or both its colours' (brief.two-player.combined-gold)."""
    return sum(gold[c] for c in state.colours_of(seat))
