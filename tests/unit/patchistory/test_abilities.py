"""The Wonders' and Heroes' abilities the rulebook names, on the pack's Tiles."""

from __future__ import annotations

import dataclasses

from domain.patchistory import territory as terr
from domain.patchistory.auction import TileTakenBeforeAuction
from domain.patchistory.diplomacy import Threatened
from domain.patchistory.eras import CultureFromTiles, end_era
from domain.patchistory.management import TradeBegun
from domain.patchistory.model import Cover, Placed, Won
from domain.patchistory.pack import GOODS
from domain.patchistory.production import GoodsProduced, Maintained, produce
from domain.patchistory.rounds import DecisionAwaited, PhaseBegan
from domain.patchistory.trade_routes import TradeRouteForfeited, TradeRouteOpened
from domain.patchistory.workers import WorkerBackToTrack, WorkerPlaced
from tests.unit.patchistory.support import PACK, RULES, act, civ_of, ctx, fresh, managing, of


def tile_with(ability: str) -> str:
    return next(
        t.id for t in PACK.tiles.values() if any(f.ability == ability for f in t.black.features)
    )


def holding(state, seat: int, ability: str, row: int = 0, col: int = 2):
    """`seat`'s civilization with the Tile of `ability` patched whole beside its Capital."""
    tile = tile_with(ability)
    placed = Placed(tile, "black", row, col, 5)
    return civ_of(state, seat, tiles=(*state.civs[seat].tiles, placed))


def test_moses_moves_a_worker_from_the_track_as_soon_as_he_is_patched():
    state = fresh(3)
    tile = tile_with("moses")
    state = dataclasses.replace(state, phase="patching", won=(Won(0, tile, "black"),), pending=())
    patch = next(
        m for m in RULES.legal_actions(state, 0) if m.type == "patch" and m.arg("layer") == "over"
    )
    state, events = act(state, 0, "patch", **dict(patch.args))
    assert terr.has(PACK, state.civs[0], "moses")
    (waiting,) = of(events, DecisionAwaited)
    assert waiting.rule == "patchistory.tile.moses" and waiting.kind == "place-new"
    free = terr.free_spaces(PACK, state.civs[0])[0]
    state, events = act(state, 0, "place_worker", row=free[0], col=free[1])
    assert state.civs[0].born == 1
    assert of(events, WorkerPlaced)[0].rule == "patchistory.tile.moses"


def test_genghis_khan_trades_for_one_food_and_counts_routes_as_military():
    state = holding(fresh(3), 0, "genghis-khan")
    state = dataclasses.replace(state, era=3)
    state = civ_of(state, 0, workers=((0, 0),), born=1, food=1)
    before = terr.statuses(PACK, state, 0)["military"]
    state = managing(state, 0, 2)
    state, events = act(state, 0, "trade", route=1, row=0, col=0)
    assert of(events, TradeBegun)[0].food == 1
    assert "patchistory.tile.genghis-khan" in of(events, TradeBegun)[0].cites
    assert terr.statuses(PACK, state, 0)["military"] == before


def test_petra_and_apollo_count_the_routes_that_begin_in_the_territory():
    for ability, status in (("petra", "coin"), ("apollo", "culture")):
        state = fresh(3)
        plain = terr.statuses(PACK, holding(state, 0, ability), 0)[status]
        tile = tile_with(ability)
        feature = PACK.tiles[tile].black.features[0]
        base = terr.statuses(PACK, state, 0)[status] + feature.yields.get(status, 0)
        extra = sum(
            sq.yields.get(status, 0) for sq in PACK.tiles[tile].black.squares if not sq.feature
        )
        assert plain == base + extra + terr.routes_counted(state, 0)
        assert terr.routes_counted(state, 0) == 1


def test_the_great_wall_adds_a_defense_per_worker_controlled():
    state = holding(fresh(3), 0, "great-wall")
    state = civ_of(state, 0, workers=((0, 0), (1, 1)), born=2)
    without = civ_of(state, 0, workers=(), born=0)
    assert (
        terr.statuses(PACK, state, 0)["defense"] - terr.statuses(PACK, without, 0)["defense"] == 2
    )


def test_gandhi_counts_the_threatened_military_as_zero_and_bismarck_adds_five_culture():
    state = managing(fresh(3), 0, 3, phase="diplomacy")
    state = holding(state, 0, "gandhi")
    state = holding(state, 0, "bismarck", row=2, col=0)
    assert terr.has(PACK, state.civs[0], "bismarck") and terr.has(PACK, state.civs[0], "gandhi")
    state = civ_of(state, 0, covers=(Cover(1, 1, "barracks-1", False),))
    state = civ_of(state, 1, covers=(Cover(0, 0, "barracks-2", False),))
    mine = terr.statuses(PACK, state, 0)["military"]
    theirs = terr.statuses(PACK, state, 1)
    assert theirs["military"] >= mine, "without Gandhi the Threat would fail"
    culture = state.civs[0].culture
    state, events = act(state, 0, "threaten", to=1, demand="coin")
    (threat,) = of(events, Threatened)
    assert threat.against == theirs["defense"], "their Military counts 0"
    assert threat.success and threat.bonus == 5
    assert "patchistory.tile.gandhi" in threat.cites and "patchistory.tile.bismarck" in threat.cites
    assert state.civs[0].culture == culture + 5


def test_che_guevara_sets_the_political_points_to_six():
    state = holding(fresh(3), 0, "che-guevara")
    assert terr.statuses(PACK, state, 0)["politics"] == 6


def test_marx_sets_the_worker_maintenance_to_five():
    state = holding(fresh(3), 0, "marx")
    state = civ_of(state, 0, food=20, born=1, workers=((0, 0),))
    c = ctx(dataclasses.replace(state, phase="production"))
    produce(c)
    fed = next(e for e in of(c.events, Maintained) if e.seat == 0 and e.what == "workers")
    assert fed.food == 5 and "patchistory.tile.marx" in fed.cites


def test_chichen_itza_returns_workers_before_the_vote_for_five_culture_each():
    state = holding(fresh(3), 0, "chichen-itza")
    state = civ_of(state, 0, workers=((0, 0), (1, 0)), born=2)
    state = dataclasses.replace(state, round=5, serial=5, pending=(), won=())
    c = ctx(dataclasses.replace(state, phase="production"))
    produce(c)
    assert c.state.phase == "chichen" and RULES.awaited_seats(c.state) == {0}
    culture = c.state.civs[0].culture
    state, events = act(c.state, 0, "retire_for_culture", row=0, col=0)
    (back,) = of(events, WorkerBackToTrack)
    assert back.rule == "patchistory.tile.chichen-itza" and back.culture == 5
    assert state.civs[0].culture == culture + 5 and state.civs[0].born == 1
    state, _ = act(state, 0, "end_chichen")
    assert state.phase == "vote-card"


def test_the_hanging_gardens_return_a_worker_from_a_trade_route_for_food():
    state = holding(fresh(3), 0, "hanging-gardens")
    state = state.with_route(dataclasses.replace(state.route(1), workers=((0, 2),)))
    state = civ_of(state, 0, born=1)
    state = managing(state, 0, 1)
    food = state.civs[0].food
    state, events = act(state, 0, "retire_worker", ability="hanging-gardens", worker="route-1")
    assert of(events, WorkerBackToTrack)[0].rule == "patchistory.tile.hanging-gardens"
    assert (
        state.civs[0].food == food + 3 and state.route(1).workers == () and state.civs[0].born == 0
    )


def test_constantine_builds_an_alliance_the_other_may_not_decline():
    state = holding(fresh(3), 0, "constantine")
    state = managing(state, 0, 2)
    state, events = act(state, 0, "constantine", to=2)
    (route,) = of(events, TradeRouteOpened)
    assert (route.kind, route.a, route.b, route.rule) == (
        "allied",
        0,
        2,
        "patchistory.tile.constantine",
    )
    assert RULES.awaited_seats(state) == {0}, "no answer is asked of the other player"


def test_vasco_da_gama_takes_a_tile_before_the_auction_and_stays_out_of_it():
    from domain.patchistory.model import Offer

    state = holding(fresh(3), 0, "vasco-da-gama")
    offers = tuple(Offer(t, "white") for t in PACK.era_tiles(1)[:3])
    state = dataclasses.replace(
        state, round=2, serial=2, phase="vasco", offered=offers, turn=0, passed=(), won=()
    )
    state = dataclasses.replace(state, pending=())
    state, events = act(state, 0, "take_tile", tile=1)
    (taken,) = of(events, TileTakenBeforeAuction)
    assert taken.rule == "patchistory.tile.vasco-da-gama" and taken.tile == offers[1].tile
    (auction,) = [e for e in of(events, PhaseBegan) if e.phase == "auction"]
    assert 0 not in auction.seats and state.won[0].seat == 0


def test_the_kremlin_returns_a_worker_to_the_track_for_votes():
    state = holding(fresh(3), 0, "kremlin")
    state = civ_of(state, 0, workers=((0, 0),), born=1, votes=0)
    state = managing(state, 0, 3)
    state, events = act(state, 0, "retire_worker", ability="kremlin", worker="0,0")
    (back,) = of(events, WorkerBackToTrack)
    assert back.rule == "patchistory.tile.kremlin"
    assert (state.civs[0].born, state.civs[0].votes) == (0, PACK.number("kremlin_votes"))


def test_schwerer_gustav_forfeits_a_trade_route_its_player_controls():
    state = managing(holding(fresh(3), 0, "schwerer-gustav"), 0, 4)
    mine = next(r for r in state.routes if r.kind == "general" and r.a == 0)
    theirs = next(r for r in state.routes if r.kind == "general" and r.a != 0)
    listed = {m.arg("route") for m in RULES.legal_actions(state, 0) if m.type == "demolish_route"}
    assert mine.id in listed and theirs.id not in listed
    state, events = act(state, 0, "demolish_route", route=mine.id)
    (gone,) = of(events, TradeRouteForfeited)
    assert gone.rule == "patchistory.tile.schwerer-gustav"
    assert all(r.id != mine.id for r in state.routes)


def producing(state, seat: int = 0):
    c = ctx(dataclasses.replace(state, phase="production", pending=(), won=()))
    produce(c)
    return next(e for e in of(c.events, GoodsProduced) if e.seat == seat)


def test_petra_apollo_angkor_wat_and_the_statue_of_liberty_are_cited_by_the_production_they_raise():
    for ability in ("petra", "apollo", "angkor-wat", "statue-of-liberty"):
        state = holding(fresh(3), 0, ability)
        made = producing(state)
        board = terr.statuses(PACK, state, 0)
        assert (made.coin, made.culture) == (board["coin"], board["culture"])
        assert f"patchistory.tile.{ability}" in made.cites
    assert not any(c.startswith("patchistory.tile.") for c in producing(fresh(3)).cites)
    assert "patchistory.tile.petra" in producing(holding(fresh(3), 0, "petra")).cites
    assert "patchistory.tile.apollo" in producing(holding(fresh(3), 0, "apollo")).cites
    assert "patchistory.tile.angkor-wat" in producing(holding(fresh(3), 0, "angkor-wat")).cites
    liberty = producing(holding(fresh(3), 0, "statue-of-liberty"))
    assert "patchistory.tile.statue-of-liberty" in liberty.cites


def test_angkor_wat_counts_seas_as_wastelands():
    state = holding(fresh(3), 0, "angkor-wat")
    board = terr.statuses(PACK, state, 0)
    assert board["wastelands"] >= board["seas"]
    plain = civ_of(state, 0, tiles=state.civs[0].tiles[:1])
    assert terr.statuses(PACK, plain, 0)["wastelands"] <= board["wastelands"] - board["seas"]


def test_cyrus_adds_a_culture_to_each_gain_from_a_trade_route_worker():
    coin_space = next(i for i, s in enumerate(PACK.general.spaces) if s.goods)
    state = holding(fresh(3), 0, "cyrus")
    state = state.with_route(dataclasses.replace(state.route(1), workers=((0, coin_space),)))
    state = civ_of(state, 0, born=1)
    made = producing(state)
    without = producing(civ_of(state, 0, tiles=state.civs[0].tiles[:1]))
    assert "patchistory.tile.cyrus" in made.cites
    assert made.routes[GOODS.index("culture")] == without.routes[GOODS.index("culture")] + 1


def era_ended(state):
    c = ctx(dataclasses.replace(state, round=5, phase="vote", sealing=(), pending=(), won=()))
    end_era(c)
    return of(c.events, CultureFromTiles)


def test_the_pyramids_give_culture_at_the_end_of_each_era():
    (gain,) = era_ended(holding(fresh(3), 0, "pyramids"))
    assert gain.rule == "patchistory.tile.pyramids"
    assert gain.culture == PACK.number("pyramids_culture")


def test_the_ziggurat_gives_a_culture_per_worker_and_takes_some_when_there_is_none():
    state = holding(fresh(3), 0, "ziggurat")
    (gain,) = era_ended(civ_of(state, 0, workers=((0, 0), (1, 1)), born=2))
    assert gain.rule == "patchistory.tile.ziggurat" and gain.culture == 2
    (loss,) = era_ended(civ_of(state, 0, workers=(), born=0, culture=10))
    assert loss.culture == -PACK.number("ziggurat_none_culture")


def test_wall_street_counts_only_the_coin_on_hand_at_the_end_of_the_game():
    state = civ_of(holding(fresh(3), 0, "wall-street"), 0, coin=9)
    assert era_ended(state) == [], "not at the end of Era I"
    (gain,) = era_ended(dataclasses.replace(state, era=3, serial=15))
    assert gain.rule == "patchistory.tile.wall-street" and gain.culture == 9 // 2
