"""Every data pack refuses a YAML mapping that gives one key twice: plain YAML keeps the last
silently, which once hid a catalogue reading behind another entry's (issue 32, item 5)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from packs.base import DATA_ROOT
from service.rulesets import built_in, check_pack, find


@pytest.mark.parametrize("name", built_in())
def test_a_pack_whose_catalogue_gives_a_key_twice_is_refused_naming_the_file(
    name: str, tmp_path: Path
) -> None:
    pack = find(name).data_pack
    assert pack is not None
    shutil.copytree(DATA_ROOT / pack, tmp_path / pack)
    rules = tmp_path / pack / "rules.yaml"
    lines = rules.read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("text:"))
    indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
    lines.insert(first + 1, f"{indent}text: the same key again")
    rules.write_text("\n".join(lines), encoding="utf-8")
    summary = check_pack(name, tmp_path)
    assert summary["valid"] is False
    said = " ".join(str(error) for error in summary["errors"])
    assert "rules.yaml" in said and "given twice" in said


@pytest.mark.parametrize("name", built_in())
def test_the_shipped_packs_give_no_key_twice(name: str) -> None:
    assert check_pack(name)["valid"] is True
