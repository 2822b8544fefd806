"""The marks a History of the World board is drawn with: the colours of areas, waters and
players, and the shapes of the pieces and power icons (p7). Pure string building: no I/O."""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

from domain.hotw.board import Board, PowerIcon
from domain.hotw.map_layout import ICON

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
WATER_LINK_COLOUR = "#1f4e8c"
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


def attrs(**attrs: object) -> str:
    """Keyword arguments as SVG attributes (`data_x` → `data-x`, a trailing `_` dropped)."""
    return " ".join(
        f'{k.rstrip("_").replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items()
    )


def coord(value: float) -> str:
    """A coordinate as the drawing writes it: one decimal."""
    return f"{value:.1f}"


def area_colours(board: Board) -> dict[str, str]:
    """Each area's fill; barren lands (Brief: lands without an area) light grey."""
    return {
        area: "#dcdcdc" if area == "barren" else AREA_COLOURS[i % len(AREA_COLOURS)]
        for i, area in enumerate(board.areas)
    }


# --- the pieces' shapes -------------------------------------------------------------------------


def outline(*corners: tuple[float, float]) -> str:
    """A closed path through the corners, as SVG's `d`."""
    return "M" + " L".join(f"{coord(x)},{coord(y)}" for x, y in corners) + " Z"


def piece_shape(kind: str, cx: float, cy: float, fill: str, halo: bool = False) -> str:
    """A piece's shape centred on (cx, cy), about ICON across; `halo`: its white outline, drawn
    under it so that a piece stands out on every land's colour."""
    s = ICON / 2
    paint = f'fill="{escape(fill)}" stroke="#000" stroke-width="0.7"'
    if halo:
        paint = 'fill="#ffffff" stroke="#ffffff" stroke-width="2.6" stroke-linejoin="round"'
    if kind == "army":  # a standing pawn
        body = outline((cx - s * 0.8, cy + s), (cx - s * 0.35, cy - s * 0.1),
                       (cx + s * 0.35, cy - s * 0.1), (cx + s * 0.8, cy + s))  # fmt: skip
        head = f'cx="{coord(cx)}" cy="{coord(cy - s * 0.45)}" r="{coord(s * 0.48)}"'
        return f'<path d="{body}" {paint}/><circle {head} {paint}/>'
    if kind == "garrison":  # the pawn laid down
        body = outline((cx - s, cy - s * 0.45), (cx + s * 0.2, cy - s * 0.2),
                       (cx + s * 0.2, cy + s * 0.2), (cx - s, cy + s * 0.45))  # fmt: skip
        head = f'cx="{coord(cx + s * 0.55)}" cy="{coord(cy)}" r="{coord(s * 0.45)}"'
        return f'<path d="{body}" {paint}/><circle {head} {paint}/>'
    if kind == "capital":  # a five-pointed star
        points = []
        for k in range(10):
            r = s * (1.05 if k % 2 == 0 else 0.45)
            angle = -math.pi / 2 + k * math.pi / 5
            points.append(f"{coord(cx + r * math.cos(angle))},{coord(cy + r * math.sin(angle))}")
        return f'<polygon points="{" ".join(points)}" {paint}/>'
    if kind == "city":  # a house
        house = outline((cx - s * 0.8, cy + s * 0.9), (cx - s * 0.8, cy - s * 0.1),
                        (cx, cy - s * 0.9), (cx + s * 0.8, cy - s * 0.1),
                        (cx + s * 0.8, cy + s * 0.9))  # fmt: skip
        return f'<path d="{house}" {paint}/>'
    if kind == "monument":  # an obelisk
        obelisk = outline((cx - s * 0.45, cy + s), (cx - s * 0.25, cy - s * 0.6), (cx, cy - s),
                          (cx + s * 0.25, cy - s * 0.6), (cx + s * 0.45, cy + s))  # fmt: skip
        return f'<path d="{obelisk}" {paint}/>'
    if kind == "fort":  # a crenellated tower
        top, bottom, left, right = cy - s * 0.9, cy + s * 0.9, cx - s * 0.8, cx + s * 0.8
        notch = (right - left) / 5
        teeth = [
            corner
            for k in range(5)
            for corner in (
                (left + notch * k, top + (0 if k % 2 == 0 else s * 0.35)),
                (left + notch * (k + 1), top + (0 if k % 2 == 0 else s * 0.35)),
            )
        ]
        return f'<path d="{outline((left, bottom), *teeth, (right, bottom))}" {paint}/>'
    if kind == "fleet":  # a ship: hull and sail
        hull = outline((cx - s, cy + s * 0.25), (cx + s, cy + s * 0.25),
                       (cx + s * 0.6, cy + s), (cx - s * 0.6, cy + s))  # fmt: skip
        sail = outline((cx - s * 0.1, cy + s * 0.15), (cx - s * 0.1, cy - s),
                       (cx + s * 0.75, cy + s * 0.15))  # fmt: skip
        return f'<path d="{hull}" {paint}/><path d="{sail}" {paint}/>'
    return f'<circle cx="{coord(cx)}" cy="{coord(cy)}" r="{coord(s * 0.7)}" {paint}/>'


def power_icon_mark(icon: PowerIcon, x: float, y: float) -> str:
    """A small mark for each of the four power-icon kinds (p7), centred on (x, y)."""
    line = 'stroke="#000" stroke-width="0.5"'
    if icon is PowerIcon.CROWN:
        points = [(x - 3.5, y + 2), (x - 3.5, y - 2), (x - 1.7, y), (x, y - 3),
                  (x + 1.7, y), (x + 3.5, y - 2), (x + 3.5, y + 2)]  # fmt: skip
        pts = " ".join(f"{coord(px)},{coord(py)}" for px, py in points)
        return f'<polygon points="{pts}" fill="#f5c518" {line}/>'
    if icon is PowerIcon.SCROLL:
        return (
            f'<rect x="{coord(x - 3.5)}" y="{coord(y - 2.2)}" width="7" height="4.4" rx="1.5"'
            f' fill="#f4e4bc" {line}/>'
        )
    if icon is PowerIcon.SWORD:
        return (
            f'<line x1="{coord(x - 3)}" y1="{coord(y + 3)}" x2="{coord(x + 3)}"'
            f' y2="{coord(y - 3)}" stroke="#222" stroke-width="1.3"/>'
            f'<line x1="{coord(x - 2.6)}" y1="{coord(y - 0.6)}" x2="{coord(x + 0.6)}"'
            f' y2="{coord(y + 2.6)}" stroke="#222" stroke-width="1.1"/>'
        )
    points = [(x - 3.5, y + 2.6), (x - 3.5, y - 0.8), (x, y - 3.4), (x + 3.5, y - 0.8),
              (x + 3.5, y + 2.6)]  # fmt: skip
    pts = " ".join(f"{coord(px)},{coord(py)}" for px, py in points)
    return f'<polygon points="{pts}" fill="#ffffff" {line}/>'
