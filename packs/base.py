"""Shared machinery for loading data packs: YAML reading, error reporting, and every ruleset's
rules catalogue (``load_rules_catalogue`` reads a ``data/<ruleset>/rules.yaml``).

A data pack is validated with marshmallow (unknown fields rejected) and then cross-checked.
Every problem names the file, the entry and the field, so that an owner of the physical game
can find and correct it without reading code.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from marshmallow import (
    RAISE,
    Schema,
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)

from domain.core.catalogue import RuleEntry, RulesCatalogue

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA_ROOT = REPO_ROOT / "data"


@dataclass(frozen=True)
class PackProblem:
    """One thing wrong with a data pack."""

    file: str
    entry: str
    field: str
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.entry:
            where += f": entry '{self.entry}'"
        if self.field:
            where += f", field '{self.field}'"
        return f"{where}: {self.message}"

    def as_dict(self) -> dict[str, str]:
        return {
            "file": self.file,
            "entry": self.entry,
            "field": self.field,
            "message": self.message,
        }


class PackError(Exception):
    """A data pack failed to load; `problems` lists every problem found."""

    def __init__(self, problems: Iterable[PackProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems) or "invalid data pack")


def pack_dir(name: str, root: Path | None = None) -> Path:
    return (root or DATA_ROOT) / name


class StrictSchema(Schema):
    """A schema that refuses a field it does not know."""

    class Meta:
        unknown = RAISE


class UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a mapping that gives one key twice (plain YAML keeps the
    last silently, so an entry's second `reading:` would hide its first)."""


def _unique_mapping(loader: UniqueKeyLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"the key {key!r} is given twice (lines {seen[key]} and "
                f"{key_node.start_mark.line + 1})",
                key_node.start_mark,
            )
        seen[key] = key_node.start_mark.line + 1
    mapping: dict[Any, Any] = loader.construct_mapping(node)
    return mapping


UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _unique_mapping)


def read_yaml(path: Path) -> Any:
    """Read one YAML file, turning a missing file, a syntax error or a key given twice in one
    mapping into a PackError."""
    try:
        with path.open(encoding="utf-8") as handle:
            return yaml.load(handle, Loader=UniqueKeyLoader)
    except FileNotFoundError:
        raise PackError([PackProblem(path.name, "", "", "file is missing")]) from None
    except yaml.YAMLError as exc:
        raise PackError([PackProblem(path.name, "", "", f"not valid YAML: {exc}")]) from None


def _flatten(messages: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            yield from _flatten(value, name)
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        yield prefix, "; ".join(messages)
    elif isinstance(messages, list):
        for index, value in enumerate(messages):
            yield from _flatten(value, f"{prefix}[{index}]")
    else:
        yield prefix, str(messages)


def validate_entries(
    schema: Schema, entries: Any, file: str, section: str, key: str = "id"
) -> tuple[list[Any], list[PackProblem]]:
    """Load a list of entries with `schema`; return what loaded and the problems of the rest.

    Problems name the entry by its `key` field when it has one, else by its position.
    """
    if not isinstance(entries, list):
        return [], [PackProblem(file, "", section, "must be a list of entries")]
    loaded: list[Any] = []
    problems: list[PackProblem] = []
    for index, raw in enumerate(entries):
        entry_name = (
            str(raw.get(key))
            if isinstance(raw, Mapping) and raw.get(key)
            else f"{section}[{index}]"
        )
        try:
            loaded.append(schema.load(raw))
        except ValidationError as exc:
            for field, message in _flatten(exc.messages):
                problems.append(PackProblem(file, entry_name, field, message))
    return loaded, problems


def load_entries(
    schema: Schema, entries: Any, file: str, section: str, problems: list[PackProblem]
) -> list[Any]:
    """Load a section's entries; keep those that failed only on unknown fields (already
    reported) so that one stray field does not cascade into count problems."""
    loaded, found = validate_entries(schema, entries, file, section)
    problems.extend(found)
    if not isinstance(entries, list) or len(loaded) == len(entries):
        return loaded
    salvaged: list[Any] = []
    for raw in entries:
        if not isinstance(raw, Mapping):
            continue
        try:
            schema.load(raw)
        except ValidationError:
            known = {k: v for k, v in raw.items() if k in schema.fields}
            if len(known) < len(raw):
                with suppress(ValidationError):
                    salvaged.append(schema.load(known))
    return loaded + salvaged


# --- the rules catalogue -------------------------------------------------------------------

KEBAB = r"^[a-z0-9]+(-[a-z0-9]+)*$"
RULE_ID = r"^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$"
PAGE = r"^(\d+|\?)$"


MODULE = r"^domain(\.[a-z0-9_]+)+$"
"""Where a rule is implemented: the dotted name of a module under domain/."""


class RuleEntrySchema(StrictSchema):
    id = fields.String(
        required=True, validate=validate.Regexp(RULE_ID, error="must be a dotted kebab-case id")
    )
    page = fields.String(
        required=True, validate=validate.Regexp(PAGE, error="a page number, or '?' if unknown")
    )
    section = fields.String(required=True, validate=validate.Length(min=1))
    text = fields.String(required=True, validate=validate.Length(min=1))
    reading = fields.String(load_default="")
    departs_from = fields.String(load_default="")
    module = fields.String(
        load_default="",
        validate=validate.Regexp(MODULE, error="a module of domain/, dotted (domain.x.y)"),
    )

    @validates_schema
    def _one_line(self, data: dict[str, Any], **_: Any) -> None:
        for name in ("text", "reading", "departs_from"):
            if "\n" in data.get(name, "").strip():
                raise ValidationError("must be one line", name)
        if data.get("departs_from") and not data.get("reading"):
            raise ValidationError("a reading that departs from the text must say itself", "reading")

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> RuleEntry:
        return RuleEntry(**data)


def load_rules_catalogue(path: Path) -> RulesCatalogue:
    """Load a ruleset's rules catalogue (``data/<ruleset>/rules.yaml``); ids must be unique."""
    file = path.name
    problems: list[PackProblem] = []
    data = read_yaml(path)
    if not isinstance(data, Mapping):
        raise PackError([PackProblem(file, "", "", "must be a mapping with `ruleset` and `rules`")])
    for key in data:
        if key not in {"ruleset", "source", "rules"}:
            problems.append(PackProblem(file, "", str(key), "unknown section"))
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or not re.match(KEBAB, ruleset):
        problems.append(PackProblem(file, "", "ruleset", "the ruleset's kebab-case name"))
        ruleset = ""
    if "rules" not in data:
        problems.append(PackProblem(file, "", "rules", "section is missing"))
    entries: list[RuleEntry] = load_entries(
        RuleEntrySchema(), data.get("rules", []), file, "rules", problems
    )
    for rule_id, count in Counter(entry.id for entry in entries).items():
        if count > 1:
            problems.append(
                PackProblem(file, rule_id, "id", f"duplicate rule id ({count} entries)")
            )
    if problems:
        raise PackError(problems)
    return RulesCatalogue(ruleset=ruleset, entries={entry.id: entry for entry in entries})
