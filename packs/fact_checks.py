"""Checking one fact of ``facts.yaml`` against a loader's files: selecting the entries a fact
names, testing their fields, and the four kinds of fact (count, each, named, unique)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, fields, missing

from packs.base import PackProblem
from packs.fact_file import COMPARISONS, Fact

FileSpec = Schema | Mapping[str, Schema]
"""What a loader knows of one of its files: the schema of the whole file (a file that is one
mapping), or the schema of the entries of each section."""


class BadFact(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class _Item:
    """One selected entry: where it is (for problems) and its fields."""

    file: str
    entry: str
    prefix: str
    data: Any
    whole_file: bool = False

    def name(self, path: str) -> tuple[str, str]:
        """The entry and field a problem with ``path`` names."""
        if self.whole_file:
            section, _, rest = path.partition(".")
            return (section, rest) if rest else ("", section)
        return self.entry, self.prefix + path


@dataclass(frozen=True)
class PackDocs:
    docs: Mapping[str, Any]
    files: Mapping[str, FileSpec]

    def select(
        self, selectors: Sequence[Mapping[str, Any]], paths: Mapping[str, Iterable[str]]
    ) -> list[_Item]:
        """The entries the selectors select; ``paths`` (by the fact's key that holds them) must
        name fields of those entries."""
        selected: list[_Item] = []
        for selector in selectors:
            schema, items = self._select(selector)
            for key, names in paths.items():
                for path in names:
                    _check_path(schema, path, key)
            selected += items
        return selected

    def _select(self, selector: Mapping[str, Any]) -> tuple[Schema, list[_Item]]:
        file = f"{selector['file']}.yaml"
        spec = self.files[file]
        doc = self.docs.get(file)
        if isinstance(spec, Schema):
            if selector["section"] is not None:
                raise BadFact("section", f"{file} is one mapping, it has no sections")
            schema = spec
            items = [_Item(file, "", "", _view(doc, spec), whole_file=True)]
        else:
            section: str = selector["section"] or (next(iter(spec)) if len(spec) == 1 else "")
            if section not in spec:
                wanted = f"'{section}' is not one of" if section else "say which of"
                raise BadFact("section", f"{wanted} the sections of {file}: {sorted(spec)}")
            schema = spec[section]
            raws = doc.get(section) if isinstance(doc, Mapping) else None
            items = [
                _Item(file, _entry_name(raw, section, index), "", _view(raw, schema))
                for index, raw in enumerate(raws if isinstance(raws, list) else [])
                if isinstance(raw, Mapping)
            ]
        if selector["unnest"]:
            field = selector["unnest"]
            inner = _nested_schema(schema.fields.get(field))
            if inner is None:
                raise BadFact("unnest", f"'{field}' of {file} holds no entries")
            schema = inner
            items = [sub for item in items for sub in _unnest(item, field)]
        where = selector["where"] or {}
        for path in where:
            _check_path(schema, path, "where")
        return schema, [item for item in items if _passes(item, where)]


def _passes(item: _Item, tests: Mapping[str, Any]) -> bool:
    return all(_fails(item, path, test) is None for path, test in tests.items())


def _entry_name(raw: Mapping[str, Any], section: str, index: int) -> str:
    return str(raw["id"]) if raw.get("id") else f"{section}[{index}]"


def _unnest(item: _Item, field: str) -> Iterator[_Item]:
    value = item.data.get(field)
    if isinstance(value, Mapping):
        yield _Item(item.file, item.entry, f"{item.prefix}{field}.", value)
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            yield _Item(item.file, item.entry, f"{item.prefix}{field}[{index}].", sub)


def _nested_schema(field: fields.Field[Any] | None) -> Schema | None:
    if isinstance(field, fields.List):
        field = field.inner
    if isinstance(field, fields.Nested):
        schema: Schema = field.schema
        return schema
    return None


def _view(raw: Any, schema: Schema) -> Any:
    """An entry as the facts read it: the schema's fields only, defaults for those left out."""
    if not isinstance(raw, Mapping):
        return {}
    out: dict[str, Any] = {}
    for name, field in schema.fields.items():
        key = field.data_key or name
        if key in raw:
            value = raw[key]
        elif field.load_default is not missing:
            value = field.load_default() if callable(field.load_default) else field.load_default
        else:
            value = None
        inner = _nested_schema(field)
        if inner is not None and isinstance(value, Mapping):
            value = _view(value, inner)
        elif inner is not None and isinstance(value, list):
            value = [_view(v, inner) for v in value]
        out[key] = value
    return out


def _check_path(schema: Schema, path: str, where: str) -> None:
    """A path names fields of the schema, down to a field of many shapes (an effect)."""
    current: Schema | None = schema
    for segment in path.split("."):
        if current is None:
            raise BadFact(where, f"'{path}': '{segment}' is below a field without fields")
        field = current.fields.get(segment)
        if field is None:
            raise BadFact(where, f"'{path}': no field '{segment}'")
        current = _nested_schema(field)
        leaf = field.inner if isinstance(field, fields.List) else field
        if current is None and not isinstance(leaf, SCALARS):
            return


SCALARS = (fields.String, fields.Number, fields.Boolean)


def _value(data: Any, path: str) -> Any:
    value = data
    for segment in path.split("."):
        if isinstance(value, list):
            value = [v.get(segment) if isinstance(v, Mapping) else None for v in value]
        elif isinstance(value, Mapping):
            value = value.get(segment)
        else:
            return None
    return value


def _matches(item: Any, pattern: Any) -> bool:
    if isinstance(pattern, Mapping) and isinstance(item, Mapping):
        return all(item.get(key) == value for key, value in pattern.items())
    return bool(item == pattern)


def _holds(value: Any, operator: str, arg: Any) -> bool:
    try:
        match operator:
            case "eq":
                return bool(value == arg)
            case "in":
                return value in arg
            case "not_in":
                return value not in arg
            case "min":
                return bool(value >= arg)
            case "max":
                return bool(value <= arg)
            case "len":
                return bool(len(value) == arg)
            case "contains":
                return any(_matches(v, arg) for v in value)
            case "lacks":
                return not any(_matches(v, arg) for v in value)
            case "includes":
                return all(a in value for a in arg)
            case "set_of":
                return set(value) == set(arg) and len(set(value)) == len(value)
    except TypeError:
        return False
    raise AssertionError(operator)


WANTS = {
    "eq": "{!r}", "in": "one of {!r}", "not_in": "none of {!r}", "min": "at least {!r}",
    "max": "at most {!r}", "len": "exactly {!r} items", "contains": "an item like {!r}",
    "lacks": "no item like {!r}", "includes": "all of {!r}", "set_of": "{!r} in any order",
}  # fmt: skip


def _fails(item: _Item, path: str, test: Any) -> str | None:
    """None if the entry's field passes ``test``, else what is wrong."""
    value = _value(item.data, path)
    operators = test if isinstance(test, Mapping) else {"eq": test}
    for operator, arg in operators.items():
        if not _holds(value, operator, arg):
            sized = operator == "len" and isinstance(value, list | str | Mapping)
            found = f"has {len(value)} items" if sized else f"is {value!r}"
            return f"{found}, the fact wants {WANTS[operator].format(arg)}"
    return None


def _test_problems(
    fact: Fact, items: Iterable[_Item], tests: Mapping[str, Any]
) -> list[PackProblem]:
    problems = []
    for item in items:
        for path, test in tests.items():
            wrong = _fails(item, path, test)
            if wrong is not None:
                entry, field = item.name(path)
                problems.append(fact.problem(item.file, entry, field, wrong))
    return problems


def _check_each(pack: PackDocs, fact: Fact) -> list[PackProblem]:
    """Every selected entry passes the tests of ``has``."""
    has = fact.spec["has"]
    return _test_problems(fact, pack.select(fact.selectors, {"has": has}), has)


def _check_named(pack: PackDocs, fact: Fact) -> list[PackProblem]:
    """Each of ``ids`` names a selected entry, and the entries it names pass ``has``."""
    has = fact.spec.get("has") or {}
    problems: list[PackProblem] = []
    for selector in fact.selectors:
        key = selector["key"]
        items = pack.select([selector], {"has": has, "key": [key]})
        for name in selector["ids"]:
            found = [item for item in items if item.data.get(key) == name]
            if not found:
                problems.append(
                    fact.problem(f"{selector['file']}.yaml", str(name), key, "not found")
                )
            problems += _test_problems(fact, found, has)
    return problems


def _counts(pack: PackDocs, fact: Fact, selectors: Sequence[Mapping[str, Any]]) -> dict[Any, int]:
    """The number of selected entries, or of those with each value of ``per``."""
    per = fact.spec.get("per") or {}
    items = pack.select(selectors, {"per": per})
    if not per:
        return {None: len(items)}
    ((path, values),) = per.items()
    counts = Counter(_value(item.data, path) for item in items)
    return {value: counts[value] for value in values}


def _check_count(pack: PackDocs, fact: Fact) -> list[PackProblem]:
    """The number of selected entries (per value of a field) compares with a bound."""
    comparison = next(name for name in COMPARISONS if name in fact.spec)
    bound = fact.spec[comparison]
    others = None if isinstance(bound, int) else _counts(pack, fact, bound["count"])
    first = fact.selectors[0]
    file = f"{first['file']}.yaml"
    spec = pack.files[file]
    section = "" if isinstance(spec, Schema) else first["section"] or next(iter(spec))
    problems = []
    for group, found in _counts(pack, fact, fact.selectors).items():
        wanted = bound if others is None else others[group]
        if not COMPARE[comparison](found, wanted):
            per = "" if group is None else f"{next(iter(fact.spec['per']))} {group}: "
            than = "" if others is None else f" (the entries of {_files(bound['count'])})"
            words = comparison.replace("equals", "exactly").replace("_", " ")
            detail = f"{per}expected {words} {wanted} entries{than}, found {found}"
            problems.append(fact.problem(file, "", section, detail))
    return problems


COMPARE = {
    "equals": lambda found, wanted: found == wanted,
    "at_least": lambda found, wanted: found >= wanted,
    "at_most": lambda found, wanted: found <= wanted,
}


def _files(selectors: Sequence[Mapping[str, Any]]) -> str:
    return " + ".join(f"{selector['file']}.yaml" for selector in selectors)


def _check_unique(pack: PackDocs, fact: Fact) -> list[PackProblem]:
    """No two selected entries have the same values in ``fields``."""
    paths = fact.spec["fields_"]
    seen: dict[str, str] = {}
    problems = []
    for item in pack.select(fact.selectors, {"fields": paths}):
        values = [_value(item.data, path) for path in paths]
        entry, field = item.name(paths[-1])
        if repr(values) in seen:
            shown = ", ".join(
                f"{path} {value!r}" for path, value in zip(paths, values, strict=True)
            )
            detail = f"{shown} is also '{seen[repr(values)]}'s"
            problems.append(fact.problem(item.file, entry, field, detail))
        seen.setdefault(repr(values), entry)
    return problems


CHECKS = {
    "count": _check_count,
    "each": _check_each,
    "named": _check_named,
    "unique": _check_unique,
}
