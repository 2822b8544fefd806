"""Patchistory's shape: a thin ruleset over modules named after the rulebook's chapters. Each
rules-catalogue entry names the module implementing it, whose source cites it; no module over
600 lines, no function over 80, no import cycle inside the package; every command is declared
once, by the chapter that plays it."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import yaml

from domain.patchistory.context import COMMANDS
from service.rulesets import ruleset

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "domain" / "patchistory"
PREFIX = "domain.patchistory."


def sources() -> dict[str, str]:
    return {path.stem: path.read_text(encoding="utf-8") for path in PACKAGE.glob("*.py")}


def test_every_catalogue_entry_names_a_module_that_cites_it():
    entries = yaml.safe_load((ROOT / "data" / "patchistory" / "rules.yaml").read_text())["rules"]
    texts = sources()
    for entry in entries:
        module = entry.get("module", "")
        assert module.startswith(PREFIX), entry["id"]
        importlib.import_module(module)
        key = entry["id"].removeprefix("patchistory.")
        assert key in texts[module.removeprefix(PREFIX)], (entry["id"], module)


def test_no_module_over_600_lines_and_no_function_over_80():
    for name, text in sources().items():
        assert len(text.splitlines()) <= 600, name
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                assert node.end_lineno is not None
                assert node.end_lineno - start + 1 <= 80, (name, node.name)


def imports_inside(text: str) -> set[str]:
    """The package's modules a module imports (at any level, for the type checker too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(PREFIX):
                found.add(node.module.removeprefix(PREFIX))
            elif node.module == "domain.patchistory":
                found.update(alias.name for alias in node.names)
    return found


def test_no_import_cycle_inside_the_package():
    graph = {name: imports_inside(text) & set(sources()) for name, text in sources().items()}
    graph.pop("__init__", None)
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for other in sorted(graph.get(name, ())):
            visit(other, (*path, name))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_every_command_is_declared_by_its_chapter_and_documented():
    rules = ruleset("patchistory")
    documented = [spec.type for spec in rules.command_schemas()]
    assert sorted(documented) == sorted(COMMANDS.declared())
    assert len(documented) == len(set(documented))
