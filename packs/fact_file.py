"""Reading a pack's ``facts.yaml`` (the language is told in ``packs.facts``): each fact
validated by marshmallow, unknown fields and ill-formed tests refused, read once per version of
the file."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from packs.base import PackError, PackProblem, StrictSchema, read_yaml, validate_entries

FACTS_FILE = "facts.yaml"
KINDS = ("count", "each", "named", "unique")
COMPARISONS = ("equals", "at_least", "at_most")
OPERATORS = (
    "eq", "in", "not_in", "min", "max", "len", "contains", "lacks", "includes", "set_of",
)  # fmt: skip
SOURCE = r"^(text (p\d+|chapter [IVX]+|tables)|reconstructed)"
KEBAB = r"^[a-z0-9]+(-[a-z0-9]+)*$"
RULE_ID = r"^[a-z0-9]+(\.[a-z0-9]+(-[a-z0-9]+)*)+$"


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


class SelectorSchema(StrictSchema):
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


class FactSchema(StrictSchema):
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


class UncheckedFactSchema(StrictSchema):
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
