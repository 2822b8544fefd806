"""The History of the World table as a seat sees it
(`domain/hotw/editions/hotw_2024/view.py`), as JSON Schema:
the `view` of `GET /games/{id}/state` for every edition of the family. What a seat may not see
is `null` (another player's Area tokens and face-down Event card, an offer made to another
player) or a count (the Honor stack, the bag, hidden Empire cards)."""

from __future__ import annotations

from typing import Any

from schemas.views import register_view

INT: dict[str, Any] = {"type": "integer"}
SEAT: dict[str, Any] = {"type": "integer", "minimum": 0}
STR: dict[str, Any] = {"type": "string"}
BOOL: dict[str, Any] = {"type": "boolean"}


def array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def described(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {**schema, "description": description}


def titled(schema: dict[str, Any], title: str, words: str | None = None) -> dict[str, Any]:
    """A field with its name in words (`title`) and, in `x-words`, the phrase its value reads
    in for people (`an Epoch {} army`): the page's words for the view."""
    return {**schema, "title": title, **({"x-words": words} if words else {})}


def secret(schema: dict[str, Any], words: str = "hidden from you") -> dict[str, Any]:
    """A field that is `null` where the viewer may not see it: `x-hidden` says so in words."""
    return {**schema, "x-hidden": words}


def closed(description: str, **properties: dict[str, Any]) -> dict[str, Any]:
    """An object with exactly these properties, all present."""
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": sorted(properties),
        "additionalProperties": False,
    }


def counts(description: str) -> dict[str, Any]:
    return {"type": "object", "description": description, "additionalProperties": INT}


POOL = closed("Pieces in a pool.", people=INT, fleets=INT, great_wall_forts=INT)

PLAYER = closed(
    "A player's array as the viewer sees it.",
    seat=SEAT,
    name=STR,
    gold=INT,
    space=INT,
    circuits=INT,
    arrival=INT,
    supply=INT,
    honor_track=array(STR),
    pool_honors=array(STR),
    honor_stack=INT,
    area_tokens=secret(nullable(array(STR))),
    area_token_count=INT,
    leader=BOOL,
    event_card=secret(nullable(STR), "face down, or none"),
    has_event_card=BOOL,
    empire_cards=array(STR),
    hidden_empire_cards=INT,
    event_cards=array(STR),
)

LAND = closed(
    "What stands in a land.",
    owner=titled(nullable(SEAT), "Held by"),
    army=titled(BOOL, "A standing army (not a garrison)"),
    buildings=array({"type": "string", "enum": ["capital", "city", "fort", "monument"]}),
    great_wall=BOOL,
)

TURN = closed(
    "The current player turn.",
    seat=SEAT,
    card=STR,
    event_card=nullable(STR),
    empire_index=INT,
    phase=STR,
    pool=POOL,
    event_pool=POOL,
    armies_left=described(INT, "Armies (people) the Empire has left to place, both pools."),
    fleets=array(STR),
    event_fleets=array(STR),
    leader_active=BOOL,
    leader_ignores=nullable(STR),
    invasion_modifier=nullable(closed("Option 3's counter.", land=STR, modifier=INT)),
)

PENDING = {
    "type": "object",
    "description": "The process awaiting a choice: its task and seat, and what it offers.",
    "properties": {
        "task": STR,
        "seat": SEAT,
        "source": STR,
        "source_id": STR,
        "effect": INT,
        "enemy": SEAT,
        "conquest_points": INT,
        "lands": array(STR),
        "pool": STR,
        "barbarian": BOOL,
        "command": STR,
        "options": array(STR),
    },
    "required": ["seat", "task"],
    "additionalProperties": False,
}

ENDGAME_TOKEN = closed("An Endgame space's token.", epoch=INT, face_up=BOOL, token=nullable(STR))

VIEW = closed(
    "The History of the World table as the viewer may see it.",
    epoch=INT,
    stage=STR,
    dice=BOOL,
    options=array(STR),
    step=nullable(STR),
    players=array(PLAYER),
    gold_order=array(SEAT),
    lands={"type": "object", "additionalProperties": LAND, "description": "Occupied lands."},
    supply=counts("The shared supply by piece kind."),
    bag=INT,
    active_areas=array(STR),
    endgame_tokens=array(ENDGAME_TOKEN),
    offer=nullable(array(STR)),
    offer_count=INT,
    choosing=array(SEAT),
    displayed=array(STR),
    empire_choices=counts("Known Empire cards and the seat that chose each."),
    turn_order=array(STR),
    turn_index=INT,
    cards_to_come=counts("Empire cards still to come, by epoch."),
    great_wall_on_map=array(STR),
    awaiting=array(SEAT),
    pending=nullable(PENDING),
    result=nullable({"type": "object", "description": "The standing (as `GET .../result`)."}),
    turn=nullable(TURN),
)

register_view("hotw-2024", schema=VIEW)
