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
from html import escape

from domain.core.geometry import Box
from domain.hotw.board import Board
from domain.hotw.legend import LEGEND_FONT, epoch_note, legend
from domain.hotw.map_layout import (
    FONT,
    ICON,
    ROW_WIDTH,
    SCALE,
    WASTE_FONT,
    WIDTH,
    Layout,
    layout,
)
from domain.hotw.marks import (
    BACKGROUND,
    COAST,
    LINK_COLOUR,
    OCEAN_FILL,
    PLAYER_COLOURS,
    SEA_FILL,
    STRAIT_COLOUR,
    WASTE_FILL,
    WATER_LINK_COLOUR,
    PieceMark,
    area_colours,
    attrs,
    coord,
    piece_shape,
    power_icon_mark,
)

# --- the map ------------------------------------------------------------------------------------


HEAD = 4.0
"""How far an arrow's head reaches past the end of its line (map units), kept off the names."""
CLEARANCE = 1.0
"""The room kept between a name's box and a line stopped at it."""


def clear_parts(
    a: tuple[float, float], b: tuple[float, float], boxes: Sequence[Box]
) -> list[tuple[float, float]]:
    """The parts (t0, t1 of 0..1) of the segment a-b outside every box, in order."""
    cuts = sorted(span for box in boxes if (span := box.segment_span(a, b)) is not None)
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
            f'<line class="{cls}" x1="{coord(ax + ux * start)}" y1="{coord(ay + uy * start)}"'
            f' x2="{coord(ax + ux * end)}" y2="{coord(ay + uy * end)}" stroke="{colour}"'
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
            ("water-link", WATER_LINK_COLOUR),
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
        f'<tspan x="{coord(x)}" y="{coord(box.y + font * (1.0 + 1.15 * k))}">{escape(line)}</tspan>'
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
            f" {attrs(data_water=water.id, data_name=water.name, data_kind=water.kind.value)}"
            f" {attrs(data_x=coord(water.x), data_y=coord(water.y))}"
            f" {attrs(data_px=coord(water.x), data_py=coord(water.y - 12))}"
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
        data = attrs(
            data_land=land.id,
            data_name=land.name,
            data_area=land.area,
            data_terrain=land.terrain.value,
            data_borders=" ".join(borders),
            data_coasts=" ".join(sorted(land.seas)),
            data_x=coord(land.x),
            data_y=coord(land.y),
            data_px=coord(plan.anchors[land.id][0]),
            data_py=coord(plan.anchors[land.id][1]),
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
            f" {attrs(data_wasteland=waste.id, data_name=waste.name)}>"
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
                f' x1="{coord(x1 + (x2 - x1) * t0)}" y1="{coord(y1 + (y2 - y1) * t0)}"'
                f' x2="{coord(x1 + (x2 - x1) * t1)}" y2="{coord(y1 + (y2 - y1) * t1)}"'
                ' stroke="#111" stroke-width="0.8"/>'
                + (
                    f'<circle cx="{coord(x2)}" cy="{coord(y2)}" r="1.8" fill="#111"/>'
                    if t1 == 1
                    else ""
                )
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
        out += _link((p2.x, p2.y), (q2.x, q2.y), (WATER_LINK_COLOUR, "water-link", "5,3"), names)
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
                f"{power_icon_mark(land.power_icon, box.x + box.w - 3.5, box.y + font * 0.55)}</g>"
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
        data = attrs(
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
                f"{piece_shape(mark.kind, x0 + k * step, y, mark.colour, halo=True)}"
                f"{piece_shape(mark.kind, x0 + k * step, y, mark.colour)}</g>"
            )
        if place_id not in board.lands and len(fleets) > 1:
            parts.append(
                f'<text class="piece-count" x="{coord(anchor[0] + ICON)}" y="{coord(y + 3)}"'
                f' font-size="{LEGEND_FONT}" fill="#000">x{len(fleets)}</text>'
            )
        parts.append("</g>")
        out += parts
    return out


def _step(count: int) -> float:
    """How far apart `count` pieces in a row are drawn: side by side, or stacked closer when
    more than the room kept for a land's pieces would hold."""
    return min(ICON + 1, (ROW_WIDTH - ICON - 1) / (count - 1)) if count > 1 else ICON + 1


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
    legend_parts, legend_height = legend(board, colours, players, bool(plan.water_links))
    total = round(height + legend_height + extra[0])
    parts: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {total}"'
        f' width="{WIDTH * SCALE:.0f}" height="{total * SCALE:.0f}" class="board-map"'
        ' font-family="DejaVu Sans, Arial, sans-serif" role="img"'
        ' aria-label="The board: lands, seas and oceans, with the pieces on them">',
        _defs(),
        f'<rect x="0" y="0" width="{WIDTH}" height="{coord(height)}" fill="{BACKGROUND}"/>',
    ]
    layers = (
        _water_layer(board, plan),
        _land_layer(board, plan, colours),
        _links_layer(board, plan),
        _labels_layer(board, plan),
        _pieces_layer(board, plan, pieces or {}),
        legend_parts,
    )
    for layer in layers:
        parts += layer
    if extra[1]:
        parts.append(
            f'<g class="tracks" transform="translate(0,{coord(height + legend_height)})">'
            f"{extra[1]}</g>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
