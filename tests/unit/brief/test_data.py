"""data/brief-2009: the pack loads, honours what the manual states (facts.yaml) and says where
every entry comes from; a broken pack names its file, entry and field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from cli.main import main
from packs.base import PackError
from packs.brief import check_pack, load_tables

PACK = Path(__file__).resolve().parents[3] / "data" / "brief-2009"


@pytest.fixture(scope="module")
def tables():
    return load_tables()[0]


def test_chronicle_data_check_brief_2009_passes_and_summarises_the_pack(capsys):
    assert main(["data", "check", "brief-2009", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["valid"] is True and summary["errors"] == []
    assert summary["barren_lands"] == 8
    assert summary["empire_cards"] == {str(e): 7 for e in range(1, 7)}
    assert summary["bonus_tokens"] == 18
    assert summary["areas"][0] == "northern-europe" and summary["areas"][-1] == "south-america"


def test_eight_white_barren_lands_lie_in_no_area(tables):
    barren = [land for land in tables.board.lands.values() if land.barren]
    assert len(barren) == 8
    assert all(land.terrain == "barren" and not land.resource for land in barren)


def test_every_epoch_calls_seven_empires_in_a_fixed_order(tables):
    for epoch, empires in tables.empires_by_epoch.items():
        assert [e.order for e in empires] == list(range(1, 8)), epoch


def test_the_features_named_in_the_faq_are_on_their_empires(tables):
    assert {e.id for e in tables.empires if e.feature == "fear"} == {"assyrians", "huns", "mongols"}
    assert tables.empire("vikings").feature == "atlantic-crossing"
    assert tables.empire("france").feature == "preserve-monuments"
    assert tables.empire("united-states").feature == "influence"
    assert tables.features["preserve-monuments"].effect["land"] in tables.board.lands


def test_israel_is_the_only_kingdom_playable_in_later_epochs(tables):
    lasting = [c for c in tables.events if c.kind == "kingdom" and c.later_epochs]
    assert [c.id for c in lasting] == ["israel"]
    assert tables.card("israel").at_turn_start


def test_every_entry_of_every_file_carries_its_provenance():
    sections = {
        "board.yaml": ("lands", "waters"),
        "areas.yaml": ("areas",),
        "empires.yaml": ("empires", "features"),
        "events.yaml": ("cards",),
        "bonus_tokens.yaml": ("tokens",),
    }
    for file, names in sections.items():
        doc = yaml.safe_load((PACK / file).read_text())
        assert doc["provenance"], file
        for name in names:
            for entry in doc[name]:
                assert entry.get("provenance"), (file, entry["id"])
                assert entry["provenance"].startswith(("text", "reconstructed")), entry["id"]


def test_a_broken_pack_names_the_file_the_entry_and_the_field(tmp_path):
    shutil.copytree(PACK, tmp_path / "brief-2009")
    empires = tmp_path / "brief-2009" / "empires.yaml"
    empires.write_text(empires.read_text().replace("start_land: tigris", "start_land: atlantis"))
    summary = check_pack("brief-2009", tmp_path)
    assert summary["valid"] is False
    assert {"file": "empires.yaml", "entry": "sumerians", "field": "start_land",
            "message": "no land atlantis"} in summary["errors"]  # fmt: skip
    with pytest.raises(PackError):
        load_tables(tmp_path)


def test_an_event_shows_which_data_it_used_and_that_it_is_reconstructed():
    from service.rulesets import ruleset

    used = ruleset("brief-2009").data_used(
        "brief.EmpireEstablished",
        {"empire": "vikings", "land": "scandinavia", "fleets": ["atlantic-ocean"]},
    )
    assert [(u["what"], u["id"]) for u in used] == [
        ("land", "scandinavia"),
        ("water", "atlantic-ocean"),
        ("empire card", "vikings"),
    ]
    assert all(u["reconstructed"] for u in used)
    assert "FAQ" in used[2]["provenance"]  # the Feature is the manual's
