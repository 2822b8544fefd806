"""The marshmallow fields the card schemas of a History of the World pack share: ids,
provenance, counts, enum values."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from marshmallow import fields, validate

from domain.hotw.editions.hotw_2024.cards import Building
from packs.base import KEBAB

PROVENANCE = r"^(text p\d+|reconstructed)"


def one_of(values: Iterable[str]) -> validate.OneOf:
    return validate.OneOf(sorted(values))


def enum_values(enum: Iterable[Any]) -> list[str]:
    return [member.value for member in enum]


def kebab_id() -> fields.String:
    return fields.String(
        required=True, validate=validate.Regexp(KEBAB, error="must be a kebab-case id")
    )


def provenance_field() -> fields.String:
    return fields.String(
        required=True,
        validate=validate.Regexp(PROVENANCE, error="must start 'text pN' or 'reconstructed'"),
    )


def positive_count(minimum: int = 1) -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=minimum))


def building_list() -> fields.List[Any]:
    return fields.List(fields.String(validate=one_of(enum_values(Building))), load_default=list)


def optional_enum(kind: Callable[[str], Any], value: str | None) -> Any:
    return None if value is None else kind(value)
