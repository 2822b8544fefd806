"""The committed openapi.yaml, parsed once per process for every test that reads it (~1 MB:
~6 s in PyYAML's Python loader on a busy host, under 2 s in libyaml's). None may change it."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi.yaml"
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's loader where PyYAML has it (the same safe loading, in C)."""


@cache
def committed_document() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.load(DOCUMENT.read_text(), Loader=LOADER)
    return loaded
