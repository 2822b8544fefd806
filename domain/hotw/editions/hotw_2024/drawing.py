"""The 2024 board with the pieces a view shows: each land's army or garrison and buildings, the
fleets of the current turn, and the players in the legend."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.narration import COLOUR_NAMES
from domain.hotw.board import Board
from domain.hotw.drawing import board_svg, player_colour
from domain.hotw.marks import PieceMark


def pieces_of_view(view: Mapping[str, Any]) -> dict[str, list[PieceMark]]:
    """The pieces a view shows: each land's army or garrison and buildings, and the fleets of
    the current turn (Empire and Event) in their waters."""
    pieces: dict[str, list[PieceMark]] = {}
    for land, body in sorted((view.get("lands") or {}).items()):
        marks: list[PieceMark] = []
        owner = body.get("owner")
        if owner is not None:
            kind = "army" if body.get("army") else "garrison"
            marks.append(
                PieceMark(kind, player_colour(int(owner)), f"seat {owner} {kind}", int(owner))
            )
        colour = player_colour(int(owner)) if owner is not None else "#ffffff"
        for building in sorted(body.get("buildings") or (), key=_building_order):
            label = "Great Wall fort" if building == "fort" and body.get("great_wall") else ""
            marks.append(PieceMark(str(building), colour, label or str(building)))
        if marks:
            pieces[land] = marks
    turn = view.get("turn")
    if isinstance(turn, Mapping) and turn.get("seat") is not None:
        colour = player_colour(int(turn["seat"]))
        for water in [*(turn.get("fleets") or ()), *(turn.get("event_fleets") or ())]:
            pieces.setdefault(str(water), []).append(
                PieceMark("fleet", colour, f"seat {turn['seat']} fleet", int(turn["seat"]))
            )
    return pieces


def _building_order(building: str) -> int:
    order = ("capital", "city", "monument", "fort")
    return order.index(building) if building in order else len(order)


def table_svg(board: Board, view: Mapping[str, Any]) -> str:
    """The board with the pieces `view` shows (a view hides only what its viewer may not see,
    so the picture shows exactly that too), and its players in the legend."""
    players = [
        f"{p.get('name', f'player {i + 1}')} ({COLOUR_NAMES[i % len(COLOUR_NAMES)]})"
        for i, p in enumerate(view.get("players") or ())
        if isinstance(p, Mapping)
    ]
    return board_svg(board, pieces_of_view(view), players or None)
