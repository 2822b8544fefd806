"""Load ``revisions.yaml`` of a History of the World pack: what the Event cards read before each
revision of the rules that changed them (``domain.hotw.editions.hotw_2024.revisions``). Every
entry names a revision the ruleset has, an Event card of the pack, one of its effects and a
field of that effect; a problem names the file, the entry and the field."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from domain.hotw.editions.hotw_2024 import REVISIONS
from domain.hotw.editions.hotw_2024.cards import Cards
from domain.hotw.editions.hotw_2024.revisions import EarlierValue
from packs.base import PackProblem, read_yaml, validate_entries

REVISIONS_FILE = "revisions.yaml"


class _Value(fields.Field[Any]):
    """A field's earlier value: a boolean, a whole number, a word or null."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if value is not None and not isinstance(value, bool | int | str):
            raise self.make_error("invalid")
        return value

    default_error_messages = {"invalid": "must be a boolean, a whole number, a word or null"}


class EarlierValueSchema(Schema):
    revision = fields.Integer(
        required=True, strict=True, validate=validate.OneOf([r.number for r in REVISIONS[1:]])
    )
    event = fields.String(required=True)
    effect = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    field = fields.String(required=True)
    value = _Value(required=True, allow_none=True)

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> EarlierValue:
        return EarlierValue(**data)


def load_earlier(
    pack_dir: Path, cards: Cards | None, problems: list[PackProblem]
) -> tuple[EarlierValue, ...]:
    """The pack's earlier values (none when it has no revisions.yaml), checked against its
    cards; problems are added to `problems`."""
    path = pack_dir / REVISIONS_FILE
    if not path.is_file():
        return ()
    data = read_yaml(path)
    if not isinstance(data, Mapping) or set(data) - {"provenance", "earlier"}:
        problems.append(PackProblem(REVISIONS_FILE, "", "", "sections: provenance, earlier"))
        return ()
    loaded, found = validate_entries(
        EarlierValueSchema(), data.get("earlier", []), REVISIONS_FILE, "earlier", key="event"
    )
    problems += found
    if cards is not None:
        for earlier in loaded:
            problems += _checked(earlier, cards)
    return tuple(loaded)


def _checked(earlier: EarlierValue, cards: Cards) -> list[PackProblem]:
    def problem(field: str, message: str) -> list[PackProblem]:
        return [PackProblem(REVISIONS_FILE, earlier.event, field, message)]

    card = next((c for c in cards.all_events() if c.id == earlier.event), None)
    if card is None:
        return problem("event", "no such Event card in events.yaml")
    if earlier.effect >= len(card.effects):
        return problem("effect", f"the card has {len(card.effects)} effect(s)")
    effect = card.effects[earlier.effect]
    names = {f.name for f in dataclasses.fields(effect)}
    if earlier.field not in names:
        return problem("field", f"a {effect.kind} effect has no field {earlier.field!r}")
    if getattr(effect, earlier.field) == earlier.value:
        return problem("value", "the card reads this already: nothing changed")
    return []
