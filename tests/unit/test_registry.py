"""One registry of rulesets, and the tools ask the ruleset: the shipped rulesets are declared
once (entry points of `chronicle.rulesets`), each binds with the pack loader it declares, and
selfplay, the drawings and the greedy bot go through the ruleset's hooks."""

from __future__ import annotations

import random
import shutil
import tomllib
import xml.etree.ElementTree as ET
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import packs
import tests.support.toy  # noqa: F401  (registers the toy ruleset)
from bots import GreedyBot, make_bot
from cli.main import main
from domain.core.frozen import evolved
from domain.core.ruleset import Setup, find_ruleset
from domain.hotw.editions.hotw_2024 import Hotw2024
from domain.hotw.editions.hotw_2024.strategy import HotwStrategy
from packs.base import DATA_ROOT
from packs.hotw import load_pack
from service.rulesets import ENTRY_POINT_GROUP, available, bind, built_in, find, ruleset
from tests.support.hotw import RED, RULES, army, garrison, position

REPO_ROOT = Path(__file__).resolve().parents[2]


def declared() -> dict[str, str]:
    with (REPO_ROOT / "pyproject.toml").open("rb") as handle:
        project = tomllib.load(handle)["project"]
    return dict(project["entry-points"][ENTRY_POINT_GROUP])


def test_the_installed_entry_points_are_the_ones_pyproject_declares():
    """A stale install (pyproject changed, `pip install -e .` not re-run) fails here first."""
    installed = {p.name: p.value for p in entry_points(group=ENTRY_POINT_GROUP)}
    assert installed == declared()
    assert declared() == {
        "brief-2009": "domain.hotw.editions.brief2009:Brief2009",
        "hotw-2024": "domain.hotw.editions.hotw_2024:Hotw2024",
        "hotw-ah2001": "domain.hotw.editions.ah2001:HotwAh2001",
        "patchistory": "domain.patchistory:Patchistory",
    }


def test_the_shipped_rulesets_are_the_entry_points_and_extra_modules_add_to_the_registry():
    assert built_in() == ["brief-2009", "hotw-2024", "hotw-ah2001", "patchistory"]
    assert find("hotw-2024") is find_ruleset("hotw-2024") is Hotw2024
    assert {"hotw-2024", "toy-sealed-bids"} <= set(available())
    assert "toy-sealed-bids" not in built_in()


def test_a_ruleset_is_bound_with_the_loader_packs_registers_for_its_data_pack(tmp_path: Path):
    assert packs.reader(Hotw2024.data_pack or "").load is load_pack
    assert ruleset("hotw-2024").pack == load_pack("hotw-2024")
    shutil.copytree(DATA_ROOT / "hotw-2024", tmp_path / "hotw-2024")
    elsewhere = bind(Hotw2024, tmp_path)
    assert elsewhere.pack == ruleset("hotw-2024").pack and elsewhere is not ruleset("hotw-2024")
    toy = ruleset("toy-sealed-bids")
    assert toy.pack is None and toy.data_pack is None


def test_the_invariant_hook_names_what_is_wrong_and_the_toy_has_none():
    state = position({"tigris": army(RED)})
    assert RULES.invariant_failures(state) == []
    broke = evolved(state, players=(evolved(state.players[RED], gold=-1), *state.players[1:]))
    assert "seat 0 gold negative" in RULES.invariant_failures(broke)
    assert ruleset("toy-sealed-bids").invariant_failures(_bare("toy-sealed-bids")) == []


def _bare(name: str) -> object:
    """The state before anything is set up, for the fewest players and default options."""
    rules = ruleset(name)
    players = tuple(f"p{n}" for n in range(min(rules.player_counts)))
    return rules.initial_state(Setup(name, players, rules.check_options({}), ""))


def test_the_drawing_hook_shows_the_pieces_of_the_view():
    state = position({"tigris": army(RED), "persia": garrison(1)})
    root = ET.fromstring(RULES.draw_board(state, None))
    classes = [element.get("class") for element in root.iter()]
    assert classes.count("piece army") == 1 and classes.count("piece garrison") == 1
    bare = ET.fromstring(RULES.draw_board(_bare("hotw-2024"), None))
    assert not [c for c in (e.get("class") for e in bare.iter()) if c and "piece" in c]
    assert ruleset("toy-sealed-bids").draw_board(_bare("toy-sealed-bids"), None) is None


def test_the_greedy_bot_plays_by_the_rulesets_strategy_and_refuses_a_ruleset_without_one():
    assert isinstance(RULES.strategy(), HotwStrategy)
    assert isinstance(GreedyBot(RULES, 0).strategy, HotwStrategy)
    toy = ruleset("toy-sealed-bids")
    assert toy.strategy() is None
    with pytest.raises(TypeError, match="no strategy for toy-sealed-bids"):
        make_bot("greedy", toy, random.Random(0))


def test_data_map_draws_through_the_hook_and_refuses_what_it_cannot_draw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    target = tmp_path / "board.svg"
    assert main(["data", "map", "toy-sealed-bids", "--svg", str(target)]) == 1
    assert "draws no board" in capsys.readouterr().err and not target.exists()
    assert main(["data", "map", "monopoly", "--svg", str(target)]) == 2
    assert "monopoly" in capsys.readouterr().err and not target.exists()
    shutil.copytree(DATA_ROOT / "hotw-2024", tmp_path / "hotw-2024")
    (tmp_path / "hotw-2024" / "board.yaml").write_text("lands: 3\n", encoding="utf-8")
    assert main(["data", "map", "hotw-2024", "--svg", str(target), "--data-root", str(tmp_path)])
    assert "nothing drawn" in capsys.readouterr().err and not target.exists()
