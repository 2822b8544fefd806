"""A Brief History of the World drawn (issue 34): every land, barren land and water of its board,
each colour's pieces in its colour, the legend naming each colour by its player and the Empire
it plays (only where the viewer may know it), the Gold track with a marker per colour and the
Invasion dial."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

from service.rulesets import ruleset
from tests.support.table import Table

RULES = ruleset("brief-2009")


def played(moves: int) -> Table:
    table = Table(RULES, ("ann", "bob", "cy"), b"b" * 32)
    rng = random.Random(9)
    for _ in range(moves):
        if RULES.system_action(table.state) is not None:
            table.resolve()
            continue
        seat = min(RULES.awaited_seats(table.state))
        table.play(seat, rng.choice(list(RULES.legal_actions(table.state, seat))))
    return table


def test_the_map_shows_every_land_water_piece_colour_the_gold_track_and_the_dial():
    table = played(120)
    svg = RULES.draw_board(table.state, 0)
    ET.fromstring(svg.split("\n", 1)[1])
    board = RULES.tables.board
    assert set(re.findall(r'data-land="([^"]+)"', svg)) == set(board.lands)
    barren = [land.id for land in board.lands.values() if land.barren]
    assert len(barren) == 8, "barren lands are lands a colour may hold, drawn grey"
    for land in barren:
        assert re.search(rf'data-land="{land}" data-name="[^"]+" data-area="barren"', svg)
    for water in board.waters:
        assert f'data-water="{water}"' in svg
    view = RULES.view(table.state, 0)
    held = {
        land: body["colour"] for land, body in view["lands"].items() if body["colour"] is not None
    }
    assert held, "120 moves in, colours hold lands"
    for land, colour in held.items():
        assert re.search(rf'data-place="{land}" data-owner="{colour}"', svg), land
    markers = re.findall(r'class="gold-marker" data-colour="(\d+)" data-gold="(\d+)"', svg)
    assert [(int(c), int(g)) for c, g in markers] == [
        (c, colour["gold"]) for c, colour in enumerate(view["colours"])
    ]
    assert len(re.findall(r'class="dial-step"', svg)) == 4
    assert "red: ann" in svg and "blue: bob" in svg and "green: cy" in svg


def test_a_colour_is_named_by_its_empire_only_where_the_viewer_may_know_it():
    table = played(8)
    state = table.state
    secret = {c: colour.empire for c, colour in enumerate(state.colours) if colour.empire}
    assert secret, "Empire cards are allocated"
    names = RULES.names()
    for viewer in range(3):
        svg = RULES.draw_board(state, viewer)
        for colour, empire in secret.items():
            shown = f": {('ann', 'bob', 'cy')[state.colours[colour].seat]}, {names[empire]}"
            if state.colours[colour].seat == viewer:
                assert shown in svg
            elif state.turn is None or state.turn.colour != colour:
                assert shown not in svg
