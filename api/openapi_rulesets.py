"""The document's components made per ruleset: its view, its feed of events, its options,
and the `oneOf` by ruleset of creating a game or a table."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from marshmallow.validate import Length

from schemas.api import CreateGameSchema
from schemas.views import view_schema
from service.rulesets import refused_pairs, ruleset

OPTION_TYPES = {"boolean": "boolean", "integer": "integer", "string": "string"}


def view_components(names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """`View_<ruleset>` for each ruleset that describes its view, and `View`: any of them (any
    object when a served ruleset describes none)."""
    components: dict[str, dict[str, Any]] = {}
    undescribed = False
    for name in names:
        schema = view_schema(name)
        if schema is None:
            undescribed = True
            continue
        components[f"View_{name}"] = schema
    choices = [{"$ref": f"#/components/schemas/{n}"} for n in components]
    if undescribed:
        choices.append({"type": "object", "description": "A ruleset that describes no view."})
    components["View"] = {
        "description": "The state as the caller may see it, by the game's ruleset.",
        **({"anyOf": choices} if len(choices) > 1 else choices[0]),
    }
    return components


def feed_components(feed: dict[str, Any], names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """`Feed_<ruleset>`: a page of a game's events, its `ruleset` fixed and its events those
    of that ruleset; `Feed`, their `oneOf` keyed by `ruleset`."""
    components: dict[str, dict[str, Any]] = {}
    for name in names:
        properties = dict(feed["properties"])
        properties["ruleset"] = {**properties["ruleset"], "const": name}
        properties["events"] = {
            "type": "array",
            "items": {"$ref": f"#/components/schemas/Event_{name}"},
        }
        components[f"Feed_{name}"] = {
            "type": "object",
            "description": f"A page of a `{name}` game's events.",
            "properties": properties,
            "required": feed["required"],
            "additionalProperties": False,
        }
    components["Feed"] = {
        "description": "A page of a game's events: `ruleset` tells which events it holds.",
        "oneOf": [{"$ref": f"#/components/schemas/Feed_{n}"} for n in names],
        "discriminator": {
            "propertyName": "ruleset",
            "mapping": {n: f"#/components/schemas/Feed_{n}" for n in names},
        },
    }
    return components


def ruleset_options(names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Each ruleset's options (as GET /rulesets lists them) as a JSON Schema object: what
    `options` may hold when a game of that ruleset is created."""
    documented = {}
    for name in names:
        properties = {}
        for option in ruleset(name).describe()["options"]:
            # the default is told, not given as `default`: generators read a property with a
            # `default` as always present (openapi-typescript makes it required), and an option
            # is one a client may leave out
            default = json.dumps(option["default"])
            prop: dict[str, Any] = {
                "type": OPTION_TYPES.get(option["type"], "string"),
                "description": f"{option['description'].rstrip('.')}. Left out: `{default}`.",
            }
            if option["allowed"] is not None:
                prop["enum"] = option["allowed"]
            properties[option["name"]] = prop
        documented[name] = {
            "type": "object",
            "description": f"The options of a `{name}` game; any left out take their default.",
            "properties": properties,
            "additionalProperties": False,
        }
        refused = refused_pairs(name)
        if refused:
            documented[name]["description"] += " Some options exclude others (`not`)."
            documented[name]["allOf"] = [
                {
                    "not": {
                        "properties": {a: {"const": va}, b: {"const": vb}},
                        "required": [a, b],
                    }
                }
                for (a, va), (b, vb) in refused
            ]
    return documented


def create_game_components(names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """`CreateGame_<ruleset>` for each ruleset (its name, its player counts, its options) and
    `CreateGame`, their `oneOf` keyed by `ruleset`: a client picks the ruleset and is then told
    exactly what that game takes."""
    fields = CreateGameSchema().fields
    name_field = player_name_schema(fields["players"])
    components: dict[str, dict[str, Any]] = {}
    for name in names:
        counts = sorted(ruleset(name).describe()["player_counts"])
        players: dict[str, Any] = {
            "type": "array",
            "description": f"Player names in seat order, seat 0 first: {counts_text(counts)} "
            "players, names people can tell apart (see the item's format).",
            "items": name_field,
            "minItems": counts[0],
            "maxItems": counts[-1],
            "uniqueItems": True,
        }
        components[f"CreateGame_{name}"] = {
            "type": "object",
            "description": f"A `{name}` game.",
            "properties": {
                "ruleset": {"type": "string", "const": name, "description": "The ruleset."},
                "players": players,
                "options": {
                    "$ref": f"#/components/schemas/Options_{name}",
                    "description": "The game's options; the ones left out take their defaults.",
                },
            },
            "required": ["ruleset", "players"],
            "additionalProperties": False,
            "examples": [{"ruleset": name, "players": EXAMPLE_PLAYERS[: counts[0]]}],
        }
    components["CreateGame"] = {
        "description": "A new game: its ruleset (`GET /rulesets` lists them), the players in "
        "seat order, and the ruleset's options. `ruleset` tells which.",
        "oneOf": [{"$ref": f"#/components/schemas/CreateGame_{n}"} for n in names],
        "discriminator": {
            "propertyName": "ruleset",
            "mapping": {n: f"#/components/schemas/CreateGame_{n}" for n in names},
        },
    }
    return components


SHARED_TABLE_FIELDS = {"listing": "TableListing", "on_timeout": "OnTimeout", "bots": "BotName"}
"""A table's fields whose values are one enum for every ruleset: one component each, so that a
generated client has one enum of each, not one per ruleset."""


def create_table_components(
    table: dict[str, Any], names: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """`CreateTable_<ruleset>` for each ruleset (the table's fields, with its name fixed, its
    seats' count its player counts and its options its own) and `CreateTable`, their `oneOf`
    keyed by `ruleset`, like `CreateGame`."""
    components: dict[str, dict[str, Any]] = {}
    for name in names:
        counts = sorted(ruleset(name).describe()["player_counts"])
        properties = dict(table["properties"])
        properties["ruleset"] = {"type": "string", "const": name, "description": "The ruleset."}
        properties["players"] = {
            **properties["players"],
            "description": f"The seats' labels in seat order: {counts_text(counts)} seats.",
            "minItems": counts[0],
            "maxItems": counts[-1],
        }
        properties["options"] = {
            "$ref": f"#/components/schemas/Options_{name}",
            "description": "The game's options; the ones left out take their defaults (one "
            "the ruleset does not have is a 400 naming it).",
        }
        for field, component in SHARED_TABLE_FIELDS.items():
            shown = {k: v for k, v in properties[field].items() if k in ("description",)}
            properties[field] = {"$ref": f"#/components/schemas/{component}", **shown}
        components[f"CreateTable_{name}"] = {
            "type": "object",
            "description": f"A table of a `{name}` game.",
            "properties": properties,
            "required": table["required"],
            "additionalProperties": False,
            "examples": [{"ruleset": name, "players": EXAMPLE_PLAYERS[: counts[0]]}],
        }
    for field, component in SHARED_TABLE_FIELDS.items():
        components[component] = {
            k: v for k, v in table["properties"][field].items() if k in ("type", "enum")
        }
        default = table["properties"][field].get("default")
        if default is not None:
            components[component]["description"] = f"Left out: `{default}`."
    components["CreateTable"] = {
        "description": "A new table: its ruleset (`GET /rulesets` lists them), its seats in "
        "order, the ruleset's options, who may find it and its clock. `ruleset` tells which.",
        "oneOf": [{"$ref": f"#/components/schemas/CreateTable_{n}"} for n in names],
        "discriminator": {
            "propertyName": "ruleset",
            "mapping": {n: f"#/components/schemas/CreateTable_{n}" for n in names},
        },
    }
    return components


EXAMPLE_PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
PLAYER_NAME_FORMAT = "player-name"
"""A format of this document's own: a name people can tell apart (service/names.py)."""


def player_name_schema(players: Any) -> dict[str, Any]:
    """The JSON Schema of one player name, from the request schema's own validation, in the
    format that names the rest of the rule (which JSON Schema cannot say across the list)."""
    length = next(v for v in players.inner.validators if isinstance(v, Length))
    return {
        "type": "string",
        "format": PLAYER_NAME_FORMAT,
        "minLength": length.min,
        "maxLength": length.max,
        "description": f"`{PLAYER_NAME_FORMAT}`: at least one visible character and none that "
        "nobody sees (controls, zero-width, format, private-use or unassigned code points, line "
        "separators); no two names of a game alike once case, width, accents' encoding, runs of "
        "spaces and look-alike letters (a Cyrillic a for a Latin a) are folded. A name that "
        "breaks this is refused with 422 `invalid_names`.",
        "examples": ["Ann", "Zoë"],
    }


def counts_text(counts: list[int]) -> str:
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}" if len(counts) > 1 else str(counts[0])
    return ", ".join(map(str, counts))
