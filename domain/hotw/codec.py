"""JSON form of the state (snapshots): a generic codec driven by the dataclasses' type hints,
so that a field added to the model needs no codec change. Round trips exactly."""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from collections.abc import Mapping
from enum import Enum
from functools import cache
from typing import Any, Union

from domain.hotw.editions.hotw_2024 import model

_TAGGED = {cls.__name__: cls for cls in typing.get_args(model.Task)}


@cache
def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules[cls.__module__]
    return typing.get_type_hints(cls, {**vars(model), **vars(module)})


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        body = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if type(value).__name__ in _TAGGED:
            body["kind"] = type(value).__name__
        return body
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset | set):
        return sorted(encode(v) for v in value)
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    return value


def decode(kind: Any, data: Any) -> Any:
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        options = typing.get_args(kind)
        if data is None and type(None) in options:
            return None
        classes = [o for o in options if o is not type(None)]
        if isinstance(data, Mapping) and "kind" in data and data["kind"] in _TAGGED:
            return decode(_TAGGED[data["kind"]], data)
        return decode(classes[0], data)
    if origin is tuple:
        (item, *_) = typing.get_args(kind)
        return tuple(decode(item, v) for v in data)
    if origin is frozenset:
        (item,) = typing.get_args(kind)
        return frozenset(decode(item, v) for v in data)
    if origin in (Mapping, dict, typing.Mapping) or (
        origin is not None and isinstance(origin, type) and issubclass(origin, Mapping)
    ):
        key, item = typing.get_args(kind)
        return {decode(key, k): decode(item, v) for k, v in data.items()}
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        values = {
            f.name: decode(hints[f.name], data[f.name])
            for f in dataclasses.fields(kind)
            if f.name in data  # a field added later takes its default in an older snapshot
        }
        return kind(**values)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(data)
    if kind is int:
        return int(data)
    return data


def encode_state(state: model.HotwState) -> dict[str, Any]:
    body: dict[str, Any] = encode(state)
    return body


def decode_state(data: Any) -> model.HotwState:
    state: model.HotwState = decode(model.HotwState, data)
    return state
