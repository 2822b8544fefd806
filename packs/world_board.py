"""The world board of a History of the World data pack (`board.yaml` of the Avalon Hill 2001
edition and of A Brief History of the World): its lands and waters validated entry by entry
(unknown fields rejected), then checked as a whole: borders and straits run both ways between
known lands, coasts, water links and Great Wall borders name known places, and the map is one
connected whole."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, post_load, validate

from domain.hotw.world import LandCell, Water, WorldBoard
from packs.base import PackProblem, StrictSchema, validate_entries

KEBAB = r"^[a-z0-9]+(-[a-z0-9]+)*$"


def _id() -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(KEBAB, error="kebab-case id"))


class LandSchema(StrictSchema):
    id = _id()
    name = fields.String(required=True)
    area = fields.String(required=True, allow_none=True)
    terrain = fields.String(
        required=True, validate=validate.OneOf(["clear", "forest", "mountains", "barren"])
    )
    resource = fields.Boolean(required=True)
    neighbours = fields.List(_id(), required=True)
    straits = fields.List(_id(), required=True)
    seas = fields.List(_id(), required=True)
    x = fields.Float(required=True)
    y = fields.Float(required=True)
    provenance = fields.String(load_default="")

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> LandCell:
        for name in ("neighbours", "straits", "seas"):
            data[name] = frozenset(data[name])
        return LandCell(**data)


class WaterSchema(StrictSchema):
    id = _id()
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["sea", "ocean"]))
    ocean = fields.String(required=True, allow_none=True)
    provenance = fields.String(load_default="")
    x = fields.Float(load_default=None)
    y = fields.Float(load_default=None)

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> Water:
        return Water(**data)


def load_world_board(doc: Any, file: str) -> tuple[WorldBoard, list[PackProblem]]:
    """The board a pack file holds (`lands`, `waters`, `water_links`, `great_wall`) and every
    problem found in it, entry by entry and as a whole."""
    doc = doc if isinstance(doc, dict) else {}
    lands, problems = validate_entries(LandSchema(), doc.get("lands"), file, "lands")
    waters, found = validate_entries(WaterSchema(), doc.get("waters"), file, "waters")
    problems += found
    board = WorldBoard(
        {land.id: land for land in lands},
        {water.id: water for water in waters},
        frozenset(frozenset(link) for link in doc.get("water_links", [])),
        frozenset(frozenset(pair) for pair in doc.get("great_wall", [])),
        frozenset((outside, behind) for outside, behind in doc.get("great_wall", [])),
        float(doc.get("map_height", 500)),
    )
    problems += board_problems(board, file)
    return board, problems


def board_problems(board: WorldBoard, file: str = "board.yaml") -> list[PackProblem]:
    """Every border and strait runs both ways between known lands; every coast, water link and
    Great Wall border names known places; the map is one connected whole."""
    problems = []
    for land in board.lands.values():
        for kind, others in (("neighbours", land.neighbours), ("straits", land.straits)):
            for other in sorted(others):
                if other not in board.lands:
                    problems.append(PackProblem(file, land.id, kind, f"no land {other}"))
                elif land.id not in getattr(board.lands[other], kind):
                    problems.append(
                        PackProblem(file, land.id, kind, f"{other} does not list it back")
                    )
        for water in sorted(land.seas - set(board.waters)):
            problems.append(PackProblem(file, land.id, "seas", f"no water {water}"))
    places = set(board.lands) | set(board.waters)
    for link in (*board.water_links, *board.great_wall):
        for place in sorted(link - places):
            problems.append(PackProblem(file, "", "links", f"no place {place}"))
    if not problems and board.connected() != set(board.lands):
        cut = sorted(set(board.lands) - board.connected())
        problems.append(PackProblem(file, "", "lands", f"cut off from the rest: {cut}"))
    return problems
