"""A player turn, phases A-F (p4-p9): establish, expand, forts, the Great Wall, reduction,
plunder, monuments, revenue and concluding."""

from __future__ import annotations

import pytest

from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command
from domain.hotw.editions.hotw_2024.buildings import building_reduction
from domain.hotw.editions.hotw_2024.cards import Building, Phase
from domain.hotw.editions.hotw_2024.events import (
    ArmiesLaidDown,
    ArmyPlaced,
    BuildingNotPlaced,
    BuildingPlaced,
    BuildingReduced,
    BuildingRemoved,
    BuildingsPlundered,
    BuildingSupplyExhausted,
    BuildingTaken,
    EmpirePoolFilled,
    FleetsRemoved,
    FortBuilt,
    GarrisonRemoved,
    GarrisonSurrendered,
    GoldCollected,
    GreatWallFortPlaced,
    GreatWallFortRemoved,
    GreatWallFortsPooled,
    GreatWallLimitReached,
    HonorAwarded,
    HonorPlayed,
    InvasionFrustrated,
    InvasionSucceeded,
    LeaderRemoved,
    MonumentsDue,
    PeopleRecruited,
    PhaseBegan,
    PoolCleared,
    TurnEnded,
)
from domain.hotw.editions.hotw_2024.model import Control, LandState, Pool, Stage
from tests.support.hotw import (
    BLUE,
    GREEN,
    PACK,
    RED,
    RULES,
    act,
    army,
    empty,
    garrison,
    of_type,
    position,
    rules_of,
)


def refused(state, command, **args):
    with pytest.raises(RuleViolation) as caught:
        act(state, command, **args)
    return caught.value.rule


# --- B. establish ---------------------------------------------------------------------------


def test_establishing_clears_the_start_land_and_removes_the_garrison_with_an_honor():
    """hotw24.establish.*: Sumeria starts in Tigris."""
    state = position({"tigris": garrison(BLUE, "city", "fort")}, phase=Phase.REVEAL, card="sumeria")
    state = evolved(state, turn=evolved(state.turn, phase=Phase.REVEAL))
    # ending phase A (no Event card) establishes the Empire
    from domain.core.chance import Chance
    from domain.hotw.editions.hotw_2024 import actions, turn
    from domain.hotw.editions.hotw_2024.context import Ctx

    ctx = Ctx(RULES, state, Chance.forbidden())
    turn.end_phase(ctx)
    actions.proceed(ctx)
    events = ctx.events
    assert of_type(events, EmpirePoolFilled)[0].rule == "hotw24.establish.empire-pool"
    assert {e.rule for e in of_type(events, BuildingRemoved)} == {
        "hotw24.establish.start-land.clear"
    }
    (removed,) = of_type(events, GarrisonRemoved)
    assert removed.rule == "hotw24.establish.start-land.garrison"
    assert of_type(events, HonorAwarded)[0].rule == "hotw24.honors.award.garrison-removed"
    assert of_type(events, ArmyPlaced)[0].rule == "hotw24.establish.start-land.uncontrolled"
    placed = of_type(events, BuildingPlaced)
    assert [(p.building, p.rule) for p in placed] == [
        ("capital", "hotw24.establish.starting-buildings")
    ]
    assert ctx.state.land("tigris").buildings == {Building.CAPITAL}
    assert ctx.state.control_of("tigris", RED) is Control.EMPIRE
    assert actions.legal_actions(PACK, ctx.state, RED)  # now expanding


def establish(state):
    from domain.core.chance import Chance
    from domain.hotw.editions.hotw_2024 import actions, turn
    from domain.hotw.editions.hotw_2024.context import Ctx

    ctx = Ctx(
        RULES, evolved(state, turn=evolved(state.turn, phase=Phase.REVEAL)), Chance.forbidden()
    )
    turn.end_phase(ctx)
    actions.proceed(ctx)
    return ctx.events, ctx.state


def test_the_huns_are_established_in_two_start_lands():
    """hotw24.empires.huns; a barbarian never starts with buildings
    (hotw24.empires.barbarian.no-buildings)."""
    events, _state = establish(position({}, epoch=3, card="huns"))
    placed = of_type(events, ArmyPlaced)
    assert sorted(e.land for e in placed) == ["turanian-plain", "volga"]
    assert all(e.cites == ("hotw24.empires.huns",) for e in placed)
    assert not of_type(events, BuildingPlaced)
    assert PACK.cards.empire("huns").barbarian  # hotw24.plunder.barbarian-icon


def test_a_later_dynasty_takes_a_great_wall_fort_off_the_map():
    """hotw24.buildings.great-wall-limit and hotw24.establish.great-wall: two Great Wall forts
    stand on the map, so the Ming must take one back before expanding."""
    state = position(
        {"yellow-river": garrison(BLUE), "wei-river": garrison(BLUE)}, epoch=5, card="ming-dynasty"
    )
    lands = dict(state.lands)
    for land in ("yellow-river", "wei-river"):
        lands[land] = LandState(BLUE, False, frozenset({Building.FORT}), True)
    supply = {**state.supply, "great_wall": 1}
    state = evolved(
        state, lands=lands, supply=supply, great_wall_on_map=("yellow-river", "wei-river")
    )
    events, state = establish(state)
    assert of_type(events, GreatWallLimitReached)[0].count == 1
    (pooled,) = of_type(events, GreatWallFortsPooled)
    assert (pooled.count, pooled.rule) == (1, "hotw24.establish.great-wall")
    options = list(RULES.legal_actions(state, RED))
    assert options == [
        Command.of("choose_land", land="yellow-river"),
        Command.of("choose_land", land="wei-river"),
    ]
    events, state = act(state, "choose_land", land="yellow-river")
    assert of_type(events, GreatWallFortRemoved)[0].rule == "hotw24.buildings.great-wall-limit"
    assert state.turn.pool.great_wall_forts == 2


def test_great_wall_forts_are_placed_in_yellow_and_wei_river_once_held_and_unplaced_ones_leave():
    """hotw24.empires.great-wall, hotw24.empires.great-wall.unplaced."""
    state = position({"yellow-river": army(RED)}, epoch=3, card="han-dynasty")
    state = evolved(
        state, turn=evolved(state.turn, pool=evolved(state.turn.pool) if False else state.turn.pool)
    )
    from domain.hotw.editions.hotw_2024.model import Pool

    state = evolved(
        state,
        turn=evolved(state.turn, pool=Pool(0, 0, 2)),
        supply={**state.supply, "great_wall": 1},
    )
    assert Command.of("place_great_wall", land="yellow-river") in RULES.legal_actions(state, RED)
    assert Command.of("place_great_wall", land="wei-river") not in RULES.legal_actions(state, RED)
    events, state = act(state, "place_great_wall", land="yellow-river")
    assert of_type(events, GreatWallFortPlaced)[0].rule == "hotw24.empires.great-wall"
    assert state.land("yellow-river").great_wall
    events, state = act(state, "end_phase")
    (cleared,) = of_type(events, PoolCleared)
    assert (cleared.great_wall_forts, cleared.rule) == (1, "hotw24.empires.great-wall.unplaced")


# --- C. expand ------------------------------------------------------------------------------


def test_armies_go_next_to_an_army_or_a_fleet_never_into_a_wasteland():
    """hotw24.expand.place-army, hotw24.expand.no-wasteland, hotw24.expand.straits."""
    state = position({"tigris": army(RED)}, people=2)
    lands = {c.arg("land") for c in RULES.legal_actions(state, RED) if c.type == "place_army"}
    assert lands == set(PACK.board.neighbours_of("tigris"))
    assert refused(state, "place_army", land="sahara") == "hotw24.expand.no-wasteland"
    assert refused(state, "place_army", land="britain") == "hotw24.expand.place-army"
    strait = next(
        (land, other) for land, value in PACK.board.lands.items() for other in value.straits
    )
    state = position({strait[0]: army(RED)}, people=1)
    assert Command.of("place_army", land=strait[1]) in RULES.legal_actions(state, RED)
    events, _ = act(state, "place_army", dice=[6, 6, 1], land=strait[1])
    assert "hotw24.expand.straits" in events[0].cites  # the strait made the land adjacent
    (taken,) = of_type(events, ArmyPlaced)
    assert "hotw24.general.land.uncontrolled" in (*taken.cites, taken.rule)
    assert "hotw24.expand.outcome.uncontrolled" in (*taken.cites, taken.rule)
    emptied = evolved(state, turn=evolved(state.turn, pool=Pool(0, 0)))
    refusal = refused(emptied, "place_army", land=strait[1])
    assert refusal == "hotw24.general.people.army-from-pool"


def test_placed_armies_never_move():
    state = position({"tigris": army(RED)}, people=1)
    assert refused(state, "move_army", land="zagros") == "hotw24.expand.no-movement"


def test_a_sea_fleet_is_a_stepping_stone_in_epochs_one_to_three():
    """hotw24.fleets.stepping-stone, hotw24.fleets.pool-sea-epochs, hotw24.fleets.cards-by-epoch."""
    from domain.hotw.editions.hotw_2024.model import Pool

    state = position({"lower-egypt": army(RED)}, card="egypt", people=1)
    state = evolved(state, turn=evolved(state.turn, pool=Pool(1, 1)))
    fleets = [c.arg("water") for c in RULES.legal_actions(state, RED) if c.type == "place_fleet"]
    assert fleets and all(not PACK.board.is_ocean(w) for w in fleets)
    assert refused(state, "place_fleet", water="atlantic-ocean") == "hotw24.fleets.pool-sea-epochs"
    events, state = act(state, "place_fleet", water="mediterranean-sea")
    assert events[0].rule == "hotw24.expand.place-fleet"
    reach = {c.arg("land") for c in RULES.legal_actions(state, RED) if c.type == "place_army"}
    assert {
        "western-iberia",
        "danubia",
        "volga",
        "caucasus",
    } <= reach  # hotw24.fleets.mediterranean
    assert "mediterranean-sea" in PACK.board.waters_of(
        "volga"
    ) and "north-sea" in PACK.board.waters_of("volga")  # hotw24.fleets.volga
    events, _ = act(state, "place_army", land="western-iberia")
    (across,) = of_type(events, ArmyPlaced)
    assert "hotw24.fleets.stepping-stone" in across.cites
    assert state.turn.pool.fleets == 0  # Egypt's card shows a single sea fleet
    assert refused(state, "place_fleet", water="arabian-sea") == "hotw24.fleets.cards-by-epoch"


def test_an_ocean_fleet_reaches_every_coast_of_its_seas_in_epochs_four_and_five():
    """hotw24.fleets.ocean-includes-seas, hotw24.fleets.pool-ocean-epochs."""
    from domain.hotw.editions.hotw_2024.model import Pool

    state = position({"britain": army(RED)}, epoch=5, card="britain")
    state = evolved(state, turn=evolved(state.turn, pool=Pool(1, 1)))
    fleets = [c.arg("water") for c in RULES.legal_actions(state, RED) if c.type == "place_fleet"]
    assert fleets == ["atlantic-ocean"]
    assert refused(state, "place_fleet", water="north-sea") == "hotw24.fleets.pool-ocean-epochs"
    _, state = act(state, "place_fleet", water="atlantic-ocean")
    reach = {c.arg("land") for c in RULES.legal_actions(state, RED) if c.type == "place_army"}
    assert PACK.board.lands_reachable_by_fleet_in("mediterranean-sea") <= reach | {"britain"}
    bengal = PACK.board.waters_adjacent_to_water("bay-of-bengal")
    assert not {"south-china-sea", "arabian-sea"} & bengal  # hotw24.fleets.bay-of-bengal


def test_placing_an_army_in_a_friendly_land_surrenders_it_with_reduction_and_no_honor():
    """hotw24.expand.outcome.surrender, hotw24.building-reduction.when,
    hotw24.plunder.exclusions."""
    state = position(
        {"euphrates": army(RED), "tigris": garrison(RED, "city")}, people=1, card="aryans"
    )
    events, after = act(state, "place_army", land="tigris")
    (surrendered,) = of_type(events, GarrisonSurrendered)
    assert surrendered.rule == "hotw24.expand.outcome.surrender"
    assert surrendered.cites == ("hotw24.general.land.friendly", "hotw24.plunder.exclusions")
    assert of_type(events, BuildingReduced)[0].rule == "hotw24.building-reduction.when"
    assert not of_type(events, HonorAwarded) and not of_type(events, BuildingsPlundered)
    assert after.land("tigris").buildings == frozenset()


def test_an_enemy_land_is_invaded_at_once():
    """hotw24.expand.outcome.invasion."""
    state = position({"euphrates": army(RED), "tigris": garrison(BLUE)}, people=1)
    events, _ = act(state, "place_army", dice=[6, 6, 1], land="tigris")
    assert isinstance(events[0], InvasionSucceeded)


def test_a_barbarian_plunders_before_building_reduction():
    """hotw24.plunder.value, hotw24.empires.barbarian.plunders: a barbarian's successful
    invasion removes the garrison, and the buildings are plundered before reduction."""
    state = position(
        {"tigris": army(RED), "zagros": garrison(BLUE, "capital", "fort")}, people=1, card="aryans"
    )
    events, _after = act(state, "place_army", dice=[6, 1, 2, 3], land="zagros")
    assert of_type(events, InvasionSucceeded)
    (plunder,) = of_type(events, BuildingsPlundered)
    assert (plunder.gold, plunder.rule) == (2, "hotw24.plunder.value")
    assert plunder.cites == ("hotw24.plunder.barbarian-icon", "hotw24.empires.barbarian.plunders")
    assert events.index(plunder) < events.index(of_type(events, BuildingReduced)[0])


def test_a_barbarian_taking_an_uncontrolled_land_plunders_nothing():
    """hotw24.plunder.exclusions: buildings in an uncontrolled land are neither plundered nor
    reduced when a barbarian army takes it."""
    state = position({"tigris": army(RED), "zagros": empty("city")}, people=1, card="aryans")
    events, after = act(state, "place_army", land="zagros")
    assert not of_type(events, BuildingsPlundered) and not of_type(events, BuildingReduced)
    (taken,) = of_type(events, ArmyPlaced)
    assert taken.rule == "hotw24.building-reduction.uncontrolled"
    assert "hotw24.plunder.exclusions" in taken.cites
    assert after.land("zagros").buildings == {Building.CITY}


def test_if_red_is_a_barbarian_empire_in_play_example_2_red_collects_two_gold():
    """p7 Plundering: "If red is a barbarian Empire in Play Example 2, then the capital building
    is plundered prior to building reduction being carried out. Red collects TWO gold." Play
    Example 2 is a frustrated invasion (a tie in the mountains of Zagros): the blue garrison is
    removed all the same, so the barbarian plunders."""
    state = position(
        {"tigris": army(RED), "zagros": garrison(BLUE, "capital", "fort")}, people=1, card="aryans"
    )
    assert PACK.cards.empire("aryans").barbarian
    gold_before = state.players[RED].gold
    events, after = act(state, "place_army", dice=[5, 2, 3, 5], land="zagros")
    (frustrated,) = of_type(events, InvasionFrustrated)
    assert frustrated.rule == "hotw24.invasion.dice.tie-terrain"
    (plunder,) = of_type(events, BuildingsPlundered)
    assert (plunder.seat, plunder.gold, plunder.rule) == (RED, 2, "hotw24.plunder.value")
    (reduced,) = of_type(events, BuildingReduced)
    assert events.index(plunder) < events.index(reduced)
    assert after.players[RED].gold == gold_before + 2
    assert after.land("zagros").buildings == {Building.CITY}
    (honor,) = of_type(events, HonorAwarded)
    assert honor.seat == BLUE


def test_building_reduction_takes_the_fort_then_one_step():
    """hotw24.building-reduction.fort-first, hotw24.building-reduction.one-step."""
    land = LandState(1, False, frozenset({Building.FORT, Building.CAPITAL, Building.MONUMENT}))
    assert building_reduction(land, True) == ((Building.FORT, Building.CAPITAL), True)
    land = LandState(1, False, frozenset({Building.CITY, Building.MONUMENT}))
    assert building_reduction(land, True) == ((Building.CITY,), False)
    land = LandState(1, False, frozenset({Building.MONUMENT}))
    assert building_reduction(land, True) == ((Building.MONUMENT,), False)


def test_forts_are_built_from_pool_people_one_per_land_never_in_reveal():
    """hotw24.forts.build, hotw24.forts.one-per-land, hotw24.forts.not-in-reveal,
    hotw24.forts.purpose."""
    state = position({"tigris": army(RED), "euphrates": army(RED, "fort")}, people=1)
    forts = [c.arg("land") for c in RULES.legal_actions(state, RED) if c.type == "build_fort"]
    assert forts == ["tigris"]
    assert refused(state, "build_fort", land="euphrates") == "hotw24.forts.one-per-land"
    with pytest.raises(RuleViolation) as second:
        act(state, "build_fort", land="euphrates")
    assert second.value.context["cites"] == ["hotw24.buildings.one-of-each"]
    events, after = act(state, "build_fort", land="tigris")
    assert rules_of(events) >= {"hotw24.forts.build"}
    assert of_type(events, FortBuilt)[0].cites == ("hotw24.forts.sources",)
    assert after.turn.pool.people == 0 and Building.FORT in after.land("tigris").buildings


def test_a_building_kind_run_out_is_taken_from_an_enemy_land_a_capital_leaving_a_city():
    """hotw24.buildings.supply-exhausted, hotw24.buildings.sources, hotw24.buildings.one-of-each."""
    state = position(
        {"tigris": army(RED), "nile": empty()}
        if False
        else {
            "tigris": army(RED),
            "indus": garrison(BLUE, "fort"),
            "greece": garrison(GREEN, "fort"),
        },
        people=1,
    )
    state = evolved(state, supply={**state.supply, "fort": 0})
    events, state = act(state, "build_fort", land="tigris")
    assert of_type(events, BuildingSupplyExhausted)
    events, state = act(state, "choose_land", land="indus")
    assert of_type(events, BuildingTaken)[0].rule == "hotw24.buildings.supply-exhausted"
    (placed,) = of_type(events, BuildingPlaced)
    assert placed.cites == ("hotw24.buildings.sources", "hotw24.forts.sources")
    assert Building.FORT in state.land("tigris").buildings
    assert Building.FORT not in state.land("indus").buildings


def test_a_capital_reduced_when_every_city_is_placed_takes_a_city_from_an_enemy_land():
    """p10: "If all buildings of a type are placed and another such building is required, then
    the player must remove one from an Enemy land." Building reduction replaces Blue's capital in
    Tigris with a city; none is left in the supply, so Red chooses an Enemy city to take: Greece's
    (Indus' was the other choice)."""
    state = position(
        {
            "euphrates": army(RED),
            "tigris": garrison(BLUE, "capital"),
            "greece": garrison(GREEN, "city"),
            "indus": garrison(GREEN, "city"),
        },
        people=1,
    )
    state = evolved(state, supply={**state.supply, "city": 0})
    events, state = act(state, "place_army", dice=[6, 5, 1], land="tigris")
    (reduced,) = of_type(events, BuildingReduced)
    assert reduced.removed == ("capital",) and not reduced.city_added
    (exhausted,) = of_type(events, BuildingSupplyExhausted)
    assert (exhausted.seat, exhausted.building, exhausted.land) == (RED, "city", "tigris")
    assert exhausted.rule == "hotw24.buildings.supply-exhausted"
    assert [c.as_dict() for c in RULES.legal_actions(state, RED)] == [
        {"type": "choose_land", "land": "greece"},
        {"type": "choose_land", "land": "indus"},
    ]
    events, state = act(state, "choose_land", land="greece")
    (taken,) = of_type(events, BuildingTaken)
    assert (taken.land, taken.building) == ("greece", "city")
    assert state.land("tigris").buildings == {Building.CITY}
    assert state.land("greece").buildings == frozenset()
    assert state.land("indus").buildings == {Building.CITY}


def test_a_capital_reduced_with_no_city_anywhere_to_take_leaves_the_land_empty():
    """hotw24.buildings.supply-exhausted reading: no Enemy land holds a city, so none is
    placed."""
    state = position({"euphrates": army(RED), "tigris": garrison(BLUE, "capital")}, people=1)
    state = evolved(state, supply={**state.supply, "city": 0})
    events, state = act(state, "place_army", dice=[6, 5, 1], land="tigris")
    (not_placed,) = of_type(events, BuildingNotPlaced)
    assert (not_placed.land, not_placed.rule) == ("tigris", "hotw24.buildings.supply-exhausted")
    assert state.land("tigris").buildings == frozenset()


def test_expansion_ends_only_when_no_people_piece_is_left_to_place():
    """hotw24.expand.end; hotw24.leader.spent: a Leader used in the phase leaves the game."""
    state = position({"tigris": army(RED)}, people=1)
    assert refused(state, "end_phase") == "hotw24.expand.end"
    _, state = act(state, "use_leader")
    events, state = act(state, "build_fort", land="tigris")
    assert of_type(events, LeaderRemoved)[0].rule == "hotw24.leader.spent"
    assert not state.players[RED].leader


def test_coin_honors_are_played_for_effect_in_expand_but_not_coinless_ones():
    """hotw24.expand.honors, hotw24.honors.recruit."""
    state = position({"tigris": army(RED)}, honor_track={RED: ("recruit-2", "lands-bonus")})
    honors = [c.arg("honor") for c in RULES.legal_actions(state, RED) if c.type == "play_honor"]
    assert honors == ["recruit-2"]
    assert refused(state, "play_honor", honor="lands-bonus") == "hotw24.expand.honors"
    assert (
        refused(state, "play_honor", honor="catastrophe") == "hotw24.general.honors.playable-from"
    )
    events, state = act(state, "play_honor", honor="recruit-2")
    assert of_type(events, HonorPlayed)[0].rule == "hotw24.expand.honors"
    (recruited,) = of_type(events, PeopleRecruited)
    assert (recruited.count, recruited.rule) == (2, "hotw24.honors.recruit")
    assert state.turn.pool.people == 2
    assert state.players[RED].honor_stack[-1] == "recruit-2"  # bottom of the stack


# --- D-F ------------------------------------------------------------------------------------


def test_a_barbarian_builds_no_monument():
    """hotw24.empires.barbarian.no-icon, hotw24.monuments.power-icon."""
    events, _ = act(
        position({"hindu-kush": army(RED), "ganges-valley": army(RED)}, card="aryans"), "end_phase"
    )
    assert "hotw24.monuments.pairs" not in rules_of(events)
    assert PACK.cards.empire("aryans").empires[0].power_icon is None


def test_a_monument_goes_to_a_city_land_when_the_start_land_has_one_and_never_twice():
    """hotw24.monuments.placement, hotw24.monuments.one-per-land."""
    state = position(
        {
            "hindu-kush": army(RED, "monument"),
            "ganges-valley": army(RED, "city"),
            "ganges-delta": army(RED),
        },
        epoch=2,
        card="vedic-states",
    )
    events, _ = act(state, "end_phase")
    monuments = [e for e in of_type(events, BuildingPlaced) if e.building == "monument"]
    assert [m.land for m in monuments] == ["ganges-valley"]
    assert "hotw24.buildings.sources" in monuments[0].cites
    (due,) = of_type(events, MonumentsDue)
    assert due.cites == ("hotw24.monuments.power-icon",)


def test_a_land_never_holds_a_second_monument():
    """hotw24.monuments.one-per-land, hotw24.buildings.one-of-each: with two city lands to
    choose from, the start-land's monument rules it out."""
    state = position(
        {
            "hindu-kush": army(RED, "monument"),
            "ganges-valley": army(RED, "city"),
            "ganges-delta": army(RED, "city"),
        },
        epoch=2,
        card="vedic-states",
    )
    _, state = act(state, "end_phase")
    sites = {c.arg("land") for c in RULES.legal_actions(state, RED)}
    assert sites == {"ganges-valley", "ganges-delta"}
    with pytest.raises(RuleViolation) as caught:
        act(state, "choose_land", land="hindu-kush")
    assert caught.value.rule == "hotw24.monuments.one-per-land"
    assert caught.value.context["cites"] == ["hotw24.buildings.one-of-each"]


def test_revenue_pays_buildings_in_any_area_and_lands_only_in_active_areas():
    """hotw24.revenue.scope, hotw24.revenue.buildings, hotw24.general.area-tokens.active."""
    state = position({"tigris": army(RED, "capital"), "peru": army(RED, "city")}, epoch=1)
    events, _ = act(state, "end_phase")
    gold = {(g.reason, g.amount, g.rule) for g in of_type(events, GoldCollected)}
    assert ("buildings", 3, "hotw24.revenue.buildings") in gold
    assert ("lands:middle-east", 2, "hotw24.revenue.presence") in gold
    assert not any(reason == "lands:south-america" for reason, *_ in gold)
    cites = {g.reason: g.cites for g in of_type(events, GoldCollected)}
    assert cites["buildings"] == (
        "hotw24.general.gold.track",
        "hotw24.revenue.scope",
        "hotw24.general.land.empire",
    )
    assert cites["lands:middle-east"] == (
        "hotw24.general.gold.track",
        "hotw24.revenue.scope",
        "hotw24.revenue.lands.per-area",
        "hotw24.general.area-tokens.active",
        "hotw24.general.land.empire",
    )


def test_revenue_honors_pay_coins_or_act_and_pool_honors_must_be_played():
    """hotw24.revenue.honors.coins, .no-coins, .pool-deadline; hotw24.honors.lands-bonus."""
    state = position(
        {"tigris": army(RED), "euphrates": army(RED)},
        phase=Phase.REVENUE,
        honor_track={RED: ("recruit-3",)},
        pool_honors={RED: ("lands-bonus", "catastrophe")},
    )
    assert Command.of("end_phase") not in RULES.legal_actions(state, RED)
    assert refused(state, "end_phase") == "hotw24.revenue.honors.pool-deadline"
    events, state = act(state, "play_honor", honor="recruit-3")
    assert [(g.amount, g.rule) for g in of_type(events, GoldCollected)] == [
        (3, "hotw24.revenue.honors.coins")
    ]
    events, state = act(state, "play_honor", honor="lands-bonus")
    assert of_type(events, HonorPlayed)[0].rule == "hotw24.revenue.honors.no-coins"
    gold = of_type(events, GoldCollected)
    assert (gold[0].amount, gold[0].rule) == (2, "hotw24.honors.lands-bonus")  # one area only: auto
    # the last pool Honor is the only action left, so it is played at once (nothing to remove)
    assert of_type(events, HonorPlayed)[-1].honor == "catastrophe"


def test_concluding_lays_armies_down_removes_fleets_and_honors_the_richest():
    """hotw24.conclude.lay-down, .fleets, .most-gold-honor, .cards-stay;
    hotw24.general.people.laid-down;
    hotw24.fleets.removed-at-conclude; hotw24.honors.award.most-gold."""
    state = position(
        {"tigris": army(RED)}, phase=Phase.REVENUE, gold=[50, 10, 10], fleets=("arabian-sea",)
    )
    state = evolved(state, supply={**state.supply, "fleet": state.supply["fleet"] - 1})
    events, after = act(state, "end_phase")
    (laid,) = of_type(events, ArmiesLaidDown)
    assert laid.rule == "hotw24.conclude.lay-down"
    assert laid.cites == (
        "hotw24.general.people.laid-down",
        "hotw24.general.people.army-or-garrison",
    )
    (removed,) = of_type(events, FleetsRemoved)
    assert removed.rule == "hotw24.conclude.fleets"
    assert removed.cites == ("hotw24.fleets.removed-at-conclude",)
    honor = of_type(events, HonorAwarded)[-1]
    assert honor.rule == "hotw24.conclude.most-gold-honor"
    assert honor.cites == (
        "hotw24.honors.track.award",
        "hotw24.honors.award.most-gold",
        "hotw24.general.gold.stacking",
    )
    assert of_type(events, TurnEnded)[0].rule == "hotw24.conclude.cards-stay"
    assert after.control_of("tigris", RED) is Control.FRIENDLY
    assert after.stage is Stage.EPOCH_CLOSING


def test_a_full_honor_track_pays_one_gold_instead_of_the_most_gold_honor():
    """hotw24.conclude.track-full."""
    state = position(
        {"tigris": army(RED)},
        phase=Phase.CONCLUDE,
        gold=[50, 10, 10],
        honor_track={RED: ("recruit-1", "recruit-2", "recruit-3")},
        area_tokens={RED: ("china-1",)},
    )
    events, _ = act(state, "end_phase")
    assert [g.rule for g in of_type(events, GoldCollected)] == ["hotw24.conclude.track-full"]


def test_the_phases_run_in_order():
    """hotw24.turn.phases, hotw24.epoch.structure."""
    events, _ = act(position({"tigris": army(RED)}), "end_phase")
    assert [e.phase for e in of_type(events, PhaseBegan)] == ["monuments", "revenue", "conclude"]
    assert {e.rule for e in of_type(events, PhaseBegan)} == {"hotw24.turn.phases"}
