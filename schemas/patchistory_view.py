"""The Patchistory table as a seat sees it (`domain/patchistory/view.py` `view`), as JSON
Schema: what is behind another player's Player Screen (Goods, Votes, Building Tiles,
Prosperity Cards) is `null` or a count; a sealed choice shows only as made (`sealed`)."""

from __future__ import annotations

from typing import Any

from schemas.hotw_view import BOOL, INT, SEAT, STR, array, closed, counts, nullable
from schemas.views import register_view

CELL = {"type": "array", "items": INT, "minItems": 2, "maxItems": 2, "description": "[row, col]"}

TILE = closed(
    "A Tile side patched into the territory, its top-left square at (row, col), layer z.",
    tile=STR,
    side={"type": "string", "enum": ["white", "black", "capital"]},
    row=INT,
    col=INT,
    z=INT,
)

COVER = closed(
    "A Building Tile on a square: a Building, or a Wasteland side (its Building hidden).",
    row=INT,
    col=INT,
    building=nullable(STR),
    wasteland=BOOL,
)

GOODS = closed(
    "Behind the viewer's own Player Screen.",
    coin=INT,
    food=INT,
    resource=INT,
    culture=INT,
    votes=INT,
)

PLAYER = closed(
    "A civilization as the viewer sees it.",
    seat=SEAT,
    name=STR,
    capital=STR,
    tiles=array(TILE),
    covers=array(COVER),
    workers=array(CELL),
    born=INT,
    resting=INT,
    statuses=counts("The Reference Board (8 statuses) and the counts the Prosperity Cards rank."),
    political_points=INT,
    goods=nullable(GOODS),
    building_tiles=nullable(array(STR)),
    building_tile_count=INT,
    prosperity=nullable(array(STR)),
    prosperity_count=INT,
    sealed=BOOL,
)

ROUTE = closed(
    "A Trade Route: General (from a to b) or Allied; Workers as [seat, space].",
    id=INT,
    kind={"type": "string", "enum": ["general", "allied"]},
    a=SEAT,
    b=SEAT,
    workers=array(array(INT)),
    declared=BOOL,
    aggressors=array(SEAT),
)

OFFER = closed("A Tile in the Auction and the side it shows ('' either).", tile=STR, side=STR)
BID = closed("A bid standing in the Auction.", seat=SEAT, tile=INT, amount=INT)
WON = closed("A Tile won, waiting to be patched.", seat=SEAT, tile=STR, side=STR)
PENDING = closed("A decision the rules wait for.", kind=STR, seat=SEAT, numbers=array(INT))

VIEW: dict[str, Any] = closed(
    "The Patchistory table as the viewer may see it.",
    era=INT,
    round=INT,
    serial=INT,
    phase=STR,
    start_player=SEAT,
    awaiting=array(SEAT),
    capital_side={"type": "string", "enum": ["equality", "liberty"]},
    players=array(PLAYER),
    routes=array(ROUTE),
    auction=closed("The Auction.", offered=array(OFFER), bids=array(BID), participants=array(SEAT)),
    won=array(WON),
    pending=nullable(PENDING),
    sealing=array(SEAT),
    my_sealed=nullable(array(INT)),
    negotiations=array(INT),
    wars=array(INT),
    vote=closed("The Vote under way.", cards=array(STR), index=INT, votes_on=array(INT)),
    supply=counts("What is left: Trade Routes, Building Tiles, Terrain Tiles."),
    final=nullable(array(INT)),
    position={
        "type": "object",
        "description": "The whole state as the viewer may know it (for bots): another "
        "player's Goods (`coin`, `food`, `resource`, `culture`, `votes`), Building Tiles "
        "(`hand`) and Prosperity Cards (`prosperity`) are null, hidden behind their screen, and "
        "every player's `hand_count` and `prosperity_count` are given, as the table shows them.",
    },
)

register_view("patchistory", schema=VIEW)
