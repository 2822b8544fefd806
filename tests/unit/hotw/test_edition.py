"""An edition of History of the World: its numbers come from data/<edition>/edition.yaml, and its
chapters write each rule's full id from its catalogue where they decide it."""

from __future__ import annotations

import ast
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from domain.hotw.editions.hotw_2024.pack import HotwPack
from packs.base import DATA_ROOT, PackError
from packs.hotw import check_pack, load_pack
from packs.hotw_cards import cards_problems

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO / "domain" / "hotw"
CHAPTERS = SHARED / "editions" / "hotw_2024"
KEY = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$")


@pytest.fixture(scope="module")
def pack() -> HotwPack:
    """The 2024 pack, loaded once for this file's tests that read it (not at import)."""
    return load_pack("hotw-2024")


@pytest.fixture(scope="module")
def rule_ids(pack: HotwPack) -> frozenset[str]:
    return frozenset(rule.id for rule in pack.rules)


def shared_modules() -> list[Path]:
    """What the editions of History of the World share (domain/hotw/*.py)."""
    return sorted(SHARED.glob("*.py"))


def chapters() -> list[Path]:
    """The 2024 edition's own modules: its chapters and the kit beside them."""
    return sorted(CHAPTERS.glob("*.py"))


def cited_keys(path: Path) -> set[str]:
    """Rule ids a module cites (directly, or through a constant or a variable that reaches an
    event or a refusal): every string literal shaped like a dotted rule id, docstrings aside."""
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


def test_every_rule_id_the_2024_chapters_write_is_in_its_catalogue(
    rule_ids: frozenset[str],
) -> None:
    ids = set().union(*(cited_keys(path) for path in chapters()))
    assert len(ids) > 150
    unknown = sorted(rule for rule in ids if rule not in rule_ids)
    assert unknown == []


def test_no_chapter_cites_a_rule_by_a_short_key(rule_ids: frozenset[str]) -> None:
    """A rule's full id is written where it is decided, so a grep of the catalogue's id lands on
    the code: no literal names a rule without its `hotw24.` prefix."""
    short = {rule.removeprefix("hotw24.") for rule in rule_ids}
    offenders = sorted(
        f"{path.name}: {key}" for path in chapters() for key in cited_keys(path) if key in short
    )
    assert offenders == []


def test_the_2024_edition_reads_its_numbers_from_its_data_file(pack: HotwPack) -> None:
    edition = pack.edition
    assert edition.epochs == (1, 2, 3, 4, 5)
    assert edition.ocean_fleet_epochs == {4, 5}
    assert (edition.invasion_dice.empire, edition.invasion_dice.enemy) == (2, 1)
    assert (edition.revenue.presence, edition.revenue.dominance, edition.revenue.mastery) == (
        2,
        4,
        6,
    )
    assert edition.great_wall_lands == ("yellow-river", "wei-river")
    assert edition.phases[0] == "reveal" and edition.phases[-1] == "conclude"


def edited_pack(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    copy = tmp_path / "hotw-2024"
    shutil.copytree(DATA_ROOT / "hotw-2024", copy)
    data = yaml.safe_load((copy / "edition.yaml").read_text(encoding="utf-8"))
    change(data)
    (copy / "edition.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return tmp_path


def test_a_changed_number_in_the_edition_file_changes_the_game(tmp_path: Path) -> None:
    root = edited_pack(tmp_path, lambda d: d["revenue"].update({"mastery": 7}))
    assert load_pack("hotw-2024", root).edition.revenue.mastery == 7


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["cites"].update({"epochs": "hotw24.no-such-rule"}), "cites"),
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
