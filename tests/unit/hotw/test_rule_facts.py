"""The rules that are facts about the board and the cards: each is checked on the data pack by
`facts.yaml`, and a pack that breaks it is refused with a problem naming the rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from packs.base import DATA_ROOT
from packs.hotw import load_pack
from tests.support import packs
from tests.support.hotw import PACK
from tests.support.packs import Mutation, entry


def refusal_of(tmp_path: Path, file: str, mutate: Mutation) -> str:
    return packs.refusal_of(
        tmp_path, "hotw-2024", file, mutate, lambda root: load_pack("hotw-2024", root)
    )


def drop_start_land(data: dict[str, Any]) -> None:
    entry(data, "empires", "huns")["start_lands"] = ["volga"]


BREAKS: list[tuple[str, str, Mutation]] = [
    ("hotw24.components.board", "board.yaml", lambda d: d["lands"].pop()),
    (
        "hotw24.fleets.mediterranean",
        "board.yaml",
        lambda d: entry(d, "lands", "caucasus")["seas"].remove("mediterranean-sea"),
    ),
    (
        "hotw24.fleets.volga",
        "board.yaml",
        lambda d: entry(d, "lands", "volga")["seas"].remove("north-sea"),
    ),
    (
        "hotw24.fleets.ocean-includes-seas",
        "board.yaml",
        lambda d: entry(d, "seas", "north-sea").update(ocean="arctic-ocean"),
    ),
    ("hotw24.empires.huns", "empires.yaml", drop_start_land),
    (
        "hotw24.empires.barbarian.no-buildings",
        "empires.yaml",
        lambda d: entry(d, "empires", "mongols").update(starting_buildings=["capital"]),
    ),
    (
        "hotw24.empires.barbarian.no-icon",
        "empires.yaml",
        lambda d: entry(d, "empires", "mongols").update(power_icon="crown"),
    ),
    (
        "hotw24.monuments.power-icon",
        "empires.yaml",
        lambda d: entry(d, "empires", "sumeria").pop("power_icon"),
    ),
    (
        "hotw24.events.no-power-icon",
        "events.yaml",
        lambda d: entry(d, "events", "hyksos")["pieces"].update(power_icon="crown"),
    ),
    ("hotw24.setup.player-set", "honors.yaml", lambda d: d["honors"].pop()),
]


@pytest.mark.parametrize(("rule", "file", "mutate"), BREAKS, ids=[b[0] for b in BREAKS])
def test_a_pack_that_breaks_a_rules_fact_is_refused_naming_the_rule(
    tmp_path: Path, rule: str, file: str, mutate: Mutation
) -> None:
    assert rule in refusal_of(tmp_path, file, mutate)


def facts() -> list[dict[str, Any]]:
    data = yaml.safe_load((DATA_ROOT / "hotw-2024" / "facts.yaml").read_text(encoding="utf-8"))
    return [*data["facts"], *data["by_the_model"]]


def test_every_rule_a_fact_names_is_in_the_catalogue() -> None:
    named = {fact["rule"] for fact in facts() if "rule" in fact}
    assert len(named) >= 10
    assert sorted(rule for rule in named if PACK.rules.get(rule) is None) == []


def test_the_bay_of_bengal_touches_neither_the_arabian_sea_nor_the_south_china_sea() -> None:
    (apart,) = (fact for fact in facts() if fact["id"] == "bay-of-bengal-apart")
    assert apart["rule"] == "hotw24.fleets.bay-of-bengal"
    reach = PACK.board.waters_adjacent_to_water("bay-of-bengal")
    assert {"arabian-sea", "south-china-sea"} <= set(PACK.board.seas)
    assert "arabian-sea" not in reach and "south-china-sea" not in reach
