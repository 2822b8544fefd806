"""A Brief History of the World drawn: its world board (the family's reconstructed map, recast
by the Avalon Hill drawing: lands laid out by the real-world places they are named after,
barren lands grey, waters among their coasts), each colour's armies, capitals, cities,
monuments and forts in the colour's own colour, the legend naming each colour by its player
and the Empire it plays, and under it the Gold track (100 spaces that wrap, each colour's
marker on its space) and the Invasion dial of the Empire in play (0 to +3).

Pure string building: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from domain.core.narration import COLOUR_NAMES
from domain.hotw.drawing import board_svg, player_colour
from domain.hotw.editions.ah2001.drawing import drawn_board
from domain.hotw.legend import LEGEND_FONT
from domain.hotw.map_layout import WIDTH, text_width
from domain.hotw.marks import PieceMark
from domain.hotw.world import WorldBoard

TRACK_HEIGHT = 116.0
CELL = (WIDTH - 20) / 50


def pieces_of_view(view: Mapping[str, Any]) -> dict[str, list[PieceMark]]:
    pieces: dict[str, list[PieceMark]] = {}
    for land, body in sorted((view.get("lands") or {}).items()):
        marks: list[PieceMark] = []
        colour = body.get("colour")
        if colour is not None:
            kind = "army" if body.get("standing") else "garrison"
            name = COLOUR_NAMES[int(colour) % len(COLOUR_NAMES)]
            marks.append(PieceMark(kind, player_colour(int(colour)), f"{name} {kind}", int(colour)))
        fill = player_colour(int(colour)) if colour is not None else "#ffffff"
        for building in sorted(body.get("buildings") or ()):
            marks.append(PieceMark(str(building), fill, str(building)))
        if marks:
            pieces[land] = marks
    turn = view.get("turn")
    if isinstance(turn, Mapping) and turn.get("colour") is not None:
        colour = int(turn["colour"])
        for water in turn.get("fleets") or ():
            name = COLOUR_NAMES[colour % len(COLOUR_NAMES)]
            pieces.setdefault(str(water), []).append(
                PieceMark("fleet", player_colour(colour), f"{name} fleet", colour)
            )
    return pieces


def colour_names(view: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """Each colour by its name, its player and the Empire it plays (where the viewer may know
    it): `red: ann, Sumerians`."""
    players = [p.get("name", "") for p in view.get("players") or () if isinstance(p, Mapping)]
    turn = view.get("turn") if isinstance(view.get("turn"), Mapping) else None
    found = []
    for c, colour in enumerate(view.get("colours") or ()):
        empire = colour.get("empire")
        if turn is not None and turn.get("colour") == c:
            empire = turn.get("empire") or empire
        owner = players[int(colour.get("seat", c)) % len(players)] if players else ""
        label = f"{COLOUR_NAMES[c % len(COLOUR_NAMES)]}: {owner}"
        if empire:
            label += f", {names.get(str(empire), str(empire))}"
        found.append(label)
    return found


def tracks(view: Mapping[str, Any], labels: Sequence[str], track: int) -> str:
    """The Gold track (two rows of 50 spaces) with each colour's marker, and the Invasion dial."""
    text = f'font-size="{LEGEND_FONT}" fill="#222" class="legend-text"'
    out = [
        f'<rect x="0" y="0" width="{WIDTH}" height="{TRACK_HEIGHT}" fill="#f3efe2"/>',
        f'<text x="10" y="14" {text} font-weight="bold">Gold track ({track} spaces; '
        "past the last, a marker goes round again)</text>",
    ]
    for space in range(track):
        row, col = divmod(space, 50)
        x, y = 10 + col * CELL, 20.0 + row * 32
        out.append(
            f'<rect class="gold-space" data-space="{space}" x="{x:.1f}" y="{y:.1f}"'
            f' width="{CELL:.1f}" height="28" fill="#fffaf0" stroke="#b8a77a" stroke-width="0.5"/>'
        )
        if space % 10 == 0:
            out.append(f'<text x="{x + 1.5:.1f}" y="{y + 11:.1f}" font-size="{LEGEND_FONT}"'
                       f' fill="#333" class="legend-text">{space}</text>')  # fmt: skip
    at: dict[int, int] = {}
    for c, colour in enumerate(view.get("colours") or ()):
        space = int(colour.get("track_space", 0)) % track
        row, col = divmod(space, 50)
        k = at.get(space, 0)
        at[space] = k + 1
        x, y = 10 + col * CELL + 2 + (k % 3) * 5.5, 20.0 + row * 32 + 14 + (k // 3) * 5.5
        name = labels[c] if c < len(labels) else COLOUR_NAMES[c % len(COLOUR_NAMES)]
        out.append(
            f'<g class="gold-marker" data-colour="{c}" data-gold="{int(colour.get("gold", 0))}">'
            f"<title>{escape(name)}: {int(colour.get('gold', 0))} gold</title>"
            f'<circle cx="{x + 2.5:.1f}" cy="{y + 2.5:.1f}" r="2.6" fill="{player_colour(c)}"'
            ' stroke="#000" stroke-width="0.5"/></g>'
        )
    turn = view.get("turn") if isinstance(view.get("turn"), Mapping) else None
    forces = (turn or {}).get("forces") or []
    dial = int(forces[-1].get("dial", 0)) if forces else None
    title = "Invasion dial"
    out.append(f'<text x="10" y="104" {text} font-weight="bold">{title}</text>')
    left = 10 + text_width(title, LEGEND_FONT * 1.1) + 8
    for value in range(4):
        on = dial == value
        x = round(left + value * 40, 1)
        out.append(
            f'<g class="dial-step" data-value="{value}"><rect x="{x}" y="90" width="36" height="18"'
            f' rx="3" fill="{"#2b2b2b" if on else "#ffffff"}" stroke="#555"/>'
            f'<text x="{x + 18:.1f}" y="103.5" font-size="{LEGEND_FONT}" text-anchor="middle"'
            f' fill="{"#ffffff" if on else "#222"}" class="legend-text">+{value}</text></g>'
        )
    note = "no Empire in play" if dial is None else "the Empire in play"
    out.append(f'<text x="{left + 4 * 40 + 6:.1f}" y="104" {text}>({note})</text>')
    return "".join(out)


def table_svg(board: WorldBoard, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    labels = colour_names(view, names)
    extra = tracks(view, labels, 100)
    return board_svg(
        drawn_board(board, barren_lands=True),
        pieces_of_view(view),
        labels or None,
        (TRACK_HEIGHT, extra),
    )
