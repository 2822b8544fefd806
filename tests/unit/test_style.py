"""House style holds: ruff on the whole tree, mypy --strict on domain/, the tools around the
rules (service, cli, bots, api, bench, workers) import no ruleset family, and the domain's caps
(600 lines a module, 80 a function) hold for service/, store/, api/ and packs/ too."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.shape import MAX_FUNCTION_LINES, MAX_MODULE_LINES, over_the_caps

REPO_ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600
    )


def test_ruff_finds_nothing():
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean_on_the_domain():
    result = run("mypy", "--strict", "domain")
    assert result.returncode == 0, result.stdout + result.stderr


# --- the tools ask the ruleset ------------------------------------------------------------------

TOOL_PACKAGES = ("service", "cli", "bots", "api", "bench", "workers")
"""Packages around the rules: they reach a ruleset only through the registry and its hooks."""


def imported_modules(tree: ast.AST) -> set[str]:
    """Every module a source imports (`import a.b`, `from a.b import c` as a.b and a.b.c)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    return found


def test_the_tools_import_no_ruleset_family():
    """service, cli, bots, api, bench and workers must not import `domain.hotw` (nor test
    `isinstance(..., HotwPack)`): what they need of a ruleset they ask its hooks
    (`invariant_failures`, `draw_board`, `strategy`, `data_pack`)."""
    offenders = []
    checked = 0
    for package in TOOL_PACKAGES:
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source, filename=str(path))
            checked += 1
            where = path.relative_to(REPO_ROOT)
            for module in sorted(imported_modules(tree)):
                if module == "domain.hotw" or module.startswith("domain.hotw."):
                    offenders.append(f"{where}: imports {module}")
            names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
            if "HotwPack" in names:
                offenders.append(f"{where}: names HotwPack")
    assert checked > 20
    assert not offenders, "\n".join(offenders)


def test_the_import_check_sees_every_form_of_import():
    source = (
        "import domain.hotw.editions.hotw_2024.model\n"
        "from domain.hotw.editions.hotw_2024 import engine\n"
        "from domain import hotw\n"
        "def f():\n"
        "    from domain.hotw.editions.hotw_2024.pack import HotwPack\n"
        "    importlib.import_module('domain.hotw.editions.hotw_2024.invariants')\n"
    )
    modules = imported_modules(ast.parse(source))
    assert {
        "domain.hotw.editions.hotw_2024.model",
        "domain.hotw",
        "domain.hotw.editions.hotw_2024.engine",
        "domain.hotw.editions.hotw_2024.pack",
        "domain.hotw.editions.hotw_2024.invariants",
    } <= modules


# --- the caps beyond the domain -------------------------------------------------------------

CAPPED_PACKAGES = ("service", "store", "api", "packs")
"""Packages held to the domain's caps (test_edition_shape): no module over 600 lines, no
function over 80."""


@pytest.mark.parametrize("package", CAPPED_PACKAGES)
def test_no_module_of_the_service_store_api_or_packs_is_long_and_no_function_either(package):
    paths = sorted((REPO_ROOT / package).rglob("*.py"))
    long = [
        problem
        for path in paths
        for problem in over_the_caps(
            path.read_text(encoding="utf-8"), path.relative_to(REPO_ROOT).as_posix()
        )
    ]
    assert len(paths) >= 5
    assert not long, long


def test_the_caps_see_a_long_module_and_a_long_method():
    method = "class A:\n    def f(self):\n" + "        x = 1\n" * MAX_FUNCTION_LINES
    assert over_the_caps(method, "m") == [f"m.f: {MAX_FUNCTION_LINES + 1} lines"]
    assert over_the_caps("x = 1\n" * MAX_MODULE_LINES, "m") == []
    assert over_the_caps("x = 1\n" * (MAX_MODULE_LINES + 1), "m") == [
        f"m: {MAX_MODULE_LINES + 1} lines"
    ]
