"""A data pack copied, one of its files changed, and loaded again: for the tests that a pack
breaking a fact the rulebook states is refused, naming the clause."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from packs.base import DATA_ROOT, PackError

Mutation = Callable[[dict[str, Any]], None]


def entry(data: dict[str, Any], section: str, entry_id: str) -> dict[str, Any]:
    """The entry of `section` with id `entry_id`."""
    return next(e for e in data[section] if e["id"] == entry_id)


def refusal_of(
    tmp_path: Path, pack: str, file: str, mutate: Mutation, load: Callable[[Path], Any]
) -> str:
    """Every problem `load` finds in a copy of `pack` with `file` changed by `mutate`, as one
    text (`load` takes the folder holding the copy)."""
    copy = tmp_path / pack
    shutil.copytree(DATA_ROOT / pack, copy)
    data = yaml.safe_load((copy / file).read_text(encoding="utf-8"))
    mutate(data)
    (copy / file).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(PackError) as refused:
        load(tmp_path)
    return "\n".join(str(problem) for problem in refused.value.problems)
