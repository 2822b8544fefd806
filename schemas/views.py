"""The JSON Schema of each ruleset's `view` (what `GET /games/{id}/state` answers), by ruleset.

Each `schemas/*_view.py` module registers the view it describes: `register_view("brief-2009",
VIEW)`. A ruleset no module describes is documented as any object.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

import schemas

_VIEWS: dict[str, dict[str, Any]] = {}


def register_view(*rulesets: str, schema: dict[str, Any]) -> None:
    for name in rulesets:
        if _VIEWS.get(name, schema) is not schema:
            raise ValueError(f"two view schemas registered for the ruleset {name}")
        _VIEWS[name] = schema


@cache
def _import_view_modules() -> None:
    for module in pkgutil.iter_modules(schemas.__path__):
        if module.name.endswith("_view"):
            importlib.import_module(f"schemas.{module.name}")


def view_schema(ruleset: str) -> dict[str, Any] | None:
    """The registered JSON Schema of `ruleset`'s view, if a module describes it."""
    _import_view_modules()
    return _VIEWS.get(ruleset)
