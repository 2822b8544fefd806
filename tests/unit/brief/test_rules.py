"""The pure rules of A Brief History of the World: invasion dice and points, reduction, gold
along the spiral, and the Gold track's stacks."""

from __future__ import annotations

import pytest

from domain.hotw.editions.brief2009.gold import collection, separated
from domain.hotw.editions.brief2009.invasion import (
    attack_dice,
    defence_dice,
    invasion_points,
    points_needed,
    reduce,
)
from domain.hotw.editions.brief2009.tables import BriefTables
from packs.brief import load_tables


@pytest.fixture(scope="module")
def tables() -> BriefTables:
    """The Brief tables, loaded and checked once for this file's tests (not at import)."""
    return load_tables()[0]


def test_the_attacker_rolls_two_dice_and_one_fewer_with_a_fleet(tables: BriefTables):
    assert attack_dice(tables.numbers, by_sea=False, weaponry=False) == 2
    assert attack_dice(tables.numbers, by_sea=True, weaponry=False) == 1


def test_weaponry_adds_an_attacking_die(tables: BriefTables):
    assert attack_dice(tables.numbers, by_sea=False, weaponry=True) == 3
    assert attack_dice(tables.numbers, by_sea=True, weaponry=True) == 2


def test_the_defender_rolls_one_die_and_two_in_a_fort(tables: BriefTables):
    assert defence_dice(tables.numbers, fort=False) == 1
    assert defence_dice(tables.numbers, fort=True) == 2


def test_only_the_highest_die_counts_and_the_points_are_the_difference():
    assert invasion_points((2, 5), (3,), 0) == 2
    assert invasion_points((1, 3), (4, 6), 0) == 0  # never negative
    assert invasion_points((3, 3), (3,), 2) == 2  # the dial (+2) added to the attacker


@pytest.mark.parametrize(("terrain", "needed"), [("clear", 1), ("mountains", 2), ("forest", 2)])
def test_one_point_takes_clear_land_and_two_mountain_or_forest(
    terrain, needed, tables: BriefTables
):
    assert points_needed(tables.numbers, terrain) == needed


def test_taking_a_capital_leaves_a_city():
    reduction = reduce({"capital"}, spare_monument=False)
    assert reduction.buildings == {"city"} and reduction.reductions == 1
    assert reduction.removed == ()


def test_taking_a_city_removes_it_and_a_monument_alone_goes_too():
    assert reduce({"city"}, spare_monument=False).buildings == frozenset()
    monument = reduce({"monument"}, spare_monument=False)
    assert monument.buildings == frozenset() and monument.removed == ("monument",)


def test_with_a_capital_or_city_and_a_monument_only_the_capital_or_city_is_reduced():
    assert reduce({"capital", "monument"}, spare_monument=False).buildings == {"city", "monument"}
    city = reduce({"city", "monument"}, spare_monument=False)
    assert city.buildings == {"monument"} and city.reductions == 1
    assert "brief.reduction.capital-before-monument" in city.rules


def test_a_fort_is_always_removed_and_is_no_reduction():
    reduction = reduce({"fort", "capital"}, spare_monument=False)
    assert reduction.buildings == {"city"} and reduction.removed == ("fort",)
    assert reduction.reductions == 1


def test_frances_monuments_are_not_reduced():
    reduction = reduce({"monument", "fort"}, spare_monument=True)
    assert reduction.buildings == {"monument"} and reduction.reductions == 0


def test_gold_is_two_a_capital_one_a_city_and_monument_then_area_levels_along_the_spiral(
    tables: BriefTables,
):
    armies = {
        "tigris": 0,  # Middle East: presence, dominance or mastery
        "euphrates": 0,
        "zagros": 0,
        "greece": 0,  # Southern Europe: presence against one rival army
        "italia": 1,
        "lower-egypt": 0,  # North Africa: 2 against 2 - presence only
        "libya": 0,
        "numidia": 1,
        "mauretania": 1,
    }
    buildings = {"tigris": frozenset({"capital", "monument"}), "greece": frozenset({"city"})}
    areas = {land: tables.board.lands[land].area for land in armies}
    values = {"middle-east": 3, "southern-europe": 2, "north-africa": 1}
    items = collection(0, armies, buildings, areas, tables.spiral, values, tables.numbers.gold)
    assert items == [
        ("capital", 2),
        ("city", 1),
        ("monument", 1),
        ("southern-europe", 2),  # presence: once the value
        ("north-africa", 1),  # two armies, not more than the rival's two: presence
        ("middle-east", 9),  # three armies and nobody else: mastery, three times
    ]


def test_dominance_pays_twice_the_value(tables: BriefTables):
    armies = {"tigris": 0, "euphrates": 0, "zagros": 1}
    areas = {land: "middle-east" for land in armies}
    items = collection(0, armies, {}, areas, tables.spiral, {"middle-east": 3}, tables.numbers.gold)
    assert items == [("middle-east", 6)]


def test_an_area_without_a_value_tile_pays_nothing(tables: BriefTables):
    armies = {"tigris": 0}
    items = collection(
        0, armies, {}, {"tigris": "middle-east"}, tables.spiral, {}, tables.numbers.gold
    )
    assert items == []


def test_stacked_markers_move_forward_top_first_from_the_lowest_space():
    golds = [5, 5, 6, 9, 9, 9]
    arrived = [1, 2, 3, 4, 6, 5]  # colour 1 lies on colour 0; colour 4 tops the stack on 9
    moves = separated(golds, arrived)
    assert moves == [(1, 5, 7), (4, 9, 10), (5, 9, 11)]


def test_markers_alone_on_their_spaces_stay():
    assert separated([3, 7, 1], [1, 2, 3]) == []
