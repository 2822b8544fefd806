"""Loading and checking the data packs (`data/<pack>/`): I/O, so it lives outside `domain/`.

Each pack module registers, for the packs it reads, the function that loads one (and returns
what the ruleset is built with) and the one that checks it (`chronicle data check`):
`register("hotw-2024", load=..., check=...)`. `service.rulesets` binds a ruleset with the loader
registered for its `data_pack`; nothing in `domain/` names these modules.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

Load = Callable[[str, Path | None], Any]
Check = Callable[[str, Path | None], dict[str, Any]]


@dataclass(frozen=True)
class PackReader:
    """How one data pack is loaded (raises for a bad pack) and checked (never raises)."""

    load: Load
    check: Check


_READERS: dict[str, PackReader] = {}


def register(*data_packs: str, load: Load, check: Check) -> None:
    for name in data_packs:
        known = _READERS.get(name)
        if known is not None and known.load is not load:
            raise ValueError(f"two loaders registered for the data pack {name}")
        _READERS[name] = PackReader(load, check)


@cache
def _import_pack_modules() -> None:
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")


def reader(data_pack: str) -> PackReader:
    """The registered reader of `data_pack` (KeyError when no module registers one)."""
    _import_pack_modules()
    return _READERS[data_pack]


def readable() -> list[str]:
    """Every data pack some module registers a reader for."""
    _import_pack_modules()
    return sorted(_READERS)
