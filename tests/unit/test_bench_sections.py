"""`python -m bench.profile_command --sections` counts each layer's CPU by wrapping it for the
run: every section must name a function that exists (a renamed one would silently drop out of
the table), and every wrapped function must be put back afterwards."""

from __future__ import annotations

from importlib import import_module
from typing import Any

import service.games
from bench.sections import SECTIONS, counted, table


def found(path: str) -> Any:
    module_name, _, dotted = path.partition(":")
    owner: Any = import_module(module_name)
    for name in dotted.split("."):
        owner = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
    return owner


def test_every_section_names_a_function_that_is_there_and_is_put_back_after_the_run() -> None:
    before = {path: found(path) for path, _ in SECTIONS}
    with counted() as spent:
        assert all(found(path) is not before[path] for path, _ in SECTIONS)
        service.games.stored_payload({"type": "X", "version": 1, "data": {}})
    assert {path: found(path) for path, _ in SECTIONS} == before
    assert list(spent) == ["each event's stored JSON"]
    assert table(spent, 1)[0].endswith("ms  each event's stored JSON")
