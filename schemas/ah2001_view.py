"""The Avalon Hill 2001 table as a seat sees it (`domain/hotw/editions/ah2001/view.py`
`view`), as JSON Schema: what a seat may not see is `null` (another player's hand, the card
another drawer looks at, pre-eminence values before the end) or a count."""

from __future__ import annotations

from typing import Any

from schemas.hotw_view import (
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

BOOL = {"type": "boolean"}

PLAYER = closed(
    "A player as the viewer sees it.",
    seat=SEAT,
    name=STR,
    points=INT,
    hand=secret(nullable(array(STR))),
    hand_count=INT,
    empires=array(STR),
    pre_eminence_markers=INT,
    pre_eminence=secret(nullable(INT), "face down until the end"),
)

LAND = closed(
    "What stands in a land: a player's armies (their epoch's figure; more than one only with "
    "the multiple_armies option) and buildings.",
    owner=titled(nullable(SEAT), "Held by"),
    figure=titled(INT, "Army", "an Epoch {} army"),
    armies=titled(INT, "Armies in the land"),
    buildings=array({"type": "string", "enum": ["capital", "city", "fort", "monument"]}),
)

EMPIRE_IN_PLAY = closed(
    "Simultaneous empires: an Empire of the epoch waiting for its rounds.",
    seat=SEAT,
    empire=STR,
    card_empire=nullable(STR),
    pool=INT,
    started=BOOL,
    terminated=BOOL,
)

SEA_HELD = closed(
    "A fleet with an army on it holding a sea (the naval_control option).",
    owner=titled(SEAT, "Held by"),
    figure=titled(INT, "Army", "an Epoch {} army"),
)

DRAWING = closed(
    "Empire cards being handed out.",
    order=array(SEAT),
    position=INT,
    cards_left=INT,
    drawn=nullable(STR),
    holding=array(SEAT),
)

TURN = closed(
    "The Active Empire's turn; `card_empire` names the Minor Empire or Crusade card whose "
    "Empire is playing inside it, `pending` a card waiting for its targets (`picks` so far).",
    seat=SEAT,
    empire=STR,
    pool=INT,
    armies_left=described(INT, "Armies the Active Empire has left to place (its pool)."),
    fleets=array(STR),
    lands=array(STR),
    monuments_due=INT,
    card_empire=nullable(STR),
    pending=nullable(STR),
    picks=array(STR),
)

VIEW: dict[str, Any] = closed(
    "The Avalon Hill 2001 table as the viewer may see it.",
    epoch=INT,
    stage=STR,
    players=array(PLAYER),
    lands={"type": "object", "additionalProperties": LAND, "description": "Occupied lands."},
    drawing=nullable(DRAWING),
    my_empire=nullable(STR),
    turn=nullable(TURN),
    empires=array(EMPIRE_IN_PLAY),
    options=array(STR),
    seas={
        "type": "object",
        "additionalProperties": SEA_HELD,
        "description": "Seas held by manned fleets (naval_control option), by sea id.",
    },
    supply=counts("The shared supply by piece kind."),
    markers_left=INT,
    awaiting=array(SEAT),
    result=nullable(array(array(SEAT))),
)

register_view("hotw-ah2001", schema=VIEW)
