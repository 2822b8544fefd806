"""Commands as JSON Schema: each ruleset's command types (`Ruleset.command_schemas`) and the
kernel's table commands (`TABLE_COMMAND_SPECS`) become one schema per command type, with a
`type` discriminator, for the OpenAPI document; the API loads a command with `CommandField`.

A legal action is a command request body: the legal-actions endpoint lists exactly what the
commands endpoint takes, under the same schema, so a client posts it back without conversion.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from marshmallow import fields

from domain.core.ruleset import CommandSpec, Ruleset
from domain.core.table import TABLE_COMMAND_SPECS

JSON_TYPES = {"boolean": "boolean", "integer": "integer", "string": "string"}
COMMAND = "Command"
"""The component every command body refers to: any command of any ruleset documented."""


def pascal(text: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", text) if part)


def command_component(spec: CommandSpec) -> dict[str, Any]:
    """One command type as a JSON Schema object: `type` fixed, its arguments typed."""
    properties: dict[str, Any] = {
        "type": {"type": "string", "const": spec.type, "description": "The command type."}
    }
    required = ["type"]
    for arg in spec.args:
        described = arg.describe()
        prop: dict[str, Any] = {"type": JSON_TYPES.get(described["type"], "string")}
        if arg.description:
            prop["description"] = arg.description
        if arg.allowed is not None:
            prop["enum"] = list(arg.allowed)
        if arg.minimum is not None:
            prop["minimum"] = arg.minimum
        properties[arg.name] = prop
        if arg.required:
            required.append(arg.name)
    return {
        "type": "object",
        "description": spec.description,
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


ANY_COMMAND = {
    "type": "object",
    "description": "A command of a ruleset that does not describe its commands: its `type` and "
    "its arguments, as the legal-actions endpoint lists them.",
    "properties": {"type": {"type": "string", "minLength": 1, "maxLength": 100}},
    "required": ["type"],
    "additionalProperties": True,
}


def command_components(rulesets: Mapping[str, Ruleset[Any]]) -> dict[str, dict[str, Any]]:
    """The document's command schemas, by component name: `Command`, a `oneOf` with a `type`
    discriminator of one schema per command type (`<Type>Command`; a type that rulesets shape
    differently takes every argument any of them uses). Only when a ruleset does not describe
    its commands (a test's toy) does the document hold each ruleset's own commands
    (`Commands_<ruleset>`, suffixed `_<ruleset>` where shapes differ), `Command` being any of
    those."""
    shapes: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    per_ruleset: dict[str, list[CommandSpec]] = {}
    for name, rules in rulesets.items():
        specs = [*rules.command_schemas()]
        per_ruleset[name] = specs
        for spec in [*specs, *TABLE_COMMAND_SPECS]:
            shape = command_component(spec)
            listed = shapes.setdefault(spec.type, [])
            if all(existing != shape for _, existing in listed):
                listed.append((name, shape))
    components: dict[str, dict[str, Any]] = {}
    named: dict[tuple[str, str], str] = {}  # (ruleset, command type) -> component name
    for name, specs in per_ruleset.items():
        for spec in [*specs, *TABLE_COMMAND_SPECS]:
            shape = command_component(spec)
            variants = shapes[spec.type]
            component = f"{pascal(spec.type)}Command"
            if len(variants) > 1:
                owner = next(owner for owner, existing in variants if existing == shape)
                component = f"{component}_{owner}"
            components[component] = shape
            named[(name, spec.type)] = component
    unions = []
    for name, specs in per_ruleset.items():
        union = f"Commands_{name}"
        unions.append(union)
        if not specs:
            components[union] = {
                "oneOf": [
                    *(ref(named[(name, s.type)]) for s in TABLE_COMMAND_SPECS),
                    {**ANY_COMMAND, "not": {"properties": {"type": table_types()}}},
                ],
                "description": f"A command of a `{name}` game (its commands are not described).",
            }
            continue
        types = [s.type for s in [*specs, *TABLE_COMMAND_SPECS]]
        components[union] = {
            "description": f"A command of a `{name}` game: one of its command types, or a "
            "table procedure (undo, rewinds); `type` tells which.",
            "oneOf": [ref(named[(name, t)]) for t in types],
            "discriminator": {
                "propertyName": "type",
                "mapping": {t: ref(named[(name, t)])["$ref"] for t in types},
            },
        }
    described = all(per_ruleset.values())
    if not described:
        components[COMMAND] = {
            "description": "A command: its `type` and its arguments, as the legal-actions "
            "endpoint lists them. Which types a game takes depends on its ruleset "
            "(`Commands_<ruleset>`).",
            "anyOf": [ref(union) for union in unions],
        }
        return components
    # every ruleset describes its commands: the document needs only one schema per command type
    # (what `Command` refers to), not the rulesets' own unions and variants
    components = {}
    wire: dict[str, str] = {}
    for command_type, variants in shapes.items():
        component = f"{pascal(command_type)}Command"
        if len(variants) > 1:
            components[component] = merged_shape(command_type, variants)
        else:
            components[component] = variants[0][1]
        wire[command_type] = component
    components[COMMAND] = {
        "description": "A command: its `type` and its arguments, as the legal-actions endpoint "
        "lists them (any ruleset's; `GET /rulesets/{name}` lists the types and exact arguments "
        "a game of that ruleset takes). A type that rulesets shape differently has one schema "
        "here with every argument any of them uses, so that a client that reads a legal action "
        "keeps all of its arguments when it posts it back.",
        "oneOf": [ref(component) for component in wire.values()],
        "discriminator": {
            "propertyName": "type",
            "mapping": {t: ref(c)["$ref"] for t, c in wire.items()},
        },
    }
    return components


def merged_shape(command_type: str, variants: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """One schema for a command type several rulesets shape differently: every argument any
    of them takes (values allowed by any), required only where all require it."""
    properties: dict[str, Any] = {}
    required: list[str] | None = None
    for _, shape in variants:
        for name, prop in shape["properties"].items():
            if name not in properties:
                properties[name] = dict(prop)
                continue
            known = properties[name]
            if known.get("type") != prop.get("type"):
                properties[name] = {"description": known.get("description", "")}
            elif "enum" in known or "enum" in prop:
                if "enum" in known and "enum" in prop:
                    extra = [v for v in prop["enum"] if v not in known["enum"]]
                    known["enum"] = [*known["enum"], *extra]
                else:
                    known.pop("enum", None)
        names = [n for n in shape["required"]]
        required = names if required is None else [n for n in required if n in names]
    owners = ", ".join(f"`{owner}`" for owner, _ in variants)
    return {
        "type": "object",
        "description": f"`{command_type}` as any ruleset takes it ({owners}: see "
        "`GET /rulesets/{{name}}` for each one's exact arguments).",
        "properties": properties,
        "required": required or ["type"],
        "additionalProperties": False,
    }


def table_types() -> dict[str, Any]:
    return {"enum": sorted(spec.type for spec in TABLE_COMMAND_SPECS)}


def ref(component: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{component}"}


def component_field(
    converter: Any, field: fields.Field, ret: dict[str, Any], **_: Any
) -> dict[str, Any]:
    """An apispec attribute function: a field with `metadata={"component": "Command"}` is
    documented as that component (`$ref`) rather than by its marshmallow type."""
    component = field.metadata.get("component")
    if component is None:
        return {}
    description = ret.get("description")
    ret.clear()
    documented: dict[str, Any] = ref(component)
    if description:
        documented["description"] = description
    return documented


class CommandField(fields.Dict):
    """A command body (`{"type": ..., <arguments>}`), loaded as a JSON object with a `type`
    string; the document shows it as the `Command` component. Whether the arguments fit the
    game's command type is checked next, against the game's ruleset at its revision
    (`GameService.command_misfits`: a 400 naming the field), and whether the rules allow it last
    (a 422 naming the rule)."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"component": COMMAND, **kwargs.pop("metadata", {})}
        super().__init__(keys=fields.String(), values=fields.Raw(allow_none=True), **kwargs)
        self.metadata = {**self.metadata, **metadata}

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, Mapping):
            raise self.make_error("invalid")
        # a JSON object's keys are strings, and its values are the rules' to judge: nothing to
        # convert one by one
        loaded = dict(value)
        kind = loaded.get("type")
        if not isinstance(kind, str) or not 1 <= len(kind) <= 100:
            raise self.make_error("invalid_type")
        return loaded

    default_error_messages = {
        **fields.Dict.default_error_messages,
        "invalid_type": "A command needs a `type`: a string of 1 to 100 characters.",
    }
