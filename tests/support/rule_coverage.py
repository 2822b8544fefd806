"""Which catalogue ids the tests *assert*, read from the tests' syntax trees.

An id counts as asserted by a test when it stands in the test's checking code, not merely in a
docstring or a comment:

- inside an `assert` statement (`assert refused.rule == "hotw24.options"`), directly, through a
  module or function constant (`RULE = "..."` … `assert e.rule == RULE`), or through an edition
  key (`assert e.rule == PACK.edition.cite("turn.order")`);
- as an argument of an asserting helper (a call whose name starts with `assert_` or `expect_`),
  or as `pytest.raises(..., match=...)`;
- in a `pytest.mark.parametrize` value list, or the cases of a `for` loop, whose names the test
  then asserts on;
- for a rulebook play example: the example's id given to `@rulebook_example(...)` on a test
  that asserts something.

Ids built at run time (f-strings, loops) are not seen: write them out where they are asserted.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Catalogue:
    """The ids a test may assert, and the edition keys that name them."""

    ids: frozenset[str]
    keys: Mapping[str, str]

    def id_of(self, text: str) -> str | None:
        return text if text in self.ids else None

    def id_of_key(self, key: str) -> str | None:
        return self.keys.get(key)


@dataclass
class _Scope:
    constants: dict[str, set[str]] = field(default_factory=dict)


def _strings(node: ast.AST, known: Catalogue, scope: _Scope) -> set[str]:
    """Catalogue ids named anywhere in `node` (literals, constants, edition keys)."""
    found: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Constant) and isinstance(child.value, str):
            rule = known.id_of(child.value)
            if rule is not None:
                found.add(rule)
        elif isinstance(child, ast.Name) and child.id in scope.constants:
            found |= scope.constants[child.id]
        elif isinstance(child, ast.Call) and _called(child) == "cite":
            for argument in child.args:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    rule = known.id_of_key(argument.value)
                    if rule is not None:
                        found.add(rule)
    return found


def _called(call: ast.Call) -> str:
    function = call.func
    if isinstance(function, ast.Attribute):
        return function.attr
    if isinstance(function, ast.Name):
        return function.id
    return ""


def _constants(body: Iterable[ast.AST], known: Catalogue) -> dict[str, set[str]]:
    """Names bound to ids (or collections of ids) by plain assignments."""
    constants: dict[str, set[str]] = {}
    for statement in body:
        if isinstance(statement, ast.Assign | ast.AnnAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if statement.value is None:
                continue
            ids = _strings(statement.value, known, _Scope(constants))
            for target in targets:
                if isinstance(target, ast.Name) and ids:
                    constants[target.id] = ids
    return constants


def _asserting_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The parts of a function that check something."""
    for node in ast.walk(function):
        if isinstance(node, ast.Assert):
            yield node.test
        elif isinstance(node, ast.Call):
            name = _called(node)
            if name.startswith(("assert_", "expect_")):
                yield from node.args
                yield from (keyword.value for keyword in node.keywords)
            elif name == "raises":
                yield from (k.value for k in node.keywords if k.arg == "match")


def _names_in(nodes: Iterable[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}


def _parametrized(function: ast.FunctionDef, known: Catalogue, scope: _Scope) -> set[str]:
    """Ids in the parametrize lists of parameters the test asserts on."""
    checked = _names_in(_asserting_nodes(function))
    found: set[str] = set()
    for decorator in function.decorator_list:
        if not (isinstance(decorator, ast.Call) and _called(decorator) == "parametrize"):
            continue
        if len(decorator.args) < 2:
            continue
        names = _parameter_names(decorator.args[0])
        if names & checked:
            found |= _strings(decorator.args[1], known, scope)
    return found


def _looped(function: ast.FunctionDef, known: Catalogue, scope: _Scope) -> set[str]:
    """Ids in the cases a `for` loop walks through when the loop's names are asserted on."""
    checked = _names_in(_asserting_nodes(function))
    found: set[str] = set()
    for loop in ast.walk(function):
        if isinstance(loop, ast.For) and _names_in([loop.target]) & checked:
            found |= _strings(loop.iter, known, scope)
    return found


def _parameter_names(node: ast.AST) -> set[str]:
    """`"a, b"` or `("a", "b")`: the names a parametrize decorator gives."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {name.strip() for name in node.value.split(",")}
    if isinstance(node, ast.Tuple | ast.List):
        return {
            n.value for n in node.elts if isinstance(n, ast.Constant) and isinstance(n.value, str)
        }
    return set()


def _examples(function: ast.FunctionDef, known: Catalogue) -> set[str]:
    if not any(True for _ in _asserting_nodes(function)):
        return set()
    found: set[str] = set()
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call) and _called(decorator) == "rulebook_example":
            found |= _strings(decorator, known, _Scope())
    return found


def asserted_ids(test_files: Iterable[Path], known: Catalogue) -> set[str]:
    """Every catalogue id some test in `test_files` asserts (see the module docstring)."""
    asserted: set[str] = set()
    for path in test_files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        module = _Scope(_constants(tree.body, known))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            scope = _Scope({**module.constants, **_constants(ast.walk(node), known)})
            for checked in _asserting_nodes(node):
                asserted |= _strings(checked, known, scope)
            asserted |= _parametrized(node, known, scope)
            asserted |= _looped(node, known, scope)
            asserted |= _examples(node, known)
    return asserted


TESTS_ROOT = Path(__file__).resolve().parents[1]


def catalogue_ids(pack: str) -> frozenset[str]:
    """Every clause id of `data/<pack>/rules.yaml`."""
    import yaml

    path = TESTS_ROOT.parent / "data" / pack / "rules.yaml"
    return frozenset(entry["id"] for entry in yaml.safe_load(path.read_text())["rules"])


def unasserted_ids(ids: frozenset[str], leave_out: Iterable[Path] = ()) -> list[str]:
    """The ids no test under tests/ asserts (the files `leave_out` not read)."""
    skipped = {path.resolve() for path in leave_out}
    files = sorted(p for p in TESTS_ROOT.rglob("test_*.py") if p.resolve() not in skipped)
    return sorted(ids - asserted_ids(files, Catalogue(ids=ids, keys={})))
