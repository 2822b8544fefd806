"""The Wonders' and Heroes' abilities the rulebook names, on the pack's Tiles."""

from __future__ import annotations

import dataclasses

from domain.patchistory import events as ev
from domain.patchistory import territory as terr
from domain.patchistory.model import Cover, Placed, Won
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
    (waiting,) = of(events, ev.DecisionAwaited)
    assert waiting.rule == "patchistory.tile.moses" and waiting.kind == "place-new"
    free = terr.free_spaces(PACK, state.civs[0])[0]
    state, events = act(state, 0, "place_worker", row=free[0], col=free[1])
    assert state.civs[0].born == 1
    assert of(events, ev.WorkerPlaced)[0].rule == "patchistory.tile.moses"


def test_genghis_khan_trades_for_one_food_and_counts_routes_as_military():
    state = holding(fresh(3), 0, "genghis-khan")
    state = dataclasses.replace(state, era=3)
    state = civ_of(state, 0, workers=((0, 0),), born=1, food=1)
    before = terr.statuses(PACK, state, 0)["military"]
    state = managing(state, 0, 2)
    state, events = act(state, 0, "trade", route=1, row=0, col=0)
    assert of(events, ev.TradeBegun)[0].food == 1
    assert "patchistory.tile.genghis-khan" in of(events, ev.TradeBegun)[0].cites
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
    (threat,) = of(events, ev.Threatened)
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
    RULES._production(c)
    fed = next(e for e in of(c.events, ev.Maintained) if e.seat == 0 and e.what == "workers")
    assert fed.food == 5 and "patchistory.tile.marx" in fed.cites


def test_chichen_itza_returns_workers_before_the_vote_for_five_culture_each():
    state = holding(fresh(3), 0, "chichen-itza")
    state = civ_of(state, 0, workers=((0, 0), (1, 0)), born=2)
    state = dataclasses.replace(state, round=5, serial=5, pending=(), won=())
    c = ctx(dataclasses.replace(state, phase="production"))
    RULES._production(c)
    assert c.state.phase == "chichen" and RULES.awaited_seats(c.state) == {0}
    culture = c.state.civs[0].culture
    state, events = act(c.state, 0, "retire_for_culture", row=0, col=0)
    assert of(events, ev.WorkerBackToTrack)[0].culture == 5
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
    assert of(events, ev.WorkerBackToTrack)[0].rule == "patchistory.tile.hanging-gardens"
    assert (
        state.civs[0].food == food + 3 and state.route(1).workers == () and state.civs[0].born == 0
    )


def test_constantine_builds_an_alliance_the_other_may_not_decline():
    state = holding(fresh(3), 0, "constantine")
    state = managing(state, 0, 2)
    state, events = act(state, 0, "constantine", to=2)
    (route,) = of(events, ev.TradeRouteOpened)
    assert (route.kind, route.a, route.b, route.rule) == (
        "allied",
        0,
        2,
        "patchistory.tile.constantine",
    )
    assert RULES.awaited_seats(state) == {0}, "no answer is asked of the other player"
