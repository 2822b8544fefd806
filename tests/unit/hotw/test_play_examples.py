"""The rulebook's play examples 1-9, each on a position built for it."""

from __future__ import annotations

import pytest

from domain.hotw.editions.hotw_2024.cards import Building, Phase
from domain.hotw.editions.hotw_2024.events import (
    BuildingPlaced,
    BuildingReduced,
    GoldCollected,
    HonorAwarded,
    InvasionFrustrated,
    InvasionSucceeded,
    MonumentsDue,
)
from domain.hotw.editions.hotw_2024.model import Control
from domain.hotw.editions.hotw_2024.revenue import (
    census,
    has_dominance,
    has_mastery,
    has_presence,
    land_gold,
)
from tests.support.hotw import (
    BLUE,
    PACK,
    RED,
    act,
    army,
    empty,
    garrison,
    of_type,
    position,
)

SEA = "south-east-asia"


def cited(gold_and_rule: tuple[int, str]) -> tuple[int, str]:
    """A revenue level's gold with the rule that decided it."""
    return gold_and_rule


@pytest.mark.rulebook_example("hotw24.example.1")
def test_a_higher_empire_score_takes_tigris_example_1():
    """hotw24.example.1: Red rolls two dice (best 4), Blue one (2): the invasion succeeds."""
    state = position({"euphrates": army(RED), "tigris": garrison(BLUE)}, people=1)
    events, after = act(state, "place_army", dice=[4, 1, 2], land="tigris")
    (success,) = of_type(events, InvasionSucceeded)
    assert success.rule == "hotw24.invasion.dice.succeeds"
    assert (success.empire_dice, success.enemy_dice) == ((4, 1), (2,))
    assert (
        len(success.draws) == 3
    )  # hotw24.invasion.dice.empire-roll, hotw24.invasion.dice.enemy-roll
    assert after.control_of("tigris", RED) is Control.EMPIRE
    assert (
        after.players[BLUE].supply == state.players[BLUE].supply + 1
    )  # hotw24.general.remove-to-supply


@pytest.mark.rulebook_example("hotw24.example.2")
def test_tie_in_difficult_terrain_frustrates_the_invasion_example_2():
    """hotw24.example.2: Blue rolls a second die for the fort in Zagros and ties Red; Zagros is
    mountains, so both pieces go, the fort goes and the capital becomes a city, Blue gains an
    Honor."""
    state = position({"tigris": army(RED), "zagros": garrison(BLUE, "capital", "fort")}, people=1)
    events, after = act(state, "place_army", dice=[5, 2, 3, 5], land="zagros")
    (frustrated,) = of_type(events, InvasionFrustrated)
    assert frustrated.rule == "hotw24.invasion.dice.tie-terrain"
    assert frustrated.enemy_dice == (3, 5)
    assert frustrated.cites == (
        "hotw24.invasion.dice.empire-roll",
        "hotw24.invasion.dice.enemy-roll",
        "hotw24.forts.purpose",
        "hotw24.expand.outcome.invasion",
        "hotw24.general.land.enemy",
        "hotw24.general.remove-to-supply",
    )  # the fort's second die decided the tie as much as the terrain did
    assert after.control_of("zagros", RED) is Control.UNCONTROLLED
    (reduced,) = of_type(events, BuildingReduced)
    assert reduced.rule == "hotw24.invasion.building-reduction"
    assert reduced.cites == (
        "hotw24.building-reduction.fort-first",
        "hotw24.building-reduction.one-step",
        "hotw24.buildings.remove-to-supply",
    )
    assert after.land("zagros").buildings == {Building.CITY}  # hotw24.building-reduction.fort-first
    (honor,) = of_type(events, HonorAwarded)
    assert (honor.seat, honor.rule) == (BLUE, "hotw24.honors.award.frustrated")
    assert honor.honor in after.players[BLUE].honor_track


def test_a_tie_in_clear_terrain_succeeds():
    state = position({"euphrates": army(RED), "tigris": garrison(BLUE)}, people=1)
    events, _after = act(state, "place_army", dice=[3, 3, 3], land="tigris")
    assert of_type(events, InvasionSucceeded)[0].rule == "hotw24.invasion.dice.tie-terrain"


def test_a_higher_enemy_score_frustrates():
    state = position({"euphrates": army(RED), "tigris": garrison(BLUE)}, people=1)
    events, _ = act(state, "place_army", dice=[3, 2, 6], land="tigris")
    assert of_type(events, InvasionFrustrated)[0].rule == "hotw24.invasion.dice.frustrated"


def test_the_leader_rolls_a_third_die_for_the_rest_of_the_phase():
    """hotw24.invasion.dice.leader: three red dice in this and every later invasion."""
    state = position(
        {
            "tigris": army(RED),
            "zagros": garrison(BLUE, "capital", "fort"),
            "persia": garrison(BLUE),
        },
        people=2,
    )
    events, state = act(state, "use_leader")
    assert events[0].rule == "hotw24.invasion.dice.leader"
    events, state = act(state, "place_army", dice=[1, 2, 6, 5, 5], land="zagros")
    assert of_type(events, InvasionSucceeded)[0].empire_dice == (1, 2, 6)
    events, state = act(state, "place_army", dice=[1, 1, 4, 3], land="persia")
    assert of_type(events, InvasionSucceeded)[0].empire_dice == (1, 1, 4)


@pytest.mark.rulebook_example("hotw24.example.3")
def test_without_dice_clear_terrain_and_no_fort_succeeds_example_3():
    """hotw24.example.3."""
    state = position({"euphrates": army(RED), "tigris": garrison(BLUE)}, people=1, dice=False)
    events, after = act(state, "place_army", land="tigris")
    (success,) = of_type(events, InvasionSucceeded)
    assert success.rule == "hotw24.invasion.no-dice.succeeds"
    assert success.draws == ()
    assert after.control_of("tigris", RED) is Control.EMPIRE


@pytest.mark.rulebook_example("hotw24.example.4")
def test_without_dice_difficult_terrain_frustrates_example_4():
    """hotw24.example.4: both pieces removed, reduction, Blue gains an Honor."""
    state = position(
        {"tigris": army(RED), "zagros": garrison(BLUE, "capital")}, people=1, dice=False
    )
    events, after = act(state, "place_army", land="zagros")
    assert of_type(events, InvasionFrustrated)[0].rule == "hotw24.invasion.no-dice.frustrated"
    assert after.land("zagros").buildings == {Building.CITY}
    assert of_type(events, HonorAwarded)[0].seat == BLUE


@pytest.mark.rulebook_example("hotw24.example.4")
def test_a_leader_ignoring_difficult_terrain_wins_zagros_unless_a_fort_is_there_too():
    """hotw24.example.4 and hotw24.invasion.no-dice.leader: the Leader ignores EITHER difficult
    terrain OR forts."""
    plain = position({"tigris": army(RED), "zagros": garrison(BLUE)}, people=1, dice=False)
    _, led = act(plain, "use_leader", ignore="difficult")
    events, _ = act(led, "place_army", land="zagros")
    assert of_type(events, InvasionSucceeded)[0].rule == "hotw24.invasion.no-dice.leader"
    fortified = position(
        {"tigris": army(RED), "zagros": garrison(BLUE, "fort")}, people=1, dice=False
    )
    _, led = act(fortified, "use_leader", ignore="difficult")
    events, _ = act(led, "place_army", land="zagros")
    assert of_type(events, InvasionFrustrated)


@pytest.mark.rulebook_example("hotw24.example.5")
def test_a_pair_of_crowns_builds_a_monument_in_the_start_land_example_5():
    """hotw24.example.5: the Vedic States hold Hindu Kush, Ganges Valley and Ganges Delta."""
    state = position(
        {
            "hindu-kush": army(RED),
            "ganges-valley": army(RED),
            "ganges-delta": army(RED),
        },
        epoch=2,
        card="vedic-states",
    )
    events, after = act(state, "end_phase")
    (due,) = of_type(events, MonumentsDue)
    assert (due.count, due.rule) == (1, "hotw24.monuments.pairs")
    (monument,) = [e for e in of_type(events, BuildingPlaced) if e.building == "monument"]
    assert (monument.land, monument.rule) == ("hindu-kush", "hotw24.monuments.placement")
    assert Building.MONUMENT in after.land("hindu-kush").buildings


def _sea_lands() -> list[str]:
    return sorted(PACK.board.lands_in_area(SEA))


@pytest.mark.rulebook_example("hotw24.example.6")
def test_one_empire_land_in_an_active_area_is_presence_example_6():
    """hotw24.example.6: two gold."""
    (first, *_) = _sea_lands()
    state = position({first: army(RED)}, epoch=3, card="han-dynasty")
    seen = census(PACK.board, state, RED, SEA, standing=True)
    assert has_presence(seen) and not has_dominance(seen)
    assert cited(land_gold(seen, PACK.edition.revenue)) == (2, "hotw24.revenue.presence")
    events, _ = act(state, "end_phase")
    gold = [e for e in of_type(events, GoldCollected) if e.reason == f"lands:{SEA}"]
    assert [(g.amount, g.rule) for g in gold] == [(2, "hotw24.revenue.presence")]


@pytest.mark.rulebook_example("hotw24.example.7")
def test_two_armies_outnumbering_blue_and_red_garrisons_is_dominance_example_7():
    """hotw24.example.7: four gold."""
    first, second, third, *_ = _sea_lands()
    state = position(
        {first: army(RED), second: army(RED), third: garrison(BLUE)}, epoch=3, card="han-dynasty"
    )
    seen = census(PACK.board, state, RED, SEA, standing=True)
    assert has_dominance(seen) and not has_mastery(seen)
    assert cited(land_gold(seen, PACK.edition.revenue)) == (4, "hotw24.revenue.dominance")


def test_dominance_needs_more_empire_lands_than_friendly_lands():
    first, second, third, fourth, *_ = _sea_lands()
    state = position(
        {first: army(RED), second: army(RED), third: garrison(RED), fourth: garrison(RED)},
        epoch=3,
        card="han-dynasty",
    )
    assert (
        land_gold(census(PACK.board, state, RED, SEA, standing=True), PACK.edition.revenue)[0] == 2
    )


@pytest.mark.rulebook_example("hotw24.example.8")
def test_three_empire_lands_alone_in_the_area_is_mastery_example_8():
    """hotw24.example.8: six gold; only the highest level pays (hotw24.revenue.lands.per-area)."""
    first, second, third, *_ = _sea_lands()
    state = position(
        {first: army(RED), second: army(RED), third: army(RED)}, epoch=3, card="han-dynasty"
    )
    assert cited(
        land_gold(census(PACK.board, state, RED, SEA, standing=True), PACK.edition.revenue)
    ) == (
        6,
        "hotw24.revenue.mastery",
    )


@pytest.mark.rulebook_example("hotw24.example.9")
def test_a_south_america_token_over_three_friendly_lands_pays_nine_example_9():
    """hotw24.example.9: capital 2 + monument 1 + mastery 6; the token is then spent."""
    state = position(
        {
            "peru": garrison(RED, "capital"),
            "brazil": garrison(RED, "monument"),
            "pampas": garrison(RED),
        },
        epoch=4,
        card="incas-aztecs",
        phase=Phase.CONCLUDE,
        area_tokens={RED: ("south-america-1",)},
    )
    events, after = act(state, "play_area_token", token="south-america-1")
    gold = of_type(events, GoldCollected)[:2]
    assert [(g.amount, g.rule) for g in gold] == [
        (3, "hotw24.conclude.area-tokens"),
        (6, "hotw24.revenue.mastery"),
    ]
    assert after.players[RED].gold == state.players[RED].gold + 9 + (
        1 if of_type(events, GoldCollected)[2:] else 0
    )
    assert "south-america-1" not in after.players[RED].area_tokens
    assert events[0].rule == "hotw24.conclude.area-token-spent"


def test_an_uncontrolled_land_is_simply_taken_without_reduction():
    """hotw24.expand.outcome.uncontrolled and hotw24.building-reduction.uncontrolled."""
    state = position({"euphrates": army(RED), "tigris": empty("capital")}, people=1)
    events, after = act(state, "place_army", land="tigris")
    assert events[0].rule == "hotw24.building-reduction.uncontrolled"
    assert events[0].cites == (
        "hotw24.expand.outcome.uncontrolled",
        "hotw24.general.land.uncontrolled",
    )
    assert after.land("tigris").buildings == {Building.CAPITAL}
