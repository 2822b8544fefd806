"""What a rule text states about its data pack, checked by one generic checker.

A pack's ``facts.yaml`` lists the facts its edition's rule text states about the board, the cards
and the pieces (62 lands, ten Honors, the Huns start in Volga and Turanian Plain ...), each with
the page it is printed on (``source: text pN``, or ``reconstructed``) and the quote or paraphrase
(``says``). An edition states its own facts in its own pack: no Python holds them.

A fact selects entries of the pack's files and asserts one thing of them:

- ``count: SELECTOR`` with ``equals | at_least | at_most: N`` (or ``{count: SELECTOR}``, the
  number of other entries), optionally ``per: {field: [values]}`` (one count per value);
- ``each: SELECTOR`` with ``has: TESTS``: every selected entry passes the tests;
- ``named: SELECTOR`` with ``ids: [...]`` (matched on ``key``, default ``id``) and optionally
  ``has: TESTS``: each id names a selected entry, and every entry it names passes the tests;
- ``unique: SELECTOR`` with ``fields: [...]``: no two selected entries share those values.

A SELECTOR is ``{file, section?, unnest?, where?}`` (or a list of them, whose selections are
joined): ``file`` is the file's name without ``.yaml``; ``section`` defaults to the file's only
section (a file that is one mapping, such as pieces.yaml, is one entry); ``unnest`` selects the
entries of a list (or the mapping) in a field of each entry instead, e.g. the Empires of a card
that shows two; ``where`` keeps the entries that pass its TESTS.

TESTS map a field path (``per_player.people``; a path through a list gives the list of values)
to a value it must equal, or to operators: ``eq``, ``in``, ``not_in``, ``min``, ``max``, ``len``,
``contains`` (an item equal to the value, or with the fields of a mapping), ``lacks``,
``includes`` (every one of a list), ``set_of`` (the same items in any order). A field the file
leaves out reads as its schema's default.

Every problem names the file, the entry and the field, then the fact, its source and its words.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from marshmallow import (
    RAISE,
    Schema,
    ValidationError,
    fields,
    missing,
    validate,
    validates_schema,
)

from packs.base import PackError, PackProblem, read_yaml, validate_entries

FACTS_FILE = "facts.yaml"
KINDS = ("count", "each", "named", "unique")
COMPARISONS = ("equals", "at_least", "at_most")
OPERATORS = (
    "eq", "in", "not_in", "min", "max", "len", "contains", "lacks", "includes", "set_of",
)  # fmt: skip
SOURCE = r"^(text (p\d+|chapter [IVX]+|tables)|reconstructed)"
KEBAB = r"^[a-z0-9]+(-[a-z0-9]+)*$"
RULE_ID = r"^[a-z0-9]+(\.[a-z0-9]+(-[a-z0-9]+)*)+$"

FileSpec = Schema | Mapping[str, Schema]
"""What a loader knows of one of its files: the schema of the whole file (a file that is one
mapping), or the schema of the entries of each section."""


# --- facts.yaml -------------------------------------------------------------------------------


class _Strict(Schema):
    class Meta:
        unknown = RAISE


def _tests_shape(tests: Any) -> None:
    if not isinstance(tests, Mapping) or not tests:
        raise ValidationError("a mapping of field paths to tests")
    for path, test in tests.items():
        if not isinstance(path, str) or not path:
            raise ValidationError(f"'{path}' is not a field path")
        if isinstance(test, Mapping):
            unknown = sorted(set(test) - set(OPERATORS))
            if unknown or not test:
                raise ValidationError(
                    f"{path}: unknown operator {unknown}; one of {', '.join(OPERATORS)}"
                )


class SelectorSchema(_Strict):
    file = fields.String(required=True, validate=validate.Regexp(r"^[a-z0-9_]+$"))
    section = fields.String(load_default=None)
    unnest = fields.String(load_default=None)
    where = fields.Dict(load_default=None, validate=_tests_shape)
    ids = fields.List(fields.Raw(), load_default=None, validate=validate.Length(min=1))
    key = fields.String(load_default="id")


class SelectorsField(fields.Field[list[dict[str, Any]]]):
    """One selector, or a list of selectors whose selections are joined."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        many = isinstance(value, list)
        try:
            return SelectorSchema(many=True).load(value if many else [value])
        except ValidationError as exc:
            messages = exc.messages if many else exc.messages.get(0, exc.messages)  # type: ignore[union-attr]
            raise ValidationError(messages) from None


class BoundField(fields.Field[Any]):
    """A number, or ``{count: SELECTOR}``: the number of entries it selects."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, Mapping) and set(value) == {"count"}:
            return {"count": SelectorsField().deserialize(value["count"])}
        raise ValidationError("a number, or {count: SELECTOR}")


class FactSchema(_Strict):
    id = fields.String(required=True, validate=validate.Regexp(KEBAB, error="a kebab-case id"))
    source = fields.String(
        required=True,
        validate=validate.Regexp(
            SOURCE, error="must start 'text pN', 'text chapter N', 'text tables' or 'reconstructed'"
        ),
    )
    says = fields.String(required=True, validate=validate.Length(min=1))
    rule = fields.String(
        validate=validate.Regexp(RULE_ID, error="a rules-catalogue id"),
        metadata={"description": "The catalogue id of the rule the fact belongs to."},
    )
    count = SelectorsField()
    each = SelectorsField()
    named = SelectorsField()
    unique = SelectorsField()
    equals = BoundField()
    at_least = BoundField()
    at_most = BoundField()
    per = fields.Dict(keys=fields.String(), values=fields.List(fields.Raw()))
    has = fields.Dict(validate=_tests_shape)
    fields_ = fields.List(fields.String(), data_key="fields", validate=validate.Length(min=1))

    @validates_schema
    def _one_kind(self, data: dict[str, Any], **_: Any) -> None:
        kinds = [kind for kind in KINDS if kind in data]
        if len(kinds) != 1:
            raise ValidationError(f"a fact is exactly one of {', '.join(KINDS)}", "id")
        kind = kinds[0]
        bounds = [name for name in COMPARISONS if name in data]
        if (kind == "count") != (len(bounds) == 1) or (kind != "count" and bounds):
            raise ValidationError("a count takes one of equals, at_least, at_most", "count")
        if "per" in data and (kind != "count" or len(data["per"]) != 1):
            raise ValidationError("a count may be per the values of one field", "per")
        if (kind == "each") != ("has" in data) and kind != "named":
            raise ValidationError("`has` goes with each (and named)", "has")
        if (kind == "unique") != ("fields_" in data):
            raise ValidationError("`fields` goes with unique", "fields")
        named_ids = all(s["ids"] is not None for s in data[kind])
        if kind == "named" and not named_ids:
            raise ValidationError("a named fact lists its `ids`", "named")
        if kind != "named" and any(s["ids"] is not None for s in data[kind]):
            raise ValidationError("`ids` goes with named", kind)


class UncheckedFactSchema(_Strict):
    """A fact the text states that holds of every pack the schemas accept: nothing to check."""

    id = fields.String(required=True, validate=validate.Regexp(KEBAB, error="a kebab-case id"))
    source = fields.String(
        required=True,
        validate=validate.Regexp(
            SOURCE, error="must start 'text pN', 'text chapter N', 'text tables' or 'reconstructed'"
        ),
    )
    says = fields.String(required=True, validate=validate.Length(min=1))
    rule = fields.String(validate=validate.Regexp(RULE_ID, error="a rules-catalogue id"))
    why = fields.String(required=True, validate=validate.Length(min=1))


@dataclass(frozen=True)
class Fact:
    """One fact of ``facts.yaml``: what is checked, and where the rule text says it."""

    id: str
    source: str
    says: str
    kind: str
    selectors: tuple[dict[str, Any], ...]
    spec: Mapping[str, Any]
    rule: str = ""
    """The rules-catalogue id of the rule that states the fact, when one does."""

    def files(self) -> set[str]:
        selectors = [*self.selectors]
        for name in COMPARISONS:
            bound = self.spec.get(name)
            if isinstance(bound, Mapping):
                selectors += bound["count"]
        return {f"{selector['file']}.yaml" for selector in selectors}

    def problem(self, file: str, entry: str, field: str, detail: str) -> PackProblem:
        where = f"{self.source}, {self.rule}" if self.rule else self.source
        return PackProblem(
            file, entry, field, f"{detail} - fact '{self.id}' ({where}): {self.says}"
        )


def read_facts(pack_dir: Path) -> tuple[list[Fact], list[PackProblem]]:
    """The facts of ``pack_dir/facts.yaml`` that are well formed, and the problems of the rest."""
    path = pack_dir / FACTS_FILE
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise PackError([PackProblem(FACTS_FILE, "", "", "file is missing")]) from None
    facts, problems = _read_facts(path, stat.st_mtime_ns, stat.st_size)
    return list(facts), list(problems)


@functools.lru_cache(maxsize=8)
def _read_facts(
    path: Path, mtime_ns: int, size: int
) -> tuple[tuple[Fact, ...], tuple[PackProblem, ...]]:
    """Read once per version of the file: the board's and the cards' loaders both check facts."""
    data = read_yaml(path)
    problems: list[PackProblem] = []
    if not isinstance(data, Mapping):
        raise PackError([PackProblem(FACTS_FILE, "", "", "must be a mapping with `facts`")])
    for key in data:
        if key not in {"provenance", "facts", "by_the_model"}:
            problems.append(PackProblem(FACTS_FILE, "", str(key), "unknown section"))
    loaded, found = validate_entries(FactSchema(), data.get("facts"), FACTS_FILE, "facts")
    problems += found
    if "by_the_model" in data:
        _, found = validate_entries(
            UncheckedFactSchema(), data["by_the_model"], FACTS_FILE, "by_the_model"
        )
        problems += found
    for fact_id, n in Counter(entry["id"] for entry in loaded).items():
        if n > 1:
            problems.append(PackProblem(FACTS_FILE, fact_id, "id", f"duplicate id ({n} facts)"))
    facts = []
    for entry in loaded:
        kind = next(kind for kind in KINDS if kind in entry)
        spec = {k: v for k, v in entry.items() if k not in {"id", "source", "says", "rule", kind}}
        facts.append(
            Fact(
                entry["id"],
                entry["source"],
                entry["says"],
                kind,
                tuple(entry[kind]),
                spec,
                entry.get("rule", ""),
            )
        )
    return tuple(facts), tuple(problems)


# --- checking -----------------------------------------------------------------------------------


def fact_problems(
    pack_dir: Path, docs: Mapping[str, Any], files: Mapping[str, FileSpec]
) -> list[PackProblem]:
    """Check the facts about ``files`` (a loader's files, read into ``docs``).

    Facts about other files are left to the loader of those files; a fact that reads files of
    two loaders is a problem of the facts file.
    """
    try:
        facts, problems = read_facts(pack_dir)
    except PackError as exc:
        return list(exc.problems)
    for fact in facts:
        mine = fact.files() & files.keys()
        if not mine:
            continue
        if mine != fact.files():
            others = ", ".join(sorted(fact.files() - mine))
            problems.append(
                PackProblem(FACTS_FILE, fact.id, fact.kind, f"reads {others} with {sorted(mine)}")
            )
            continue
        try:
            problems += _CHECKS[fact.kind](_Pack(docs, files), fact)
        except _BadFact as exc:
            problems.append(PackProblem(FACTS_FILE, fact.id, exc.field, exc.message))
    return problems


def facts_about_no_file(pack_dir: Path, files: Collection[str]) -> list[PackProblem]:
    """Facts naming a file that none of the loaders (whose files are ``files``) reads."""
    try:
        facts, problems = read_facts(pack_dir)
    except PackError as exc:
        return list(exc.problems)
    for fact in facts:
        unknown = sorted(fact.files() - set(files))
        if unknown:
            problems.append(
                PackProblem(FACTS_FILE, fact.id, "file", f"no such data file: {unknown}")
            )
    return problems


class _BadFact(Exception):
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
class _Pack:
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
                raise _BadFact("section", f"{file} is one mapping, it has no sections")
            schema = spec
            items = [_Item(file, "", "", _view(doc, spec), whole_file=True)]
        else:
            section: str = selector["section"] or (next(iter(spec)) if len(spec) == 1 else "")
            if section not in spec:
                wanted = f"'{section}' is not one of" if section else "say which of"
                raise _BadFact("section", f"{wanted} the sections of {file}: {sorted(spec)}")
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
                raise _BadFact("unnest", f"'{field}' of {file} holds no entries")
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
            raise _BadFact(where, f"'{path}': '{segment}' is below a field without fields")
        field = current.fields.get(segment)
        if field is None:
            raise _BadFact(where, f"'{path}': no field '{segment}'")
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


def _check_each(pack: _Pack, fact: Fact) -> list[PackProblem]:
    """Every selected entry passes the tests of ``has``."""
    has = fact.spec["has"]
    return _test_problems(fact, pack.select(fact.selectors, {"has": has}), has)


def _check_named(pack: _Pack, fact: Fact) -> list[PackProblem]:
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


def _counts(pack: _Pack, fact: Fact, selectors: Sequence[Mapping[str, Any]]) -> dict[Any, int]:
    """The number of selected entries, or of those with each value of ``per``."""
    per = fact.spec.get("per") or {}
    items = pack.select(selectors, {"per": per})
    if not per:
        return {None: len(items)}
    ((path, values),) = per.items()
    counts = Counter(_value(item.data, path) for item in items)
    return {value: counts[value] for value in values}


def _check_count(pack: _Pack, fact: Fact) -> list[PackProblem]:
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


def _check_unique(pack: _Pack, fact: Fact) -> list[PackProblem]:
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


_CHECKS = {
    "count": _check_count,
    "each": _check_each,
    "named": _check_named,
    "unique": _check_unique,
}
