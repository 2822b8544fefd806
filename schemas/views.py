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


SEAT_SCHEMA = {"type": "integer", "minimum": 0}


def _bare(schema: dict[str, Any]) -> dict[str, Any]:
    """A schema without its `null` alternative (`nullable`) or its description."""
    for option in schema.get("anyOf", ()):
        if option.get("type") != "null":
            return _bare(option)
    return {
        k: v for k, v in schema.items() if k not in ("description", "title", "x-words", "x-hidden")
    }


def _kind(schema: dict[str, Any]) -> str | None:
    """`seat` or `colour` when a field holds seats or colours (or lists of them)."""
    bare = _bare(schema)
    if bare.get("type") == "array" and isinstance(bare.get("items"), dict):
        return _kind(bare["items"])
    if bare == SEAT_SCHEMA:
        return "seat"
    if bare.get("type") == "integer" and bare.get("x-colour"):
        return "colour"
    return None


def _worded(schema: dict[str, Any], path: str, found: dict[str, dict[str, Any]]) -> None:
    for option in schema.get("anyOf", ()):
        _worded(option, path, found)
    for key, field in (schema.get("properties") or {}).items():
        at = f"{path}.{key}" if path else key
        plain = _bare(field) if "anyOf" in field else field
        said: dict[str, Any] = {}
        if "title" in field:
            said["label"] = field["title"]
        if "x-words" in field:
            said["value"] = field["x-words"]
        if "x-hidden" in field:
            said["hidden"] = field["x-hidden"]
        kind = _kind(field)
        if kind:
            said[kind] = True
        if said:
            found[at] = said
        _worded(plain, at, found)
    if isinstance(schema.get("items"), dict):
        _worded(schema["items"], path, found)
    if isinstance(schema.get("additionalProperties"), dict):
        _worded(schema["additionalProperties"], f"{path}.*", found)


def view_words(ruleset: str) -> dict[str, dict[str, Any]]:
    """How each field of `ruleset`'s view reads for people, by its path in the view (`turn.seat`,
    `lands.*.owner`: `*` any key of a mapping; a list's items share its path), from its
    schema: a `title` is its label, `x-words` the phrase its value reads in (`an Epoch {}
    army`), `x-hidden` what its `null` means (`hidden from you`), and a seat (or colour)
    field is read by player (or colour name)."""
    schema = view_schema(ruleset)
    found: dict[str, dict[str, Any]] = {}
    if schema is not None:
        _worded(schema, "", found)
    return found
