"""The layers hold (ARCHITECTURE.md): the API reaches the rules, the store and the queue only
through the service, and no ruleset package imports itself in a circle."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FORBIDDEN_IN_API = (
    *("domain", "store", "workers", "packs", "bots", "cli", "bench"),
    *("rq", "redis", "limits"),
)
"""What the API reaches only through the service: Chronicle's other layers and the store's
and queue's libraries."""


def top_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_the_api_imports_only_the_service_and_the_schemas_of_chronicle() -> None:
    reaching = {}
    for path in sorted((REPO / "api").glob("*.py")):
        name = path.relative_to(REPO).as_posix()
        past = top_imports(path) & set(FORBIDDEN_IN_API)
        if past:
            reaching[name] = sorted(past)
    assert reaching == {}


def runtime_imports(tree: ast.AST) -> Iterator[ast.ImportFrom]:
    """The `from ... import` statements run when the module is imported (those under
    `if TYPE_CHECKING:` are not)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            continue
        if isinstance(node, ast.ImportFrom):
            yield node
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from runtime_imports(node)


def ancestors(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts))]


def module_graph(package: Path) -> dict[str, set[str]]:
    """Each module of `package` (dotted) and the modules of that package it imports when it is
    imported: `from pkg import sub` needs only `pkg.sub` once `pkg` is being imported."""
    base = ".".join(package.relative_to(REPO).parts)
    modules = {
        ".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__"): p
        for p in package.rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if not (node.module and node.module.startswith(base) and node.level == 0):
                continue
            submodules = {f"{node.module}.{a.name}" for a in node.names} & set(modules)
            targets |= submodules or {node.module}
        # importing pkg.sub first runs pkg/__init__.py, unless pkg is the importer's own
        targets |= {
            parent
            for target in targets
            for parent in ancestors(target)
            if parent in modules and not (name == parent or name.startswith(parent + "."))
        }
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    sys.setrecursionlimit(10_000)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


@pytest.mark.parametrize("package", ["domain/core", "domain/hotw", "domain/patchistory"])
def test_no_import_circles_inside_a_ruleset(package: str) -> None:
    assert cycle_in(module_graph(REPO / package)) is None


def test_no_module_of_the_domain_is_over_600_lines_nor_a_function_over_80() -> None:
    too_long: list[str] = []
    for path in sorted((REPO / "domain").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(REPO).as_posix()
        if len(text.splitlines()) > 600:
            too_long.append(f"{name}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno:
                length = node.end_lineno - node.lineno + 1
                if length > 80:
                    too_long.append(f"{name}: {node.name} {length} lines")
    assert too_long == []


LAYER_PATH = re.compile(
    r"^(api|service|store|schemas|packs|workers|cli|bots)(\.\w+)+:\w+$"  # module:attribute
    r"|^(api|service|store|schemas|packs)\.\w+"  # a module (rule ids may read `workers.…`)
)


def test_nothing_in_the_domain_names_a_module_of_another_layer_by_string() -> None:
    """Pack readers and view schemas register themselves; the rules never point at them."""
    named = [
        f"{path.relative_to(REPO)}:{node.lineno} {node.value}"
        for path in sorted((REPO / "domain").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and LAYER_PATH.match(node.value)
    ]
    assert named == []
