"""The Avalon Hill 2001 map draws each land where tools/project_ah2001_map.py puts it: the
real-world place in its provenance, projected, then spread (issue 34, point 1). The committed
board is the script's output, so a land moved by hand (or a latitude changed without running
the script) fails here."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import yaml

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "project_ah2001_map.py"
BOARD = ROOT / "data" / "hotw-ah2001" / "board.yaml"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("project_ah2001_map", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(sys.modules[spec.name])
    return sys.modules[spec.name]


def test_the_committed_board_is_what_the_projection_script_writes():
    tool = script()
    text = BOARD.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    places = tool.places(text)
    assert len(places) == len(data["lands"]) + len(data["waters"]) == 116
    for place in places:
        assert (place.x, place.y) == tool.drawn_at(place.id, place.latitude, place.longitude), (
            place.id
        )
    assert tool.rewritten(text) == text
    ran = subprocess.run(
        [sys.executable, str(SCRIPT)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert ran.returncode == 0, ran.stderr


def test_a_changed_latitude_moves_the_land_and_the_check_fails_until_the_script_writes_it(
    tmp_path: Path,
):
    tool = script()
    text = BOARD.read_text(encoding="utf-8")
    moved = text.replace("drawn at 31°N 47°E", "drawn at 36°N 47°E", 1)  # Lower Tigris
    assert moved != text
    board = tmp_path / "board.yaml"
    board.write_text(moved, encoding="utf-8")
    assert tool.main(["--board", str(board)]) == 1
    assert tool.main(["--board", str(board), "--write"]) == 0
    assert tool.main(["--board", str(board)]) == 0
    lower_tigris = next(p for p in tool.places(board.read_text()) if p.id == "lower-tigris")
    before = next(p for p in tool.places(text) if p.id == "lower-tigris")
    assert lower_tigris.x == before.x and lower_tigris.y < before.y  # further north: higher up


def test_the_projection_keeps_west_west_and_north_north_and_enlarges_europe():
    tool = script()
    assert tool.projected(40, -100)[0] < tool.projected(40, 0)[0] < tool.projected(40, 100)[0]
    assert tool.projected(60, 20)[1] < tool.projected(30, 20)[1] < tool.projected(-30, 20)[1]
    europe = tool.projected(45, 20)[0] - tool.projected(45, 0)[0]
    americas = tool.projected(45, -80)[0] - tool.projected(45, -100)[0]
    assert europe > 2 * americas
