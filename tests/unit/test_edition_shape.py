"""Every ruleset has the one shape (issues 31 and 51): a thin ruleset class over modules named
after its rulebook's chapters, each rules-catalogue entry naming the module that implements it
(and that module writing its full id out as a string literal, so a grep from the catalogue lands
on the code), no module over 600 lines, no function over 80, and no import circle inside the
ruleset's package."""

from __future__ import annotations

import ast
import importlib
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
