"""Events (p5, p9) and Honors (p10): the effect executor runs the data pack's effects."""

from __future__ import annotations

import pytest

from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command
from domain.hotw.editions.hotw_2024.cards import Building, Phase
from domain.hotw.editions.hotw_2024.events import (
    AreaChosen,
    ArmiesLaidDown,
    ArmyPlaced,
    BuildingPlaced,
    BuildingReduced,
    BuildingRemoved,
    BuildingsPlundered,
    EffectCompleted,
    EventCarriedOut,
    EventConcluded,
    EventPoolFilled,
    EventRevealed,
    FleetPlaced,
    GarrisonRemoved,
    GoldCollected,
    GoldLost,
    HonorAwarded,
    InvasionFrustrated,
    InvasionSucceeded,
    LandChosen,
)
from domain.hotw.editions.hotw_2024.model import Control, Stage
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
    start_turn,
)


def test_an_honor_icon_event_awards_an_honor_on_reveal_and_pays_its_text():
    """hotw24.reveal.flip, hotw24.reveal.honor-icon, hotw24.honors.award.event-icon,
    hotw24.events.effects, hotw24.reveal.kinds."""
    events, state = start_turn(position({}), "writing-1")
    assert of_type(events, EventRevealed)[0].rule == "hotw24.reveal.flip"
    assert of_type(events, HonorAwarded)[0].rule == "hotw24.reveal.honor-icon"
    assert "hotw24.honors.award.event-icon" in of_type(events, HonorAwarded)[0].cites
    assert of_type(events, EventCarriedOut)[0].rule == "hotw24.reveal.kinds"
    assert next((g.amount, g.rule) for g in of_type(events, GoldCollected)) == (
        1,
        "hotw24.events.effects",
    )
    assert state.players[RED].event_cards == ("writing-1",)


def test_migration_places_armies_in_a_chosen_area_laid_down_before_establishing():
    """hotw24.events.pool, hotw24.events.lay-down, hotw24.events.revenue,
    hotw24.building-reduction.reveal-armies, hotw24.turn.current-player-only."""
    events, state = start_turn(position({}), "migration-1")
    (pool,) = of_type(events, EventPoolFilled)
    assert (pool.people, pool.rule) == (2, "hotw24.events.pool")
    areas = [c.arg("area") for c in RULES.legal_actions(state, RED)]
    assert set(areas) == PACK.board.areas_active_in(1)
    with pytest.raises(RuleViolation):
        act(state, "play_honor", honor="recruit-1")  # a choice is awaited first
    events, state = act(state, "choose_area", area="india")
    assert of_type(events, AreaChosen)
    first, second = [c.arg("land") for c in RULES.legal_actions(state, RED)][:2]
    _, state = act(state, "choose_land", land=first)
    events, state = act(state, "choose_land", land=second)
    (laid,) = of_type(events, EventConcluded)
    assert laid.rule == "hotw24.events.lay-down" and set(laid.lands) == {first, second}
    assert laid.cites == ("hotw24.events.revenue",)  # Friendly lands from now on
    assert state.control_of(first, RED) is Control.FRIENDLY
    assert state.turn.phase is Phase.EXPAND  # established: Sumeria in Tigris


def test_armies_an_event_places_in_the_reveal_phase_take_uncontrolled_lands_without_reduction():
    """hotw24.building-reduction.reveal-armies: Migration's armies leave the buildings of an
    uncontrolled land standing."""
    events, state = start_turn(position({"indus": empty("city")}), "migration-1")
    _, state = act(state, "choose_area", area="india")
    events, state = act(state, "choose_land", land="indus")
    (taken,) = of_type(events, ArmyPlaced)
    assert taken.rule == "hotw24.building-reduction.reveal-armies"
    assert not of_type(events, BuildingReduced)
    assert state.land("indus").buildings == {Building.CITY}


def test_nomads_invade_enemy_lands_and_plunder_as_barbarians():
    """hotw24.events.plunder, hotw24.plunder.events, hotw24.honors.award.frustrated."""
    state = position({"tigris": garrison(BLUE, "city"), "zagros": garrison(BLUE)})
    events, state = start_turn(state, "nomads-1")
    _, state = act(state, "choose_area", area="middle-east")
    events, state = act(state, "choose_land", dice=[6, 5, 1], land="tigris")
    assert of_type(events, InvasionSucceeded)
    (plunder,) = of_type(events, BuildingsPlundered)
    assert (plunder.gold, plunder.rule) == (1, "hotw24.events.plunder")
    assert plunder.cites == ("hotw24.plunder.events",)


def test_the_armies_of_a_barbarian_event_plunder_when_their_invasion_is_frustrated():
    """p7: "Some Event cards show the barbarian icon. These Events may also cause buildings to
    be plundered": a frustrated invasion removes the Enemy garrison too, so the Nomads plunder
    the city of Tigris before building reduction (hotw24.events.plunder)."""
    state = position({"tigris": garrison(BLUE, "city"), "zagros": garrison(BLUE)})
    events, state = start_turn(state, "nomads-1")
    _, state = act(state, "choose_area", area="middle-east")
    events, state = act(state, "choose_land", dice=[1, 2, 6], land="tigris")
    assert of_type(events, InvasionFrustrated)
    (plunder,) = of_type(events, BuildingsPlundered)
    assert (plunder.gold, plunder.rule) == (1, "hotw24.events.plunder")
    assert events.index(plunder) < events.index(of_type(events, BuildingReduced)[0])


def test_an_event_played_as_an_empire_expands_without_honors_leader_or_forts():
    """hotw24.events.as-empire, hotw24.events.no-leader, hotw24.events.no-forts,
    hotw24.reveal.no-honor-play, hotw24.forts.not-in-reveal, hotw24.events.no-power-icon."""
    state = position({}, honor_track={RED: ("recruit-1",)})
    events, state = start_turn(state, "hyksos")
    assert of_type(events, ArmyPlaced)[0].land == "levant"
    assert of_type(events, ArmyPlaced)[0].cites == ("hotw24.events.as-empire",)
    legal = list(RULES.legal_actions(state, RED))
    assert {c.type for c in legal} == {"place_army"}
    for command, rule in (
        (Command.of("use_leader"), "hotw24.events.no-leader"),
        (Command.of("build_fort", land="levant"), "hotw24.forts.not-in-reveal"),
        (Command.of("play_honor", honor="recruit-1"), "hotw24.reveal.no-honor-play"),
    ):
        with pytest.raises(RuleViolation) as refused:
            act(state, command)
        assert refused.value.rule == rule
    with pytest.raises(RuleViolation) as refused:
        act(state, Command.of("build_fort", land="levant"))
    assert refused.value.context["cites"] == ["hotw24.events.no-forts"]
    with pytest.raises(RuleViolation) as refused:
        act(state, Command.of("play_honor", honor="recruit-1"))
    assert refused.value.context["cites"] == ["hotw24.events.honors"]
    assert PACK.cards.event("hyksos").pieces.power_icon is None


def test_ancients_choose_an_uncontrolled_start_land_in_an_active_area():
    """hotw24.events.ancients."""
    events, state = start_turn(position({"tigris": garrison(BLUE)}), "ancients")
    options = [c.arg("land") for c in RULES.legal_actions(state, RED)]
    assert "tigris" not in options and "peru" not in options
    events, state = act(state, "choose_land", land="indus")
    assert of_type(events, LandChosen)[0].rule == "hotw24.events.ancients"
    assert state.control_of("indus", RED) is Control.EMPIRE


def test_black_death_removes_every_garrison_of_an_area_each_owner_gaining_an_honor():
    """hotw24.honors.award.garrison-removed, hotw24.events.honors,
    hotw24.building-reduction.uncontrolled."""
    state = position(
        {"tigris": garrison(BLUE, "capital"), "zagros": garrison(GREEN), "indus": garrison(BLUE)},
        epoch=5,
        card="mughals",
    )
    events, state = start_turn(state, "black-death")
    events, state = act(state, "choose_area", area="middle-east")
    assert {e.land for e in of_type(events, GarrisonRemoved)} == {"tigris", "zagros"}
    assert sorted(e.seat for e in of_type(events, HonorAwarded)) == [BLUE, GREEN]
    assert state.land("tigris").buildings == {Building.CAPITAL}
    assert state.control_of("indus", RED) is Control.ENEMY


def liberate_position():
    """Red's Friendly Tigris has Blue garrisons in Euphrates and Zagros next to it."""
    state = position(
        {"tigris": garrison(RED), "euphrates": garrison(BLUE), "zagros": garrison(BLUE)},
        epoch=3,
        card="celts",
    )
    _, state = start_turn(state, "liberate-3")
    assert [c.as_dict() for c in RULES.legal_actions(state, RED)] == [
        {"type": "choose_land", "land": "euphrates"},
        {"type": "choose_land", "land": "zagros"},
        {"type": "stop_choosing"},
    ]
    return state


def test_liberate_lets_the_player_choose_two_enemy_lands():
    """Liberate: "Choose up to two Enemy lands next to your Friendly lands" - both taken."""
    state = liberate_position()
    _, state = act(state, "choose_land", land="euphrates")
    events, state = act(state, "choose_land", land="zagros")
    assert {e.land for e in of_type(events, GarrisonRemoved)} == {"zagros"}
    events, state = act(state, "choose_land", land="euphrates")  # Zagros follows: no choice left
    placed = [e.land for e in of_type(events, ArmyPlaced) if e.pool == "event"]
    assert placed == ["euphrates", "zagros"]
    assert state.control_of("euphrates", RED) is Control.FRIENDLY
    assert state.control_of("zagros", RED) is Control.FRIENDLY


def test_liberate_lets_the_player_stop_after_one_land():
    """ "Up to two": after Euphrates the player may choose no more; Zagros stays Blue's and Red
    places its one army in Euphrates (hotw24.events.effects)."""
    state = liberate_position()
    _, state = act(state, "choose_land", land="euphrates")
    assert Command.of("stop_choosing") in RULES.legal_actions(state, RED)
    events, state = act(state, "stop_choosing")
    assert of_type(events, EffectCompleted)[0].rule == "hotw24.events.effects"
    assert state.control_of("euphrates", RED) is Control.FRIENDLY
    assert state.control_of("zagros", RED) is Control.ENEMY
    assert [e.land for e in of_type(events, ArmyPlaced) if e.pool == "event"] == ["euphrates"]


def test_liberate_lets_the_player_choose_no_land_at_all():
    """ "Up to two" includes none: nothing is removed and no army is placed."""
    state = liberate_position()
    events, state = act(state, "stop_choosing")
    assert not of_type(events, GarrisonRemoved)
    assert not [e for e in of_type(events, ArmyPlaced) if e.pool == "event"]
    assert state.control_of("euphrates", RED) is Control.ENEMY
    assert state.control_of("zagros", RED) is Control.ENEMY
    assert not state.agenda


def test_revolution_removes_a_capital_garrison_reduces_and_takes_the_land():
    state = position(
        {"tigris": garrison(BLUE, "capital"), "persia": garrison(GREEN)}, epoch=4, card="franks"
    )
    events, state = start_turn(state, "revolution-4")
    assert state.control_of("tigris", RED) is Control.FRIENDLY
    assert state.land("tigris").buildings == {Building.CITY}
    assert "hotw24.building-reduction.one-step" in rules_of(events)


def test_ocean_trade_is_a_later_event_played_in_each_revenue_phase_of_the_incas_and_aztecs():
    """hotw24.reveal.later-event, hotw24.empires.incas-aztecs,
    hotw24.empires.incas-aztecs.ocean-trade."""
    state = position({}, epoch=5, card="incas-aztecs")
    events, state = start_turn(state, "ocean-trade-5")
    assert not of_type(events, EventCarriedOut)
    while state.turn.empire_index == 0 or state.turn.phase is not Phase.CONCLUDE:
        legal = list(RULES.legal_actions(state, RED))
        more, state = act(state, legal[0])
        events += more
        if state.stage is not Stage.TURNS or state.turn is None:
            break
    carried = of_type(events, EventCarriedOut)
    assert [c.rule for c in carried] == ["hotw24.reveal.later-event"] * 2
    assert [c.cites for c in carried] == [("hotw24.empires.incas-aztecs.ocean-trade",)] * 2
    between = of_type(events, ArmiesLaidDown)[0]  # the Incas, before the Aztecs begin
    assert between.rule == "hotw24.empires.incas-aztecs"
    established = [
        e.land for e in of_type(events, ArmyPlaced) if e.rule.startswith("hotw24.establish")
    ]
    assert established == ["peru", "mexico"]


def test_the_fleet_honor_places_a_supply_fleet_in_a_sea_if_the_card_shows_no_fleet():
    """hotw24.honors.fleet: the Mughals use the Bay of Bengal, not the Indian Ocean."""
    state = position(
        {"ganges-delta": army(RED)},
        epoch=5,
        card="mughals",
        honor_track={RED: ("fleet-1",)},
        people=1,
    )
    events, state = act(state, "play_honor", honor="fleet-1")
    assert [
        c.arg("water") for c in RULES.legal_actions(state, RED) if c.type == "choose_water"
    ] == []
    placed = of_type(events, FleetPlaced)
    assert [(f.water, f.pool, f.rule) for f in placed] == [
        ("bay-of-bengal", "supply", "hotw24.honors.fleet")
    ]


def test_fortify_and_urbanize_place_a_fort_and_a_city_in_empire_lands():
    """hotw24.honors.fortify, hotw24.honors.urbanize, hotw24.forts.sources."""
    state = position({"tigris": army(RED)}, honor_track={RED: ("fortify", "urbanize")}, people=1)
    events, state = act(state, "play_honor", honor="fortify")
    assert [(b.building, b.rule) for b in of_type(events, BuildingPlaced)] == [
        ("fort", "hotw24.honors.fortify")
    ]
    assert of_type(events, BuildingPlaced)[0].cites == (
        "hotw24.buildings.sources",
        "hotw24.forts.sources",
    )
    events, state = act(state, "play_honor", honor="urbanize")
    assert [(b.building, b.rule) for b in of_type(events, BuildingPlaced)] == [
        ("city", "hotw24.honors.urbanize")
    ]


def test_buildings_bonus_pays_building_gold_in_one_chosen_area():
    """hotw24.honors.buildings-bonus."""
    state = position(
        {"tigris": army(RED, "capital"), "indus": army(RED, "city")},
        phase=Phase.REVENUE,
        honor_track={RED: ("buildings-bonus", "recruit-1")},
    )
    _, state = act(state, "play_honor", honor="buildings-bonus")
    events, state = act(state, "choose_area", area="middle-east")
    assert [(g.amount, g.rule) for g in of_type(events, GoldCollected)] == [
        (2, "hotw24.honors.buildings-bonus")
    ]


def test_catastrophe_removes_an_enemy_monument_and_moves_that_chest_back_one_space():
    """hotw24.honors.catastrophe, hotw24.buildings.remove-to-supply."""
    state = position(
        {
            "tigris": army(RED),
            "indus": garrison(BLUE, "monument"),
            "greece": garrison(GREEN, "monument"),
        },
        phase=Phase.REVENUE,
        honor_track={RED: ("catastrophe", "recruit-1")},
    )
    _, state = act(state, "play_honor", honor="catastrophe")
    monuments = state.supply["monument"]
    events, after = act(state, "choose_land", land="indus")
    assert of_type(events, BuildingRemoved)[0].rule == "hotw24.honors.catastrophe"
    assert of_type(events, GoldLost)[0].seat == BLUE
    assert after.players[BLUE].gold == state.players[BLUE].gold - 1
    assert after.supply["monument"] == monuments + 1


def test_an_honor_pushed_off_space_three_drops_into_the_empire_pool():
    """hotw24.honors.track.award, hotw24.general.honors.playable-from."""
    state = position(
        {"euphrates": army(RED), "tigris": garrison(BLUE)},
        people=1,
        honor_track={BLUE: ("recruit-1", "recruit-2", "recruit-3")},
    )
    events, after = act(state, "place_army", dice=[1, 1, 6], land="tigris")
    blue = after.players[BLUE]
    assert len(blue.honor_track) == 3 and blue.pool_honors == ("recruit-3",)
    (awarded,) = of_type(events, HonorAwarded)
    assert awarded.cites == ("hotw24.honors.track.award",)


def test_an_empty_honor_stack_pays_one_gold_instead():
    """hotw24.honors.track.empty-stack."""
    state = position({"euphrates": army(RED), "tigris": garrison(BLUE)}, people=1)
    blue = evolved(
        state.players[BLUE], honor_stack=(), pool_honors=tuple(h.id for h in PACK.cards.honors)
    )
    state = state.with_player(BLUE, blue)
    events, _after = act(state, "place_army", dice=[1, 1, 6], land="tigris")
    assert [g.rule for g in of_type(events, GoldCollected)] == ["hotw24.honors.track.empty-stack"]


def test_honors_are_only_played_by_the_current_player():
    """hotw24.honors.play.not-others-turn, hotw24.general.honors.who-and-when."""
    state = position({"tigris": army(RED)}, people=1, honor_track={BLUE: ("recruit-1",)})
    assert list(RULES.legal_actions(state, BLUE)) == []
    with pytest.raises(RuleViolation) as refused:
        act(state, "play_honor", seat=BLUE, honor="recruit-1")
    assert refused.value.rule == "hotw24.honors.play.not-others-turn"
    with pytest.raises(RuleViolation) as refused:
        act(state, "end_phase", seat=BLUE)
    assert refused.value.rule == "hotw24.turn.current-player-only"


def test_the_current_player_plays_honors_only_at_their_fixed_moments():
    """hotw24.general.honors.who-and-when: not while concluding the turn."""
    state = position(
        {"tigris": army(RED)},
        phase=Phase.CONCLUDE,
        honor_track={RED: ("recruit-1",)},
        area_tokens={RED: ("china-1",)},
    )
    with pytest.raises(RuleViolation) as refused:
        act(state, "play_honor", honor="recruit-1")
    assert refused.value.rule == "hotw24.honors.play.not-others-turn"
    assert refused.value.context["cites"] == ["hotw24.general.honors.who-and-when"]
