"""The hotw-2024 board pack: it loads, it says what the rulebook says, and breakage is named."""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from cli.main import main
from domain.hotw.board import Board, PowerIcon, Terrain
from domain.hotw.drawing import board_svg
from domain.hotw.marks import PieceMark
from packs.base import DATA_ROOT, PackError, PackProblem
from packs.hotw import check_pack, load_pack
from packs.hotw_board import load_board

PACK = DATA_ROOT / "hotw-2024"


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board(PACK)


# --- the real pack ----------------------------------------------------------------------------


def test_the_board_has_62_lands_4_oceans_7_seas_and_8_wastelands(board: Board) -> None:
    assert len(board.lands) == 62
    assert len(board.oceans) == 4
    assert len(board.seas_only) == 7
    assert len(board.wastelands) == 8
    assert len(board.seas) == 11


def test_every_area_has_three_area_tokens(board: Board) -> None:
    assert all(len(area.area_tokens) == 3 for area in board.areas.values())
    assert len(board.area_tokens) == 3 * len(board.areas)
    assert board.tokens_of_area("china") == ("china-1", "china-2", "china-3")
    assert board.area_tokens["china-2"].area == "china"


def test_there_are_six_paired_area_tokens_naming_two_real_areas(board: Board) -> None:
    assert len(board.paired_area_tokens) == 6
    for token in board.paired_area_tokens.values():
        first, second = token.areas
        assert first != second
        assert {first, second} <= board.areas.keys()


def test_epoch_one_activates_southern_europe_north_africa_middle_east_india_and_china(
    board: Board,
) -> None:
    assert board.areas_activated_in(1) == {
        "southern-europe", "north-africa", "middle-east", "india", "china",
    }  # fmt: skip
    assert board.areas_active_in(1) == board.areas_activated_in(1)


def test_every_area_becomes_active_by_epoch_five(board: Board) -> None:
    assert board.areas_active_in(5) == board.areas.keys()
    assert all(board.areas_activated_in(epoch) for epoch in range(1, 6))


def test_south_east_asia_and_south_america_are_areas(board: Board) -> None:
    assert {"south-east-asia", "south-america"} <= board.areas.keys()


def test_tigris_is_clear_terrain(board: Board) -> None:
    assert board.terrain_of("tigris") is Terrain.CLEAR


def test_zagros_is_difficult_terrain_mountains(board: Board) -> None:
    zagros = board.lands["zagros"]
    assert zagros.is_difficult
    assert zagros.terrain_kind == "mountains"


def test_tigris_is_adjacent_to_euphrates_and_zagros(board: Board) -> None:
    assert board.are_adjacent("tigris", "euphrates")
    assert board.are_adjacent("tigris", "zagros")
    assert board.are_adjacent("zagros", "tigris")


def test_hindu_kush_ganges_valley_and_ganges_delta_show_the_crown_in_india(board: Board) -> None:
    for land in ("hindu-kush", "ganges-valley", "ganges-delta"):
        assert board.power_icon_of(land) is PowerIcon.CROWN
        assert board.area_of(land) == "india"
    assert {"hindu-kush", "ganges-valley", "ganges-delta"} <= board.lands_with_power_icon(
        PowerIcon.CROWN
    )


def test_vedic_states_can_reach_ganges_valley_and_ganges_delta_from_hindu_kush(
    board: Board,
) -> None:
    assert board.are_adjacent("hindu-kush", "ganges-valley")
    assert board.are_adjacent("ganges-valley", "ganges-delta")


def test_yellow_river_and_wei_river_are_in_china(board: Board) -> None:
    assert board.area_of("yellow-river") == "china"
    assert board.area_of("wei-river") == "china"


def test_volga_and_turanian_plain_exist_for_the_huns(board: Board) -> None:
    assert {"volga", "turanian-plain"} <= board.lands.keys()


def test_mediterranean_touches_western_iberia_danubia_volga_and_caucasus(board: Board) -> None:
    assert {"western-iberia", "danubia", "volga", "caucasus"} <= board.coasts_of(
        "mediterranean-sea"
    )


def test_volga_touches_both_the_north_sea_and_the_mediterranean(board: Board) -> None:
    assert {"north-sea", "mediterranean-sea"} <= board.waters_of("volga")


def test_bay_of_bengal_touches_neither_the_south_china_sea_nor_the_arabian_sea(
    board: Board,
) -> None:
    touching = board.waters_adjacent_to_water("bay-of-bengal")
    assert "south-china-sea" not in touching
    assert "arabian-sea" not in touching


def test_the_named_seas_are_seas_and_the_named_oceans_are_oceans(board: Board) -> None:
    named_seas = {
        "mediterranean-sea",
        "north-sea",
        "bay-of-bengal",
        "south-china-sea",
        "arabian-sea",
    }
    assert named_seas <= board.seas_only.keys()
    assert {"atlantic-ocean", "indian-ocean"} <= board.oceans.keys()


def test_the_mediterranean_and_north_sea_are_part_of_the_atlantic(board: Board) -> None:
    assert board.ocean_of("mediterranean-sea") == "atlantic-ocean"
    assert board.ocean_of("north-sea") == "atlantic-ocean"
    assert {"atlantic-ocean", "mediterranean-sea", "north-sea"} <= board.ocean_waters(
        "atlantic-ocean"
    )


def test_an_atlantic_fleet_reaches_the_lands_of_the_mediterranean_and_north_sea(
    board: Board,
) -> None:
    reach = board.lands_reachable_by_fleet_in("atlantic-ocean")
    assert board.coasts_of("mediterranean-sea") <= reach
    assert board.coasts_of("north-sea") <= reach
    assert "volga" in reach
    assert "atlantic-ocean" in board.waters_adjacent_to_land("danubia")


def test_a_sea_fleet_reaches_only_the_coasts_of_its_sea(board: Board) -> None:
    assert board.lands_reachable_by_fleet_in("bay-of-bengal") == board.coasts_of("bay-of-bengal")


def test_fleets_go_to_seas_in_epochs_one_to_three_and_oceans_in_four_and_five(
    board: Board,
) -> None:
    edition = load_pack("hotw-2024").edition
    assert edition.ocean_fleet_epochs == {4, 5}
    assert edition.sea_fleet_epochs == {1, 2, 3}
    assert board.waters_for_fleets_of_kind("sea") == board.seas_only.keys()
    assert board.waters_for_fleets_of_kind("ocean") == board.oceans.keys()


def test_the_mughals_can_use_the_bay_of_bengal_which_belongs_to_the_indian_ocean(
    board: Board,
) -> None:
    assert board.ocean_of("bay-of-bengal") == "indian-ocean"


def test_a_strait_makes_lands_adjacent(board: Board) -> None:
    assert board.is_strait("western-iberia", "mauretania")
    assert board.are_adjacent("western-iberia", "mauretania")
    assert "mauretania" in board.neighbours_of("western-iberia")


def test_start_lands_a_historian_expects_exist(board: Board) -> None:
    expected = {
        "euphrates", "lower-egypt", "hindu-kush", "greece", "persia", "italia", "wei-river",
        "ganges-valley", "volga", "arabia", "gaul", "scandinavia", "mongolia", "yellow-river",
        "anatolia", "eastern-iberia", "western-iberia", "britain", "peru", "mexico",
        "atlantic-seaboard", "japan", "manchuria",
    }  # fmt: skip
    assert expected <= board.lands.keys()


def test_every_land_is_reachable_from_every_other(board: Board) -> None:
    assert board.connected_lands("tigris") == board.lands.keys()


def test_no_wasteland_is_adjacent_to_a_land(board: Board) -> None:
    for land in board.lands.values():
        assert not (land.neighbours | land.straits) & board.wastelands.keys()


def test_every_entry_says_where_it_comes_from(board: Board) -> None:
    assert "reconstructed" in board.provenance.lower()
    places = [*board.lands.values(), *board.seas.values(), *board.wastelands.values()]
    assert all(place.provenance for place in places)
    assert all(
        0 <= land.x <= 1000 and 0 <= land.y <= board.map_height for land in board.lands.values()
    )


# --- broken packs -------------------------------------------------------------------------------


def broken_pack(tmp_path: Path, file: str, mutate: Callable[[dict[str, Any]], None]) -> Path:
    """A copy of the real pack with ``file`` changed by ``mutate``."""
    copy = tmp_path / "hotw-2024"
    shutil.copytree(PACK, copy)
    data = yaml.safe_load((copy / file).read_text(encoding="utf-8"))
    mutate(data)
    (copy / file).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return copy


def entry(data: dict[str, Any], section: str, entry_id: str) -> dict[str, Any]:
    return next(e for e in data[section] if e["id"] == entry_id)


def problems_of(pack: Path) -> tuple[PackProblem, ...]:
    with pytest.raises(PackError) as caught:
        load_board(pack)
    return caught.value.problems


def assert_named(
    problems: tuple[PackProblem, ...], file: str, entry_id: str, field: str, words: str = ""
) -> None:
    assert any(
        p.file == file and p.entry == entry_id and p.field == field and words in p.message
        for p in problems
    ), "\n".join(map(str, problems))


def test_an_unknown_field_is_named(tmp_path: Path) -> None:
    pack = broken_pack(tmp_path, "board.yaml", lambda d: entry(d, "lands", "tigris").update(
        colour="blue"))  # fmt: skip
    problems = problems_of(pack)
    assert_named(problems, "board.yaml", "tigris", "colour", "Unknown field")
    assert len(problems) == 1


def test_an_asymmetric_border_is_named(tmp_path: Path) -> None:
    pack = broken_pack(
        tmp_path,
        "board.yaml",
        lambda d: entry(d, "lands", "euphrates")["neighbours"].remove("tigris"),
    )
    assert_named(problems_of(pack), "board.yaml", "tigris", "neighbours", "symmetric")


def test_an_asymmetric_strait_is_named(tmp_path: Path) -> None:
    pack = broken_pack(
        tmp_path, "board.yaml", lambda d: entry(d, "lands", "britain")["straits"].remove("gaul")
    )
    assert_named(problems_of(pack), "board.yaml", "gaul", "straits", "symmetric")


def test_an_unresolved_reference_is_named(tmp_path: Path) -> None:
    def mutate(data: dict[str, Any]) -> None:
        entry(data, "lands", "tigris")["seas"].append("persian-gulf")
        entry(data, "lands", "zagros")["area"] = "persian-empire"
        entry(data, "seas", "north-sea")["ocean"] = "arctic-ocean"

    problems = problems_of(broken_pack(tmp_path, "board.yaml", mutate))
    assert_named(problems, "board.yaml", "tigris", "seas", "persian-gulf")
    assert_named(problems, "board.yaml", "zagros", "area", "persian-empire")
    assert_named(problems, "board.yaml", "north-sea", "ocean", "arctic-ocean")


def test_a_paired_token_naming_an_unknown_area_is_named(tmp_path: Path) -> None:
    def mutate(data: dict[str, Any]) -> None:
        data["paired_area_tokens"][0]["areas"][1] = "atlantis"

    pack = broken_pack(tmp_path, "paired_area_tokens.yaml", mutate)
    first = yaml.safe_load((PACK / "paired_area_tokens.yaml").read_text())["paired_area_tokens"][0]
    assert_named(problems_of(pack), "paired_area_tokens.yaml", first["id"], "areas", "atlantis")


def test_a_wrong_land_count_is_named(tmp_path: Path) -> None:
    def mutate(data: dict[str, Any]) -> None:
        data["lands"] = [land for land in data["lands"] if land["id"] != "pampas"]
        for land in data["lands"]:
            land["neighbours"] = [n for n in land["neighbours"] if n != "pampas"]

    problems = problems_of(broken_pack(tmp_path, "board.yaml", mutate))
    assert_named(problems, "board.yaml", "", "lands", "exactly 62")


def test_a_wrong_paired_token_count_is_named(tmp_path: Path) -> None:
    pack = broken_pack(tmp_path, "paired_area_tokens.yaml", lambda d: d["paired_area_tokens"].pop())
    assert_named(
        problems_of(pack), "paired_area_tokens.yaml", "", "paired_area_tokens", "exactly 6"
    )


def test_a_wasteland_with_an_area_is_named(tmp_path: Path) -> None:
    pack = broken_pack(tmp_path, "board.yaml", lambda d: entry(d, "wastelands", "sahara").update(
        area="north-africa"))  # fmt: skip
    problems = problems_of(pack)
    assert_named(problems, "board.yaml", "sahara", "area", "no area")
    assert len(problems) == 1


def test_a_land_bordering_a_wasteland_is_named(tmp_path: Path) -> None:
    pack = broken_pack(
        tmp_path, "board.yaml", lambda d: entry(d, "lands", "libya")["neighbours"].append("sahara")
    )
    assert_named(problems_of(pack), "board.yaml", "libya", "neighbours", "wasteland")


def test_an_area_with_two_tokens_is_named(tmp_path: Path) -> None:
    pack = broken_pack(
        tmp_path, "board.yaml", lambda d: entry(d, "areas", "china")["area_tokens"].pop()
    )
    assert_named(problems_of(pack), "board.yaml", "china", "area_tokens", "exactly 3")


def test_an_unreachable_land_is_named(tmp_path: Path) -> None:
    def mutate(data: dict[str, Any]) -> None:
        # Cut Japan off: no strait to Korea and no sea.
        entry(data, "lands", "japan").update(straits=[], seas=[])
        entry(data, "lands", "korea")["straits"] = []

    assert_named(
        problems_of(broken_pack(tmp_path, "board.yaml", mutate)),
        "board.yaml", "japan", "neighbours", "cannot be reached",
    )  # fmt: skip


def test_a_broken_text_fact_is_named(tmp_path: Path) -> None:
    pack = broken_pack(tmp_path, "board.yaml", lambda d: entry(d, "lands", "tigris").update(
        terrain="difficult"))  # fmt: skip
    assert_named(problems_of(pack), "board.yaml", "tigris", "terrain", "clear")


def test_a_bad_value_is_named(tmp_path: Path) -> None:
    pack = broken_pack(tmp_path, "board.yaml", lambda d: entry(d, "lands", "tigris").update(
        power_icon="pyramid"))  # fmt: skip
    assert_named(problems_of(pack), "board.yaml", "tigris", "power_icon")


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    def mutate(data: dict[str, Any]) -> None:
        entry(data, "lands", "tigris").update(colour="blue")
        entry(data, "areas", "china")["area_tokens"].pop()

    problems = problems_of(broken_pack(tmp_path, "board.yaml", mutate))
    assert {p.entry for p in problems} >= {"tigris", "china"}


def test_check_pack_puts_problems_in_errors_instead_of_raising(tmp_path: Path) -> None:
    pack = broken_pack(
        tmp_path, "board.yaml", lambda d: entry(d, "areas", "china")["area_tokens"].pop()
    )
    summary = check_pack("hotw-2024", pack.parent)
    assert summary["valid"] is False
    assert {"file": "board.yaml", "entry": "china", "field": "area_tokens"}.items() <= next(
        e for e in summary["errors"] if e["entry"] == "china"
    ).items()


# --- the command line and the drawing -----------------------------------------------------------


def test_data_check_json_reports_the_board_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["data", "check", "hotw-2024", "--json"])
    summary = json.loads(capsys.readouterr().out)
    board_errors = [
        e for e in summary["errors"] if e["file"] in {"board.yaml", "paired_area_tokens.yaml"}
    ]
    assert board_errors == []
    assert summary["ruleset"] == "hotw-2024"
    assert (summary["lands"], summary["oceans"], summary["seas"], summary["wastelands"]) == (
        62, 4, 7, 8,
    )  # fmt: skip
    assert summary["area_tokens"] == 3 * summary["areas"]
    assert summary["paired_area_tokens"] == 6
    assert set(summary["empire_cards"]) == set(summary["event_cards"]) == {"1", "2", "3", "4", "5"}
    assert all(n > 0 for n in summary["empire_cards"].values())
    assert summary["honors_per_player"] == 10
    assert summary["errors"] == []
    assert code == 0


def test_data_check_fails_on_a_broken_pack(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = broken_pack(tmp_path, "board.yaml", lambda d: entry(d, "lands", "tigris").update(
        colour="blue"))  # fmt: skip
    code = main(["data", "check", "hotw-2024", "--data-root", str(pack.parent)])
    out = capsys.readouterr().out
    assert code != 0
    assert "board.yaml: entry 'tigris', field 'colour'" in out


def test_data_check_refuses_an_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["data", "check", "monopoly", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code != 0
    assert summary["errors"]


def test_the_map_shows_every_land_sea_and_ocean_and_parses_as_xml(board: Board) -> None:
    svg = board_svg(board)
    root = ET.fromstring(svg)
    ids = {element.get("id") for element in root.iter()}
    assert {f"land-{land}" for land in board.lands} <= ids
    assert {f"{water.kind.value}-{water.id}" for water in board.seas.values()} <= ids
    assert {f"wasteland-{waste}" for waste in board.wastelands} <= ids
    for land in board.lands.values():
        assert land.name in svg


def test_data_map_writes_an_svg_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "board.svg"
    assert main(["data", "map", "hotw-2024", "--svg", str(target)]) == 0
    assert "wrote" in capsys.readouterr().out
    ET.parse(target)


def test_the_map_can_show_pieces_for_the_replay_exporter(board: Board) -> None:
    pieces = {"tigris": [PieceMark("army", "#c00", "red army")], "arabian-sea": [
        PieceMark("fleet", "#c00")]}  # fmt: skip
    root = ET.fromstring(board_svg(board, pieces))
    classes = [element.get("class") for element in root.iter()]
    assert "piece army" in classes
    assert "piece fleet" in classes


def plain(value: Any) -> Any:
    """``value`` as JSON: dataclasses by their compared fields, mappings in order, sets sorted."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"__type__": type(value).__name__} | {
            f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value) if f.compare
        }
    if isinstance(value, enum.Enum):
        return [type(value).__name__, value.value]
    if isinstance(value, Mapping):
        return [[plain(k), plain(v)] for k, v in value.items()]
    if isinstance(value, frozenset | set):
        return {"__set__": sorted(json.dumps(plain(v), sort_keys=True) for v in value)}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    assert value is None or isinstance(value, str | int | float | bool), type(value)
    return value


PACK_BEFORE_FACTS = "a0cf41a28ee307592f55186b7771ee2f20ea21e6ca9e7ed89d6526bf4e10879f"
"""sha256 of ``plain(load_pack("hotw-2024"))`` without its rules catalogue and edition (which grow
on their own) as JSON (sort_keys, indent 0). It was 5f9bd131... with the loader of commit 9ce02e5,
before the rule text's facts moved from schemas/ to facts.yaml, and the same after the move; the
changes since are Liberate's `up_to: true` and the power icons of Zagros and Eastern Iberia
(issue 17), and the drawing's positions and map_height (issue 34: a 600-high canvas, for
pieces big enough to read), and Liberate IV and V's `up_to: true` (issue 49, revision 2; the
earlier values of revisions.yaml are not compared). A change of the data or of the domain
classes changes it: check the difference, then update it."""


def test_the_loaded_pack_is_what_the_loader_gave_before_the_facts_moved_to_data() -> None:
    """The board and the cards as before (the catalogue and the edition are left out: rules
    are added to the catalogue, and the edition is new beside them)."""
    loaded = plain(load_pack("hotw-2024"))
    del loaded["edition"], loaded["rules"]
    text = json.dumps(loaded, sort_keys=True, indent=0)
    assert hashlib.sha256(text.encode()).hexdigest() == PACK_BEFORE_FACTS


def test_load_pack_gives_the_board_the_cards_and_the_rules_catalogue() -> None:
    pack = load_pack("hotw-2024")
    assert len(pack.board.lands) == 62
    assert pack.cards.empires_by_epoch[1]
    assert len(pack.rules) > 0


def test_load_pack_raises_one_pack_error_for_a_broken_board(tmp_path: Path) -> None:
    pack = broken_pack(
        tmp_path, "board.yaml", lambda d: entry(d, "areas", "china")["area_tokens"].pop()
    )
    with pytest.raises(PackError) as caught:
        load_pack("hotw-2024", pack.parent)
    assert any(p.entry == "china" for p in caught.value.problems)


# --- the rule text's facts (facts.yaml) ---------------------------------------------------------


def rename_sea(data: dict[str, Any], old: str, new: str) -> None:
    entry(data, "seas", old)["id"] = new
    for land in data["lands"]:
        land["seas"] = [new if water == old else water for water in land["seas"]]


def assert_fact(
    problems: tuple[PackProblem, ...], file: str, entry_id: str, field: str, fact: str
) -> None:
    assert any(
        (p.file, p.entry, p.field) == (file, entry_id, field) and f"fact '{fact}'" in p.message
        for p in problems
    ), "\n".join(map(str, problems))


BOARD_FACT_BREAKS: list[tuple[str, str, Callable[[dict[str, Any]], None], tuple[str, ...]]] = [
    (
        "count",
        "paired_area_tokens.yaml",
        lambda d: d["paired_area_tokens"].pop(),
        ("paired_area_tokens.yaml", "", "paired_area_tokens", "six-paired-area-tokens"),
    ),
    (
        "each",
        "board.yaml",
        lambda d: entry(d, "areas", "china")["area_tokens"].pop(),
        ("board.yaml", "china", "area_tokens", "three-area-tokens-an-area"),
    ),
    (
        "each, where",
        "board.yaml",
        lambda d: entry(d, "areas", "steppes").update(epoch=1),
        ("board.yaml", "steppes", "id", "only-those-areas-in-epoch-one"),
    ),
    (
        "named, missing",
        "board.yaml",
        lambda d: rename_sea(d, "arabian-sea", "erythraean-sea"),
        ("board.yaml", "arabian-sea", "id", "seas-the-text-names"),
    ),
    (
        "named, has",
        "board.yaml",
        lambda d: entry(d, "lands", "tigris").update(terrain="difficult"),
        ("board.yaml", "tigris", "terrain", "tigris-is-clear"),
    ),
    (
        "named, includes",
        "board.yaml",
        lambda d: entry(d, "lands", "tigris")["neighbours"].remove("zagros"),
        ("board.yaml", "tigris", "neighbours", "tigris-borders-euphrates-and-zagros"),
    ),
]


@pytest.mark.parametrize(
    ("file", "mutate", "named"),
    [case[1:] for case in BOARD_FACT_BREAKS],
    ids=[case[0] for case in BOARD_FACT_BREAKS],
)
def test_a_broken_board_fact_names_the_fact_the_file_and_the_entry(
    tmp_path: Path,
    file: str,
    mutate: Callable[[dict[str, Any]], None],
    named: tuple[str, str, str, str],
) -> None:
    problems = problems_of(broken_pack(tmp_path, file, mutate))
    assert_fact(problems, *named)
    fact = named[3]
    assert all(fact in p.message for p in problems if f"fact '{fact}'" in p.message)


def test_a_broken_fact_says_its_page_and_words(tmp_path: Path) -> None:
    pack = broken_pack(tmp_path, "board.yaml", lambda d: entry(d, "lands", "zagros").update(
        terrain_kind="forest"))  # fmt: skip
    (problem,) = problems_of(pack)
    assert (problem.file, problem.entry, problem.field) == ("board.yaml", "zagros", "terrain_kind")
    assert problem.message.startswith("is 'forest', the fact wants 'mountains'")
    assert "fact 'zagros-is-mountains' (text p6)" in problem.message
    assert "DIFFICULT TERRAIN (mountains)" in problem.message


def fact(data: dict[str, Any], fact_id: str) -> dict[str, Any]:
    return next(f for f in data["facts"] if f["id"] == fact_id)


def test_another_editions_facts_need_no_python(tmp_path: Path) -> None:
    def sixty_three_lands(data: dict[str, Any]) -> None:
        fact(data, "sixty-two-lands").update(id="sixty-three-lands", equals=63)

    problems = problems_of(broken_pack(tmp_path, "facts.yaml", sixty_three_lands))
    assert [(p.file, p.entry, p.field) for p in problems] == [("board.yaml", "", "lands")]
    assert "expected exactly 63 entries, found 62 - fact 'sixty-three-lands'" in problems[0].message


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"has": {"terrain": {"is": "clear"}}}, "has", "unknown operator ['is']"),
        ({"has": {"terrane": "clear"}}, "has", "no field 'terrane'"),
        ({"has": {"terrain.kind": "clear"}}, "has", "below a field without fields"),
        ({"source": "the rulebook"}, "source", "text pN"),
        ({"count": {"file": "board", "section": "lands"}}, "id", "exactly one of"),
        ({"named": {"file": "board", "section": "rivers", "ids": ["tigris"]}}, "section", "rivers"),
    ],
    ids=["operator", "field", "path", "source", "two-kinds", "section"],
)
def test_a_malformed_fact_is_named_in_facts_yaml(
    tmp_path: Path, change: dict[str, Any], field: str, words: str
) -> None:
    pack = broken_pack(tmp_path, "facts.yaml", lambda d: fact(d, "tigris-is-clear").update(change))
    problems = problems_of(pack)
    assert_named(problems, "facts.yaml", "tigris-is-clear", field, words)


def test_a_fact_about_a_file_the_pack_does_not_have_is_named(tmp_path: Path) -> None:
    pack = broken_pack(tmp_path, "facts.yaml", lambda d: fact(d, "sixty-two-lands").update(
        count={"file": "bord", "section": "lands"}))  # fmt: skip
    summary = check_pack("hotw-2024", pack.parent)
    assert summary["valid"] is False
    assert summary["errors"] == [
        {"file": "facts.yaml", "entry": "sixty-two-lands", "field": "file",
         "message": "no such data file: ['bord.yaml']"},
    ]  # fmt: skip
