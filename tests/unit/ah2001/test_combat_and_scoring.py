"""The Avalon Hill 2001 combat and scoring rules, reproducing the rulebook's examples with their
own dice (Chapter V and VI)."""

from __future__ import annotations

import pytest

from domain.hotw.editions.ah2001.combat import (
    Approach,
    Edge,
    Result,
    Via,
    attack_dice,
    defence_dice,
    fight_round,
)
from domain.hotw.editions.ah2001.sack import sacked
from domain.hotw.editions.ah2001.scoring import Level, level_in_area, turn_score
from domain.hotw.editions.ah2001.tables import Ah2001Tables

NO_EDGE = Edge()
OVERLAND = Approach(Via.LAND)
CLEAR: frozenset[str] = frozenset()


@pytest.mark.rulebook_example("ah2001.example.romans-repeated-attack")
def test_the_romans_lose_3_to_4_attack_again_and_tie_5_to_5_emptying_the_land(
    tables: Ah2001Tables,
) -> None:
    """ah2001.example.romans-repeated-attack."""
    assert defence_dice(tables.combat, CLEAR, OVERLAND, NO_EDGE) == (1, "ah2001.combat.dice")
    first = fight_round(tables.combat, (1, 3), (4,), frozenset(), NO_EDGE)
    assert (first.attack, first.defence, first.result) == (3, 4, Result.ATTACKER_LOST)
    second = fight_round(tables.combat, (5, 5), (5,), frozenset(), NO_EDGE)
    assert second.result is Result.BOTH_LOST and "ah2001.combat.tie" in second.rules


@pytest.mark.rulebook_example("ah2001.example.guptas-four-battles")
def test_the_guptas_defenders_roll_one_two_two_and_one_dice(tables: Ah2001Tables) -> None:
    """ah2001.example.guptas-four-battles: Eastern Ghats (clear), Ceylon across a strait,
    Western Ghats in the mountains, Ganges Delta from the forest of Eastern Deccan (difficult
    terrain in the attacker's land gives the defender nothing)."""
    assert defence_dice(tables.combat, CLEAR, OVERLAND, NO_EDGE)[0] == 1
    assert defence_dice(tables.combat, CLEAR, Approach(Via.LAND, strait=True), NO_EDGE) == (
        2,
        "ah2001.expand.straits",
    )
    assert defence_dice(tables.combat, frozenset({"mountains"}), OVERLAND, NO_EDGE) == (
        2,
        "ah2001.combat.difficult-terrain",
    )
    assert defence_dice(tables.combat, CLEAR, OVERLAND, NO_EDGE)[0] == 1


@pytest.mark.rulebook_example("ah2001.example.british-sea-attack")
def test_the_british_landing_from_the_sea_faces_three_dice_and_wins_the_second_attempt(
    tables: Ah2001Tables,
) -> None:
    """ah2001.example.british-sea-attack."""
    from_sea = Approach(Via.SEA)
    assert defence_dice(tables.combat, CLEAR, from_sea, NO_EDGE) == (3, "ah2001.combat.from-sea")
    assert (
        fight_round(tables.combat, (2, 4), (1, 1, 5), frozenset(), NO_EDGE).result
        is Result.ATTACKER_LOST
    )
    assert (
        fight_round(tables.combat, (6, 3), (2, 2, 4), frozenset(), NO_EDGE).result
        is Result.DEFENDER_LOST
    )
    assert defence_dice(tables.combat, CLEAR, from_sea, Edge(naval_power=True))[0] == 2


@pytest.mark.rulebook_example("ah2001.example.mongols-great-wall")
def test_the_mongols_take_wei_river_behind_the_great_wall_a_fort_and_a_capital(
    tables: Ah2001Tables,
) -> None:
    """ah2001.example.mongols-great-wall: a Leader's three dice against two dice (the Great
    Wall) and +1 for the fort: 6 v 7 loses; 5 v 5 ties, the fort goes with the Mongol army;
    6 v 5 wins, and the capital becomes a city."""
    mongols = Edge(leader=True)
    assert attack_dice(tables.combat, mongols) == (3, "ah2001.events.leader")
    wall = Approach(Via.LAND, great_wall=True)
    assert defence_dice(tables.combat, CLEAR, wall, mongols)[0] == 2
    wei_river = frozenset({"capital", "fort"})
    first = fight_round(tables.combat, (4, 6, 6), (1, 6), wei_river, mongols)
    assert (first.attack, first.defence, first.result) == (6, 7, Result.ATTACKER_LOST)
    second = fight_round(tables.combat, (2, 4, 5), (3, 4), wei_river, mongols)
    assert (second.attack, second.defence, second.result) == (5, 5, Result.FORT_AND_ATTACKER_LOST)
    third = fight_round(tables.combat, (1, 2, 6), (2, 5), frozenset({"capital"}), mongols)
    assert third.result is Result.DEFENDER_LOST
    assert sacked(frozenset({"capital"})) == {"city"}


def test_a_leader_dies_on_triples_and_expert_troops_cross_their_terrain_freely(
    tables: Ah2001Tables,
) -> None:
    assert fight_round(tables.combat, (4, 4, 4), (2,), frozenset(), Edge(leader=True)).leader_killed
    assert not fight_round(
        tables.combat, (4, 4, 5), (2,), frozenset(), Edge(leader=True)
    ).leader_killed
    experts = Edge(expert=frozenset({"mountains"}))
    assert defence_dice(tables.combat, frozenset({"mountains"}), OVERLAND, experts) == (
        1,
        "ah2001.events.expert-troops",
    )


def test_elite_troops_win_ties_and_siegecraft_takes_fort_and_army_together(
    tables: Ah2001Tables,
) -> None:
    assert fight_round(
        tables.combat, (3, 5), (5,), frozenset(), Edge(elite_troops=True)
    ).result is (Result.DEFENDER_LOST)
    siege = fight_round(tables.combat, (5, 2), (4,), frozenset({"fort"}), Edge(siegecraft=True))
    assert (siege.attack, siege.defence, siege.result) == (6, 5, Result.FORT_AND_DEFENDER_LOST)


def test_a_city_is_sacked_and_monuments_stay() -> None:
    assert sacked(frozenset({"city", "monument"})) == {"monument"}


def test_levels_of_control_follow_chapter_six() -> None:
    assert level_in_area(1, [3]) is Level.PRESENCE
    assert level_in_area(2, [3]) is Level.PRESENCE  # purple in the Middle East
    assert level_in_area(2, [1]) is Level.DOMINANCE
    assert level_in_area(3, []) is Level.CONTROL
    assert level_in_area(3, [1]) is Level.DOMINANCE


@pytest.mark.rulebook_example("ah2001.example.purple-scoring")
def test_the_purple_player_scores_eighteen_after_epoch_two(tables: Ah2001Tables) -> None:
    """ah2001.example.purple-scoring (with the Epoch II values: see its reading)."""
    purple, other = 0, 1
    area_of = {
        "nile-delta": "north-africa",
        "libya": "north-africa",
        "palestine": "middle-east",
        "persian-plateau": "middle-east",
        "upper-tigris": "middle-east",
        "middle-tigris": "middle-east",
        "zagros": "middle-east",
        "upper-indus": "india",
        "western-deccan": "india",
        "eastern-ghats": "india",
        "hindu-kush": "india",
    }
    armies = {land: purple for land in area_of}
    armies |= {"upper-tigris": other, "middle-tigris": other, "zagros": other}
    buildings = {"nile-delta": ["capital"], "upper-indus": ["capital", "monument"]}
    points = turn_score(tables.victory_points, 2, purple, armies, area_of, buildings)
    assert points == {"north-africa": 4, "middle-east": 3, "india": 6, "buildings": 5}
    assert sum(points.values()) == 18


def test_the_minoan_player_draws_before_the_egyptian_on_equal_points() -> None:
    """Chapter VII's examples: 8 points each, the Minoans (3) drew before Egypt (5); with equal
    strengths, Egypt (earlier in the epoch) before the Aryans."""
    from domain.hotw.editions.ah2001.pre_eminence import Record, draw_order

    egypt, minoans, leader = Record(8, (5,), (2,)), Record(8, (3,), (3,)), Record(20, (4,), (1,))
    assert draw_order([egypt, minoans, leader]) == (1, 0, 2)
    aryans = Record(8, (5,), (7,))
    assert draw_order([aryans, egypt]) == (1, 0)


def test_only_a_sole_leader_is_pre_eminent() -> None:
    from domain.hotw.editions.ah2001.pre_eminence import pre_eminent

    assert pre_eminent([10, 14, 9]) == 1
    assert pre_eminent([14, 14, 9]) is None


def test_tied_players_compare_strengths_then_pre_eminence_then_epoch_seven() -> None:
    from domain.hotw.editions.ah2001.pre_eminence import Record, final_ranking

    weaker = Record(90, (5, 6, 8, 10, 7, 8, 10), pre_eminence=4)
    stronger = Record(90, (5, 6, 8, 10, 7, 8, 16), pre_eminence=9)
    assert final_ranking([stronger, weaker, Record(95)]) == ((2,), (1,), (0,))
    same = Record(90, (5, 6, 8, 10, 7, 8, 10), pre_eminence=3)
    assert final_ranking([same, weaker]) == ((1,), (0,))
    assert final_ranking([weaker, weaker]) == ((0, 1),)


def test_a_fort_adds_the_packs_bonus_to_the_defenders_kept_die(tables: Ah2001Tables) -> None:
    """ah2001.combat.fort: "a fort adds one" is read from play.yaml, not written in Python."""
    import dataclasses

    fort = frozenset({"fort"})
    assert (
        fight_round(tables.combat, (5, 1), (4,), fort, NO_EDGE).result
        is Result.FORT_AND_ATTACKER_LOST
    )
    doubled = dataclasses.replace(tables.combat, fort_bonus=2)
    assert fight_round(doubled, (5, 1), (4,), fort, NO_EDGE).result is Result.ATTACKER_LOST
