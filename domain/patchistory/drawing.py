"""An SVG picture of the Patchistory table: each civilization's territory (the squares that
show, by terrain, with Heroes, Wonders and Special Buildings outlined whole, Buildings and
Wasteland sides, Workers) in a window of free spaces around it where Tiles may be patched, its
Reference Board (its statuses, with a legend) and its Descendant Track, the Trade Routes with
their Workers, the Tiles in the Auction and the Tiles won, each drawn on both sides. Nothing
behind a Player Screen is drawn, so every viewer sees the same picture.

Every civilization is a `<g class="civ" data-seat=N>` whose `data-x0 data-y0 data-r0 data-c0
data-cell` map a square (row, column) to the picture; every square a `<rect class="square"
data-row data-col data-terrain data-square="row,col">`, every free space around it a `<rect
class="slot" data-row data-col data-square>`, every Worker a `<circle class="worker">`. A Tile at
the Auction is a `<g class="offer" data-offer=i>`; a Tile won waiting to be patched a `<g
class="to-patch" data-white="r,c ..." data-black="r,c ...">` listing its squares on each side
(what a page needs to show where the Tile would go). Pure string building: no I/O."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape
from typing import Any

from domain.patchistory import territory as terr
from domain.patchistory.model import PState
from domain.patchistory.pack import SEA, WASTELAND, PatchPack

CELL = 30
COLOURS = ("#c0392b", "#1f6fb4", "#27ae60", "#b7950b")
COLOUR_NAMES = ("red", "blue", "green", "yellow")
TERRAIN = {"land": "#e8dcb5", SEA: "#8ec5e8", WASTELAND: "#b9a88f"}
FEATURE = {"hero": "#8e44ad", "wonder": "#a04000", "special": "#2c3e50"}
SHORT = {
    "coin": "$",
    "food": "F",
    "resource": "R",
    "culture": "C",
    "politics": "P",
    "transport": "T",
    "military": "M",
    "defense": "D",
}
LEGEND = {
    "coin": "Coin",
    "food": "Food",
    "resource": "Resources",
    "culture": "Culture",
    "politics": "Politics",
    "transport": "Transport",
    "military": "Military",
    "defense": "Defense",
}
WINDOW = 9
"""The squares shown per civilization: a 9 x 9 window around its territory."""
PANEL_W = WINDOW * CELL + 20
PANEL_H = WINDOW * CELL + 120
ROMAN = {1: "I", 2: "II", 3: "III"}
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


def _icons(yields: object) -> str:
    if not isinstance(yields, dict):
        return ""
    return "".join(f"{SHORT[k]}{v}" for k, v in sorted(yields.items()) if k in SHORT)


def tile_name(tile: str, era: int | None) -> str:
    number = tile.rsplit("-", 1)[-1].lstrip("0") or "0"
    return f"Tile {number} of Era {ROMAN.get(era or 0, era)}" if era else tile


def _window(view: dict[tuple[int, int], object]) -> tuple[int, int]:
    """The top-left square of the 9 x 9 window that holds the territory in its middle."""
    if not view:
        return -4, -4
    rows = [r for r, _ in view]
    cols = [c for _, c in view]
    r0 = (min(rows) + max(rows)) // 2 - WINDOW // 2
    c0 = (min(cols) + max(cols)) // 2 - WINDOW // 2
    return r0, c0


Place = Callable[[tuple[int, int]], tuple[int, int]]
"""Where a square of a civilization's grid is drawn in its panel."""


def civ_svg(pack: PatchPack, state: PState, seat: int, x: int, y: int) -> list[str]:
    """One civilization's panel: its patched territory with free spaces, Buildings, Features
    and Workers, its Reference Board and its Descendant Track."""
    civ = state.civs[seat]
    colour = COLOURS[seat % 4]
    view = terr.shown(pack, civ) if civ.capital else {}
    r0, c0 = _window(dict(view))
    ox, oy = 10, 26
    out = [
        f'<g class="civ" data-seat="{seat}" transform="translate({x},{y})" data-x0="{ox}"'
        f' data-y0="{oy}" data-r0="{r0}" data-c0="{c0}" data-cell="{CELL}">',
        f'<rect width="{PANEL_W}" height="{PANEL_H}" fill="#fbf8ef" '
        f'stroke="{colour}" stroke-width="3"/>',
        f'<text x="8" y="18" font-size="14" font-weight="bold">'
        f"{escape(state.names[seat])} ({COLOUR_NAMES[seat % 4]})</text>",
    ]

    def at(cell: tuple[int, int]) -> tuple[int, int]:
        return ox + (cell[1] - c0) * CELL, oy + (cell[0] - r0) * CELL

    out += _free_spaces(view, r0, c0, at)
    for cell, item in sorted(view.items()):
        if r0 <= cell[0] < r0 + WINDOW and c0 <= cell[1] < c0 + WINDOW:
            out += _square(pack, cell, item, at)
    out += _features(pack, civ, view, at)
    for worker in civ.workers:
        px, py = at(worker)
        out.append(
            f'<circle class="worker" cx="{px + CELL - 5}" cy="{py + CELL // 2}" r="4.5" '
            f'fill="{colour}" stroke="#000"><title>a Worker</title></circle>'
        )
    out += _tracks(pack, state, seat, colour, oy + WINDOW * CELL)
    return [*out, "</g>"]


def _free_spaces(view: Mapping[Any, Any], r0: int, c0: int, at: Place) -> list[str]:
    """The empty spaces of the grid a Tile may be patched onto, each one clickable."""
    out = []
    for r in range(r0, r0 + WINDOW):
        for c in range(c0, c0 + WINDOW):
            if (r, c) in view:
                continue
            px, py = at((r, c))
            out.append(
                f'<rect class="slot" data-row="{r}" data-col="{c}" data-square="{r},{c}"'
                f' x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="#ffffff"'
                ' fill-opacity="0.01" stroke="#e6dfcc" stroke-width="0.6"/>'
            )
    return out


def _square(pack: PatchPack, cell: tuple[int, int], item: Any, at: Place) -> list[str]:
    """One square of the territory: its terrain, what covers it (a Wasteland or a Building)
    and the goods it yields."""
    px, py = at(cell)
    terrain = item.square.terrain
    name = item.square.name or terrain
    out = [
        f'<rect class="square" data-row="{cell[0]}" data-col="{cell[1]}"'
        f' data-square="{cell[0]},{cell[1]}" data-terrain="{escape(terrain)}"'
        f' data-name="{escape(name)}" x="{px}" y="{py}" width="{CELL}" height="{CELL}"'
        f' fill="{TERRAIN.get(terrain, "#eee")}" stroke="#7f6f55">'
        f"<title>{escape(name)} ({escape(terrain)})</title></rect>"
    ]
    label = _icons(dict(item.square.yields))
    gold = _icons(dict(item.square.gold))
    if item.cover is not None:
        if item.cover.wasteland:
            out.append(
                f'<rect class="wasteland" x="{px + 4}" y="{py + 4}" width="{CELL - 8}" '
                f'height="{CELL - 8}" fill="#8d7b63"/>'
            )
            label, gold = "", ""
        else:
            building = pack.buildings[item.cover.building]
            out.append(
                f'<rect class="building" data-building="{escape(building.id)}" '
                f'x="{px + 3}" y="{py + 3}" width="{CELL - 6}" height="{CELL - 6}" '
                f'fill="#fff" stroke="#555"><title>{escape(building.name)}</title></rect>'
            )
            label, gold = _icons(dict(building.yields)), ""
    if label:
        out.append(f'<text class="icons" x="{px + 2}" y="{py + 11}" font-size="10">{label}</text>')
    if gold:
        out.append(
            f'<text class="icons" x="{px + 2}" y="{py + 26}" font-size="10"'
            f' fill="#7a5a00">[{gold}]</text>'
        )
    return out


def _features(pack: PatchPack, civ: Any, view: Mapping[Any, Any], at: Place) -> list[str]:
    """The Features the territory shows, each outlined around its squares."""
    out = []
    for feature, cells in terr.features_shown(pack, civ, view):
        xs = [at(c)[0] for c in cells]
        ys = [at(c)[1] for c in cells]
        fx, fy = min(xs), min(ys)
        w, h = max(xs) - fx + CELL, max(ys) - fy + CELL
        about = f"{feature.name} ({KIND_NAMES.get(feature.kind, feature.kind)})"
        if feature.text:
            about += f": {feature.text}"
        out.append(
            f'<rect class="feature" data-kind="{escape(feature.kind)}" '
            f'data-feature="{escape(feature.id)}" '
            f'x="{fx + 2}" y="{fy + 2}" width="{w - 4}" height="{h - 4}" '
            f'fill="{FEATURE[feature.kind]}" fill-opacity="0.12" '
            f'stroke="{FEATURE[feature.kind]}" stroke-width="3"><title>{escape(about)}'
            "</title></rect>"
        )
        out += _feature_words(feature, fx, fy, w, h)
    return out


KIND_NAMES = {"hero": "Hero", "wonder": "Wonder", "special": "Special Feature"}


def _feature_words(feature: Any, fx: int, fy: int, w: int, h: int) -> list[str]:
    """What a Feature is, written inside its outline: its name (cut to fit) and, below it, what
    it yields once shown whole."""
    fits = max(3, (w - 8) // 6)
    name = feature.name if len(feature.name) <= fits else feature.name[: fits - 1] + "…"
    colour = FEATURE.get(feature.kind, "#333")
    out = [
        f'<text class="feature-name" x="{fx + 5}" y="{fy + h // 2 - 1}" font-size="9"'
        f' font-weight="bold" fill="{colour}">{escape(name)}</text>'
    ]
    yields = _icons(dict(feature.yields))
    if yields and h >= CELL:
        out.append(
            f'<text class="feature-yields" x="{fx + 5}" y="{fy + h // 2 + 10}" font-size="9"'
            f' fill="{colour}">{escape(yields)}</text>'
        )
    return out


def _tracks(pack: PatchPack, state: PState, seat: int, colour: str, base: int) -> list[str]:
    """Under the territory: the Reference Board's statuses and the Descendant Track."""
    civ = state.civs[seat]
    board = terr.statuses(pack, state, seat)
    line = "  ".join(f"{SHORT[k]}{board[k]}" for k in SHORT)
    out = [
        f'<text class="board" x="8" y="{base + 18}" font-size="11">Reference Board: {line}</text>',
        f'<text x="8" y="{base + 38}" font-size="11">Descendant Track:</text>',
    ]
    total = pack.number("start", "workers")
    for k in range(total):
        filled = k < civ.born
        out.append(
            f'<circle class="descendant{" born" if filled else ""}" cx="{122 + k * 16}"'
            f' cy="{base + 34}" r="6" fill="{colour if filled else "#ffffff"}" stroke="#333"/>'
        )
    out.append(
        f'<text x="8" y="{base + 58}" font-size="11">{civ.born} of {total} Workers born,'
        f" {len(civ.resting)} resting</text>"
    )
    return out


def side_svg(pack: PatchPack, tile: str, side: str, x: float, y: float, cell: int) -> str:
    """One side of a Terrain Tile as a small picture at (x, y)."""
    out = []
    for square in pack.side(tile, side).squares:
        px, py = x + square.at[1] * cell, y + square.at[0] * cell
        out.append(
            f'<rect x="{px}" y="{py}" width="{cell}" height="{cell}"'
            f' fill="{TERRAIN.get(square.terrain, "#eee")}" stroke="#7f6f55">'
            f"<title>{escape(square.name or square.terrain)}</title></rect>"
        )
        label = _icons(dict(square.yields))
        font = 10
        if label:
            out.append(f'<text x="{px + 2}" y="{py + 10}" font-size="{font}">{label}</text>')
        gold = _icons(dict(square.gold))
        if gold:
            out.append(
                f'<text x="{px + 2}" y="{py + cell - 4}" font-size="{font}" fill="#7a5a00">'
                f"[{gold}]</text>"
            )
    for feature in pack.side(tile, side).features:
        fx = x + min(c for _, c in feature.squares) * cell
        fy = y + min(r for r, _ in feature.squares) * cell
        w = (max(c for _, c in feature.squares) + 1) * cell + x - fx
        h = (max(r for r, _ in feature.squares) + 1) * cell + y - fy
        out.append(
            f'<rect x="{fx + 1}" y="{fy + 1}" width="{w - 2}" height="{h - 2}" fill="none"'
            f' stroke="{FEATURE.get(feature.kind, "#333")}" stroke-width="2.5">'
            f"<title>{escape(feature.name)}</title></rect>"
        )
    return "".join(out)


def tile_svg(
    pack: PatchPack,
    tile: str,
    sides: tuple[str, ...],
    x: float,
    y: float,
    title: str,
    cls: str,
    data: str,
) -> tuple[str, float]:
    """A Tile with each of its `sides` side by side, under a title; and the width it takes
    (squares of 28: at 22 their yields were too small to read at 1400 px wide)."""
    cell = 28
    era = pack.tiles[tile].era if tile in pack.tiles else None
    out = [f'<g class="{cls}" {data}><title>{escape(title)}</title>']
    out.append(
        f'<text x="{x}" y="{y + 11}" font-size="11" font-weight="bold">{escape(title)}:'
        f" {escape(tile_name(tile, era))}</text>"
    )
    sx = x
    for side in sides:
        _, cols = pack.side(tile, side).size
        out.append(
            f'<text x="{sx}" y="{y + 26}" font-size="11">{side.title()} side</text>'
            + side_svg(pack, tile, side, sx, y + 31, cell)
        )
        sx += max(cols * cell, 62) + 14
    width = max(sx - x, 6.9 * (len(title) + len(tile_name(tile, era))) + 12)
    out.insert(
        1,
        f'<rect class="pad" x="{x - 4}" y="{y - 2}" width="{width}" height="{31 + 3 * cell + 6}"'
        ' fill="#ffffff" stroke="#c8bfa5" rx="4"/>',
    )
    out.append("</g>")
    return "".join(out), width


def _cells(pack: PatchPack, tile: str, side: str) -> str:
    return " ".join(f"{r},{c}" for r, c in (sq.at for sq in pack.side(tile, side).squares))


def table_svg(pack: PatchPack, state: PState, viewer: int | None) -> str:
    """The whole table: every civilization, the legend of their Reference Boards just under
    them (where a newcomer reads them), the Trade Routes, the Tiles at the Auction and won (the
    Auction first while it is bid on, so that the Tiles bid on are in view)."""
    n = state.players
    columns = 2 if n == 4 else n  # four in two rows: the table keeps 3 panels' width
    rows = (n + columns - 1) // columns
    panels_h = rows * PANEL_H + (rows - 1) * 10
    width = max(3, columns) * (PANEL_W + 10) + 10
    routes_h = 40 + 16 * min(len(state.routes), 8)
    if state.phase.startswith("auction") or state.phase == "vasco":  # the Tiles bid on first
        auction_y = 50
        top = auction_y + 132
    else:
        top = 30
        auction_y = top + panels_h + 34 + KEY_H + routes_h
    legend_y = top + panels_h + 4
    routes_y = legend_y + 30 + KEY_H
    height = max(auction_y + 136, routes_y + routes_h)
    phase = state.phase.replace("_", " ").replace("-", " ")  # "auction sealed", not a slug
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="patchistory" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" {FONT} role="img"'
        ' aria-label="The table: every civilization, the Trade Routes and the Auction">',
        "<style>.wasteland,.building,.icons,.feature,.feature-name,.feature-yields,.worker,.patch-preview"
        "{pointer-events:none}</style>",
        f'<text x="10" y="20" font-size="16" font-weight="bold">Era {ROMAN.get(state.era, "")}'
        f", Round {state.round}: {escape(phase)}. Start Player:"
        f" {escape(state.names[state.start]) if 0 <= state.start < n else 'none yet'}</text>",
    ]
    for seat in range(n):
        row, column = divmod(seat, columns)
        parts += civ_svg(
            pack, state, seat, 10 + column * (PANEL_W + 10), top + row * (PANEL_H + 10)
        )
    parts += routes_svg(pack, state, routes_y)
    parts += auction_svg(pack, state, auction_y)
    legend = ", ".join(f"{SHORT[k]} {v}" for k, v in LEGEND.items())
    parts.append(
        f'<text class="legend" x="10" y="{legend_y + 14}" font-size="11">Legend: {legend};'
        " [ ] yields only while a Worker stands there; a circle is a Worker.</text>"
    )
    parts += _key(legend_y + 22)
    parts.append("</svg>")
    return "\n".join(parts)


KEY_H = 20
"""The row under the legend that shows what the squares' colours and outlines are."""
KEY = (
    ("fill", TERRAIN["land"], "Land"),
    ("fill", TERRAIN[SEA], "Sea"),
    ("fill", TERRAIN[WASTELAND], "Wasteland"),
    ("inset", "#8d7b63", "Building face down"),
    ("inset", "#ffffff", "Building"),
    ("outline", FEATURE["hero"], "Hero"),
    ("outline", FEATURE["wonder"], "Wonder"),
    ("outline", FEATURE["special"], "Special Feature"),
)


def _key(y: int) -> list[str]:
    """Swatches naming each colour a square or outline may have."""
    parts = ['<g class="legend-key">']
    x = 10
    for how, colour, words in KEY:
        land = TERRAIN["land"]
        if how == "outline":
            swatch = (
                f'<rect x="{x + 1}" y="{y + 1}" width="12" height="12" fill="{land}"'
                f' stroke="{colour}" stroke-width="3"/>'
            )
        elif how == "inset":
            swatch = (
                f'<rect x="{x}" y="{y}" width="14" height="14" fill="{land}" stroke="#7f6f55"/>'
                f'<rect x="{x + 3}" y="{y + 3}" width="8" height="8" fill="{colour}"'
                ' stroke="#555"/>'
            )
        else:
            swatch = (
                f'<rect x="{x}" y="{y}" width="14" height="14" fill="{colour}" stroke="#7f6f55"/>'
            )
        parts.append(swatch)
        parts.append(f'<text x="{x + 19}" y="{y + 11}" font-size="11">{escape(words)}</text>')
        x += 19 + int(len(words) * 6.0) + 14
    parts.append("</g>")
    return parts


def routes_svg(pack: PatchPack, state: PState, routes_y: int) -> list[str]:
    """The Trade Routes built, their ends and the Workers on their spaces."""
    parts: list[str] = []
    parts.append(f'<g class="routes" transform="translate(10,{routes_y})">')
    parts.append('<text x="0" y="12" font-size="12" font-weight="bold">Trade Routes</text>')
    if not state.routes:
        parts.append('<text x="110" y="12" font-size="11">none built yet</text>')
    for i, route in enumerate(state.routes[:8]):
        kind = pack.general if route.kind == "general" else pack.allied
        ry = 30 + i * 16
        ends = f"{state.names[route.a]} to {state.names[route.b]}"
        parts.append(
            f'<text x="0" y="{ry}" font-size="11">{escape(route.kind.title())} route'
            f" {escape(str(route.id))}:"
            f" {escape(ends)}{' (at War)' if route.declared else ''}</text>"
        )
        for space in range(len(kind.spaces)):
            parts.append(
                f'<rect x="{260 + space * 18}" y="{ry - 10}" width="16" height="12" '
                f'fill="#eee" stroke="#999"/>'
            )
        for owner, space in route.workers:
            parts.append(
                f'<circle class="route-worker" data-route="{escape(str(route.id))}"'
                f' data-seat="{owner}" '
                f'cx="{268 + space * 18}" cy="{ry - 4}" r="5" fill="{COLOURS[owner % 4]}"'
                ' stroke="#000"/>'
            )
    parts.append("</g>")
    return parts


def auction_svg(pack: PatchPack, state: PState, auction_y: int) -> list[str]:
    """The Tiles at the Auction while bidding, and those won but not yet patched (both sides
    where the side is still open)."""
    parts: list[str] = []
    bidding = state.phase.startswith("auction") or state.phase == "vasco"
    parts.append(
        f'<text x="10" y="{auction_y - 4}" font-size="12" font-weight="bold">'
        f"{'The Auction' if bidding and state.offered else 'The Auction: no Tile offered now'}"
        "</text>"
    )
    x = 14.0
    taken = {w.tile for w in state.won}
    for i, offer in enumerate(state.offered):
        if offer.tile in taken or not bidding:
            continue
        sides = (offer.side,) if offer.side else ("white", "black")
        svg, w = tile_svg(
            pack, offer.tile, sides, x, auction_y + 4, f"At the Auction #{i + 1}", "offer",
            f'data-offer="{i}" data-tile="{escape(offer.tile)}"',
        )  # fmt: skip
        parts.append(svg)
        x += w + 14
    for won in state.won:
        if won.tile not in pack.tiles:
            continue
        sides = (won.side,) if won.side else ("white", "black")
        data = (
            f'data-seat="{won.seat}" data-tile="{escape(won.tile)}"'
            f' data-white="{_cells(pack, won.tile, "white")}"'
            f' data-black="{_cells(pack, won.tile, "black")}"'
        )
        svg, w = tile_svg(
            pack, won.tile, sides, x, auction_y + 4, f"Won by {state.names[won.seat]}",
            "to-patch", data,
        )  # fmt: skip
        parts.append(svg)
        x += w + 14
    return parts
