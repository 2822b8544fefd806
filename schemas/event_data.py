"""Events as JSON Schema: one component per event type, its `data` typed from the event's own
dataclass fields, and `Event` as their `oneOf` keyed by `type` - so a client generated from the
document reads `event.data.land` of a `hotw.ArmyPlaced` as a typed field.

A private event another seat may not see arrives redacted (`redacted: true`): its `data` is then
the redacted form the rules chose (fewer fields). Such an event matches `RedactedEvent` and no
typed one (a typed event admits no `redacted` field), so `Event` stays an exact `oneOf`.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any

from domain.core.messages import ENVELOPE_FIELDS, Event

EVENT = "Event"
REDACTED = "RedactedEvent"
SCALARS = {int: "integer", str: "string", bool: "boolean", float: "number"}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def component_name(event_type: str) -> str:
    """`hotw.ArmyPlaced` → `Event_hotw.ArmyPlaced` (a component name may hold dots)."""
    return f"Event_{event_type}"


def json_type(hint: Any) -> dict[str, Any]:
    """The JSON Schema of a field's value as `plain_value` writes it."""
    if hint in SCALARS:
        return {"type": SCALARS[hint]}
    if isinstance(hint, type) and issubclass(hint, str):  # a StrEnum
        return {"type": "string", "enum": [str(v.value) for v in hint]}  # type: ignore[attr-defined]
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        options = [json_type(a) for a in args if a is not type(None)]
        schema = options[0] if len(options) == 1 else {"anyOf": options}
        if type(None) in args:
            return {"anyOf": [schema, {"type": "null"}]}
        return schema
    if origin is tuple and args and args[-1] is not Ellipsis:  # a fixed pair, triple...
        return {
            "type": "array",
            "prefixItems": [json_type(a) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    if origin in (tuple, list, frozenset, set):
        items = args[0] if args else Any
        return {"type": "array", "items": json_type(items)}
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        return {"type": "object"}
    return {}


def data_schema(cls: type[Event]) -> dict[str, Any]:
    """An event type's `data`: every field outside the envelope, all always written."""
    hints = typing.get_type_hints(cls)
    properties = {
        f.name: json_type(hints[f.name])
        for f in dataclasses.fields(cls)
        if f.name not in ENVELOPE_FIELDS
    }
    return {
        "type": "object",
        "properties": properties,
        "required": sorted(properties),
        "additionalProperties": False,
    }


def event_component(cls: type[Event], envelope: Mapping[str, Any]) -> dict[str, Any]:
    """One event type: the envelope with `type` fixed and `data` typed."""
    properties = dict(envelope["properties"])
    properties["type"] = {**properties["type"], "const": cls.TYPE_NAME}
    data = data_schema(cls)
    if not cls.__doc__ or cls.__doc__.startswith(cls.__name__ + "("):
        description = f"The event `{cls.TYPE_NAME}`."
    else:
        description = " ".join(cls.__doc__.split())
    properties["data"] = data
    properties.pop("redacted", None)
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(envelope.get("required", [])),
        "additionalProperties": False,
    }


def redacted_component(envelope: Mapping[str, Any], private: list[str]) -> dict[str, Any]:
    properties = dict(envelope["properties"])
    properties["type"] = {**properties["type"], "enum": private}
    properties["data"] = {
        "type": "object",
        "description": "Only what the rules let this seat know, such as whose it is and how many.",
    }
    properties["redacted"] = {"type": "boolean", "const": True}
    properties.pop("draws", None)
    return {
        "type": "object",
        "description": "A private event as a seat it is hidden from sees it.",
        "properties": properties,
        "required": [*envelope.get("required", []), "redacted"],
        "additionalProperties": False,
    }


def event_components(
    event_types: Iterable[type[Event]], envelope: Mapping[str, Any]
) -> dict[str, dict[str, Any]]:
    """A component per event type, the redacted data, and `Event`: their `oneOf` by `type`."""
    ordered = sorted(set(event_types), key=lambda cls: cls.TYPE_NAME)
    components = {component_name(cls.TYPE_NAME): event_component(cls, envelope) for cls in ordered}
    components[REDACTED] = redacted_component(envelope, [cls.TYPE_NAME for cls in ordered])
    components[EVENT] = {
        "description": "One event as the caller may see it: typed by its `type`, or redacted.",
        "oneOf": [*(ref(component_name(cls.TYPE_NAME)) for cls in ordered), ref(REDACTED)],
    }
    return components
