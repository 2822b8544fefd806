"""The Avalon Hill 2001 board as an SVG map: every land a region, every barren land grey, every
water named, and the pieces of the table as its viewer sees them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

from domain.core.ruleset import Setup
from domain.hotw.editions.ah2001.model import Cell, SeaHeld, Stage, Turn
from service.rulesets import ruleset

RULES = ruleset("hotw-ah2001")
SETUP = Setup("hotw-ah2001", ("ann", "bob", "cy"), {}, "")


def test_the_map_shows_every_land_barren_land_and_water_of_the_board() -> None:
    svg = RULES.draw_board(RULES.initial_state(SETUP), None)
    ET.fromstring(svg.split("\n", 1)[1])  # well-formed
    board = RULES.tables.board
    lands = set(re.findall(r'data-land="([^"]+)"', svg))
    barren = set(re.findall(r'data-wasteland="([^"]+)"', svg))
    assert lands == {land.id for land in board.lands.values() if not land.barren}
    assert barren == {land.id for land in board.lands.values() if land.barren}
    assert len(lands) + len(barren) == 102
    for water in board.waters.values():
        assert f'data-water="{water.id}"' in svg
    assert "temple (power icons)" not in svg  # the 2024 board's icons are not this board's
    assert "Epoch" not in re.sub(r"<title>.*?</title>", "", svg)


def test_the_map_draws_each_army_of_a_stack_buildings_fleets_and_held_seas() -> None:
    state = replace(
        RULES.initial_state(SETUP),
        epoch=3,
        stage=Stage.TURNS,
        lands={
            "southern-apennines": Cell(0, 3, frozenset({"capital", "fort"}), 2),
            "palestine": Cell(1, 2),
        },
        turn=Turn(0, "romans", fleets=("western-mediterranean",)),
        seas={"red-sea": SeaHeld(2, 1)},
    )
    svg = RULES.draw_board(state, 1)
    start = svg.index('<g class="pieces" data-place="southern-apennines"')
    end = svg.find('<g class="pieces"', start + 1)
    pieces = re.findall(r'<g class="piece (\w+)">', svg[start:end])
    assert sorted(pieces) == ["army", "army", "capital", "fort"]
    assert 'data-place="palestine" data-owner="1" data-kind="army"' in svg
    assert re.search(r'data-place="western-mediterranean"[^>]*data-fleets="1"', svg)
    assert re.search(r'data-place="red-sea"[^>]*data-fleets="1"', svg)
