"""Diplomacy and Management (Aid, Threaten, Break Alliance, Trade, Exchange, Birth, Honor,
Construction, Campaign), Production and the maintenance of Workers, Heroes and Wonders."""

from __future__ import annotations

import dataclasses

import pytest

from domain.core.errors import RuleViolation
from domain.core.messages import Command
from domain.patchistory import diplomacy
from domain.patchistory import territory as terr
from domain.patchistory.construction import BuildingConstructed, BuildingTilesDrawn, SquareReclaimed
from domain.patchistory.diplomacy import AidAnswered, PointsSet, Threatened, begin_diplomacy
from domain.patchistory.management import Campaigned, GoodsExchanged, Honored, TradeBegun
from domain.patchistory.model import Cover, Route
from domain.patchistory.production import GoodsProduced, Maintained, produce
from domain.patchistory.trade_routes import TradeRouteForfeited, TradeRouteOpened
from domain.patchistory.workers import WorkerPlaced
from tests.unit.patchistory.support import (
    PACK,
    RULES,
    act,
    act_with,
    civ_of,
    ctx,
    fresh,
    managing,
    of,
    square,
    with_capital,
)


def exchanging(transport: int):
    rules = with_capital(
        [
            square((0, 0), "Road", {"transport": transport, "politics": 1}),
            square((0, 1), "Farm", {"food": 1}),
        ]
    )
    state = fresh(3)
    state = civ_of(state, 0, resource=3, food=3, coin=0, workers=())
    return rules, managing(state, 0, 1)


def exchanges(rules, state):
    return {
        (m.arg("give"), m.arg("amount"), m.arg("resource"), m.arg("food"), m.arg("coin"))
        for m in rules.legal_actions(state, 0)
        if m.type == "exchange"
    }


@pytest.mark.rulebook_example("patchistory.example.exchange")
def test_exchange_converts_up_to_transport_units_at_one_resource_two_food_two_coin():
    rules, state = exchanging(3)
    found = exchanges(rules, state)
    assert ("resource", 3, 0, 6, 0) in found, "3 Resources into 6 Food"
    assert ("resource", 3, 0, 4, 2) in found, "into 2 Coin and 4 Food"
    assert ("resource", 3, 0, 1, 5) in found, "into 5 Coin and 1 Food"
    assert ("food", 3, 1, 0, 1) in found, "3 Food into 1 Resource and 1 Coin"
    assert not any(amount > 3 for _, amount, *_ in found)
    assert ("food", 1, 1, 0, 0) not in found, "1 Food is not worth a Resource"
    rules, state = exchanging(1)
    found = exchanges(rules, state)
    assert ("resource", 1, 0, 2, 0) in found and ("food", 1, 0, 0, 1) in found
    assert not any(amount > 1 for _, amount, *_ in found)
    state, events = act_with(
        rules, state, 0, "exchange", give="resource", amount=1, food=2, coin=0, resource=0
    )
    (done,) = of(events, GoodsExchanged)
    assert done.points == 1 and done.rule == "patchistory.management.exchange"
    assert (state.civs[0].resource, state.civs[0].food, state.pp[0]) == (2, 5, 0)


@pytest.mark.rulebook_example("patchistory.example.campaign")
def test_gwanggaeto_threatens_for_three_builds_a_route_for_two_and_campaigns_with_one():
    rules = with_capital(
        [
            square((0, 0), "Palace", {"politics": 6, "transport": 1}),
            square((0, 1), "Barracks", {"military": 2}),
        ]
    )
    state = fresh(3)
    state = civ_of(state, 0, resource=2, workers=())
    state = managing(state, 0, 6, phase="diplomacy")
    for seat in (1, 2):
        state = civ_of(state, seat, workers=())
    # Aristotle (seat 1) has the same Capital: Military 2, Defense 0
    assert terr.statuses(rules.pack, state, 1)["military"] == 2
    assert Command.of("threaten", to=1, demand="coin") in rules.legal_actions(state, 0)
    state, events = act_with(rules, state, 0, "threaten", to=1, demand="coin")
    (threat,) = of(events, Threatened)
    assert threat.points == 3 and threat.rule == "patchistory.diplomacy.threaten"
    assert threat.success is False, "2 is not higher than 2 + 0"
    assert state.pp[0] == 3
    state, _ = act_with(rules, state, 0, "end_diplomacy")
    state = managing(state, 0, 3)
    state, events = act_with(rules, state, 0, "build_route", to=2)
    assert of(events, TradeRouteOpened)[0].points == 2 and state.pp[0] == 1
    assert Command.of("build_route", to=1) not in rules.legal_actions(state, 0), "one a Round"
    state, events = act_with(rules, state, 0, "campaign", points=1)
    assert state.civs[0].votes == 1 and state.pp[0] == 0
    assert of(events, Campaigned)[0].rule == "patchistory.management.campaign"
    assert [m.type for m in rules.legal_actions(state, 0)] == ["end_management"]


def test_threatening_a_weaker_player_takes_two_culture_or_three_coin_four_and_five_when_crushing():
    state = managing(fresh(3), 0, 6, phase="diplomacy")
    strong = {"politics": 6, "military": 3}
    rules = with_capital([square((0, 0), "Palace", strong)])
    # make the others weak by covering their only square with a Granary (food 1)
    for seat in (1, 2):
        state = civ_of(state, seat, workers=(), covers=(Cover(0, 0, "granary-1", False),), coin=2)
    state = civ_of(state, 0, workers=())
    state, events = act_with(rules, state, 0, "threaten", to=1, demand="coin")
    (threat,) = of(events, Threatened)
    assert (threat.success, threat.taken) == (True, 2), "3 Coin asked, 2 paid: all they have"
    assert state.civs[1].coin == 0 and state.civs[0].coin == 5
    rules = with_capital([square((0, 0), "Palace", {"politics": 6, "military": 5})])
    state = managing(state, 0, 3, phase="diplomacy")
    culture = state.civs[1].culture
    state, events = act_with(rules, state, 0, "threaten", to=1, demand="culture")
    (threat,) = of(events, Threatened)
    assert threat.taken == 4, "Military 5 against 0 is 5 more: 4 Culture"
    assert state.civs[1].culture == culture - 4


def test_allies_cannot_threaten_each_other():
    state = managing(fresh(3), 0, 6, phase="diplomacy")
    allied = Route(99, "allied", 0, 1)
    state = dataclasses.replace(state, routes=(*state.routes, allied))
    assert not any(m.type == "threaten" and m.arg("to") == 1 for m in RULES.legal_actions(state, 0))
    with pytest.raises(RuleViolation) as refused:
        act(state, 0, "threaten", to=1, demand="coin")
    assert refused.value.rule == "patchistory.diplomacy.threaten"


def test_accepted_aid_gives_five_culture_and_bars_the_taker_from_aiding_this_round():
    state = managing(fresh(3), 0, 2, phase="diplomacy")
    state, events = act(state, 0, "aid", to=1, food=1, coin=2, resource=0)
    assert RULES.awaited_seats(state) == {1}
    assert set(RULES.legal_actions(state, 1)) == {
        Command.of("accept_aid"),
        Command.of("refuse_aid"),
    }
    before = (state.civs[0].culture, state.civs[1].food, state.civs[1].coin)
    state, events = act(state, 1, "accept_aid")
    (answer,) = of(events, AidAnswered)
    assert answer.rule == "patchistory.diplomacy.aid" and answer.culture == 5
    assert answer.cites == ("patchistory.diplomacy.aid-accepted",)
    assert state.civs[0].culture == before[0] + 5
    assert (state.civs[1].food, state.civs[1].coin) == (before[1] + 1, before[2] + 2)
    state = managing(state, 1, 4, phase="diplomacy")
    state = dataclasses.replace(state, flags=((), ("accepted-aid",), ()))
    assert not any(m.type == "aid" for m in RULES.legal_actions(state, 1))


def test_refused_aid_keeps_the_goods_and_gives_two_culture():
    state = managing(fresh(3), 0, 2, phase="diplomacy")
    state, _ = act(state, 0, "aid", to=2, food=0, coin=3, resource=0)
    coin, culture = state.civs[0].coin, state.civs[0].culture
    state, events = act(state, 2, "refuse_aid")
    assert of(events, AidAnswered)[0].culture == 2
    assert (state.civs[0].coin, state.civs[0].culture) == (coin, culture + 2)


def test_breaking_an_alliance_costs_every_point_gives_as_many_votes_and_only_comes_first():
    state = managing(fresh(3), 0, 4, phase="diplomacy")
    state = dataclasses.replace(
        state, routes=(*state.routes, Route(9, "allied", 0, 2, workers=((2, 3),)))
    )
    state, events = act(state, 0, "break_alliance", route=9)
    (broken,) = of(events, TradeRouteForfeited)
    assert broken.rule == "patchistory.diplomacy.break-alliance" and broken.votes == 4
    assert state.civs[0].votes == 4 and state.pp[0] == 0
    assert all(r.id != 9 for r in state.routes)
    assert RULES.awaited_seats(state) == {2}, "the ally's Worker comes home first"
    state = managing(fresh(3), 0, 6, phase="diplomacy")
    state = dataclasses.replace(state, routes=(*state.routes, Route(9, "allied", 0, 2)))
    state, _ = act(state, 0, "aid", to=1, food=0, coin=3, resource=0)
    state, _ = act(state, 1, "refuse_aid")
    assert not any(m.type == "break_alliance" for m in RULES.legal_actions(state, 0))


def test_birth_costs_four_five_six_food_by_era_and_trade_two_three_four():
    state = managing(fresh(3), 0, 6)
    state = civ_of(state, 0, food=20)
    for era, birth, trade in ((1, 4, 2), (2, 5, 3), (3, 6, 4)):
        now = dataclasses.replace(state, era=era)
        after, events = act(now, 0, "birth", row=0, col=0)
        (born,) = of(events, WorkerPlaced)
        assert (born.food, born.rule) == (birth, "patchistory.management.birth")
        assert born.cites == ("patchistory.politics.era-costs",)
        assert after.civs[0].born == 1 and after.civs[0].workers == ((0, 0),)
        after, events = act(after, 0, "trade", route=1, row=0, col=0)
        (trade_event,) = of(events, TradeBegun)
        assert trade_event.food == trade and after.route(1).workers == ((0, 0),)
        assert trade_event.rule == "patchistory.management.trade"
        assert trade_event.cites == ("patchistory.politics.era-costs",)


def test_honor_heroes_and_wonders_pay_the_era_cost_for_one_culture_each():
    tile = next(
        t for t in PACK.era_tiles(1) if any(f.kind == "hero" for f in PACK.tiles[t].black.features)
    )
    state = managing(fresh(3), 0, 4)
    from domain.patchistory.model import Placed

    state = civ_of(state, 0, tiles=(*state.civs[0].tiles, Placed(tile, "black", 0, 2, 1)), food=5)
    assert terr.statuses(PACK, state, 0)["heroes"] == 1
    state, events = act(state, 0, "honor_heroes")
    (honor,) = of(events, Honored)
    assert (honor.food, honor.culture) == (1, 1)
    assert honor.rule == "patchistory.management.honor-heroes"
    assert not any(m.type == "honor_wonders" for m in RULES.legal_actions(state, 0))


def test_reclamation_covers_a_square_with_a_hidden_wasteland_and_draws_a_new_building_tile():
    state = managing(fresh(3), 0, 2)
    state = civ_of(state, 0, resource=1)
    tile = state.civs[0].hand[0]
    stack = len(state.stack)
    state, events = act(state, 0, "reclaim", row=1, col=1, building=tile)
    (reclaimed,) = of(events, SquareReclaimed)
    assert reclaimed.rule == "patchistory.management.reclamation"
    (drawn,) = of(events, BuildingTilesDrawn)
    assert drawn.rule == "patchistory.management.building-tiles"
    assert reclaimed.visibility.seats == frozenset({0})
    assert "tile_used" not in reclaimed.visibility.redacted
    assert len(state.civs[0].hand) == 4 and len(state.stack) == stack - 1
    board = terr.statuses(PACK, state, 0)
    assert board["wastelands"] == 1 and board["resource"] == 0


def test_a_building_covers_a_non_sea_square_for_its_cost():
    state = managing(fresh(3), 0, 2)
    state = civ_of(state, 0, resource=3)
    building = state.civs[0].hand[0]
    state, events = act(state, 0, "construct", row=1, col=1, building=building)
    (built,) = of(events, BuildingConstructed)
    assert built.rule == "patchistory.management.building"
    assert built.resources == PACK.buildings[building].cost
    assert state.civs[0].resource == 3 - built.resources
    board = terr.statuses(PACK, state, 0)
    assert board["buildings"] == 1


@pytest.mark.rulebook_example("patchistory.example.production")
def test_production_gains_the_tiles_output_then_the_trade_route_workers_goods():
    rules = with_capital(
        [
            square((0, 0), "Farm", {"food": 2}),
            square((0, 1), "Mine", {}, {"resource": 1}),
            square((1, 0), "Market", {"coin": 1}, {"coin": 1}),
            square((1, 1), "Temple", {"culture": 2}),
        ]
    )
    state = fresh(3)
    state = civ_of(state, 0, workers=((0, 1), (1, 0)), born=3)
    coin_space = next(i for i, s in enumerate(PACK.general.spaces) if s.goods == {"coin": 2})
    state = state.with_route(dataclasses.replace(state.route(1), workers=((0, coin_space),)))
    board = terr.statuses(rules.pack, state, 0)
    assert board["coin"] == 2, "the Market: 1 Coin, 2 with its Worker"
    unworked = civ_of(state, 0, workers=((0, 0),))
    assert terr.statuses(rules.pack, unworked, 0)["coin"] == 1, "no Worker on the gold box"
    c = ctx(dataclasses.replace(state, phase="production"))
    c.data = rules.pack
    produce(c)
    made = next(e for e in of(c.events, GoodsProduced) if e.seat == 0)
    assert made.rule == "patchistory.production.tiles"
    assert (made.food, made.resource, made.coin, made.culture) == (2, 1, 4, 2)
    assert made.routes == (2, 0, 0, 0)
    assert made.cites == (
        "patchistory.patch.status",
        "patchistory.workers.gold-box",
        "patchistory.production.routes",
    )


@pytest.mark.rulebook_example("patchistory.example.maintenance")
def test_workers_cost_the_highest_value_showing_and_three_culture_per_food_short():
    state = fresh(3)
    state = civ_of(state, 0, born=7, food=0, culture=20, workers=((0, 0), (0, 1), (1, 0), (1, 1)))
    state = civ_of(state, 0, resting=(0, 0, 0))
    c = ctx(dataclasses.replace(state, phase="production"))
    produce(c)
    fed = next(e for e in of(c.events, Maintained) if e.seat == 0 and e.what == "workers")
    assert PACK.numbers["descendant_track"][7] == 5
    assert (fed.food, fed.culture) == (3, 6), "5 due, the 3 produced paid, 2 short: 6 Culture"
    assert fed.rule == "patchistory.maintenance.workers"


def holding_feature(state, seat: int, kind: str, era: int = 1, row: int = 0, col: int = 2):
    """`seat` with a Tile of `era` whose Black side shows a `kind` (hero, wonder) patched whole."""
    from domain.patchistory.model import Placed

    tile = next(
        t for t in PACK.era_tiles(era) if any(f.kind == kind for f in PACK.tiles[t].black.features)
    )
    placed = Placed(tile, "black", row, col, len(state.civs[seat].tiles))
    return civ_of(state, seat, tiles=(*state.civs[seat].tiles, placed))


def test_honor_wonders_forfeits_the_eras_resources_for_one_culture_per_wonder():
    state = holding_feature(managing(fresh(3), 0, 4), 0, "wonder")
    state = dataclasses.replace(state, era=3)
    state = civ_of(state, 0, resource=5)
    wonders = terr.statuses(PACK, state, 0)["wonders"]
    culture = state.civs[0].culture
    state, events = act(state, 0, "honor_wonders")
    (honor,) = of(events, Honored)
    assert honor.rule == "patchistory.management.honor-wonders"
    assert (honor.resource, honor.culture) == (2, wonders), "(0/1/2) Resources in Era III"
    assert (state.civs[0].resource, state.civs[0].culture) == (3, culture + wonders)


def test_a_trade_route_is_built_to_any_other_player_for_two_resources_once_a_round():
    state = civ_of(managing(fresh(3), 0, 6), 0, resource=6)
    routes = len(state.routes)
    state, events = act(state, 0, "build_route", to=2)
    (opened,) = of(events, TradeRouteOpened)
    assert opened.rule == "patchistory.management.trade-route"
    assert (opened.kind, opened.a, opened.b) == ("general", 0, 2)
    assert state.civs[0].resource == 4 and len(state.routes) == routes + 1
    assert not any(m.type == "build_route" for m in RULES.legal_actions(state, 0)), "one a Round"


def test_in_round_five_heroes_cost_two_food_and_wonders_a_resource_and_culture_pays_the_rest():
    state = holding_feature(fresh(3), 0, "hero")
    state = holding_feature(state, 0, "wonder", row=2, col=0)
    board = terr.statuses(PACK, state, 0)
    assert board["heroes"] >= 1 and board["wonders"] >= 1
    state = civ_of(state, 0, food=30, resource=0, culture=0, born=0, workers=())
    state = dataclasses.replace(state, round=5, serial=5, pending=(), won=(), phase="production")
    c = ctx(state)
    produce(c)
    produced = next(e for e in of(c.events, GoodsProduced) if e.seat == 0)
    assert produced.resource == 0 and produced.culture < 6 * board["wonders"]
    kept = next(e for e in of(c.events, Maintained) if e.what == "heroes-wonders")
    assert kept.rule == "patchistory.maintenance.heroes-wonders"
    assert kept.food == 2 * board["heroes"] and kept.resource == 0
    assert kept.cites == ("patchistory.culture.floor",), "6 Culture a Resource short"
    assert kept.culture == produced.culture and c.state.civs[0].culture == 0


def test_che_guevara_gives_six_political_points_each_round():
    from tests.unit.patchistory.test_abilities import holding

    state = holding(fresh(3), 1, "che-guevara")
    c = ctx(dataclasses.replace(state, phase="auction", pending=(), won=()))
    begin_diplomacy(c)
    (points,) = of(c.events, PointsSet)
    assert points.rule == "patchistory.politics.points"
    assert points.cites == ("patchistory.tile.che-guevara",)
    assert points.points[1] == 6
    assert points.points[0] == terr.statuses(PACK, state, 0)["politics"]


def test_a_special_building_lowers_an_actions_political_cost_but_never_below_one():
    from tests.unit.patchistory.test_abilities import holding

    base = PACK.numbers["political_costs"]["building"]
    state = holding(fresh(3), 0, "cheaper-building")
    assert diplomacy.cost(PACK, state, 0, "building") == max(1, base - 1)
    state = civ_of(managing(state, 0, 4), 0, resource=3)
    building = state.civs[0].hand[0]
    free = next(
        m
        for m in RULES.legal_actions(state, 0)
        if m.type == "construct" and m.arg("building") == building
    )
    state, events = act(state, 0, "construct", **dict(free.args))
    (built,) = of(events, BuildingConstructed)
    assert built.points == max(1, base - 1)
    assert built.cites[0] == "patchistory.tile.cost-reduction"
    assert ("patchistory.politics.minimum-cost" in built.cites) == (base - 1 < 1)
    plain = civ_of(managing(fresh(3), 0, 4), 0, resource=3)
    assert diplomacy.cost_cites(PACK, plain, 0, "building") == ()


def test_two_special_buildings_cannot_lower_a_cost_of_two_below_one():
    from domain.patchistory.model import Placed

    cheaper = [
        t
        for t in PACK.tiles
        if any(f.ability == "cheaper-building" for f in PACK.tiles[t].black.features)
    ]
    assert len(cheaper) == 2 and PACK.numbers["political_costs"]["building"] == 2
    state = fresh(3)
    placed = (Placed(cheaper[0], "black", 0, 2, 1), Placed(cheaper[1], "black", 2, 0, 2))
    state = civ_of(state, 0, tiles=(*state.civs[0].tiles, *placed))
    assert diplomacy.cheaper(PACK, state, 0, "building") == 2
    assert diplomacy.cost(PACK, state, 0, "building") == 1
    assert diplomacy.cost_cites(PACK, state, 0, "building") == (
        "patchistory.tile.cost-reduction",
        "patchistory.politics.minimum-cost",
    )


def test_what_is_exchanged_stays_behind_the_screen():
    """Production is laid out in front of the Player Screen for all to see; an Exchange is
    not: the Goods given and taken stay hidden, the Political Point it costs does not."""
    rules, state = exchanging(3)
    _, events = act_with(
        rules, state, 0, "exchange", give="resource", amount=3, food=4, coin=2, resource=0
    )
    (done,) = of(events, GoodsExchanged)
    assert not done.visibility.is_public
    assert done.visibility.shows_to(0)
    assert not any(done.visibility.shows_to(v) for v in (1, 2, None))
    redacted = done.visibility.redacted
    assert redacted == {"seat": 0, "points": 1}
    for hidden in ("give", "amount", "food", "coin", "resource"):
        assert hidden not in redacted
