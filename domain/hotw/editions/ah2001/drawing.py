"""The Avalon Hill 2001 board drawn by the History of the World map drawing: its lands, barren
lands and waters recast as the drawing's board (areas without an epoch, barren lands grey, a
water placed at the middle of the lands it touches), and the pieces a view shows (each army of
a stack, buildings, the turn's fleets and the manned fleets holding seas)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.narration import COLOUR_NAMES
from domain.hotw.board import Area, Board, Land, Sea, Terrain, Wasteland, WaterKind
from domain.hotw.drawing import board_svg, player_colour
from domain.hotw.editions.ah2001.board import Ah2001Board
from domain.hotw.marks import PieceMark
from domain.hotw.world import DIFFICULT_TERRAIN

_DRAWN: dict[int, tuple[Ah2001Board, Board]] = {}


def drawn_board(board: Ah2001Board, barren_lands: bool = False) -> Board:
    """The drawing's board for `board` (made once per board); `barren_lands`: barren lands are
    lands a player may hold (Brief), drawn grey, with room for pieces and clickable."""
    kept = _DRAWN.get(id(board) * 2 + barren_lands)
    if kept is None or kept[0] is not board:
        kept = (board, recast(board, barren_lands))
        _DRAWN[id(board) * 2 + barren_lands] = kept
    return kept[1]


BARREN = "barren"


def recast(board: Ah2001Board, barren_lands: bool = False) -> Board:
    areas = sorted({land.area for land in board.lands.values() if land.area is not None})
    if barren_lands:
        areas.append(BARREN)
    barren = frozenset() if barren_lands else barren_ids(board)
    lands = {
        land.id: Land(
            id=land.id,
            name=land.name,
            area=land.area,
            terrain=Terrain.DIFFICULT if land.terrain in DIFFICULT_TERRAIN else Terrain.CLEAR,
            terrain_kind=", ".join(
                [
                    *([land.terrain] if land.terrain in DIFFICULT_TERRAIN else []),
                    *(["resource symbol"] if land.resource else []),
                ]
            )
            or None,
            power_icon=None,
            neighbours=land.neighbours - barren,
            straits=land.straits,
            seas=land.seas,
            x=land.x,
            y=land.y,
        )
        for land in board.lands.values()
        if land.area is not None
    }
    if barren_lands:
        lands |= {
            land.id: Land(
                id=land.id,
                name=land.name,
                area=BARREN,
                terrain=Terrain.CLEAR,
                terrain_kind="barren",
                power_icon=None,
                neighbours=land.neighbours,
                straits=land.straits,
                seas=land.seas,
                x=land.x,
                y=land.y,
            )
            for land in board.lands.values()
            if land.area is None
        }
    wastes = {
        land.id: Wasteland(land.id, land.name, land.neighbours - barren, land.x, land.y)
        for land in board.lands.values()
        if land.area is None and not barren_lands
    }
    seas = {}
    for water in board.waters.values():
        x, y = water_place(board, water.id)
        oceans = frozenset(
            other
            for link in board.water_links
            if water.id in link
            for other in link - {water.id}
            if board.waters[other].kind == "ocean"
        )
        seas[water.id] = Sea(
            id=water.id,
            name=water.name,
            kind=WaterKind.OCEAN if water.kind == "ocean" else WaterKind.SEA,
            ocean=water.ocean,
            adjacent_oceans=oceans if water.kind == "ocean" else frozenset(),
            x=x,
            y=y,
        )
    named = {area: area.replace("-", " ").title() for area in areas} | {BARREN: "Barren lands"}
    return Board(
        lands=lands,
        seas=seas,
        wastelands=wastes,
        areas={area: Area(area, named[area], 0, ()) for area in areas},
        provenance="reconstructed",
        map_height=board.map_height,
    )


def water_place(board: Ah2001Board, water: str) -> tuple[float, float]:
    """Where the pack places a water's name, else the middle of the lands on its coasts."""
    placed = board.waters[water]
    if placed.x is not None and placed.y is not None:
        return placed.x, placed.y
    coast = [board.lands[land] for land in sorted(board.coasts[water])]
    return sum(land.x for land in coast) / len(coast), sum(land.y for land in coast) / len(coast)


def barren_ids(board: Ah2001Board) -> frozenset[str]:
    return frozenset(land.id for land in board.lands.values() if land.area is None)


def pieces_of_view(view: Mapping[str, Any]) -> dict[str, list[PieceMark]]:
    pieces: dict[str, list[PieceMark]] = {}
    for land, body in sorted((view.get("lands") or {}).items()):
        marks: list[PieceMark] = []
        owner = body.get("owner")
        if owner is not None:
            colour = player_colour(int(owner))
            label = f"seat {owner} army (Epoch {body.get('figure')} figure)"
            marks += [PieceMark("army", colour, label, int(owner))] * max(
                1, int(body.get("armies") or 1)
            )
        colour = player_colour(int(owner)) if owner is not None else "#ffffff"
        for building in sorted(body.get("buildings") or ()):
            marks.append(PieceMark(str(building), colour, str(building)))
        if marks:
            pieces[land] = marks
    turn = view.get("turn")
    if isinstance(turn, Mapping) and turn.get("seat") is not None:
        seat = int(turn["seat"])
        for water in turn.get("fleets") or ():
            pieces.setdefault(str(water), []).append(
                PieceMark("fleet", player_colour(seat), f"seat {seat} fleet", seat)
            )
    for water, held in sorted((view.get("seas") or {}).items()):
        seat = int(held["owner"])
        pieces.setdefault(str(water), []).append(
            PieceMark("fleet", player_colour(seat), f"seat {seat} fleet with an army", seat)
        )
    return pieces


def table_svg(board: Ah2001Board, view: Mapping[str, Any]) -> str:
    players = [
        f"{p.get('name')} ({COLOUR_NAMES[i % len(COLOUR_NAMES)]})"
        for i, p in enumerate(view.get("players") or ())
        if isinstance(p, Mapping)
    ]
    return board_svg(drawn_board(board), pieces_of_view(view), players or None)
