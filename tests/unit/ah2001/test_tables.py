"""The Avalon Hill 2001 printed tables in data/hotw-ah2001/: they load and check, every value
matches the rulebook's tables, and the rulebook's scoring example adds up with them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from domain.core.catalogue import RulesCatalogue
from domain.hotw.editions.ah2001.tables import Ah2001Tables
from packs.ah2001 import check_tables, load_tables
from packs.base import DATA_ROOT
from tests.support.packs import Mutation, refusal_of

RULEBOOK = DATA_ROOT.parents[1] / "shared" / "rules" / "hotw-avalon-hill-2001.txt"


def rulebook() -> str:
    if not RULEBOOK.is_file():
        pytest.skip(f"the rulebook text {RULEBOOK} is not beside this checkout")
    return RULEBOOK.read_text(encoding="utf-8")


def test_the_pack_checks_with_seven_epochs_of_empires_and_both_event_decks() -> None:
    summary = check_tables()
    assert summary["valid"] and summary["errors"] == []
    assert summary["empires_by_epoch"] == {str(e): 8 if e == 6 else 7 for e in range(1, 8)}
    assert (summary["greater_events"], summary["lesser_events"], summary["areas"]) == (22, 49, 13)


def test_every_area_score_is_the_victory_points_tables(tables: Ah2001Tables) -> None:
    text = rulebook()
    table = text[text.index("Victory Points Table") :]
    rows = 0
    for area, scores in tables.victory_points.scores.items():
        name = area.replace("-", " ")
        line = next(line for line in table.splitlines() if line.lower().startswith(name.lower()))
        printed = [int(n) for n in re.findall(r"\d+", line)]
        assert [s for s in scores if s] == printed, area
        assert scores[-len(printed) :] == tuple(printed)  # blank cells are the early epochs
        rows += 1
    assert rows == 13


def test_every_empire_has_its_printed_strength_capital_and_calling_place(
    tables: Ah2001Tables,
) -> None:
    text = rulebook()
    statistics = text[text.index("## Statistics") : text.index("Greater Event Cards\t")]
    printed = {}
    for line in statistics.splitlines():
        cells = line.split("\t")
        if len(cells) >= 6 and cells[3].strip().isdigit():
            printed[cells[1].strip()] = (int(cells[3]), cells[5].strip() == "Yes")
    assert len(printed) == 50
    for empire in tables.empires:
        assert printed[empire.name] == (empire.strength, empire.capital), empire.id
    numbers = {e: [x.number for x in tables.empires_by_epoch[e]] for e in range(1, 8)}
    assert numbers[6] == [1, 2, 3, 3, 4, 5, 6, 7]  # the Incas and Aztecs share the third card
    assert all(numbers[e] == list(range(1, 8)) for e in (1, 2, 3, 4, 5, 7))


def test_the_purple_players_eighteen_points_add_up_with_the_epoch_two_values(
    catalogue: RulesCatalogue, tables: Ah2001Tables
) -> None:
    """Chapter VI's example: North Africa dominance, Middle East presence, India control, two
    capitals and a monument make 18 - with Epoch II's base scores (the text says Epoch I, whose
    values make 12: ah2001.example.purple-scoring departs from that word)."""

    def purple(epoch: int) -> int:
        base = tables.victory_points.base
        lands = base("north-africa", epoch) * 2 + base("middle-east", epoch)
        return lands + base("india", epoch) * 3 + 2 * 2 + 1

    assert purple(2) == 18
    assert purple(1) == 12
    entry = catalogue.get("ah2001.example.purple-scoring")
    assert entry is not None and entry.departs_from


def test_the_lesser_table_prints_the_cards_the_text_counts(tables: Ah2001Tables) -> None:
    """With Allies, its last row (revision 11), the table's rows add up to the text's totals."""
    printed = yaml.safe_load((DATA_ROOT / "hotw-ah2001" / "events.yaml").read_text())
    totals = printed["printed_totals"]
    assert totals == {"greater": 22, "lesser": 49, "lesser_kinds": 22}
    assert len(tables.deck("greater")) == totals["greater"]
    assert len(tables.deck("lesser")) == totals["lesser"]
    assert len({e.kind for e in tables.events if e.deck == "lesser"}) == 21  # two coin cards


def test_every_example_the_issue_names_is_in_the_catalogue(catalogue: RulesCatalogue) -> None:
    examples = {
        "greeks-stepping-stones",
        "romans-repeated-attack",
        "guptas-four-battles",
        "british-sea-attack",
        "mongols-great-wall",
        "purple-scoring",
    }
    assert {f"ah2001.example.{name}" for name in examples} <= set(catalogue.entries)
    assert all(rule.startswith("ah2001.") for rule in catalogue.entries)


def broken(tmp_path: Path, file: str, mutate: Mutation) -> str:
    return refusal_of(tmp_path, "hotw-ah2001", file, mutate, load_tables)


def test_a_table_that_breaks_what_the_text_states_is_refused_naming_the_rule(tmp_path) -> None:
    def weaker_carthage(data: dict[str, Any]) -> None:
        next(e for e in data["empires"] if e["id"] == "carthagina")["strength"] = 6

    assert "ah2001.turn.army-pool" in broken(tmp_path, "empires.yaml", weaker_carthage)


def test_an_unknown_field_is_refused_by_file_entry_and_field(tmp_path) -> None:
    def typo(data: dict[str, Any]) -> None:
        data["empires"][0]["strenght"] = 4

    assert "empires.yaml" in broken(tmp_path, "empires.yaml", typo)


def test_the_numbers_of_play_are_read_from_the_pack_and_checked(tmp_path) -> None:
    """play.yaml: the dice, targets and stack the chapters read; a bad number or an unknown
    field is refused naming the file and field."""
    tables, _ = load_tables()
    assert (tables.combat.attack, tables.combat.defence, tables.combat.from_sea_defence) == (
        2,
        1,
        3,
    )
    assert tables.targets.limit("civil-war") == 3 and tables.targets.limit("plague") is None
    assert tables.stack == 3 and tables.far_epoch.of(4) == 7 and tables.far_epoch.of(5) == 1

    def typo(data: dict[str, Any]) -> None:
        data["combat"]["atack"] = 2
        data["multiple_armies_stack"] = 0

    problems = broken(tmp_path, "play.yaml", typo)
    assert "play.yaml" in problems and "atack" in problems
    assert "multiple_armies_stack" in problems


def test_a_border_listed_one_way_only_is_refused(tmp_path) -> None:
    def one_way(data: dict[str, Any]) -> None:
        land = next(x for x in data["lands"] if x["id"] == "morea")
        land["neighbours"].append("albion")

    assert "albion does not list it back" in broken(tmp_path, "board.yaml", one_way)


def test_every_rule_the_engine_cites_is_in_the_catalogue(catalogue: RulesCatalogue) -> None:
    root = DATA_ROOT.parent / "domain" / "hotw" / "editions" / "ah2001"
    cited = set()
    for path in root.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        cited |= set(re.findall(r'"(ah2001\.[a-z][a-z0-9.\-]*[a-z0-9])"', text))
    assert len(cited) > 30
    assert sorted(rule for rule in cited if rule not in catalogue) == []
