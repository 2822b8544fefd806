"""Events as JSON Schema: one component per event type, its `data` typed from the event's own
dataclass fields, and `Event` as their `oneOf` keyed by `type` - so a client generated from the
document reads `event.data.land` of a `hotw.ArmyPlaced` as a typed field.

A private event another seat may not see arrives redacted (`redacted: true`): its `data` is then
the redacted form the rules chose (fewer fields). Such an event matches `RedactedEvent` and no
typed one (a typed event admits no `redacted` field), so `Event` stays an exact `oneOf`.

A `data` shape that several event types share (a card and a seat, a land and a seat...) is one
component, `EventData_<its fields>`, that each of them refers to: a generated client has one
model for it instead of one per event type.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from domain.core.messages import ENVELOPE_FIELDS, Event

EVENT = "Event"
TYPED = "TypedEvent"
REDACTED = "RedactedEvent"
VISIBILITY = "Visibility"
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


def shared_data_components(
    classes: Iterable[type[Event]],
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """The `data` shapes that two event types or more have alike, each as a component named
    after its fields (`EventData_card-seat`), and the component each such type refers to."""
    users: defaultdict[str, list[str]] = defaultdict(list)
    for cls in classes:
        users[json.dumps(data_schema(cls), sort_keys=True)].append(cls.TYPE_NAME)
    components: dict[str, dict[str, Any]] = {}
    refers: dict[str, str] = {}
    for shape, types_ in sorted(users.items(), key=lambda item: sorted(item[1])):
        if len(types_) < 2:
            continue
        schema = json.loads(shape)
        name = f"EventData_{'-'.join(sorted(schema['properties'])) or 'none'}"
        while name in components:
            name += "_"
        listed = ", ".join(f"`{t}`" for t in sorted(types_))
        components[name] = {"description": f"The data of {listed}.", **schema}
        refers.update(dict.fromkeys(types_, name))
    return components, refers


def event_component(
    cls: type[Event], envelope: Mapping[str, Any], shared: Mapping[str, str]
) -> dict[str, Any]:
    """One event type: the envelope with `type` fixed and `data` typed (a reference to the
    shared shape it has, if another type has it too)."""
    # `type` first: a generator that tries a union's members in turn (openapi-python-client
    # reads no discriminator) reads the fields in this order, so a wrong member fails at once.
    properties = {"type": {**envelope["properties"]["type"], "const": cls.TYPE_NAME}}
    properties.update((k, v) for k, v in envelope["properties"].items() if k != "type")
    data = ref(shared[cls.TYPE_NAME]) if cls.TYPE_NAME in shared else data_schema(cls)
    if not cls.__doc__ or cls.__doc__.startswith(cls.__name__ + "("):
        description = f"The event `{cls.TYPE_NAME}`."
    else:
        description = " ".join(cls.__doc__.split())
    properties["data"] = data
    properties["visibility"] = ref(VISIBILITY)
    properties.pop("redacted", None)
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(envelope.get("required", [])),
        "additionalProperties": False,
    }


def redacted_component(envelope: Mapping[str, Any], private: list[str]) -> dict[str, Any]:
    # `redacted` first, for the same reason: a typed event fails this member at its first field.
    properties: dict[str, Any] = {"redacted": {"type": "boolean", "const": True}}
    properties.update((k, v) for k, v in envelope["properties"].items() if k != "redacted")
    properties["type"] = {**properties["type"], "enum": private}
    properties["data"] = {
        **ref(REDACTED_DATA),
        "description": "Only what the rules let this seat know, such as whose it is and how many.",
    }
    properties["visibility"] = ref(VISIBILITY)
    properties.pop("draws", None)
    return {
        "type": "object",
        "description": "A private event as a seat it is hidden from sees it.",
        "properties": properties,
        "required": ["redacted", *envelope.get("required", [])],
        "additionalProperties": False,
    }


REDACTED_DATA = "RedactedData"
REDACTED_FIELDS: dict[str, tuple[Any, str]] = {
    "seat": ({"type": "integer", "minimum": 0}, "The seat the hidden fact is about."),
    "count": ({"type": "integer", "minimum": 0}, "How many (cards, tiles, tokens...)."),
    "from_seat": ({"type": "integer", "minimum": 0}, "The seat that passed or gave them."),
    "to_seat": ({"type": "integer", "minimum": 0}, "The seat that received them."),
    "epoch": ({"type": "integer", "minimum": 1}, "The epoch they belong to."),
    "colour": ({"type": "integer", "minimum": 0}, "The colour (Brief History) concerned."),
    "kind": ({"type": "string"}, "What kind of cards or tokens."),
    "face_up": ({"type": "boolean"}, "Whether the token lies face up."),
    "points": ({}, "Points concerned."),
    "card": ({}, "The card shown (an id of the data pack)."),
    "what": ({}, "What was maintained or exchanged."),
    "giver": ({}, "The seat that gives."),
    "to": ({}, "The seat offered to."),
    "against": ({}, "The seat threatened."),
    "accepted": ({}, "Whether it was accepted."),
    "success": ({}, "Whether it succeeded."),
    "demand": ({}, "What was demanded."),
    "owner": ({}, "The owning seat (-1: none)."),
    "at": ({}, "A square's coordinates."),
    "coin": ({}, "Coin concerned."),
    "culture": ({}, "Culture concerned."),
    "resources": ({}, "Resources concerned."),
    "military": ({}, "Military strength concerned."),
    "bonus": ({}, "A bonus concerned."),
}
"""The fields a ruleset's redacted forms use (tests/unit/test_redacted_data.py holds every
redacted form of the golden games to them): the rules choose which a private event shows. Those
every ruleset gives one type are typed; Patchistory's, which redact an event to some of its own
fields (a number in one event, a list in another), are named and described only."""

REDACTED_DATA_SCHEMA = {
    "type": "object",
    "description": "What everyone but the seats a private event is for reads as its `data`: "
    "only what the rules let them know (whose it is, how many...). Each ruleset's events choose "
    "some of these fields; one not listed here may come too.",
    "properties": {
        name: {**schema, "description": text} for name, (schema, text) in REDACTED_FIELDS.items()
    },
    "additionalProperties": True,
}


VISIBILITY_SCHEMA = {
    "type": "object",
    "description": "Who may see an event: everyone (`public`), or the listed seats "
    "(`private`); everyone else reads the event redacted.",
    "properties": {
        "scope": {"type": "string", "enum": ["public", "private"]},
        "seats": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "description": "The seats that see a private event in full.",
        },
        "redacted": {
            **ref(REDACTED_DATA),
            "description": "What everyone else reads as a private event's `data`.",
        },
    },
    "required": ["scope"],
    "additionalProperties": False,
}


def typed_union(name: str, types: Iterable[str], description: str) -> dict[str, Any]:
    """A `oneOf` of typed events with a `type` discriminator and its complete mapping (each
    member fixes `type` with `const`, so the mapping is exact)."""
    ordered = sorted(set(types))
    return {
        "description": description,
        "oneOf": [ref(component_name(t)) for t in ordered],
        "discriminator": {
            "propertyName": "type",
            "mapping": {t: ref(component_name(t))["$ref"] for t in ordered},
        },
    }


def event_components(
    event_types: Iterable[type[Event]],
    envelope: Mapping[str, Any],
    by_ruleset: Mapping[str, Iterable[type[Event]]],
) -> dict[str, dict[str, Any]]:
    """A component per event type; `TypedEvent`, every type, and `TypedEvent_<ruleset>`, the
    types of one ruleset, each a `oneOf` with a `type` discriminator; the redacted form
    (`RedactedEvent`); `Event`, a typed event or a redacted one, and `Event_<ruleset>` the
    same for one ruleset (`redacted: true` tells the two apart)."""
    ordered = sorted(set(event_types), key=lambda cls: cls.TYPE_NAME)
    shared_data, shared = shared_data_components(ordered)
    components = {
        component_name(cls.TYPE_NAME): event_component(cls, envelope, shared) for cls in ordered
    }
    components.update(shared_data)
    components[VISIBILITY] = VISIBILITY_SCHEMA
    components[REDACTED_DATA] = REDACTED_DATA_SCHEMA
    components[REDACTED] = redacted_component(envelope, [cls.TYPE_NAME for cls in ordered])
    components[TYPED] = typed_union(
        TYPED, (cls.TYPE_NAME for cls in ordered), "An event of any ruleset, in full."
    )
    components[EVENT] = {
        "description": "One event as the caller may see it: redacted (`RedactedEvent`, "
        "`redacted: true`), or in full (`TypedEvent`, picked by its `type`).",
        # The redacted form first: it fails a typed event at its first field (`redacted`),
        # where a typed member would let a redacted event try every type before it.
        "oneOf": [ref(REDACTED), ref(TYPED)],
    }
    for name, classes in by_ruleset.items():
        components[f"{TYPED}_{name}"] = typed_union(
            name, (cls.TYPE_NAME for cls in classes), f"An event of a `{name}` game, in full."
        )
        components[f"{EVENT}_{name}"] = {
            "description": f"One event of a `{name}` game as the caller may see it: redacted "
            "(`redacted: true`), or in full, picked by its `type`.",
            "oneOf": [ref(REDACTED), ref(f"{TYPED}_{name}")],
        }
    return components
