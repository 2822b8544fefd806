"""Load a History of the World data pack (``data/<name>/``), or check it and summarise it.

``load_pack`` is the family's pack loader (``Hotw2024.pack_loader``: ``service.rulesets``
binds every History of the World edition with it, by the edition's ``data_pack``); it raises
one ``PackError`` listing every problem. ``check_pack`` never raises for a bad pack and returns
a summary whose ``errors`` list names file, entry and field of each problem (the
``chronicle data check`` output). Which rulesets exist is the domain registry's business, not
this module's: ``chronicle data check`` finds the ruleset there first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain.core.catalogue import RulesCatalogue
from domain.hotw.board import Board
from domain.hotw.editions.hotw_2024.cards import Cards
from domain.hotw.editions.hotw_2024.pack import HotwPack
from packs import register
from packs.base import PackError, PackProblem, load_rules_catalogue, pack_dir
from packs.edition import load_edition
from packs.facts import facts_about_no_file
from packs.hotw_board import BOARD_FILES, board_problems
from packs.hotw_card_schemas import CARD_FILES
from packs.hotw_cards import load_cards
from packs.hotw_revisions import load_earlier

RULES_FILE = "rules.yaml"


def _load_parts(
    ruleset: str, root: Path | None
) -> tuple[Board | None, Cards | None, RulesCatalogue | None, list[PackProblem]]:
    directory = pack_dir(ruleset, root)
    if not directory.is_dir():
        return None, None, None, [PackProblem(ruleset, "", "", f"no data pack at {directory}")]
    board, problems = board_problems(directory)
    board_ok = board is not None and not problems
    cards: Cards | None = None
    rules: RulesCatalogue | None = None
    try:
        rules = load_rules_catalogue(directory / RULES_FILE)
    except PackError as exc:
        problems += exc.problems
    if board is not None and board_ok:
        try:
            cards = load_cards(directory, board)
        except PackError as exc:
            problems += exc.problems
    if rules is not None:
        try:
            load_edition(directory, rules)
        except PackError as exc:
            problems += exc.problems
    try:
        load_earlier(directory, cards, problems)
    except PackError as exc:
        problems += exc.problems
    problems += facts_about_no_file(directory, [*BOARD_FILES, *CARD_FILES])
    return board, cards, rules, list(dict.fromkeys(problems))  # facts.yaml's own, once


def load_pack(ruleset: str = "hotw-2024", root: Path | None = None) -> HotwPack:
    """The checked pack ``data/<ruleset>/`` under ``root`` (default ``data/``)."""
    board, cards, rules, problems = _load_parts(ruleset, root)
    if problems or board is None or cards is None or rules is None:
        raise PackError(problems)
    directory = pack_dir(ruleset, root)
    earlier = load_earlier(directory, cards, [])  # checked by _load_parts
    return HotwPack(ruleset, board, cards, rules, load_edition(directory, rules), earlier)


def _per_epoch(by_epoch: Any) -> dict[str, int]:
    return {str(epoch): len(cards) for epoch, cards in sorted(by_epoch.items())}


def check_pack(ruleset: str = "hotw-2024", root: Path | None = None) -> dict[str, Any]:
    """A summary of the pack: component counts and every problem (never raises for a bad pack)."""
    try:
        board, cards, rules, problems = _load_parts(ruleset, root)
    except PackError as exc:
        board, cards, rules, problems = None, None, None, list(exc.problems)
    summary: dict[str, Any] = {"ruleset": ruleset, "valid": not problems}
    summary |= _board_summary(board)
    summary |= {
        "empire_cards": None if cards is None else _per_epoch(cards.empires_by_epoch),
        "event_cards": None if cards is None else _per_epoch(cards.events_by_epoch),
        "honors_per_player": None if cards is None else len(cards.honors),
        "rules": None if rules is None else len(rules),
        "errors": [problem.as_dict() for problem in problems],
    }
    return summary


def _board_summary(board: Board | None) -> dict[str, Any]:
    if board is None:
        keys = ("lands", "oceans", "seas", "wastelands", "areas", "area_tokens")
        return {key: None for key in keys} | {"paired_area_tokens": None, "areas_by_epoch": None}
    return {
        "lands": len(board.lands),
        "oceans": len(board.oceans),
        "seas": len(board.seas_only),
        "wastelands": len(board.wastelands),
        "areas": len(board.areas),
        "area_tokens": len(board.area_tokens),
        "paired_area_tokens": len(board.paired_area_tokens),
        "areas_by_epoch": {
            str(epoch): sorted(board.areas_activated_in(epoch))
            for epoch in sorted({area.epoch for area in board.areas.values()})
        },
    }


register("hotw-2024", load=load_pack, check=check_pack)
