"""A loaded History of the World data pack: the board, the cards and the rules catalogue.

Built by ``packs.hotw.load_pack``; pure data, nothing here reads files.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.core.catalogue import RulesCatalogue
from domain.hotw.board import Board
from domain.hotw.editions.hotw_2024.cards import Cards
from domain.hotw.editions.hotw_2024.edition import Edition
from domain.hotw.editions.hotw_2024.revisions import EarlierValue


@dataclass(frozen=True)
class HotwPack:
    """Everything a History of the World ruleset reads from ``data/<ruleset>/``."""

    ruleset: str
    board: Board
    cards: Cards
    rules: RulesCatalogue
    edition: Edition
    earlier: tuple[EarlierValue, ...] = field(default=(), compare=False)
    """What the cards read before each revision that changed them (revisions.yaml)."""
