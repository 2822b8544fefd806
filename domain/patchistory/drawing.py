"""An SVG picture of the Patchistory table: each civilization's territory (the squares that
show, by terrain, with Heroes, Wonders and Special Buildings outlined whole, Buildings and
Wasteland sides, Workers), its Reference Board, the Trade Routes with their Workers, and the
Tiles in the Auction. Nothing behind a Player Screen is drawn, so every viewer sees the same
picture. Every civilization is a `<g class="civ" data-seat=N>`, every square a
`<rect class="square" data-row data-col data-terrain>`, every Worker a `<circle
class="worker">`."""

from __future__ import annotations

from html import escape

from domain.patchistory import territory as terr
from domain.patchistory.model import PState
from domain.patchistory.pack import SEA, WASTELAND, PatchPack

CELL = 34
COLOURS = ("#c0392b", "#27ae60", "#2980b9", "#f1c40f")
TERRAIN = {"land": "#e8dcb5", SEA: "#8ec5e8", WASTELAND: "#b9a88f"}
FEATURE = {"hero": "#8e44ad", "wonder": "#d35400", "special": "#2c3e50"}
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
PANEL_W = 9 * CELL
PANEL_H = 11 * CELL


def _icons(yields: object) -> str:
    if not isinstance(yields, dict):
        return ""
    return "".join(f"{SHORT[k]}{v}" for k, v in sorted(yields.items()))


def civ_svg(pack: PatchPack, state: PState, seat: int, x: int, y: int) -> list[str]:
    civ = state.civs[seat]
    out = [
        f'<g class="civ" data-seat="{seat}" transform="translate({x},{y})">',
        f'<rect width="{PANEL_W}" height="{PANEL_H}" fill="#fbf8ef" '
        f'stroke="{COLOURS[seat % 4]}" stroke-width="3"/>',
        f'<text x="8" y="18" font-size="14" font-weight="bold">'
        f"{escape(state.names[seat])} (seat {seat})</text>",
    ]
    if not civ.capital:
        return [*out, "</g>"]
    view = terr.shown(pack, civ)
    rows = [r for r, _ in view]
    cols = [c for _, c in view]
    r0, c0 = min(rows), min(cols)
    ox, oy = 10, 30

    def at(cell: tuple[int, int]) -> tuple[int, int]:
        return ox + (cell[1] - c0) * CELL, oy + (cell[0] - r0) * CELL

    for cell, item in sorted(view.items()):
        px, py = at(cell)
        terrain = item.square.terrain
        out.append(
            f'<rect class="square" data-row="{cell[0]}" data-col="{cell[1]}" '
            f'data-terrain="{terrain}" x="{px}" y="{py}" width="{CELL}" height="{CELL}" '
            f'fill="{TERRAIN.get(terrain, "#eee")}" stroke="#7f6f55"/>'
        )
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
                    f'fill="#fff" stroke="#555"/>'
                )
                label, gold = _icons(dict(building.yields)), ""
        if label:
            out.append(f'<text x="{px + 3}" y="{py + 13}" font-size="10">{label}</text>')
        if gold:
            out.append(
                f'<text x="{px + 3}" y="{py + 28}" font-size="10" fill="#b8860b">[{gold}]</text>'
            )
    for feature, cells in terr.features_shown(pack, civ, view):
        xs = [at(c)[0] for c in cells]
        ys = [at(c)[1] for c in cells]
        fx, fy = min(xs), min(ys)
        w, h = max(xs) - fx + CELL, max(ys) - fy + CELL
        out.append(
            f'<rect class="feature" data-kind="{feature.kind}" data-feature="{feature.id}" '
            f'x="{fx + 2}" y="{fy + 2}" width="{w - 4}" height="{h - 4}" fill="none" '
            f'stroke="{FEATURE[feature.kind]}" stroke-width="3"/>'
            f'<text x="{fx + 4}" y="{fy + h - 5}" font-size="8" fill="{FEATURE[feature.kind]}">'
            f"{escape(feature.name[:14])}</text>"
        )
    for worker in civ.workers:
        px, py = at(worker)
        out.append(
            f'<circle class="worker" cx="{px + CELL - 9}" cy="{py + 9}" r="6" '
            f'fill="{COLOURS[seat % 4]}" stroke="#000"/>'
        )
    board = terr.statuses(pack, state, seat)
    line = "  ".join(f"{SHORT[k]}{board[k]}" for k in SHORT)
    out.append(
        f'<text class="board" x="8" y="{PANEL_H - 24}" font-size="11">{line}</text>'
        f'<text x="8" y="{PANEL_H - 8}" font-size="11">Workers born {civ.born}, '
        f"resting {len(civ.resting)}</text>"
    )
    return [*out, "</g>"]


def table_svg(pack: PatchPack, state: PState, viewer: int | None) -> str:
    n = state.players
    width = max(2, n) * (PANEL_W + 10) + 10
    height = PANEL_H + 230
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="patchistory" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}">',
        f'<text x="10" y="20" font-size="16" font-weight="bold">Patchistory — Era {state.era}, '
        f"Round {state.round}, {escape(state.phase)}; Start Player seat {state.start}</text>",
    ]
    for seat in range(n):
        parts += civ_svg(pack, state, seat, 10 + seat * (PANEL_W + 10), 35)
    y = PANEL_H + 60
    parts.append(f'<g class="routes" transform="translate(10,{y})">')
    for i, route in enumerate(state.routes):
        kind = pack.general if route.kind == "general" else pack.allied
        ry = 14 + i * 16
        if ry > 120:
            break
        parts.append(
            f'<text x="0" y="{ry}" font-size="11">route {route.id} ({route.kind}) '
            f"{route.a}→{route.b}{' WAR' if route.declared else ''}</text>"
        )
        for space in range(len(kind.spaces)):
            parts.append(
                f'<rect x="{150 + space * 18}" y="{ry - 10}" width="16" height="12" '
                f'fill="#eee" stroke="#999"/>'
            )
        for owner, space in route.workers:
            parts.append(
                f'<circle class="route-worker" data-route="{route.id}" data-seat="{owner}" '
                f'cx="{158 + space * 18}" cy="{ry - 4}" r="5" fill="{COLOURS[owner % 4]}"/>'
            )
    parts.append("</g>")
    offers = ", ".join(f"{o.tile} ({o.side or 'either side'})" for o in state.offered)
    parts.append(
        f'<text class="auction" x="10" y="{height - 12}" font-size="12">'
        f"Auction: {escape(offers) or 'none'}</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts)
