"""An edition of History of the World: its numbers come from data/<edition>/edition.yaml, and the
shared chapters cite rules by key, resolved through the edition's own catalogue."""

from __future__ import annotations

import ast
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from domain.hotw.editions.hotw_2024.edition import UnknownRule
from packs.base import DATA_ROOT, PackError
from packs.hotw import check_pack, load_pack
from packs.hotw_cards import cards_problems

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO / "domain" / "hotw"
CHAPTERS = SHARED / "editions" / "hotw_2024"
EDITION = load_pack("hotw-2024").edition
KEY = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$")


def shared_modules() -> list[Path]:
    """The chapters, which cite rule keys the edition resolves, and what editions share."""
    return [
        *(
            p
            for p in CHAPTERS.glob("*.py")
            if p.name not in ("__init__.py", "engine.py", "revisions.py")
        ),
        *SHARED.glob("*.py"),
    ]


def cited_keys(path: Path) -> set[str]:
    """Rule keys a module hands to `cite` (directly, or through a constant or a variable that
    reaches it): every string literal shaped like a dotted rule key, docstrings aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and KEY.match(node.value)
        and not node.value.endswith((".yaml", ".py", ".svg"))
    }


def test_the_shared_chapters_name_no_rule_of_the_2024_edition() -> None:
    offenders = [
        str(path.relative_to(REPO))
        for path in shared_modules()
        if "hotw24." in path.read_text(encoding="utf-8")
    ]
    assert offenders == []


def test_every_rule_key_the_shared_chapters_cite_is_in_the_2024_catalogue() -> None:
    keys = set().union(*(cited_keys(path) for path in shared_modules()))
    assert len(keys) > 100
    unknown = sorted(key for key in keys if key not in EDITION.rule_ids)
    assert unknown == []


def test_a_shared_rule_is_cited_by_the_editions_own_id() -> None:
    assert EDITION.cite("turn.order") == "hotw24.turn.order"
    assert EDITION.key_of("hotw24.turn.order") == "turn.order"
    with pytest.raises(UnknownRule):
        EDITION.cite("turn.no-such-rule")


def test_the_2024_edition_reads_its_numbers_from_its_data_file() -> None:
    assert EDITION.epochs == (1, 2, 3, 4, 5)
    assert EDITION.ocean_fleet_epochs == {4, 5}
    assert (EDITION.invasion_dice.empire, EDITION.invasion_dice.enemy) == (2, 1)
    assert (EDITION.revenue.presence, EDITION.revenue.dominance, EDITION.revenue.mastery) == (
        2,
        4,
        6,
    )
    assert EDITION.great_wall_lands == ("yellow-river", "wei-river")
    assert EDITION.phases[0] == "reveal" and EDITION.phases[-1] == "conclude"


def edited_pack(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    copy = tmp_path / "hotw-2024"
    shutil.copytree(DATA_ROOT / "hotw-2024", copy)
    data = yaml.safe_load((copy / "edition.yaml").read_text(encoding="utf-8"))
    change(data)
    (copy / "edition.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return tmp_path


def test_an_alias_lets_an_edition_name_a_shared_rule_its_own_way(tmp_path: Path) -> None:
    root = edited_pack(
        tmp_path, lambda d: d["rule_aliases"].update({"turn.order": "hotw24.turn.phases"})
    )
    assert load_pack("hotw-2024", root).edition.cite("turn.order") == "hotw24.turn.phases"


def test_a_changed_number_in_the_edition_file_changes_the_game(tmp_path: Path) -> None:
    root = edited_pack(tmp_path, lambda d: d["revenue"].update({"mastery": 7}))
    assert load_pack("hotw-2024", root).edition.revenue.mastery == 7


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["cites"].update({"epochs": "hotw24.no-such-rule"}), "cites"),
        (lambda d: d["rule_aliases"].update({"turn.order": "nowhere.rule"}), "rule_aliases"),
        (lambda d: d["invasion_dice"].update({"empire": 0}), "invasion_dice.empire"),
        (lambda d: d.update({"player_phases": ["expand", "plunder"]}), "player_phases.1"),
        (lambda d: d.update({"epochs": [1, 2, 3, 4]}), "fleets"),
        (lambda d: d.update({"unknown_number": 3}), "unknown_number"),
    ],
)
def test_a_bad_edition_file_is_refused_naming_the_field(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], field: str
) -> None:
    root = edited_pack(tmp_path, change)
    with pytest.raises(PackError) as caught:
        load_pack("hotw-2024", root)
    assert any(p.file == "edition.yaml" and p.field == field for p in caught.value.problems)
    assert check_pack("hotw-2024", root)["valid"] is False


def test_cards_and_areas_outside_the_editions_epochs_are_refused(tmp_path: Path) -> None:
    root = edited_pack(
        tmp_path,
        lambda d: d.update(
            {"epochs": [1, 2, 3, 4], "fleets": {"sea_epochs": [1, 2, 3], "ocean_epochs": [4]}}
        ),
    )
    problems = check_pack("hotw-2024", root)["errors"]
    assert {"file": "board.yaml", "entry": "oceania", "field": "epoch"}.items() <= problems[
        0
    ].items()
    _cards, card_problems = cards_problems(root / "hotw-2024", load_pack("hotw-2024").board)
    assert any(p.file == "empires.yaml" and p.field == "epoch" for p in card_problems)
    assert any(p.file == "events.yaml" and p.field == "epoch" for p in card_problems)


def test_the_player_acts_in_the_phases_the_edition_names():
    import dataclasses

    from domain.hotw.editions.hotw_2024.cards import Phase
    from domain.hotw.editions.hotw_2024.turn import has_player_part
    from tests.support.hotw import PACK, position

    state = position({}, epoch=1, card="sumeria", phase=Phase.REVENUE)
    assert has_player_part(PACK, state)
    quiet = dataclasses.replace(
        PACK,
        edition=dataclasses.replace(PACK.edition, player_phases=frozenset({"expand", "conclude"})),
    )
    assert not has_player_part(quiet, state)
