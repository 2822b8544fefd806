"""What each seat is shown (nothing behind another Player Screen), the SVG picture of the
table, the view's JSON Schema, and the greedy bot's position rebuilt from a view."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import jsonschema
import pytest

from cli.data import bare_setup
from domain.patchistory import territory as terr
from domain.patchistory.view import seat_state
from schemas.patchistory_view import VIEW
from tests.support import conformance as kit
from tests.unit.patchistory.support import RULES, act, civ_of, fresh, managing

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def played():
    return kit.play(kit.subject("patchistory"), 4).final.state


def test_a_seat_sees_its_own_goods_and_hands_and_only_counts_of_the_others():
    state = fresh(3)
    view = RULES.view(state, 1)
    mine, other = view["players"][1], view["players"][0]
    assert mine["goods"] == {"coin": 3, "food": 4, "resource": 0, "culture": 20, "votes": 0}
    assert len(mine["building_tiles"]) == 4 and len(mine["prosperity"]) == 3
    assert (
        other["goods"] is None and other["building_tiles"] is None and other["prosperity"] is None
    )
    assert other["building_tile_count"] == 4 and other["prosperity_count"] == 3
    assert RULES.view(state, None)["players"][1]["goods"] is None
    text = json.dumps(RULES.view(state, 1))
    for card in state.civs[0].prosperity:
        assert card not in text
    for tile in state.stack:
        assert f'"{tile}"' not in text


def test_a_wasteland_hides_which_building_tile_it_was_even_in_the_position_for_bots():
    state = managing(fresh(3), 0, 2)
    state = civ_of(state, 0, resource=1)
    used = state.civs[0].hand[0]
    state, _ = act(state, 0, "reclaim", row=0, col=1, building=used)
    for viewer in (0, 1, None):
        view = RULES.view(state, viewer)
        assert view["players"][0]["covers"] == [
            {"row": 0, "col": 1, "building": None, "wasteland": True}
        ]
    assert used not in json.dumps(RULES.view(state, 1))


def test_every_view_fits_the_documented_schema(played):
    for viewer in (0, 1, 2, None):
        jsonschema.validate(RULES.view(played, viewer), VIEW)
    jsonschema.validate(RULES.view(fresh(2), 0), VIEW)


def test_the_table_is_drawn_with_every_square_and_worker_of_every_civilization(played):
    root = ET.fromstring(RULES.draw_board(played, None))
    civs = root.findall(f".//{SVG}g[@class='civ']")
    assert [c.get("data-seat") for c in civs] == ["0", "1", "2"]
    for seat, group in enumerate(civs):
        squares = group.findall(f"{SVG}rect[@class='square']")
        assert len(squares) == len(terr.shown(RULES.pack, played.civs[seat]))
        assert len(group.findall(f"{SVG}circle[@class='worker']")) == len(played.civs[seat].workers)
    assert RULES.draw_board(played, 0) == RULES.draw_board(played, None), "nothing secret drawn"


def test_the_bare_table_is_drawn_too():
    bare = RULES.initial_state(bare_setup(RULES))
    root = ET.fromstring(RULES.draw_board(bare, None))
    assert root.tag == f"{SVG}svg"


def test_the_bots_position_from_a_view_is_the_seats_cut_of_the_state(played):
    strategy = RULES.strategy()
    for seat in range(3):
        from_view = strategy.position({"view": RULES.view(played, seat)}, seat)
        assert from_view == seat_state(played, seat) == strategy.position(played, seat)
    with pytest.raises(TypeError):
        strategy.position(["not", "a", "position"], 0)


def test_a_sealed_bid_is_told_by_the_tiles_place_at_the_auction_and_its_coin():
    """The event counts the Tile bid on from 0; the log says '#2 at the Auction', as the
    table's buttons do, never 'number 1'."""
    from domain.patchistory.narration import narrate

    said = narrate(RULES, {"type": "BidSealed", "data": {"seat": 0, "number": 1, "offer": 2}},
                   ["ann", "bob"])  # fmt: skip
    assert "#2 at the Auction" in said and "Coin 2" in said
    assert "number" not in said and "offer" not in said


def test_a_worker_on_a_trade_route_is_told_by_its_route_and_spaces_never_by_a_player():
    """The event's `to` is a space of the route, not a seat: the log once read "to bob"."""
    from domain.patchistory.narration import narrate

    def said(**data: object) -> str:
        base = {"seat": 0, "route": 1, "frm": 0, "to": 1, "rest": False, "home": False}
        event = {"type": "patchistory.RouteWorkerMoved", "data": {**base, **data}}
        return narrate(RULES, event, ["ann", "bob", "cy"])

    assert said() == "ann's Worker moved along Trade Route 1, from its space 1 to its space 2."
    rest = said(frm=2, to=2, rest=True)
    assert rest == "ann's Worker moved onto the Rest space of Trade Route 1."
    assert said(home=True, forced=True).endswith(
        "home from the far end of Trade Route 1 (a forced move)."
    )
    assert not any(name in said(to=t) for t in range(3) for name in ("bob", "cy", "player"))


def test_a_prosperity_card_scored_tells_each_players_place_and_culture_in_words():
    from domain.patchistory.narration import narrate

    card = next(iter(RULES.pack.prosperity.values()))
    data = {"card": card.id, "votes": 3, "value": 3, "ranks": [2, 1, 3], "culture": [1, 3, -1]}
    said = narrate(
        RULES, {"type": "patchistory.ProsperityScored", "data": data}, ["ann", "bob", "cy"]
    )
    assert said == (
        f"The Vote on {card.name}, 3 Votes (3 Culture for first place), was scored: ann second, "
        "gains 1 Culture; bob first, gains 3 Culture; cy third, loses 1 Culture."
    )


def test_the_auction_is_drawn_above_the_civilizations_while_it_is_bid_on():
    import dataclasses
    import re

    state = fresh(2)

    def auction_and_first_civ(phase: str) -> tuple[float, float]:
        svg = RULES.draw_board(dataclasses.replace(state, phase=phase), 0)
        auction = re.search(r'<text x="10" y="([\d.]+)"[^>]*>The Auction', svg)
        civ = re.search(r'<g class="civ"[^>]*transform="translate\([\d.]+,([\d.]+)\)"', svg)
        assert auction and civ, svg[:300]
        return float(auction[1]), float(civ[1])

    bidding, patching = auction_and_first_civ("auction"), auction_and_first_civ("patching")
    assert bidding[0] < bidding[1], "the Tiles bid on come first"
    assert patching[0] > patching[1], "else the civilizations come first"


def test_a_workers_move_is_said_by_its_step_on_the_compass_and_keeps_its_arguments():
    """Issue 34: "from 1 column right to 1 column left" was right but hard to read; a move is
    said by its step (north up the table) and the Worker it moves, the command unchanged."""
    from domain.patchistory.narration import action_words, compass, where

    move = {"type": "move_worker", "row": 0, "col": 1, "to_row": 0, "to_col": -1}
    label, short = action_words(RULES, fresh(2), move, ["ann", "bob"])
    assert short == (
        "two squares west, the Worker on the square one east of the Capital's top left square"
    )
    assert label == f"Move worker: {short}"
    assert move == {"type": "move_worker", "row": 0, "col": 1, "to_row": 0, "to_col": -1}
    assert compass(-1, -1) == "one square northwest"
    assert compass(2, -1) == "two squares south and one west"
    assert compass(-3, 0) == "three squares north"
    assert where(0, 0) == "the Capital's top left square"
    assert where(-1, 2) == "the square one north and two east of the Capital's top left square"


def test_every_civilization_of_a_four_player_table_fits_three_panels_width():
    """Four civilizations are drawn in two rows, so the table is as wide as for three and its
    texts stay 11 px and more at a 1400 px window."""
    import re

    widths = {}
    for players in (2, 3, 4):
        svg = RULES.draw_board(fresh(players), 0)
        widths[players] = float(re.search(r'<svg[^>]* width="([\d.]+)"', svg)[1])  # type: ignore[index]
        root = ET.fromstring(svg)
        assert len(root.findall(f".//{SVG}g[@class='civ']")) == players
        sizes = [float(t.get("font-size") or 0) for t in root.iter(f"{SVG}text")]
        assert min(sizes) >= 10, f"{players} players: texts of {min(sizes)} map units"
    assert widths[4] == widths[3] == widths[2]
