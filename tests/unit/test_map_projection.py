"""The Avalon Hill 2001 map and Brief's map draw each land where tools/project_map.py puts it:
the real-world place in its provenance, projected, then spread (issue 34, point 1). The
committed boards are the script's output, so a land moved by hand (or a latitude changed without
running the script) fails here, and no land strays farther than MAX_SPREAD from where its
real-world place projects."""

from __future__ import annotations

import importlib.util
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "project_map.py"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("project_map", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(sys.modules[spec.name])
    return sys.modules[spec.name]


@pytest.mark.parametrize(("ruleset", "count"), [("hotw-ah2001", 116), ("brief-2009", 81)])
def test_the_committed_board_is_what_the_projection_script_writes(ruleset, count):
    tool = script()
    board = ROOT / "data" / ruleset / "board.yaml"
    text = board.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    places = tool.places(text)
    assert len(places) == len(data["lands"]) + len(data["waters"]) == count
    for place in places:
        at = tool.drawn_at(place.id, place.latitude, place.longitude, ruleset)
        assert (place.x, place.y) == at, place.id
        x, y = tool.projected(place.latitude, place.longitude, ruleset)
        assert math.dist((x, y), at) <= tool.MAX_SPREAD, (place.id, (x, y), at)
    assert set(tool.PROJECTIONS[ruleset].spread) == {p.id for p in places}
    assert tool.rewritten(text, ruleset) == text


def test_the_script_runs_and_checks_both_boards():
    ran = subprocess.run(
        [sys.executable, str(SCRIPT)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert ran.returncode == 0, ran.stderr


def test_a_changed_latitude_moves_the_land_and_the_check_fails_until_the_script_writes_it(
    tmp_path: Path,
):
    tool = script()
    text = (ROOT / "data" / "hotw-ah2001" / "board.yaml").read_text(encoding="utf-8")
    moved = text.replace("drawn at 31°N 47°E", "drawn at 36°N 47°E", 1)  # Lower Tigris
    assert moved != text
    board = tmp_path / "board.yaml"
    board.write_text(moved, encoding="utf-8")
    assert tool.main(["hotw-ah2001", "--board", str(board)]) == 1
    assert tool.main(["hotw-ah2001", "--board", str(board), "--write"]) == 0
    assert tool.main(["hotw-ah2001", "--board", str(board)]) == 0
    lower_tigris = next(p for p in tool.places(board.read_text()) if p.id == "lower-tigris")
    before = next(p for p in tool.places(text) if p.id == "lower-tigris")
    assert lower_tigris.x == before.x and lower_tigris.y < before.y  # further north: higher up


@pytest.mark.parametrize("ruleset", ["hotw-ah2001", "brief-2009"])
def test_the_projection_keeps_west_west_and_north_north_and_enlarges_europe(ruleset):
    tool = script()

    def at(lat: float, lon: float) -> tuple[int, int]:
        return tool.projected(lat, lon, ruleset)

    assert at(40, -100)[0] < at(40, 0)[0] < at(40, 100)[0]
    assert at(60, 20)[1] < at(30, 20)[1] < at(-30, 20)[1]
    assert at(45, 20)[0] - at(45, 0)[0] > 2 * (at(45, -80)[0] - at(45, -100)[0])
