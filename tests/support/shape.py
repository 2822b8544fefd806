"""The shape checks the code is held to (issue 51): the size caps of a module and a function,
and import circles among a package's modules."""

from __future__ import annotations

import ast

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80


def over_the_caps(source: str, where: str) -> list[str]:
    """The module, if it is over 600 lines, and each function (a method, a nested function)
    over 80, counted from its `def` to its last line."""
    long = []
    if source.count("\n") > MAX_MODULE_LINES:
        long.append(f"{where}: {source.count(chr(10))} lines")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            if size > MAX_FUNCTION_LINES:
                long.append(f"{where}.{node.name}: {size} lines")
    return long


def imported(tree: ast.Module, modules: set[str]) -> set[str]:
    """The modules of `modules` that `tree` imports anywhere (inside functions and under
    TYPE_CHECKING too; `from package import module` as well)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
            found |= targets & modules
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names} & modules
    return found


def circles(imports: dict[str, set[str]]) -> list[str]:
    """Each import circle of the graph `imports` (a module -> the modules it imports), as
    "a -> b -> a"."""
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
