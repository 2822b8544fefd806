"""The Auction (3-4 players, the first Auction of the game, 2 players) and Patching, as the
rulebook words and pictures them."""

from __future__ import annotations

import dataclasses

import pytest

from domain.core.errors import RuleViolation
from domain.core.messages import Command
from domain.patchistory import territory as terr
from domain.patchistory.auction import BidPlaced, CoinBoughtWithCulture, TilesDrawn, TileWon
from domain.patchistory.engine import proceed
from domain.patchistory.eras import begin_round
from domain.patchistory.model import Offer, Placed, Won
from domain.patchistory.patching import TileForfeited, TilePatched, placement_refusal
from domain.patchistory.rounds import DecisionAwaited, DecisionDeclined
from tests.unit.patchistory.support import PACK, RULES, act, civ_of, ctx, fresh, of

ERA1 = PACK.era_tiles(1)


def open_auction(players: int, coins: tuple[int, ...]) -> object:
    """Round 2 of Era 1: an ordinary Auction of as many Tiles as players, Start Player seat 0."""
    state = fresh(players)
    offers = tuple(
        Offer(tile, "white" if i % 2 == 0 else "black") for i, tile in enumerate(ERA1[:players])
    )
    state = dataclasses.replace(
        state,
        round=2,
        serial=2,
        phase="auction",
        offered=offers,
        participants=tuple(range(players)),
        bids=(-1,) * players,
        amounts=(0,) * players,
        turn=0,
        passed=(),
        won=(),
        pending=(),
    )
    for seat, coin in enumerate(coins):
        state = civ_of(state, seat, coin=coin)
    return state


@pytest.mark.rulebook_example("patchistory.example.auction")
def test_the_auction_example_ends_when_every_tile_has_exactly_one_bid():
    gandhi, alexander, yi, bismarck = range(4)
    a, b, c, d = range(4)
    state = open_auction(4, (5, 1, 3, 6))
    state, _ = act(state, gandhi, "bid", tile=a, coin=3)
    state, _ = act(state, alexander, "bid", tile=b, coin=1)
    state, _ = act(state, yi, "bid", tile=c, coin=1)
    state, events = act(state, bismarck, "bid", tile=a, coin=4)
    assert of(events, BidPlaced)[0].rule == "patchistory.auction.bid"
    assert RULES.awaited_seats(state) == {gandhi}
    state, events = act(state, gandhi, "bid", tile=a, coin=2)
    assert of(events, BidPlaced)[0].amount == 5
    assert of(events, BidPlaced)[0].rule == "patchistory.auction.beaten"
    assert RULES.awaited_seats(state) == {bismarck}, "Alexander and Yi Sun-sin are not beaten"
    moves = RULES.legal_actions(state, bismarck)
    assert Command.of("bid", tile=b, coin=0) in moves
    assert (
        Command.of("bid", tile=a, coin=2) in moves
        and Command.of("bid", tile=a, coin=1) not in moves
    )
    state, _ = act(state, bismarck, "bid", tile=b, coin=0)
    assert RULES.awaited_seats(state) == {alexander}
    state, events = act(state, alexander, "bid", tile=d, coin=0)
    won = {(w.seat, w.tile, w.paid) for w in of(events, TileWon)}
    assert won == {
        (gandhi, ERA1[a], 5),
        (bismarck, ERA1[b], 4),
        (yi, ERA1[c], 1),
        (alexander, ERA1[d], 1),
    }
    assert all(w.rule == "patchistory.auction.payment" for w in of(events, TileWon))
    assert [c.coin for c in state.civs] == [0, 0, 2, 2]
    assert state.phase == "patching"


def test_a_bid_that_is_not_beaten_may_not_move_nor_grow():
    state = open_auction(3, (5, 5, 5))
    state, _ = act(state, 0, "bid", tile=0, coin=2)
    state, _ = act(state, 1, "bid", tile=0, coin=3)
    assert RULES.awaited_seats(state) == {2}
    with pytest.raises(RuleViolation) as refused:
        act(state, 0, "bid", tile=1, coin=0)
    assert refused.value.rule == "patchistory.auction.not-beaten"


def test_coin_once_committed_stays_and_a_moved_bid_must_be_highest_where_it_lands():
    state = open_auction(3, (5, 5, 5))
    state, _ = act(state, 0, "bid", tile=0, coin=2)
    state, _ = act(state, 1, "bid", tile=1, coin=4)
    state, _ = act(state, 2, "bid", tile=0, coin=3)
    moves = RULES.legal_actions(state, 0)
    assert Command.of("bid", tile=1, coin=2) not in moves, "2 + 2 only ties the 4 on Tile 1"
    assert Command.of("bid", tile=1, coin=3) in moves
    assert Command.of("bid", tile=2, coin=0) in moves, "the whole 2 Coin move to the empty Tile"
    with pytest.raises(RuleViolation) as refused:
        act(state, 0, "bid", tile=1, coin=2)
    assert refused.value.rule == "patchistory.auction.bid"


def test_a_player_with_no_coin_at_the_auction_forfeits_three_culture_for_one_coin():
    state = fresh(3)
    state = civ_of(state, 1, coin=0)
    c = ctx(dataclasses.replace(state, phase="production"))
    begin_round(c, 1, 2, 1)
    bought = of(c.events, CoinBoughtWithCulture)
    assert [(b.seat, b.culture, b.coin) for b in bought] == [(1, 3, 1)]
    assert bought[0].rule == "patchistory.auction.no-coin"
    assert c.state.civs[1].culture == 17 and c.state.civs[1].coin == 1


def test_the_first_auction_shows_tiles_one_by_one_and_the_final_player_must_bid():
    state = fresh(3)
    assert state.phase == "auction" and len(state.offered) == 1
    assert Command.of("pass") in RULES.legal_actions(state, 0)
    state, _ = act(state, 0, "pass")
    assert len(state.offered) == 2 and RULES.awaited_seats(state) == {1}
    state, _ = act(state, 1, "bid", tile=1, coin=1)
    assert len(state.offered) == 3 and RULES.awaited_seats(state) == {2}
    moves = RULES.legal_actions(state, 2)
    assert Command.of("pass") not in moves
    assert {m.arg("tile") for m in moves} == {0, 1, 2}
    state, _ = act(state, 2, "bid", tile=0, coin=1)
    assert RULES.awaited_seats(state) == {0}, "the Auction continues: the Start Player has no bid"
    assert Command.of("pass") not in RULES.legal_actions(state, 0)


def test_tiles_alternate_white_and_black_and_the_next_round_starts_with_the_other_side():
    state = fresh(3)
    first = ctx(dataclasses.replace(state, phase="production"))
    begin_round(first, 1, 2, 1)
    drawn = of(first.events, TilesDrawn)[0]
    assert drawn.sides == ("black", "white", "black"), "round 2 follows W-B-W with B-W-B"
    assert drawn.rule == "patchistory.auction.arrange"
    four = dataclasses.replace(fresh(4), phase="production")
    c = ctx(four)
    begin_round(c, 1, 3, 2)
    assert of(c.events, TilesDrawn)[0].sides == ("white", "black", "white", "black")


@pytest.mark.rulebook_example("patchistory.example.two-player-auction")
def test_both_players_bid_on_tile_one_the_higher_takes_it_the_other_takes_tile_two():
    state = fresh(2)
    assert state.phase == "auction-sealed" and len(state.offered) == 2
    one, two = (o.tile for o in state.offered)
    state, events = act(state, 0, "seal_bid", tile=0, coin=2)
    assert events[0].visibility.seats == frozenset({0})
    assert RULES.awaited_seats(state) == {1}
    state, events = act(state, 1, "seal_bid", tile=0, coin=3)
    assert {w.seat: w.tile for w in of(events, TileWon)} == {1: one, 0: two}
    assert of(events, TileWon)[0].rule == "patchistory.auction.two-player"
    assert [c.coin for c in state.civs] == [1, 0], "both forfeit what they bid"
    seat = state.won[0].seat
    sides = {m.arg("side") for m in RULES.legal_actions(state, seat) if m.type == "patch"}
    assert sides == {"white", "black"}, "a 2-player winner may patch either side"


def test_on_equal_two_player_bids_for_one_tile_the_start_player_takes_it():
    state = fresh(2)
    one, two = (o.tile for o in state.offered)
    state, _ = act(state, 1, "seal_bid", tile=1, coin=2)
    state, events = act(state, 0, "seal_bid", tile=1, coin=2)
    assert {w.seat: w.tile for w in of(events, TileWon)} == {0: two, 1: one}


# --- Patching ---------------------------------------------------------------------------------


def liberty_civ():
    state = fresh(3, side="liberty")
    return civ_of(
        state, 0, capital="liberty-1", tiles=(Placed("liberty-1", "capital", 0, 0, 0),), workers=()
    )


@pytest.mark.rulebook_example("patchistory.example.patching")
def test_patching_a_tile_over_the_industry_food_space_changes_the_reference_board():
    state = liberty_civ()
    board = terr.statuses(PACK, state, 0)
    before = {
        k: board[k]
        for k in ("culture", "food", "coin", "resource", "military", "transport", "politics")
    }
    assert before == {
        "culture": 1,
        "food": 1,
        "coin": 1,
        "resource": 0,
        "military": 1,
        "transport": 1,
        "politics": 1,
    }
    state = dataclasses.replace(
        state, phase="patching", won=(Won(0, "e1-01", "white"),), pending=()
    )
    assert PACK.capital("liberty-1").tile.squares[2].name == "Industry - Food"
    state, events = act(state, 0, "patch", side="white", row=1, col=0, layer="over")
    assert of(events, TilePatched)[0].rule == "patchistory.patch.overlap"
    board = terr.statuses(PACK, state, 0)
    after = {
        k: board[k]
        for k in ("culture", "food", "coin", "resource", "military", "transport", "politics")
    }
    assert after == {
        "culture": 1,
        "food": 0,
        "coin": 1,
        "resource": 1,
        "military": 1,
        "transport": 1,
        "politics": 2,
    }


@pytest.mark.rulebook_example("patchistory.example.setup")
def test_the_equality_capital_sets_two_coin_one_politics_one_transport_two_food_and_nothing_else():
    state = fresh(3)
    board = terr.statuses(PACK, state, 0)
    shown = {
        k: board[k]
        for k in (
            "coin",
            "politics",
            "transport",
            "food",
            "military",
            "defense",
            "resource",
            "culture",
        )
    }
    assert shown == {
        "coin": 2,
        "politics": 1,
        "transport": 1,
        "food": 2,
        "military": 0,
        "defense": 0,
        "resource": 0,
        "culture": 0,
    }
    assert [(c.coin, c.food, c.culture, len(c.hand), len(c.prosperity)) for c in state.civs] == [
        (3, 4, 20, 4, 3)
    ] * 3


def refusal(state, tile, side, row, col, layer):
    return placement_refusal(PACK, state, 0, tile, side, row, col, layer)


def test_a_tile_must_overlap_the_empire_and_may_not_exceed_the_era_limit():
    state = liberty_civ()
    assert refusal(state, "e1-01", "white", 5, 5, "over")[0] == "patchistory.patch.overlap"
    wide = next(t for t in ERA1 if PACK.tiles[t].white.size == (1, 3))
    state = civ_of(state, 0, tiles=(*state.civs[0].tiles, Placed(wide, "white", 0, 2, 1)))
    state = civ_of(state, 0, tiles=(*state.civs[0].tiles, Placed(wide, "white", 1, 2, 2)))
    # the civilization spans columns 0..4 (5 wide, the Era 1 limit): one column more is 6
    assert refusal(state, wide, "white", 0, 2, "under") is None
    assert refusal(state, wide, "white", 0, 3, "over")[0] == "patchistory.patch.limit"


def sea_tile():
    for tile in ERA1:
        squares = PACK.tiles[tile].white.squares
        if len(squares) == 2 and squares[0].terrain == "sea" and squares[1].terrain == "land":
            return tile
    raise AssertionError("the pack has a 2-square Era 1 Tile whose first square is a Sea")


def test_a_sea_may_go_over_land_but_never_under_and_nothing_goes_over_a_sea():
    state = liberty_civ()
    tile = sea_tile()
    assert refusal(state, tile, "white", 0, 0, "under")[0] == "patchistory.patch.sea-over"
    assert refusal(state, tile, "white", 0, 0, "over") is None
    state = civ_of(state, 0, tiles=(*state.civs[0].tiles, Placed(tile, "white", 0, 0, 1)))
    assert refusal(state, "e1-01", "white", 0, 0, "over")[0] == "patchistory.patch.sea-untouchable"
    assert refusal(state, "e1-01", "white", 0, 0, "under")[0] == "patchistory.patch.sea-untouchable"


def test_no_two_seas_may_touch():
    state = fresh(3, side="liberty")
    state = civ_of(
        state, 0, capital="liberty-2", tiles=(Placed("liberty-2", "capital", 0, 0, 0),), workers=()
    )
    tile = sea_tile()
    assert PACK.tiles[tile].white.size == (1, 2) or PACK.tiles[tile].white.size == (2, 1)
    # liberty-2 has a Sea at (1,1); a Sea patched at (1,0) or (0,1) would touch it
    shape = PACK.tiles[tile].white.size
    at = (1, 0) if shape == (1, 2) else (0, 1)
    found = refusal(state, tile, "white", at[0], at[1], "over")
    assert found is not None and found[0] in {
        "patchistory.patch.seas-apart",
        "patchistory.patch.sea-untouchable",
    }


def feature_tile():
    for tile in ERA1:
        side = PACK.tiles[tile].black
        if side.features and len(side.features[0].squares) == 2 and len(side.squares) == 2:
            return tile
    raise AssertionError("no two-square feature tile")


def test_a_hero_wonder_or_special_building_is_covered_whole_or_not_at_all():
    state = liberty_civ()
    tile = feature_tile()
    state = civ_of(state, 0, tiles=(*state.civs[0].tiles, Placed(tile, "black", 0, 0, 1)))
    assert terr.features_shown(PACK, state.civs[0], terr.shown(PACK, state.civs[0]))
    # a 1x1 Tile over one square of the two-square feature would half cover it
    assert refusal(state, "e1-01", "white", 0, 0, "over")[0] == "patchistory.patch.whole-features"


def test_forfeiting_a_won_tile_is_allowed():
    state = liberty_civ()
    state = dataclasses.replace(
        state, phase="patching", won=(Won(0, "e1-01", "white"),), pending=()
    )
    assert Command.of("forfeit_tile") in RULES.legal_actions(state, 0)
    state, events = act(state, 0, "forfeit_tile")
    assert of(events, TileForfeited)[0].rule == "patchistory.patch.optional"


def test_after_the_first_auction_equality_players_place_one_worker_and_liberty_players_two():
    for side, count in (("equality", 1), ("liberty", 2)):
        state = fresh(3, side=side)
        state = dataclasses.replace(state, phase="patching", won=(), pending=())
        c = ctx(state)
        proceed(c)
        waiting = [p for p in c.state.pending if p.kind == "place-new"]
        assert len(waiting) == 3 * count
        awaited = of(c.events, DecisionAwaited)
        assert awaited[0].rule == "patchistory.patch.first-workers"


def test_a_first_worker_with_no_free_space_stays_on_the_descendant_track():
    state = fresh(3, side="liberty")
    state = civ_of(state, 0, workers=((0, 0),), born=1)
    big = next(
        t
        for t in PACK.era_tiles(1)
        if PACK.tiles[t].black.size == (2, 2) and len(PACK.tiles[t].black.features[0].squares) == 4
    )
    state = civ_of(state, 0, tiles=(*state.civs[0].tiles, Placed(big, "black", 0, 0, 1)))
    assert terr.free_spaces(PACK, state.civs[0]) == []
    state = dataclasses.replace(state, phase="first-workers", won=(), pending=())
    c = ctx(state)
    c.emit(DecisionAwaited(rule="patchistory.patch.first-workers", kind="place-new", seat=0))
    state = c.state
    assert RULES.legal_actions(state, 0) == [Command.of("worker_to_track")]
    state, events = act(state, 0, "worker_to_track")
    assert of(events, DecisionDeclined)[0].rule == "patchistory.workers.one-per-space"
    assert state.civs[0].born == 1


def test_patching_over_a_building_removes_its_building_tile_from_the_game():
    from domain.patchistory.model import Cover

    state = fresh(3)
    building = state.civs[0].hand[0]
    state = civ_of(state, 0, covers=(Cover(0, 1, building, False),), hand=state.civs[0].hand[1:])
    tile = ERA1[0]
    state = dataclasses.replace(state, phase="patching", won=(Won(0, tile, "white"),), pending=())
    for move in RULES.legal_actions(state, 0):
        if move.type != "patch" or move.arg("layer") != "over":
            continue
        after, events = act(state, 0, "patch", **dict(move.args))
        (patched,) = of(events, TilePatched)
        if patched.removed:
            break
    else:
        raise AssertionError("no placement covers the Building")
    assert patched.cites == ("patchistory.patch.buildings",)
    assert building in after.removed and after.civs[0].covers == ()


def test_workers_stay_on_the_squares_patched_over_so_no_tile_may_put_two_on_one_space():
    """A Hero, Wonder or Special Building is one space: patched over two Workers' squares it
    would hold both, so that placement is refused; elsewhere the Workers stay where they are."""
    hero = next(
        t
        for t in ERA1
        if any(len(f.squares) > 1 for f in PACK.tiles[t].black.features)
        and placement_refusal(
            PACK,
            civ_of(fresh(3), 0, workers=((0, 0), (0, 1)), born=2),
            0,
            t,
            "black",
            0,
            0,
            "over",
        )
        is not None
    )
    state = civ_of(fresh(3), 0, workers=((0, 0), (0, 1)), born=2)
    refused = placement_refusal(PACK, state, 0, hero, "black", 0, 0, "over")
    assert refused is not None and refused[0] == "patchistory.patch.worker-stays"
    state = dataclasses.replace(state, phase="patching", won=(Won(0, hero, "black"),), pending=())
    allowed = [m for m in RULES.legal_actions(state, 0) if m.type == "patch"]
    assert Command.of("patch", side="black", row=0, col=0, layer="over") not in allowed
    move = next(m for m in allowed if m.arg("layer") == "over")
    after, _ = act(state, 0, "patch", **dict(move.args))
    assert after.civs[0].workers == ((0, 0), (0, 1)), "the Workers stay and work the new squares"


def test_tiles_always_face_their_player_so_a_patch_names_no_rotation():
    (spec,) = [s for s in RULES.command_schemas() if s.type == "patch"]
    assert [a.name for a in spec.args] == ["side", "row", "col", "layer"]
    state = dataclasses.replace(
        fresh(3), phase="patching", won=(Won(0, ERA1[0], "white"),), pending=()
    )
    move = next(m for m in RULES.legal_actions(state, 0) if m.type == "patch")
    with pytest.raises(RuleViolation):
        act(state, 0, "patch", **dict(move.args), rotation=90)
