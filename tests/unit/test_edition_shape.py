"""Every ruleset has the one shape (issues 31 and 51): a thin ruleset class over modules named
after its rulebook's chapters, each rules-catalogue entry naming the module that implements it
(and that module writing its full id out as a string literal, so a grep from the catalogue lands
on the code), no module over 600 lines, no function over 80, and no import circle inside the
ruleset's package."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from packs.base import load_rules_catalogue
from tests.support.shape import circles, imported, over_the_caps

REPO_ROOT = Path(__file__).resolve().parents[2]
EDITIONS = {
    "hotw-ah2001": "domain.hotw.editions.ah2001",
    "brief-2009": "domain.hotw.editions.brief2009",
    "hotw-2024": "domain.hotw.editions.hotw_2024",
    "patchistory": "domain.patchistory",
}


def modules_of(package: str) -> dict[str, Path]:
    folder = REPO_ROOT / package.replace(".", "/")
    return {
        f"{package}.{path.stem}" if path.stem != "__init__" else package: path
        for path in sorted(folder.glob("*.py"))
    }


def string_literals(source: str) -> set[str]:
    """Every string constant of a module's code (f-string pieces and docstrings included: a
    docstring equals an id only when it is nothing but the id)."""
    return {
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_every_rule_names_the_module_that_implements_it_and_that_module_writes_its_id(ruleset):
    package = EDITIONS[ruleset]
    catalogue = load_rules_catalogue(REPO_ROOT / "data" / ruleset / "rules.yaml")
    unnamed, missing, uncited = [], [], []
    for entry in catalogue:
        if not entry.module:
            unnamed.append(entry.id)
            continue
        if not entry.module.startswith(package):
            missing.append(f"{entry.id}: {entry.module} is not in {package}")
            continue
        module = importlib.import_module(entry.module)
        source = Path(str(module.__file__)).read_text(encoding="utf-8")
        if entry.id not in string_literals(source):
            uncited.append(f"{entry.id}: {entry.module}")
    assert not unnamed, unnamed
    assert not missing, missing
    assert not uncited, uncited


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_no_module_is_long_and_no_function_either(ruleset):
    modules = modules_of(EDITIONS[ruleset])
    long = [
        p for name, path in modules.items() for p in over_the_caps(path.read_text("utf-8"), name)
    ]
    assert len(modules) >= 5
    assert not long, long


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_no_import_circle_inside_the_edition(ruleset):
    package = EDITIONS[ruleset]
    modules = modules_of(package)
    names = set(modules)
    imports = {
        name: imported(ast.parse(path.read_text(encoding="utf-8")), names) - {name}
        for name, path in modules.items()
    }
    imports.pop(package, None)  # the registering package imports what it registers
    for deps in imports.values():
        deps.discard(package)
    assert imports, package
    assert not circles(imports), circles(imports)


def cited_in_code(catalogue) -> set[str]:
    """The ids a module writes where it decides them, outside its WORKED_EXAMPLES."""
    cited = set()
    for entry in catalogue:
        module = importlib.import_module(entry.module)
        listed = set(getattr(module, "WORKED_EXAMPLES", ()))
        source = Path(str(module.__file__)).read_text(encoding="utf-8")
        if entry.id in string_literals(source) - listed:
            cited.add(entry.id)
    return cited


def rulebook_examples_replayed() -> set[str]:
    """The catalogue ids of the play examples a test is marked as reproducing."""
    found: set[str] = set()
    for path in (REPO_ROOT / "tests").rglob("test_*.py"):
        found |= set(re.findall(r'rulebook_example\(\s*"([^"]+)"', path.read_text("utf-8")))
    return found


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_each_worked_example_a_chapter_lists_is_played_again_by_a_test(ruleset):
    listed = {
        example: name
        for name, path in modules_of(EDITIONS[ruleset]).items()
        for example in getattr(importlib.import_module(name), "WORKED_EXAMPLES", ())
    }
    catalogue = load_rules_catalogue(REPO_ROOT / "data" / ruleset / "rules.yaml")
    examples = {entry.id for entry in catalogue if ".example." in entry.id}
    assert examples <= set(listed) | cited_in_code(catalogue), "a play example is listed"
    assert sorted(set(listed) - rulebook_examples_replayed()) == []
