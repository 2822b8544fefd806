"""The Patchistory data pack: what the rulebook prints holds (counts, costs, limits), every
entry carries its provenance, and a broken pack is refused naming file, entry and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from packs.base import PackError
from packs.patchistory import check_pack, load_pack
from service.rulesets import check_pack as data_check

DATA = Path(__file__).resolve().parents[3] / "data"


def test_the_pack_holds_the_printed_counts_and_numbers():
    pack = load_pack()
    assert [len(pack.era_tiles(era)) for era in (1, 2, 3)] == [25, 25, 25]
    assert len(pack.buildings) == 36 and {b.cost for b in pack.buildings.values()} == {2, 3}
    assert len(pack.prosperity) == 15 and len(pack.liberty) == 4
    assert (pack.general.count, pack.allied.count) == (14, 4)
    assert pack.numbers["patch_limit"] == [5, 6, 7]
    assert pack.numbers["start"] == {
        "food": 4,
        "coin": 3,
        "culture": 20,
        "building_tiles": 4,
        "prosperity_cards": 3,
        "workers": 8,
    }
    goods = pack.numbers["era_goods"]
    assert goods["trade_food"] == [2, 3, 4] and goods["birth_food"] == [4, 5, 6]
    assert goods["aggressor_win_culture"] == [5, 10, 15]
    assert goods["defender_win_culture"] == [3, 6, 9]
    assert all(t.provenance in {"printed", "reconstructed"} for t in pack.tiles.values())


def test_chronicle_data_check_patchistory_reports_a_valid_pack():
    summary = data_check("patchistory")
    assert summary["valid"] is True and summary["errors"] == []
    assert summary["terrain_tiles"] == {"1": 25, "2": 25, "3": 25}
    assert summary["rules"] > 100


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    shutil.copytree(DATA / "patchistory", tmp_path / "patchistory")
    return tmp_path


def edit(root: Path, name: str, change) -> None:
    path = root / "patchistory" / name
    doc = yaml.safe_load(path.read_text())
    change(doc)
    path.write_text(yaml.safe_dump(doc, sort_keys=False))


def test_an_unknown_field_names_its_file_entry_and_field(broken):
    edit(broken, "tiles.yaml", lambda d: d["tiles"][0].update(colour="red"))
    errors = check_pack(root=broken)["errors"]
    assert {
        "file": "tiles.yaml",
        "entry": "e1-01",
        "field": "colour",
        "message": "Unknown field.",
    } in errors
    with pytest.raises(PackError):
        load_pack(root=broken)


def test_a_missing_tile_breaks_the_count_of_its_era(broken):
    edit(broken, "tiles.yaml", lambda d: d["tiles"].pop(3))
    errors = check_pack(root=broken)["errors"]
    assert any(e["entry"] == "era 1" and "24 tiles" in e["message"] for e in errors)


def test_a_black_side_must_be_its_white_side_flipped(broken):
    def shift(doc):
        for square in doc["tiles"][5]["black"]["squares"]:
            square["at"][0] += 1
        for feature in doc["tiles"][5]["black"].get("features", []):
            for cell in feature["squares"]:
                cell[0] += 1

    edit(broken, "tiles.yaml", shift)
    errors = check_pack(root=broken)["errors"]
    assert any(e["entry"] == "e1-06" and e["field"] in ("black", "black.squares") for e in errors)


def test_every_number_is_printed_or_reconstructed(broken):
    edit(broken, "game.yaml", lambda d: d["printed"].remove("patch_limit"))
    errors = check_pack(root=broken)["errors"]
    assert {
        "file": "game.yaml",
        "entry": "patch_limit",
        "field": "provenance",
        "message": "in neither or both of the lists",
    } in errors


def test_an_ability_the_rules_do_not_know_is_refused(broken):
    def odd(doc):
        tile = next(t for t in doc["tiles"] if t["black"].get("features"))
        tile["black"]["features"][0]["ability"] = "teleport"

    edit(broken, "tiles.yaml", odd)
    errors = check_pack(root=broken)["errors"]
    assert {
        "file": "tiles.yaml",
        "entry": "e1-02",
        "field": "black.features.0.ability",
        "message": "no ability 'teleport' in the rules",
    } in errors
