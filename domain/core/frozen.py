"""Building frozen, unslotted dataclass records through their ``__dict__``: a fraction of the
cost of the frozen ``__init__`` (one ``object.__setattr__`` per field) or ``dataclasses.replace``,
for the records that every folded event builds anew."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")
_new = object.__new__
_set_attr = object.__setattr__


def built(cls: type[T], attrs: dict[str, Any]) -> T:
    """An instance of `cls` with exactly `attrs` (every field, no ``__post_init__``)."""
    new: T = _new(cls)
    _set_attr(new, "__dict__", attrs)
    return new


def evolved(obj: T, **changes: Any) -> T:
    """A copy of a frozen unslotted dataclass with `changes` applied."""
    attrs = obj.__dict__.copy()
    attrs.update(changes)
    new = _new(type(obj))  # `built`, inlined: this runs a few times for every folded event
    _set_attr(new, "__dict__", attrs)
    return new
