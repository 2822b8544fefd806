"""JSON form of a ruleset's state (snapshots, positions): a generic codec driven by the
dataclasses' type hints, so that a field added to a model needs no codec change. Round trips
exactly. A union of dataclasses is told apart by a `kind` tag holding the class's name."""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any, TypeVar, Union

T = TypeVar("T")
ADDED_LATER = "chronicle.added_later"


def added_later(default: T) -> T:
    """A dataclass field added to a model after games were recorded with it: encoded only when
    it differs from `default`, so that every state of an older game encodes (and hashes) as it
    always did."""
    field: T = dataclasses.field(default=default, metadata={ADDED_LATER: True})
    return field


class Codec:
    """Encodes and decodes the dataclass states of one ruleset family. `tagged`: the classes
    of the unions it tells apart by name; `namespace`: the names its type hints may use
    besides those of each class's own module."""

    def __init__(self, tagged: Iterable[type] = (), namespace: Mapping[str, Any] | None = None):
        self.tagged = {cls.__name__: cls for cls in tagged}
        self.namespace = dict(namespace or {})
        self._hints_of: dict[type, dict[str, Any]] = {}
        self._fields_of: dict[type, tuple[tuple[str, bool, Any], ...]] = {}

    def _fields(self, cls: type) -> tuple[tuple[str, bool, Any], ...]:
        """Each field's name, whether it was added later, and its default."""
        found = self._fields_of.get(cls)
        if found is None:
            found = tuple(
                (f.name, bool(f.metadata.get(ADDED_LATER)), f.default)
                for f in dataclasses.fields(cls)
            )
            self._fields_of[cls] = found
        return found

    def _hints(self, cls: type) -> dict[str, Any]:
        hints = self._hints_of.get(cls)
        if hints is None:
            module = sys.modules[cls.__module__]
            hints = typing.get_type_hints(cls, {**self.namespace, **vars(module)})
            self._hints_of[cls] = hints
        return hints

    def encode(self, value: Any) -> Any:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            body = {}
            for name, later, default in self._fields(type(value)):
                field_value = getattr(value, name)
                if not (later and field_value == default):
                    body[name] = self.encode(field_value)
            if type(value).__name__ in self.tagged:
                body["kind"] = type(value).__name__
            return body
        if isinstance(value, Enum):
            return value.value
        if isinstance(value, frozenset | set):
            return sorted(self.encode(v) for v in value)
        if isinstance(value, tuple | list):
            return [self.encode(v) for v in value]
        if isinstance(value, Mapping):
            return {str(k): self.encode(v) for k, v in value.items()}
        return value

    def decode(self, kind: Any, data: Any) -> Any:
        origin = typing.get_origin(kind)
        if origin in (Union, types.UnionType):
            options = typing.get_args(kind)
            if data is None and type(None) in options:
                return None
            classes = [o for o in options if o is not type(None)]
            if isinstance(data, Mapping) and "kind" in data and data["kind"] in self.tagged:
                return self.decode(self.tagged[data["kind"]], data)
            return self.decode(classes[0], data)
        if origin is tuple:
            (item, *_) = typing.get_args(kind)
            return tuple(self.decode(item, v) for v in data)
        if origin is frozenset:
            (item,) = typing.get_args(kind)
            return frozenset(self.decode(item, v) for v in data)
        if origin in (Mapping, dict, typing.Mapping) or (
            origin is not None and isinstance(origin, type) and issubclass(origin, Mapping)
        ):
            key, item = typing.get_args(kind)
            return {self.decode(key, k): self.decode(item, v) for k, v in data.items()}
        if isinstance(kind, type) and dataclasses.is_dataclass(kind):
            hints = self._hints(kind)
            values = {
                f.name: self.decode(hints[f.name], data[f.name])
                for f in dataclasses.fields(kind)
                if f.name in data  # a field added later takes its default in an older snapshot
            }
            return kind(**values)
        if isinstance(kind, type) and issubclass(kind, Enum):
            return kind(data)
        if kind is int:
            return int(data)
        return data
