"""Draw a History of the World board as SVG (plain string building, no dependencies).

Lands sit at their pack coordinates, coloured by area; difficult terrain has a dark ring and a
letter for its kind; power icons are small marks beside the land; borders are grey lines and
straits red dashes; seas (light blue) and oceans (dark blue) are linked to their coasts;
wastelands are grey. ``pieces`` optionally overlays armies, garrisons, fleets and buildings;
``table_svg`` draws them from a view (what its viewer may see), which is what the ruleset's
``draw_board`` hook answers. Pure string building: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from domain.hotw.board import Board, Land, PowerIcon, Sea

WIDTH = 1000
HEIGHT = 500
LEGEND_HEIGHT = 70
SCALE = 1.5
LAND_RADIUS = 8.0

AREA_COLOURS = (
    "#e6194b", "#3cb44b", "#ffe119", "#f58231", "#911eb4", "#46f0f0", "#f032e6",
    "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8", "#aaffc3",
    "#808000", "#ffd8b1",
)  # fmt: skip
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}
SEA_FILL = "#a9d8f5"
OCEAN_FILL = "#1f4e8c"
WASTE_FILL = "#9e9e9e"
STRAIT_COLOUR = "#d62728"
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")
"""Seat n's colour (the HTML replay's too)."""


@dataclass(frozen=True)
class PieceMark:
    """One piece to draw on a land or water: ``kind`` is army, garrison, fleet, capital, city,
    monument or fort; ``colour`` the player's colour."""

    kind: str
    colour: str
    label: str = ""


def _attrs(**attrs: object) -> str:
    return " ".join(
        f'{k.rstrip("_").replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items()
    )


def _line(x1: float, y1: float, x2: float, y2: float, **style: object) -> str:
    return (
        f"<line {_attrs(x1=f'{x1:.1f}', y1=f'{y1:.1f}', x2=f'{x2:.1f}', y2=f'{y2:.1f}', **style)}/>"
    )


def _text(x: float, y: float, content: str, **style: object) -> str:
    return f"<text {_attrs(x=f'{x:.1f}', y=f'{y:.1f}', **style)}>{escape(content)}</text>"


def area_colours(board: Board) -> dict[str, str]:
    return {area: AREA_COLOURS[i % len(AREA_COLOURS)] for i, area in enumerate(board.areas)}


def _wraps(x1: float, x2: float) -> bool:
    """A link longer than half the map is drawn as two stubs leaving opposite edges."""
    return abs(x1 - x2) > WIDTH / 2


def _link(x1: float, y1: float, x2: float, y2: float, **style: object) -> list[str]:
    if not _wraps(x1, x2):
        return [_line(x1, y1, x2, y2, **style)]
    left, right = ((x1, y1), (x2, y2)) if x1 < x2 else ((x2, y2), (x1, y1))
    mid_y = (y1 + y2) / 2
    return [
        _line(left[0], left[1], 0, mid_y, **style),
        _line(right[0], right[1], WIDTH, mid_y, **style),
    ]


def _water_links(board: Board) -> list[str]:
    out: list[str] = []
    for water in board.seas.values():
        for land_id in sorted(board.coasts_of(water.id)):
            land = board.lands[land_id]
            out += _link(
                water.x, water.y, land.x, land.y,
                stroke="#4a90c8", stroke_width=0.7, stroke_dasharray="2,2", opacity=0.8,
            )  # fmt: skip
        linked = set(water.adjacent_oceans) | ({water.ocean} if water.ocean else set())
        for other_id in sorted(linked):
            if water.is_ocean and other_id < water.id:
                continue  # each ocean-ocean link once
            other = board.seas[other_id]
            out += _link(
                water.x, water.y, other.x, other.y,
                stroke=OCEAN_FILL, stroke_width=2.5, stroke_dasharray="6,3", opacity=0.6,
            )  # fmt: skip
    return out


def _land_links(board: Board) -> list[str]:
    out: list[str] = []
    for land in board.lands.values():
        for other_id in sorted(land.neighbours):
            if other_id > land.id:
                other = board.lands[other_id]
                out += _link(land.x, land.y, other.x, other.y, stroke="#555", stroke_width=1.4)
        for other_id in sorted(land.straits):
            if other_id > land.id:
                other = board.lands[other_id]
                out += _link(
                    land.x, land.y, other.x, other.y,
                    stroke=STRAIT_COLOUR, stroke_width=2, stroke_dasharray="4,3",
                )  # fmt: skip
    return out


def _power_icon(icon: PowerIcon, x: float, y: float) -> str:
    """A small mark for each of the four power-icon kinds (p7)."""
    if icon is PowerIcon.CROWN:
        points = [
            (x - 4, y + 2), (x - 4, y - 2), (x - 2, y), (x, y - 3), (x + 2, y), (x + 4, y - 2),
            (x + 4, y + 2),
        ]  # fmt: skip
        pts = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        return f"<polygon {_attrs(points=pts, fill='#f5c518', stroke='#000', stroke_width=0.5)}/>"
    if icon is PowerIcon.SCROLL:
        return (
            f"<rect {_attrs(x=f'{x - 4:.1f}', y=f'{y - 2.5:.1f}', width=8, height=5, rx=1.5)}"
            ' fill="#f4e4bc" stroke="#000" stroke-width="0.5"/>'
        )
    if icon is PowerIcon.SWORD:
        return _line(x - 3.5, y + 3.5, x + 3.5, y - 3.5, stroke="#333", stroke_width=1.5) + _line(
            x - 3, y - 1, x + 1, y + 3, stroke="#333", stroke_width=1.2
        )
    points = [(x - 4, y + 3), (x - 4, y - 1), (x, y - 4), (x + 4, y - 1), (x + 4, y + 3)]
    pts = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    return f"<polygon {_attrs(points=pts, fill='#ffffff', stroke='#000', stroke_width=0.6)}/>"


def _land(land: Land, colour: str) -> list[str]:
    ring = {"stroke": "#000", "stroke_width": 2.6} if land.is_difficult else {
        "stroke": "#333", "stroke_width": 0.8}  # fmt: skip
    title = f"{land.name} ({land.id}) - {land.area}, {land.terrain.value}"
    if land.terrain_kind:
        title += f" ({land.terrain_kind})"
    if land.power_icon:
        title += f", {land.power_icon.value}"
    out = [
        f'<g class="land" id="land-{escape(land.id)}">',
        f"<title>{escape(title)}</title>",
        f"<circle {_attrs(cx=f'{land.x:.1f}', cy=f'{land.y:.1f}', r=LAND_RADIUS, fill=colour)}"
        f" {_attrs(**ring)}/>",
    ]
    if land.is_difficult and land.terrain_kind:
        out.append(
            _text(land.x, land.y + 3, land.terrain_kind[0].upper(), font_size=8,
                  font_weight="bold", text_anchor="middle", fill="#000")
        )  # fmt: skip
    if land.power_icon is not None:
        out.append(_power_icon(land.power_icon, land.x + LAND_RADIUS + 3, land.y - LAND_RADIUS))
    out.append(
        _text(land.x, land.y + LAND_RADIUS + 8, land.name, font_size=7.5, text_anchor="middle",
              fill="#111", stroke="#fff", stroke_width=2.2, paint_order="stroke")
    )  # fmt: skip
    out.append("</g>")
    return out


def _water(water: Sea) -> list[str]:
    fill, text_fill, rx, ry = (
        (OCEAN_FILL, "#fff", 40, 13) if water.is_ocean else (SEA_FILL, "#0b3d6b", 32, 10)
    )
    kind = water.kind.value
    return [
        f'<g class="{kind}" id="{kind}-{escape(water.id)}">',
        f"<title>{escape(water.name)} ({water.id})</title>",
        f"<ellipse {_attrs(cx=f'{water.x:.1f}', cy=f'{water.y:.1f}', rx=rx, ry=ry, fill=fill)}"
        ' stroke="#0b3d6b" stroke-width="0.8" opacity="0.95"/>',
        _text(water.x, water.y + 3, water.name, font_size=7.5, text_anchor="middle",
              fill=text_fill, font_style="italic"),
        "</g>",
    ]  # fmt: skip


def _wastelands(board: Board) -> list[str]:
    out: list[str] = []
    for waste in board.wastelands.values():
        for land_id in sorted(waste.neighbours):
            place = board.lands.get(land_id) or board.wastelands[land_id]
            out.append(_line(waste.x, waste.y, place.x, place.y, stroke=WASTE_FILL,
                             stroke_width=0.6, stroke_dasharray="1,2"))  # fmt: skip
    for waste in board.wastelands.values():
        width = len(waste.name) * 4.4 + 12
        box = _attrs(x=f"{waste.x - width / 2:.1f}", y=f"{waste.y - 8:.1f}", width=f"{width:.1f}")
        out += [
            f'<g class="wasteland" id="wasteland-{escape(waste.id)}">',
            f"<title>{escape(waste.name)} ({waste.id}): impassable</title>",
            f'<rect {box} height="16" rx="4" fill="{WASTE_FILL}"'
            ' stroke="#666" stroke-width="0.8"/>',
            _text(waste.x, waste.y + 3, waste.name, font_size=7, text_anchor="middle", fill="#fff"),
            "</g>",
        ]
    return out


def _pieces(board: Board, pieces: Mapping[str, Sequence[PieceMark]]) -> list[str]:
    out: list[str] = []
    for place_id, marks in pieces.items():
        place = board.lands.get(place_id) or board.seas.get(place_id)
        if place is None:
            continue
        for i, mark in enumerate(marks):
            x = place.x - LAND_RADIUS - 4 - 7 * i
            y = place.y
            shape = (
                f"<rect {_attrs(x=f'{x - 3:.1f}', y=f'{y - 5:.1f}', width=6, height=10)}"
                if mark.kind == "army"
                else f"<rect {_attrs(x=f'{x - 4:.1f}', y=f'{y - 2:.1f}', width=8, height=4)}"
                if mark.kind == "garrison"
                else f"<circle {_attrs(cx=f'{x:.1f}', cy=f'{y:.1f}', r=3.5)}"
            )
            label = escape(mark.label or mark.kind)
            out.append(
                f'<g class="piece {escape(mark.kind)}"><title>{label}</title>{shape}'
                f' fill="{escape(mark.colour)}" stroke="#000" stroke-width="0.6"/></g>'
            )
    return out


def _legend(board: Board, colours: Mapping[str, str]) -> list[str]:
    out = [
        f'<g class="legend" transform="translate(0,{HEIGHT})">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{LEGEND_HEIGHT}" fill="#fafafa"/>',
    ]
    columns = 7
    for i, area in enumerate(board.areas.values()):
        x = 10 + (i % columns) * 140
        y = 14 + (i // columns) * 16
        out.append(f"<circle {_attrs(cx=x, cy=y, r=5, fill=colours[area.id], stroke='#333')}/>")
        label = f"{area.name} ({ROMAN.get(area.epoch, area.epoch)})"
        out.append(_text(x + 9, y + 3, label, font_size=8.5))
    y = 14 + ((len(board.areas) + columns - 1) // columns) * 16
    notes = ("thick ring + letter: difficult terrain (M mountains, F forest, D desert, J jungle)"
             "   red dashes: strait   blue dots: coast   dark dashes: sea/ocean links"
             "   marks: crown, scroll (rect), sword, temple (house)")  # fmt: skip
    out.append(_text(10, y + 3, notes, font_size=8, fill="#333"))
    out.append("</g>")
    return out


def board_svg(board: Board, pieces: Mapping[str, Sequence[PieceMark]] | None = None) -> str:
    """The whole board as one SVG document (with ``pieces`` drawn on top, if given)."""
    colours = area_colours(board)
    parts: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT + LEGEND_HEIGHT}"'
        f' width="{WIDTH * SCALE:.0f}" height="{(HEIGHT + LEGEND_HEIGHT) * SCALE:.0f}"'
        ' font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#eef6fb"/>',
    ]
    layers: Iterable[list[str]] = (
        _water_links(board),
        _land_links(board),
        _wastelands(board),
        [line for water in board.seas.values() for line in _water(water)],
        [line for land in board.lands.values() for line in _land(land, colours[land.area])],
        _pieces(board, pieces or {}),
        _legend(board, colours),
    )
    for layer in layers:
        parts += layer
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def pieces_of_view(view: Mapping[str, Any]) -> dict[str, list[PieceMark]]:
    """The pieces a view shows: each land's army or garrison and buildings, and the fleets of
    the current turn (Empire and Event) in their waters."""
    pieces: dict[str, list[PieceMark]] = {}
    for land, body in sorted((view.get("lands") or {}).items()):
        marks: list[PieceMark] = []
        owner = body.get("owner")
        if owner is not None:
            kind = "army" if body.get("army") else "garrison"
            marks.append(PieceMark(kind, player_colour(int(owner)), f"seat {owner} {kind}"))
        colour = player_colour(int(owner)) if owner is not None else "#ffffff"
        for building in sorted(body.get("buildings") or ()):
            label = "Great Wall fort" if building == "fort" and body.get("great_wall") else ""
            marks.append(PieceMark(str(building), colour, label))
        if marks:
            pieces[land] = marks
    turn = view.get("turn")
    if isinstance(turn, Mapping) and turn.get("seat") is not None:
        colour = player_colour(int(turn["seat"]))
        for water in [*(turn.get("fleets") or ()), *(turn.get("event_fleets") or ())]:
            pieces.setdefault(str(water), []).append(
                PieceMark("fleet", colour, f"seat {turn['seat']} fleet")
            )
    return pieces


def table_svg(board: Board, view: Mapping[str, Any]) -> str:
    """The board with the pieces `view` shows (a view hides only what its viewer may not see,
    so the picture shows exactly that too)."""
    return board_svg(board, pieces_of_view(view))
