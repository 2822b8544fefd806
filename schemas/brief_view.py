"""A Brief History of the World's table as a seat sees it (`domain/hotw/editions/brief2009/
engine.py` `seat_view`), as JSON Schema: what a seat may not see is `null` (another player's
Event cards, another colour's Empire card and Bonus tokens, the Bonus tokens in front of
another colour) or left out (the cards in front of another chooser, another's sealed choice)."""

from __future__ import annotations

from typing import Any

from schemas.hotw_view import (
    BOOL,
    INT,
    SEAT,
    STR,
    array,
    closed,
    counts,
    described,
    nullable,
    secret,
    titled,
)
from schemas.views import register_view

COLOUR = {
    "type": "integer",
    "minimum": 0,
    "description": "A colour (a seat's; two each with two players).",
    "x-colour": True,
}
KIND_MAP = {
    "type": "object",
    "propertyNames": {"enum": ["empire", "event"]},
    "additionalProperties": array(STR),
}

PLAYER = closed(
    "A player as the viewer sees it.",
    seat=SEAT,
    name=STR,
    colours=array(COLOUR),
    hand=secret(nullable(array(STR))),
    hand_count=INT,
)

COLOUR_VIEW = closed(
    "A colour: its gold marker, supply, and (to its own player) its Empire card and Bonus tokens.",
    colour=COLOUR,
    seat=SEAT,
    gold=INT,
    arrived=INT,
    track_space=INT,
    stacked_on=INT,
    supply=INT,
    empire=secret(nullable(STR), "hidden from you, or none"),
    bonus=secret(nullable(array(STR))),
    bonus_count=INT,
)

LAND = closed(
    "What stands in a land: an army (standing or resigned) and buildings.",
    colour=titled(nullable(COLOUR), "Held by"),
    standing=titled(BOOL, "A standing army (not a resigned one)"),
    buildings=array({"type": "string", "enum": ["capital", "city", "fort", "monument"]}),
)

ALLOCATION = closed(
    "Organisation and Allocation: this round's choosers and what the viewer holds of it.",
    round=INT,
    empire_order=array(COLOUR),
    event_order=array(COLOUR),
    choosers=closed("The colour choosing each kind this round.", empire=COLOUR, event=COLOUR),
    pile=KIND_MAP,
    kept={
        "type": "object",
        "propertyNames": {"enum": ["empire", "event"]},
        "additionalProperties": STR,
    },
    sealed=array(SEAT),
)

FORCE = closed(
    "An Empire being played (the called one, or an Event Empire).",
    raised_by=STR,
    event=BOOL,
    array=INT,
    dial=INT,
    barbarian=BOOL,
    feature=nullable(STR),
    lands=array(STR),
    stopped=BOOL,
)

TURN = closed(
    "The Empire turn in progress.",
    colour=COLOUR,
    empire=STR,
    phase={"type": "string", "enum": ["opening", "expanding"]},
    forces=array(FORCE),
    fleets=array(STR),
    leader=BOOL,
    weaponry=BOOL,
    astronomy=BOOL,
    crossings=INT,
    invasion=nullable(closed("A failed invasion waiting.", land=STR, defender=COLOUR, via=STR)),
    overrun=nullable(closed("Unused invasion points.", land=STR, defender=COLOUR, points=INT)),
    monuments_due=INT,
    armies_left=described(INT, "Armies left in the Arrays of the Forces still expanding."),
)

BONUS = closed(
    "The Conclusion's Bonus tokens going down the gold order.",
    order=array(COLOUR),
    position=INT,
    offered=nullable(array(STR)),
    offered_count=INT,
)

VIEW: dict[str, Any] = closed(
    "A Brief History of the World's table as the viewer may see it.",
    epoch=INT,
    stage={"type": "string", "enum": ["allocating", "turns", "bonus", "over"]},
    players=array(PLAYER),
    colours=array(COLOUR_VIEW),
    lands={"type": "object", "additionalProperties": LAND, "description": "Occupied lands."},
    area_values=counts("This Epoch's Area values."),
    call_index=INT,
    allocation=nullable(ALLOCATION),
    turn=nullable(TURN),
    bonus=nullable(BONUS),
    bonus_tokens_left=INT,
    supply=counts("The shared supply by piece kind."),
    awaiting=array(SEAT),
    final=nullable(array(INT)),
    result=nullable(array(array(SEAT))),
)

register_view("brief-2009", schema=VIEW)
