"""The service has the shape issue 51 gave it: no import circle among its modules (every import
counted, those inside functions and under TYPE_CHECKING too) and no fault injection read from
the environment (its size caps are test_style's)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.shape import circles, imported

REPO_ROOT = Path(__file__).resolve().parents[2]
SERVICE = REPO_ROOT / "service"


def service_modules() -> dict[str, ast.Module]:
    return {
        f"service.{path.stem}": ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(SERVICE.glob("*.py"))
        if path.stem != "__init__"
    }


def test_no_import_circle_among_the_service_modules_counting_imports_inside_functions():
    modules = service_modules()
    names = set(modules)
    imports = {name: imported(tree, names) - {name} for name, tree in modules.items()}
    assert imports["service.games"], "the walk finds the handler's imports"
    assert not circles(imports), circles(imports)


def test_a_circle_through_an_import_inside_a_function_is_found():
    """The check itself: a module-level import one way and a function's import the other way
    are a circle."""
    one = ast.parse("from service.b import thing\n")
    other = ast.parse("def late():\n    from service import a\n")
    names = {"service.a", "service.b"}
    imports = {"service.a": imported(one, names), "service.b": imported(other, names)}
    assert circles(imports) == ["service.a -> service.b -> service.a"]


def test_the_service_reads_no_fault_injection_from_the_environment():
    """Fault points are a test hook (`service.faults`, installed by tests/support/faults.py)."""
    for path in sorted(SERVICE.glob("*.py")):
        assert "CHRONICLE_FAULT" not in path.read_text(encoding="utf-8"), path.name
