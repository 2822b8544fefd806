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
    CHAR,
    FONT,
    ICON,
    ROW_WIDTH,
    SCALE,
    WASTE_FONT,
    WIDTH,
    Layout,
    layout,
)

LEGEND_HEIGHT = 112

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


def _arrow(x1: float, y1: float, x2: float, y2: float, colour: str, cls: str, dash: str) -> str:
    """A double-headed arrow between two places, stopping short of both."""
    length = math.dist((x1, y1), (x2, y2))
    if length < 1:
        return ""
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    inset = min(12.0, length / 4)
    ax, ay, bx, by = x1 + ux * inset, y1 + uy * inset, x2 - ux * inset, y2 - uy * inset
    return (
        f'<line class="{cls}" x1="{_f(ax)}" y1="{_f(ay)}" x2="{_f(bx)}" y2="{_f(by)}"'
        f' stroke="{colour}" stroke-width="1.6" stroke-dasharray="{dash}"'
        f' marker-start="url(#{cls}-head)" marker-end="url(#{cls}-head)"/>'
    )


def _link(
    a: tuple[float, float], b: tuple[float, float], colour: str, cls: str, dash: str
) -> list[str]:
    """An arrow between two places; one longer than half the map leaves by both edges."""
    (x1, y1), (x2, y2) = a, b
    if abs(x1 - x2) <= WIDTH / 2:
        return [_arrow(x1, y1, x2, y2, colour, cls, dash)]
    left, right = (a, b) if x1 < x2 else (b, a)
    mid = (y1 + y2) / 2
    return [
        _arrow(left[0], left[1], -12, mid, colour, cls, dash),
        _arrow(right[0], right[1], WIDTH + 12, mid, colour, cls, dash),
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
    (a wasteland's halo is its own grey: a white one washes out small dark letters)."""
    x = box.x + box.w / 2
    rows = "".join(
        f'<tspan x="{_f(x)}" y="{_f(box.y + font * (1.0 + 1.15 * k))}">{escape(line)}</tspan>'
        for k, line in enumerate(lines)
    )
    return (
        f'<text class="{cls}" data-for="{escape(of)}" font-size="{font}" text-anchor="middle"'
        f' fill="{fill}" stroke="{halo}" stroke-width="2.4" stroke-opacity="0.85"'
        f' paint-order="stroke" stroke-linejoin="round">{rows}</text>'
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


def _links_layer(board: Board, plan: Layout) -> list[str]:
    out: list[str] = []
    for land_id, (x1, y1, x2, y2) in sorted(plan.leaders.items()):
        out.append(
            f'<g class="leader" data-for="{escape(land_id)}"><line x1="{_f(x1)}" y1="{_f(y1)}"'
            f' x2="{_f(x2)}" y2="{_f(y2)}" stroke="#111" stroke-width="0.8"/>'
            f'<circle cx="{_f(x2)}" cy="{_f(y2)}" r="1.8" fill="#111"/></g>'
        )
    for a, b in plan.links:
        p, q = board.lands[a], board.lands[b]
        out += _link((p.x, p.y), (q.x, q.y), LINK_COLOUR, "border-link", "none")
    for a, b in plan.straits:
        p, q = board.lands[a], board.lands[b]
        out += _link((p.x, p.y), (q.x, q.y), STRAIT_COLOUR, "strait", "4,2.5")
    for a, b in plan.water_links:
        p2, q2 = board.seas[a], board.seas[b]
        out += _link((p2.x, p2.y), (q2.x, q2.y), "#1f4e8c", "water-link", "5,3")
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
                f' font-size="7" fill="#000">x{len(fleets)}</text>'
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


def _legend(board: Board, colours: Mapping[str, str], players: Sequence[str] | None) -> list[str]:
    out = [
        f'<g class="legend" transform="translate(0,{_f(board.map_height)})">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{LEGEND_HEIGHT}" fill="#fafafa"/>',
    ]
    x = 10.0
    text = 'font-size="8.5" fill="#222" class="legend-text"'
    for kind in PIECE_KINDS:
        out.append(f'<g class="legend-item" data-kind="{kind}">{_shape(kind, x + 6, 11, "#ddd")}')
        out.append(f'<text x="{_f(x + 15)}" y="15" {text}>{PIECE_NAMES[kind]}</text></g>')
        x += 22 + len(PIECE_NAMES[kind]) * 8.5 * CHAR
    if "reconstructed" in board.provenance.lower():
        out.append(
            f'<text class="reconstructed legend-text" x="{WIDTH - 10}" y="15" font-size="8.5"'
            f' fill="#222" text-anchor="end" font-style="italic">{_reconstruction(board)}</text>'
        )
    x = 10.0
    for seat, colour in enumerate(PLAYER_COLOURS[: len(players) if players else 0]):
        name = players[seat] if players else f"player {seat + 1}"
        out.append(f'<rect x="{_f(x)}" y="24" width="9" height="9" fill="{colour}" stroke="#000"/>')
        label = name
        out.append(f'<text x="{_f(x + 12)}" y="32" {text}>{escape(label)}</text>')
        x += 22 + len(label) * 8.5 * CHAR
    columns = 6
    for i, area in enumerate(board.areas.values()):
        ax = 10 + (i % columns) * 163
        ay = 44 + (i // columns) * 13
        out.append(
            f'<rect x="{ax}" y="{ay}" width="9" height="9" fill="{colours[area.id]}"'
            ' stroke="#333"/>'
        )
        out.append(
            f'<text x="{ax + 12}" y="{ay + 8}" {text}>'
            f"{escape(area.name)}{epoch_note(area.epoch)}</text>"
        )
    y = 44 + ((len(board.areas) + columns - 1) // columns) * 13 + 10
    notes: list[tuple[str, str]] = [
        (
            '<rect x="0" y="-7" width="12" height="9" fill="url(#difficult)" stroke="#333"'
            ' stroke-width="0.5"/>',
            "difficult terrain",
        ),
        (
            f'<line x1="0" y1="-3" x2="16" y2="-3" stroke="{STRAIT_COLOUR}" stroke-width="1.6"'
            ' stroke-dasharray="4,2.5"/>',
            "strait",
        ),
        (
            f'<line x1="0" y1="-3" x2="16" y2="-3" stroke="{LINK_COLOUR}" stroke-width="1.6"/>',
            "lands bordering each other",
        ),
        (
            f'<rect x="0" y="-8" width="6" height="10" fill="{AREA_COLOURS[1]}" stroke="{COAST}"'
            ' stroke-width="0.6"/><rect x="9" y="-8" width="6" height="10"'
            f' fill="{AREA_COLOURS[1]}" stroke="{COAST}" stroke-width="0.6"/>',
            "a gap: no border",
        ),
        (
            f'<rect x="0" y="-8" width="6" height="10" fill="{SEA_FILL}"/><rect x="6" y="-8"'
            f' width="3" height="10" fill="{BACKGROUND}"/><rect x="9" y="-8" width="6"'
            f' height="10" fill="{OCEAN_FILL}"/>',
            "waters not joined",
        ),
    ]
    if any(land.power_icon for land in board.lands.values()):
        notes += [
            (_power_icon(PowerIcon.CROWN, 5, -3), "crown"),
            (_power_icon(PowerIcon.SCROLL, 5, -3), "scroll"),
            (_power_icon(PowerIcon.SWORD, 5, -3), "sword"),
            (_power_icon(PowerIcon.TEMPLE, 5, -3), "temple (power icons)"),
        ]
    x = 10.0
    for mark, words in notes:
        out.append(f'<g transform="translate({_f(x)},{_f(y)})">{mark}</g>')
        out.append(f'<text x="{_f(x + 20)}" y="{_f(y)}" {text}>{escape(words)}</text>')
        x += 30 + len(words) * 8.5 * CHAR
    out.append("</g>")
    return out


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
    total = round(height + LEGEND_HEIGHT + extra[0])
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
        _legend(board, colours, players),
    )
    for layer in layers:
        parts += layer
    if extra[1]:
        parts.append(
            f'<g class="tracks" transform="translate(0,{_f(height + LEGEND_HEIGHT)})">'
            f"{extra[1]}</g>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
