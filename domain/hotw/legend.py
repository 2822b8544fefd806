"""The legend under a History of the World map: the pieces, the players' colours, the areas,
what the map's lines and marks mean, and whether the layout is reconstructed. Pure string
building: no I/O."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from domain.hotw.board import Board, PowerIcon
from domain.hotw.map_layout import WIDTH, text_width
from domain.hotw.marks import (
    AREA_COLOURS,
    BACKGROUND,
    COAST,
    LINK_COLOUR,
    OCEAN_FILL,
    PIECE_KINDS,
    PIECE_NAMES,
    PLAYER_COLOURS,
    ROMAN,
    SEA_FILL,
    STRAIT_COLOUR,
    WATER_LINK_COLOUR,
    coord,
    piece_shape,
    power_icon_mark,
)


def epoch_note(epoch: int, word: str = "") -> str:
    """ " (Epoch II)" after an area's name; nothing for a board whose areas have no epoch (0)."""
    return f" ({word}{ROMAN.get(epoch, epoch)})" if epoch else ""


def reconstruction(board: Board) -> str:
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
        out.append(f'<g transform="translate({coord(x)},{coord(y)})">{mark}')
        out.append(f'<text x="{coord(room)}" y="0" {text}>{escape(words)}</text></g>')
        x += width + 14
    return out, y + LEGEND_ROW


def legend(
    board: Board,
    colours: Mapping[str, str],
    players: Sequence[str] | None,
    joined_waters: bool = False,
) -> tuple[list[str], float]:
    """The legend under the map and its height: the pieces, the players' colours (and white,
    nobody's), the areas, what the map's lines and marks mean (`joined_waters`: the map joins
    waters by arrows), and whether the layout is reconstructed."""
    text = f'font-size="{LEGEND_FONT}" fill="#222" class="legend-text"'
    out, y = _pieces_row(17.0, text)
    seats = [
        (
            f'<rect x="0" y="-10" width="11" height="11" fill="{colour}" stroke="#000"/>',
            players[seat] if players else f"player {seat + 1}",
            15.0,
        )
        for seat, colour in enumerate(PLAYER_COLOURS[: len(players) if players else 0])
    ]
    row, y = _flow([*seats, _nobodys()], y, text)
    out += row
    row, y = _areas_grid(board, colours, y, text)
    out += row
    row, y = _flow(_map_notes(board, joined_waters), y + 3, text)
    out += row
    if "reconstructed" in board.provenance.lower():
        out.append(
            f'<text class="reconstructed legend-text" x="10" y="{coord(y)}"'
            f' font-size="{LEGEND_FONT}" fill="#222" font-style="italic">'
            f"{reconstruction(board)}</text>"
        )
        y += LEGEND_ROW
    height = y - LEGEND_ROW + 8
    return [
        f'<g class="legend" transform="translate(0,{coord(board.map_height)})">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{coord(height)}" fill="#fafafa"/>',
        *out,
        "</g>",
    ], height


def _pieces_row(y: float, text: str) -> tuple[list[str], float]:
    """Each kind of piece with its name, from `y`; returns them and the next row's y."""
    out: list[str] = []
    x = 10.0
    for kind in PIECE_KINDS:
        words = PIECE_NAMES[kind]
        width = 16 + legend_width(words)
        if x > 10 and x + width > WIDTH - 10:
            x, y = 10.0, y + LEGEND_ROW
        place = f"translate({coord(x)},{coord(y)})"
        out.append(
            f'<g class="legend-item" data-kind="{kind}" transform="{place}">'
            f"{piece_shape(kind, 6, -4, '#ddd')}"
            f'<text x="16" y="0" {text}>{escape(words)}</text></g>'
        )
        x += width + 14
    return out, y + LEGEND_ROW


def _areas_grid(
    board: Board, colours: Mapping[str, str], y: float, text: str
) -> tuple[list[str], float]:
    """Each area's colour and name (with its Epoch), in even columns from `y`."""
    out: list[str] = []
    named = [(area, f"{area.name}{epoch_note(area.epoch)}") for area in board.areas.values()]
    column = max((legend_width(words) for _, words in named), default=0.0) + 15 + 14
    columns = max(1, int((WIDTH - 20) // column))
    for i, (area, words) in enumerate(named):
        ax = 10 + (i % columns) * column
        ay = y + (i // columns) * LEGEND_ROW
        out.append(
            f'<rect x="{coord(ax)}" y="{coord(ay - 10)}" width="11" height="11"'
            f' fill="{colours[area.id]}" stroke="#333"/>'
        )
        out.append(f'<text x="{coord(ax + 15)}" y="{coord(ay)}" {text}>{escape(words)}</text>')
    return out, y + ((len(named) + columns - 1) // columns) * LEGEND_ROW


def _nobodys() -> tuple[str, str, float]:
    """White pieces: buildings left standing where no player's army is (the army that held
    the land removed or gone)."""
    mark = f'<g class="legend-nobody">{piece_shape("city", 6, -4, "#ffffff")}</g>'
    return mark, "white: a building no player holds (no army is there)", 15.0


def _map_notes(board: Board, joined_waters: bool = False) -> list[tuple[str, str, float]]:
    """What the map's lines and marks mean (a mark, its words, the room kept for the mark);
    the arrows that join waters where the map draws any; the power icons where the board has
    them."""
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
    if joined_waters:
        notes.append(
            (
                f'<line x1="0" y1="-4" x2="16" y2="-4" stroke="{WATER_LINK_COLOUR}"'
                ' stroke-width="1.6" stroke-dasharray="5,3"/>',
                "waters joined across the map's edge or a gap",
                20.0,
            )
        )
    if any(land.power_icon for land in board.lands.values()):
        notes += [
            (power_icon_mark(PowerIcon.CROWN, 5, -4), "crown", 13.0),
            (power_icon_mark(PowerIcon.SCROLL, 5, -4), "scroll", 13.0),
            (power_icon_mark(PowerIcon.SWORD, 5, -4), "sword", 13.0),
            (power_icon_mark(PowerIcon.TEMPLE, 5, -4), "temple (power icons)", 13.0),
        ]
    return notes
