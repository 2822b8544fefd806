"""The service has the shape issue 51 gave it: no import circle among its modules (every import
counted, those inside functions and under TYPE_CHECKING too), no module over 600 lines and no
function over 80, and no fault injection read from the environment."""

from __future__ import annotations

import ast
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SERVICE = REPO_ROOT / "service"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80


def service_modules() -> dict[str, ast.Module]:
    return {
        f"service.{path.stem}": ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(SERVICE.glob("*.py"))
        if path.stem != "__init__"
    }


def imported(tree: ast.Module, modules: set[str]) -> set[str]:
    """The modules of `modules` that `tree` imports anywhere (`from service import x` too)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
            found |= targets & modules
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names} & modules
    return found


def circles(imports: dict[str, set[str]]) -> list[str]:
    found: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str, path: tuple[str, ...]) -> None:
        state[name] = 1
        for dep in sorted(imports.get(name, ())):
            if state.get(dep) == 1:
                found.append(" -> ".join((*path[path.index(dep) :], dep)))
            elif dep not in state:
                visit(dep, (*path, dep))
        state[name] = 2

    for name in sorted(imports):
        if name not in state:
            visit(name, (name,))
    return found


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


def test_no_service_module_over_600_lines_and_no_function_over_80():
    too_long = []
    for path in sorted(SERVICE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            too_long.append(f"{path.name}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_long.append(f"{path.name}: {node.name} is {length} lines")
    assert not too_long, too_long


def test_the_service_reads_no_fault_injection_from_the_environment():
    """Fault points are a test hook (`service.faults`, installed by tests/support/faults.py)."""
    for path in sorted(SERVICE.glob("*.py")):
        assert "CHRONICLE_FAULT" not in path.read_text(encoding="utf-8"), path.name
