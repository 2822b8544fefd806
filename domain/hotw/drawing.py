"""Draw a History of the World board as an SVG map (plain string building, no dependencies).

Lands are regions laid out as on the printed board (each land's position in the data pack; its
region is the part of the map nearer to it than to any other place, within a reach that follows
its borders: `domain.core.geometry.regions`). Lands that border each other share an edge; lands
that do not are kept apart by a narrow channel; a border the drawing cannot show as a shared edge
is a dark double-headed arrow, a strait a red dashed one (p5). Seas and oceans are regions of
water beneath; wastelands are grey. Difficult terrain is hatched; power icons (p7) sit beside the
name. Names are placed so that no two overlap and none covers a land's pieces.

`pieces` overlays armies (standing), garrisons (laid down), capitals, cities, monuments, forts and
fleets, each a distinct shape in its player's colour, explained in the legend under the map.
`table_svg` draws them from a view (what its viewer may see), which is what the ruleset's
`draw_board` hook answers. Every land is a `<g class="land" data-land=ID>` and every water a
`<g class="water" data-water=ID>`, so that a page can make them clickable; `data-x`/`data-y`
is a point inside it, `data-px`/`data-py` where its pieces are drawn.

Pure string building: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from domain.core.geometry import Box
from domain.hotw.board import Board, PowerIcon
from domain.hotw.map_layout import (
    FONT,
    ICON,
    ROW_WIDTH,
    SCALE,
    WASTE_FONT,
    WIDTH,
    Layout,
    layout,
    text_width,
)

AREA_COLOURS = (
    "#f4a6a6", "#9fd8a0", "#f7e08a", "#f9c18c", "#c9a6e0", "#a6e3e3", "#f2b0e6",
    "#d6ec8f", "#f7cfcf", "#8fcfc7", "#e0cdf5", "#d2b48c", "#fff3c4", "#bff0d0",
    "#c7c78a", "#ffe0c2",
)  # fmt: skip
"""Light fills, so that dark names read on every land."""
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}
BACKGROUND = "#8aa9bf"
SEA_FILL = "#cfe8f7"
OCEAN_FILL = "#a9cbe8"
WASTE_FILL = "#b5b5b5"
COAST = "#3d4f5c"
STRAIT_COLOUR = "#c0262d"
LINK_COLOUR = "#2b2b2b"
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")
"""Seat n's colour (the HTML replay's too)."""
PIECE_KINDS = ("army", "garrison", "capital", "city", "monument", "fort", "fleet")
PIECE_NAMES = {
    "army": "army (standing)",
    "garrison": "garrison (laid down)",
    "capital": "capital",
    "city": "city",
    "monument": "monument",
    "fort": "fort",
    "fleet": "fleet",
}


@dataclass(frozen=True)
class PieceMark:
    """One piece to draw on a land or water: ``kind`` is army, garrison, fleet, capital, city,
    monument or fort; ``colour`` the player's colour."""

    kind: str
    colour: str
    label: str = ""
    seat: int | None = None


def _attrs(**attrs: object) -> str:
    return " ".join(
        f'{k.rstrip("_").replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items()
    )


def _f(value: float) -> str:
    return f"{value:.1f}"


def area_colours(board: Board) -> dict[str, str]:
    """Each area's fill; barren lands (Brief: lands without an area) light grey."""
    return {
        area: "#dcdcdc" if area == "barren" else AREA_COLOURS[i % len(AREA_COLOURS)]
        for i, area in enumerate(board.areas)
    }


# --- the pieces' shapes -------------------------------------------------------------------------


def _shape(kind: str, cx: float, cy: float, fill: str, halo: bool = False) -> str:
    """A piece's shape centred on (cx, cy), about ICON across; `halo`: its white outline, drawn
    under it so that a piece stands out on every land's colour."""
    s = ICON / 2
    paint = f'fill="{escape(fill)}" stroke="#000" stroke-width="0.7"'
    if halo:
        paint = 'fill="#ffffff" stroke="#ffffff" stroke-width="2.6" stroke-linejoin="round"'
    if kind == "army":  # a standing pawn
        return (
            f'<path d="M{_f(cx - s * 0.8)},{_f(cy + s)} L{_f(cx - s * 0.35)},{_f(cy - s * 0.1)} '
            f'L{_f(cx + s * 0.35)},{_f(cy - s * 0.1)} L{_f(cx + s * 0.8)},{_f(cy + s)} Z" {paint}/>'
            f'<circle cx="{_f(cx)}" cy="{_f(cy - s * 0.45)}" r="{_f(s * 0.48)}" {paint}/>'
        )
    if kind == "garrison":  # the pawn laid down
        return (
            f'<path d="M{_f(cx - s)},{_f(cy - s * 0.45)} L{_f(cx + s * 0.2)},{_f(cy - s * 0.2)} '
            f'L{_f(cx + s * 0.2)},{_f(cy + s * 0.2)} L{_f(cx - s)},{_f(cy + s * 0.45)} Z" {paint}/>'
            f'<circle cx="{_f(cx + s * 0.55)}" cy="{_f(cy)}" r="{_f(s * 0.45)}" {paint}/>'
        )
    if kind == "capital":  # a five-pointed star
        points = []
        for k in range(10):
            r = s * (1.05 if k % 2 == 0 else 0.45)
            angle = -math.pi / 2 + k * math.pi / 5
            points.append(f"{_f(cx + r * math.cos(angle))},{_f(cy + r * math.sin(angle))}")
        return f'<polygon points="{" ".join(points)}" {paint}/>'
    if kind == "city":  # a house
        return (
            f'<path d="M{_f(cx - s * 0.8)},{_f(cy + s * 0.9)} '
            f"L{_f(cx - s * 0.8)},{_f(cy - s * 0.1)} L{_f(cx)},{_f(cy - s * 0.9)} "
            f"L{_f(cx + s * 0.8)},{_f(cy - s * 0.1)} L{_f(cx + s * 0.8)},{_f(cy + s * 0.9)} Z"
            f'" {paint}/>'
        )
    if kind == "monument":  # an obelisk
        return (
            f'<path d="M{_f(cx - s * 0.45)},{_f(cy + s)} L{_f(cx - s * 0.25)},{_f(cy - s * 0.6)} '
            f"L{_f(cx)},{_f(cy - s)} L{_f(cx + s * 0.25)},{_f(cy - s * 0.6)} "
            f'L{_f(cx + s * 0.45)},{_f(cy + s)} Z" {paint}/>'
        )
    if kind == "fort":  # a crenellated tower
        top, bottom, left, right = cy - s * 0.9, cy + s * 0.9, cx - s * 0.8, cx + s * 0.8
        notch = (right - left) / 5
        teeth = " ".join(
            f"L{_f(left + notch * k)},{_f(top + (0 if k % 2 == 0 else s * 0.35))} "
            f"L{_f(left + notch * (k + 1))},{_f(top + (0 if k % 2 == 0 else s * 0.35))}"
            for k in range(5)
        )
        return f'<path d="M{_f(left)},{_f(bottom)} {teeth} L{_f(right)},{_f(bottom)} Z" {paint}/>'
    if kind == "fleet":  # a ship: hull and sail
        return (
            f'<path d="M{_f(cx - s)},{_f(cy + s * 0.25)} L{_f(cx + s)},{_f(cy + s * 0.25)} '
            f'L{_f(cx + s * 0.6)},{_f(cy + s)} L{_f(cx - s * 0.6)},{_f(cy + s)} Z" {paint}/>'
            f'<path d="M{_f(cx - s * 0.1)},{_f(cy + s * 0.15)} L{_f(cx - s * 0.1)},{_f(cy - s)} '
            f'L{_f(cx + s * 0.75)},{_f(cy + s * 0.15)} Z" {paint}/>'
        )
    return f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(s * 0.7)}" {paint}/>'


def _power_icon(icon: PowerIcon, x: float, y: float) -> str:
    """A small mark for each of the four power-icon kinds (p7), centred on (x, y)."""
    line = 'stroke="#000" stroke-width="0.5"'
    if icon is PowerIcon.CROWN:
        points = [(x - 3.5, y + 2), (x - 3.5, y - 2), (x - 1.7, y), (x, y - 3),
                  (x + 1.7, y), (x + 3.5, y - 2), (x + 3.5, y + 2)]  # fmt: skip
        pts = " ".join(f"{_f(px)},{_f(py)}" for px, py in points)
        return f'<polygon points="{pts}" fill="#f5c518" {line}/>'
    if icon is PowerIcon.SCROLL:
        return (
            f'<rect x="{_f(x - 3.5)}" y="{_f(y - 2.2)}" width="7" height="4.4" rx="1.5"'
            f' fill="#f4e4bc" {line}/>'
        )
    if icon is PowerIcon.SWORD:
        return (
            f'<line x1="{_f(x - 3)}" y1="{_f(y + 3)}" x2="{_f(x + 3)}" y2="{_f(y - 3)}"'
            ' stroke="#222" stroke-width="1.3"/>'
            f'<line x1="{_f(x - 2.6)}" y1="{_f(y - 0.6)}" x2="{_f(x + 0.6)}" y2="{_f(y + 2.6)}"'
            ' stroke="#222" stroke-width="1.1"/>'
        )
    points = [(x - 3.5, y + 2.6), (x - 3.5, y - 0.8), (x, y - 3.4), (x + 3.5, y - 0.8),
              (x + 3.5, y + 2.6)]  # fmt: skip
    pts = " ".join(f"{_f(px)},{_f(py)}" for px, py in points)
    return f'<polygon points="{pts}" fill="#ffffff" {line}/>'


# --- the map ------------------------------------------------------------------------------------


HEAD = 4.0
"""How far an arrow's head reaches past the end of its line (map units), kept off the names."""
CLEARANCE = 1.0
"""The room kept between a name's box and a line stopped at it."""


def _span_in(ax: float, ay: float, bx: float, by: float, box: Box) -> tuple[float, float] | None:
    """The part (t0, t1 of 0..1) of the segment a-b inside `box`, if any (Liang-Barsky)."""
    dx, dy = bx - ax, by - ay
    low, high = 0.0, 1.0
    for p, q in (
        (-dx, ax - box.x),
        (dx, box.x + box.w - ax),
        (-dy, ay - box.y),
        (dy, box.y + box.h - ay),
    ):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low >= high:
            return None
    return low, high


def clear_parts(
    a: tuple[float, float], b: tuple[float, float], boxes: Sequence[Box]
) -> list[tuple[float, float]]:
    """The parts (t0, t1 of 0..1) of the segment a-b outside every box, in order."""
    cuts = sorted(
        span for box in boxes if (span := _span_in(a[0], a[1], b[0], b[1], box)) is not None
    )
    parts: list[tuple[float, float]] = []
    start = 0.0
    for t0, t1 in cuts:
        if t0 > start:
            parts.append((start, t0))
        start = max(start, t1)
    if start < 1.0:
        parts.append((start, 1.0))
    return parts


def _arrow(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    style: tuple[str, str, str],
    names: Sequence[Box] = (),
) -> str:
    """A double-headed arrow between two places, stopping short of both, and broken where it
    would cross a name (`names`: the boxes of the map's names): each piece stops short of the
    name it meets, the first piece carrying one head and the last the other."""
    colour, cls, dash = style
    length = math.dist((x1, y1), (x2, y2))
    if length < 1:
        return ""
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    inset = min(12.0, length / 4)
    ax, ay, bx, by = x1 + ux * inset, y1 + uy * inset, x2 - ux * inset, y2 - uy * inset
    span = math.dist((ax, ay), (bx, by))
    parts = clear_parts((ax, ay), (bx, by), names)
    out = []
    for k, (t0, t1) in enumerate(parts):
        first, last = k == 0, k == len(parts) - 1
        start = t0 * span + (HEAD if first else 1.0) * (t0 > 0)
        end = t1 * span - (HEAD if last else 1.0) * (t1 < 1)
        if end - start < 5:
            continue
        heads = (' marker-start="url(#{0}-head)"' if first else "") + (
            ' marker-end="url(#{0}-head)"' if last else ""
        )
        out.append(
            f'<line class="{cls}" x1="{_f(ax + ux * start)}" y1="{_f(ay + uy * start)}"'
            f' x2="{_f(ax + ux * end)}" y2="{_f(ay + uy * end)}" stroke="{colour}"'
            f' stroke-width="1.6" stroke-dasharray="{dash}"{heads.format(cls)}/>'
        )
    return "".join(out)


def _link(
    a: tuple[float, float],
    b: tuple[float, float],
    style: tuple[str, str, str],
    names: Sequence[Box],
) -> list[str]:
    """An arrow between two places; one longer than half the map leaves by both edges."""
    (x1, y1), (x2, y2) = a, b
    if abs(x1 - x2) <= WIDTH / 2:
        return [_arrow(x1, y1, x2, y2, style, names)]
    left, right = (a, b) if x1 < x2 else (b, a)
    mid = (y1 + y2) / 2
    return [
        _arrow(left[0], left[1], -12, mid, style, names),
        _arrow(right[0], right[1], WIDTH + 12, mid, style, names),
    ]


def _defs() -> str:
    heads = "".join(
        f'<marker id="{cls}-head" viewBox="0 0 6 6" refX="3" refY="3" markerWidth="4.5"'
        f' markerHeight="4.5" orient="auto-start-reverse"><path d="M0,0 L6,3 L0,6 Z"'
        f' fill="{colour}"/></marker>'
        for cls, colour in (
            ("strait", STRAIT_COLOUR),
            ("border-link", LINK_COLOUR),
            ("water-link", "#1f4e8c"),
        )
    )
    hatch = (
        '<pattern id="difficult" width="5" height="5" patternUnits="userSpaceOnUse"'
        ' patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="5" stroke="#5b4a36"'
        ' stroke-width="1.1" stroke-opacity="0.55"/></pattern>'
    )
    style = (
        "<style>.label,.piece,.pieces,.power-icon,.legend-text,.strait,.border-link,.water-link,.leader"
        "{pointer-events:none}"
        ".land .region{transition:fill-opacity .1s}</style>"
    )
    return f"<defs>{heads}{hatch}</defs>{style}"


def _label(
    box: Box,
    lines: Sequence[str],
    font: float,
    cls: str,
    fill: str,
    of: str,
    halo: str = "#ffffff",
) -> str:
    """A name, centred in its box, over a halo that keeps lines crossing it from its letters
    (a wasteland's halo is its own grey: a white one washes out small dark letters); a water's
    name in italic, as maps name waters, so that one drawn over a land reads as the sea's."""
    x = box.x + box.w / 2
    rows = "".join(
        f'<tspan x="{_f(x)}" y="{_f(box.y + font * (1.0 + 1.15 * k))}">{escape(line)}</tspan>'
        for k, line in enumerate(lines)
    )
    return (
        f'<text class="{cls}" data-for="{escape(of)}" font-size="{font}" text-anchor="middle"'
        f' fill="{fill}" stroke="{halo}" stroke-width="2.4" stroke-opacity="0.85"'
        + (' font-style="italic"' if "water-label" in cls else "")
        + f' paint-order="stroke" stroke-linejoin="round">{rows}</text>'
    )


def _water_layer(board: Board, plan: Layout) -> list[str]:
    out = []
    for water in board.seas.values():
        region = plan.waters.get(water.id)
        if region is None:
            continue
        fill = OCEAN_FILL if water.is_ocean else SEA_FILL
        coasts = sorted(land.id for land in board.lands.values() if water.id in land.seas)
        title = f"{water.name} ({water.kind.value})"
        if coasts:
            title += ". Coasts: " + ", ".join(board.lands[c].name for c in coasts)
        out.append(
            f'<g class="water" id="{water.kind.value}-{escape(water.id)}"'
            f" {_attrs(data_water=water.id, data_name=water.name, data_kind=water.kind.value)}"
            f" {_attrs(data_x=_f(water.x), data_y=_f(water.y))}"
            f" {_attrs(data_px=_f(water.x), data_py=_f(water.y - 12))}"
            f' data-coasts="{escape(" ".join(coasts))}"><title>{escape(title)}</title>'
            f'<path class="region" d="{region.path()}" fill="{fill}" stroke="#6f93ad"'
            ' stroke-width="0.6"/></g>'
        )
    return out


def _land_layer(board: Board, plan: Layout, colours: Mapping[str, str]) -> list[str]:
    out = []
    for land in board.lands.values():
        region = plan.lands.get(land.id)
        if region is None:
            continue
        area = board.areas[land.area]
        terrain = land.terrain.value + (f" ({land.terrain_kind})" if land.terrain_kind else "")
        borders = sorted(land.neighbours | land.straits)
        coasts = ", ".join(board.seas[s].name for s in sorted(land.seas))
        title = (
            f"{land.name}: {area.name}{epoch_note(area.epoch, 'Epoch ')}, {terrain}"
            + (f", {land.power_icon.value} icon" if land.power_icon else "")
            + ". Borders: "
            + ", ".join(board.lands[n].name for n in borders)
            + (f". Coasts: {coasts}" if coasts else "")
        )
        data = _attrs(
            data_land=land.id,
            data_name=land.name,
            data_area=land.area,
            data_terrain=land.terrain.value,
            data_borders=" ".join(borders),
            data_coasts=" ".join(sorted(land.seas)),
            data_x=_f(land.x),
            data_y=_f(land.y),
            data_px=_f(plan.anchors[land.id][0]),
            data_py=_f(plan.anchors[land.id][1]),
        )
        parts = [
            f'<g class="land" id="land-{escape(land.id)}" {data}><title>{escape(title)}</title>',
            f'<path class="region" d="{region.path()}" fill="{colours[land.area]}"'
            f' stroke="{COAST}" stroke-width="0.9" stroke-linejoin="round"/>',
        ]
        if land.is_difficult:
            parts.append(f'<path class="terrain" d="{region.path()}" fill="url(#difficult)"/>')
        parts.append("</g>")
        out += parts
    for waste in board.wastelands.values():
        region = plan.wastelands.get(waste.id)
        if region is None:
            continue
        out.append(
            f'<g class="wasteland" id="wasteland-{escape(waste.id)}"'
            f" {_attrs(data_wasteland=waste.id, data_name=waste.name)}>"
            f"<title>{escape(waste.name)}: wasteland, impassable</title>"
            f'<path class="region" d="{region.path()}" fill="{WASTE_FILL}" stroke="#6b6b6b"'
            ' stroke-width="0.8"/></g>'
        )
    return out


def name_boxes(plan: Layout) -> dict[str, Box]:
    """Where each name is drawn (with its power icon), and the room kept around it: what no
    line of the map may cross."""
    return {
        place: Box(
            box.x - CLEARANCE, box.y - CLEARANCE, box.w + 2 * CLEARANCE, box.h + 2 * CLEARANCE
        )
        for place, box in plan.labels.items()
    }


def _links_layer(board: Board, plan: Layout) -> list[str]:
    out: list[str] = []
    boxes = name_boxes(plan)
    for land_id, (x1, y1, x2, y2) in sorted(plan.leaders.items()):
        others = [box for place, box in boxes.items() if place != land_id]
        for t0, t1 in clear_parts((x1, y1), (x2, y2), others):
            out.append(
                f'<g class="leader" data-for="{escape(land_id)}"><line'
                f' x1="{_f(x1 + (x2 - x1) * t0)}" y1="{_f(y1 + (y2 - y1) * t0)}"'
                f' x2="{_f(x1 + (x2 - x1) * t1)}" y2="{_f(y1 + (y2 - y1) * t1)}"'
                ' stroke="#111" stroke-width="0.8"/>'
                + (f'<circle cx="{_f(x2)}" cy="{_f(y2)}" r="1.8" fill="#111"/>' if t1 == 1 else "")
                + "</g>"
            )
    names = list(boxes.values())
    for a, b in plan.links:
        p, q = board.lands[a], board.lands[b]
        out += _link((p.x, p.y), (q.x, q.y), (LINK_COLOUR, "border-link", "none"), names)
    for a, b in plan.straits:
        p, q = board.lands[a], board.lands[b]
        out += _link((p.x, p.y), (q.x, q.y), (STRAIT_COLOUR, "strait", "4,2.5"), names)
    for a, b in plan.water_links:
        p2, q2 = board.seas[a], board.seas[b]
        out += _link((p2.x, p2.y), (q2.x, q2.y), ("#1f4e8c", "water-link", "5,3"), names)
    return out


def _labels_layer(board: Board, plan: Layout) -> list[str]:
    out = []
    for water in board.seas.values():
        fill = "#0b2e4f"
        out.append(
            _label(plan.labels[water.id], plan.lines[water.id], FONT, "label water-label", fill,
                   water.id)
        )  # fmt: skip
    for waste in board.wastelands.values():
        out.append(
            _label(plan.labels[waste.id], plan.lines[waste.id], WASTE_FONT, "label", "#111111",
                   waste.id, halo=WASTE_FILL)
        )  # fmt: skip
    for land in board.lands.values():
        box = plan.labels[land.id]
        text_box = Box(box.x, box.y, box.w - 6, box.h)
        font = plan.fonts[land.id]
        out.append(_label(text_box, plan.lines[land.id], font, "label land-label", "#111", land.id))
        if land.power_icon is not None:
            out.append(
                f'<g class="power-icon"><title>{land.power_icon.value} power icon</title>'
                f"{_power_icon(land.power_icon, box.x + box.w - 3.5, box.y + font * 0.55)}</g>"
            )
    return out


def _pieces_layer(
    board: Board, plan: Layout, pieces: Mapping[str, Sequence[PieceMark]]
) -> list[str]:
    out: list[str] = []
    for place_id, marks in sorted(pieces.items()):
        anchor = plan.anchors.get(place_id)
        if anchor is None or not marks:
            continue
        holder = next((m for m in marks if m.kind in ("army", "garrison")), None)
        buildings = [m.kind for m in marks if m.kind not in ("army", "garrison", "fleet")]
        fleets = [m for m in marks if m.kind == "fleet"]
        shown = list(marks) if place_id in board.lands else fleets[:1]
        step = _step(len(shown))
        x0 = anchor[0] - step * (len(shown) - 1) / 2
        y = anchor[1]
        data = _attrs(
            data_place=place_id,
            data_owner="" if holder is None or holder.seat is None else str(holder.seat),
            data_kind="" if holder is None else holder.kind,
            data_buildings=" ".join(sorted(buildings)),
            data_fleets=str(len(fleets)),
        )
        parts = [f'<g class="pieces" {data}>']
        for k, mark in enumerate(shown):
            title = mark.label or mark.kind
            parts.append(
                f'<g class="piece {escape(mark.kind)}"><title>{escape(title)}</title>'
                f"{_shape(mark.kind, x0 + k * step, y, mark.colour, halo=True)}"
                f"{_shape(mark.kind, x0 + k * step, y, mark.colour)}</g>"
            )
        if place_id not in board.lands and len(fleets) > 1:
            parts.append(
                f'<text class="piece-count" x="{_f(anchor[0] + ICON)}" y="{_f(y + 3)}"'
                f' font-size="{LEGEND_FONT}" fill="#000">x{len(fleets)}</text>'
            )
        parts.append("</g>")
        out += parts
    return out


def _step(count: int) -> float:
    """How far apart `count` pieces in a row are drawn: side by side, or stacked closer when
    more than the room kept for a land's pieces would hold."""
    return min(ICON + 1, (ROW_WIDTH - ICON - 1) / (count - 1)) if count > 1 else ICON + 1


def epoch_note(epoch: int, word: str = "") -> str:
    """ " (Epoch II)" after an area's name; nothing for a board whose areas have no epoch (0)."""
    return f" ({word}{ROMAN.get(epoch, epoch)})" if epoch else ""


def _reconstruction(board: Board) -> str:
    """What the caption may say of a reconstructed layout: drawn at real places only where
    every land's provenance records the place's latitude and longitude."""
    if board.lands and all("°" in land.provenance for land in board.lands.values()):
        return "Reconstructed map: each land drawn at the real-world place it is named after"
    return "Reconstructed map: not the printed board's layout"


LEGEND_FONT = 11.5
"""The legend's words (map units): about 11.8 px where a 1400 px window gives the map 1030."""
LEGEND_ROW = 17.0


def legend_width(words: str) -> float:
    """How wide the legend draws `words`."""
    return text_width(words, LEGEND_FONT)


def _flow(items: Sequence[tuple[str, str, float]], y: float, text: str) -> tuple[list[str], float]:
    """Legend entries (a mark drawn from (0, 0), its words, the room kept for the mark) left
    to right from `y`, on as many rows as they need; returns them and the next row's y."""
    out: list[str] = []
    x = 10.0
    for mark, words, room in items:
        width = room + legend_width(words)
        if x > 10 and x + width > WIDTH - 10:
            x, y = 10.0, y + LEGEND_ROW
        out.append(f'<g transform="translate({_f(x)},{_f(y)})">{mark}')
        out.append(f'<text x="{_f(room)}" y="0" {text}>{escape(words)}</text></g>')
        x += width + 14
    return out, y + LEGEND_ROW


def _legend(
    board: Board, colours: Mapping[str, str], players: Sequence[str] | None
) -> tuple[list[str], float]:
    """The legend under the map and its height: the pieces, the players' colours, the areas,
    what the map's lines and marks mean, and whether the layout is reconstructed."""
    out: list[str] = []
    text = f'font-size="{LEGEND_FONT}" fill="#222" class="legend-text"'
    y, x = 17.0, 10.0
    for kind in PIECE_KINDS:
        words = PIECE_NAMES[kind]
        width = 16 + legend_width(words)
        if x > 10 and x + width > WIDTH - 10:
            x, y = 10.0, y + LEGEND_ROW
        out.append(
            f'<g class="legend-item" data-kind="{kind}" transform="translate({_f(x)},{_f(y)})">'
            f"{_shape(kind, 6, -4, '#ddd')}"
            f'<text x="16" y="0" {text}>{escape(words)}</text></g>'
        )
        x += width + 14
    y += LEGEND_ROW
    seats = [
        (
            f'<rect x="0" y="-10" width="11" height="11" fill="{colour}" stroke="#000"/>',
            players[seat] if players else f"player {seat + 1}",
            15.0,
        )
        for seat, colour in enumerate(PLAYER_COLOURS[: len(players) if players else 0])
    ]
    row, y = _flow(seats, y, text)
    out += row
    named = [(area, f"{area.name}{epoch_note(area.epoch)}") for area in board.areas.values()]
    column = max((legend_width(words) for _, words in named), default=0.0) + 15 + 14
    columns = max(1, int((WIDTH - 20) // column))
    for i, (area, words) in enumerate(named):
        ax = 10 + (i % columns) * column
        ay = y + (i // columns) * LEGEND_ROW
        out.append(
            f'<rect x="{_f(ax)}" y="{_f(ay - 10)}" width="11" height="11"'
            f' fill="{colours[area.id]}" stroke="#333"/>'
        )
        out.append(f'<text x="{_f(ax + 15)}" y="{_f(ay)}" {text}>{escape(words)}</text>')
    y += ((len(named) + columns - 1) // columns) * LEGEND_ROW
    notes: list[tuple[str, str, float]] = [
        (
            '<rect x="0" y="-9" width="14" height="10" fill="url(#difficult)" stroke="#333"'
            ' stroke-width="0.5"/>',
            "difficult terrain",
            20.0,
        ),
        (
            f'<line x1="0" y1="-4" x2="16" y2="-4" stroke="{STRAIT_COLOUR}" stroke-width="1.6"'
            ' stroke-dasharray="4,2.5"/>',
            "strait",
            20.0,
        ),
        (
            f'<line x1="0" y1="-4" x2="16" y2="-4" stroke="{LINK_COLOUR}" stroke-width="1.6"/>',
            "lands bordering each other",
            20.0,
        ),
        (
            f'<rect x="0" y="-10" width="6" height="11" fill="{AREA_COLOURS[1]}" stroke="{COAST}"'
            ' stroke-width="0.6"/><rect x="9" y="-10" width="6" height="11"'
            f' fill="{AREA_COLOURS[1]}" stroke="{COAST}" stroke-width="0.6"/>',
            "a gap: no border",
            20.0,
        ),
        (
            f'<rect x="0" y="-10" width="6" height="11" fill="{SEA_FILL}"/><rect x="6" y="-10"'
            f' width="3" height="11" fill="{BACKGROUND}"/><rect x="9" y="-10" width="6"'
            f' height="11" fill="{OCEAN_FILL}"/>',
            "waters not joined",
            20.0,
        ),
    ]
    if any(land.power_icon for land in board.lands.values()):
        notes += [
            (_power_icon(PowerIcon.CROWN, 5, -4), "crown", 13.0),
            (_power_icon(PowerIcon.SCROLL, 5, -4), "scroll", 13.0),
            (_power_icon(PowerIcon.SWORD, 5, -4), "sword", 13.0),
            (_power_icon(PowerIcon.TEMPLE, 5, -4), "temple (power icons)", 13.0),
        ]
    row, y = _flow(notes, y + 3, text)
    out += row
    if "reconstructed" in board.provenance.lower():
        out.append(
            f'<text class="reconstructed legend-text" x="10" y="{_f(y)}"'
            f' font-size="{LEGEND_FONT}" fill="#222" font-style="italic">'
            f"{_reconstruction(board)}</text>"
        )
        y += LEGEND_ROW
    height = y - LEGEND_ROW + 8
    return [
        f'<g class="legend" transform="translate(0,{_f(board.map_height)})">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{_f(height)}" fill="#fafafa"/>',
        *out,
        "</g>",
    ], height


def board_svg(
    board: Board,
    pieces: Mapping[str, Sequence[PieceMark]] | None = None,
    players: Sequence[str] | None = None,
    extra: tuple[float, str] = (0.0, ""),
) -> str:
    """The whole board as one SVG document (with ``pieces`` drawn on top, if given, and the
    players' colours in the legend, each named as given). ``extra`` is a band drawn under the
    legend: its height and its SVG (tracks, dials), drawn from its own top-left corner."""
    plan = layout(board)
    colours = area_colours(board)
    height = board.map_height
    legend, legend_height = _legend(board, colours, players)
    total = round(height + legend_height + extra[0])
    parts: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {total}"'
        f' width="{WIDTH * SCALE:.0f}" height="{total * SCALE:.0f}" class="board-map"'
        ' font-family="DejaVu Sans, Arial, sans-serif" role="img"'
        ' aria-label="The board: lands, seas and oceans, with the pieces on them">',
        _defs(),
        f'<rect x="0" y="0" width="{WIDTH}" height="{_f(height)}" fill="{BACKGROUND}"/>',
    ]
    layers = (
        _water_layer(board, plan),
        _land_layer(board, plan, colours),
        _links_layer(board, plan),
        _labels_layer(board, plan),
        _pieces_layer(board, plan, pieces or {}),
        legend,
    )
    for layer in layers:
        parts += layer
    if extra[1]:
        parts.append(
            f'<g class="tracks" transform="translate(0,{_f(height + legend_height)})">'
            f"{extra[1]}</g>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
