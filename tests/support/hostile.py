"""Hostile labels: imported (in-process, or through $CHRONICLE_RULESET_MODULES in a server),
it renames one entity of every kind in each built-in ruleset's data pack (a land, a sea, a
card, a hero...) to markup that would run script if any page put it into its HTML unescaped.

A page that runs it sets `data-pwned` on the document's root element, so a test reads the DOM
for that attribute; a page that escapes shows the markup as text.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from service.rulesets import find

BUILT_IN = ("hotw-2024", "hotw-ah2001", "brief-2009", "patchistory")


def hostile(what: str) -> str:
    """Markup that marks the document if it is ever parsed as HTML (or SVG) instead of text."""
    mark = f"document.documentElement.setAttribute('data-pwned','{what}')"
    return (
        f'<img src=x onerror="{mark}"><svg onload="{mark}"></svg><script>{mark}</script>{what}"\'&'
    )


NAME = hostile("name")
LABEL = hostile("label")


def _rename_one_of_each_kind(root: Any) -> list[str]:
    """Rename the first entity of each class under `root` that has a string `name`."""
    renamed: dict[type, str] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, str | bytes | int | float | bool | type(None)):
            continue
        seen.add(id(item))
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple | frozenset | set):
            stack.extend(item)
        elif dataclasses.is_dataclass(item):
            name = getattr(item, "name", None)
            if isinstance(name, str) and type(item) not in renamed:
                object.__setattr__(item, "name", LABEL)
                renamed[type(item)] = name
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
    return [cls.__name__ for cls in renamed]


def _hostile_init(cls: type) -> None:
    original = cls.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        for attribute in ("pack", "tables"):
            if getattr(self, attribute, None) is not None:
                _rename_one_of_each_kind(getattr(self, attribute))

    cls.__init__ = init  # type: ignore[misc]


for _name in BUILT_IN:
    _hostile_init(find(_name))
