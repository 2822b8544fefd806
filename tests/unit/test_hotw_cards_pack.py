"""The cards, Honors, pieces and rules catalogue of the hotw-2024 data pack."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from domain.core.catalogue import RulesCatalogue
from domain.hotw.board import Board, PowerIcon, WaterKind
from domain.hotw.editions.hotw_2024.cards import (
    EFFECT_KINDS,
    AddPeople,
    Building,
    Cards,
    CollectGold,
    Control,
    EventKind,
    Phase,
    PlaceArmies,
    PlaceBuildings,
    PlaceFleet,
    RemoveBuildings,
    RemoveGarrisons,
    Scope,
)
from packs.base import PackError, PackProblem, load_rules_catalogue, pack_dir
from packs.hotw_board import load_board
from packs.hotw_card_effects import EFFECT_SCHEMAS
from packs.hotw_cards import load_cards

PACK = pack_dir("hotw-2024")
REPO = Path(__file__).resolve().parents[2]
DYNASTIES = ("han-dynasty", "tang-dynasty", "ming-dynasty", "qing-dynasty")


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board(PACK)


@pytest.fixture(scope="module")
def cards(board: Board) -> Cards:
    return load_cards(PACK, board)


@pytest.fixture(scope="module")
def catalogue() -> RulesCatalogue:
    return load_rules_catalogue(PACK / "rules.yaml")


# --- the real pack -------------------------------------------------------------------------


def test_every_epoch_has_enough_empire_cards_for_six_players(cards: Cards) -> None:
    assert sorted(cards.empires_by_epoch) == [1, 2, 3, 4, 5]
    assert all(len(epoch) >= 6 for epoch in cards.empires_by_epoch.values())
    assert {len(epoch) for epoch in cards.empires_by_epoch.values()} == {8}


def test_every_epoch_has_at_least_as_many_events_as_empires(cards: Cards) -> None:
    for epoch, empires in cards.empires_by_epoch.items():
        assert len(cards.events_by_epoch[epoch]) >= len(empires)


def test_empire_cards_of_an_epoch_are_held_in_chronological_order(cards: Cards) -> None:
    for empires in cards.empires_by_epoch.values():
        numbers = [card.number for card in empires]
        assert numbers == sorted(set(numbers))


def test_sumeria_is_played_before_egypt_in_epoch_one(cards: Cards) -> None:
    sumeria, egypt = cards.empire("sumeria"), cards.empire("egypt")
    assert sumeria.epoch == egypt.epoch == 1
    assert sumeria.number == 1 < egypt.number
    assert cards.empires_by_epoch[1][0] is sumeria


def test_vedic_states_show_the_crown_and_start_in_hindu_kush(cards: Cards) -> None:
    vedic = cards.empire("vedic-states")
    assert vedic.empires[0].power_icon is PowerIcon.CROWN
    assert vedic.start_lands == ("hindu-kush",)


def test_han_tang_ming_and_qing_each_bring_two_great_wall_forts(cards: Cards) -> None:
    for dynasty in DYNASTIES:
        assert cards.empire(dynasty).empires[0].great_wall_forts == 2


def test_no_other_empire_has_great_wall_forts(cards: Cards) -> None:
    others = [c for c in cards.all_empires() if c.id not in DYNASTIES]
    assert all(spec.great_wall_forts == 0 for c in others for spec in c.empires)


def test_huns_are_established_in_volga_and_turanian_plain(cards: Cards) -> None:
    assert set(cards.empire("huns").start_lands) == {"volga", "turanian-plain"}


def test_incas_and_aztecs_share_one_card_with_the_incas_played_first(cards: Cards) -> None:
    card = cards.empire_named("Incas & Aztecs")
    assert card.is_double
    assert [spec.name for spec in card.empires] == ["Incas", "Aztecs"]
    assert cards.empire_named("Aztecs") is card
    assert card.people_shown == sum(spec.people for spec in card.empires)


def test_mughals_have_no_ocean_fleet(cards: Cards) -> None:
    mughals = cards.empire("mughals")
    assert mughals.epoch in (4, 5)
    assert mughals.empires[0].fleets == 0


def test_barbarians_never_have_buildings_nor_a_power_icon(cards: Cards) -> None:
    barbarians = [s for c in cards.all_empires() for s in c.empires if s.barbarian]
    assert barbarians
    assert all(not s.starting_buildings and s.power_icon is None for s in barbarians)
    assert not any(s.can_build_monuments for s in barbarians)


def test_every_other_empire_shows_one_of_the_four_power_icons(cards: Cards) -> None:
    civilised = [s for c in cards.all_empires() for s in c.empires if not s.barbarian]
    assert all(isinstance(s.power_icon, PowerIcon) for s in civilised)


def test_an_empire_shows_the_power_icon_of_its_start_land(cards: Cards, board: Board) -> None:
    for card in cards.all_empires():
        for spec in card.empires:
            for land in spec.start_lands:
                icon = board.lands[land].power_icon
                assert icon is None or spec.barbarian or icon is spec.power_icon, card.id


def test_sea_fleets_in_epochs_one_to_three_and_ocean_fleets_in_four_and_five(
    cards: Cards,
) -> None:
    for card in [*cards.all_empires()]:
        for spec in card.empires:
            if spec.fleets:
                ocean = card.epoch >= 4
                assert spec.fleet_kind is (WaterKind.OCEAN if ocean else WaterKind.SEA)
                assert spec.fleets <= (2 if ocean else 1)


def test_every_start_land_is_a_land_of_the_board(cards: Cards, board: Board) -> None:
    starts = [land for card in cards.all_empires() for land in card.start_lands]
    starts += [
        land for event in cards.all_events() if event.pieces for land in event.pieces.start_lands
    ]
    assert starts and all(land in board.lands for land in starts)


def test_ancients_is_an_early_civilisation_played_as_an_empire(cards: Cards) -> None:
    (ancients,) = cards.event_named("Ancients")
    assert ancients.epoch == 1
    assert ancients.kind is EventKind.EMPIRE_LIKE
    assert ancients.pieces is not None and ancients.pieces.power_icon is None
    choice = ancients.pieces.start_land_choice
    assert choice is not None and choice.control is Control.UNCONTROLLED and choice.active_only


def test_events_played_as_empires_never_show_a_power_icon(cards: Cards) -> None:
    as_empires = [e for e in cards.all_events() if e.kind is EventKind.EMPIRE_LIKE]
    assert len(as_empires) >= 5
    assert all(e.pieces and e.pieces.power_icon is None and not e.effects for e in as_empires)
    assert all(e.pieces and e.pieces.barbarian == e.barbarian for e in as_empires)


def test_black_death_removes_every_garrison_of_an_area_and_leaves_buildings(cards: Cards) -> None:
    (black_death,) = cards.event_named("Black Death")
    (effect,) = black_death.effects
    assert isinstance(effect, RemoveGarrisons)
    assert effect.count is None and effect.where.scope is Scope.CHOSEN_AREA
    assert not any(isinstance(e, RemoveBuildings) for e in black_death.effects)


def test_crusades_place_a_fort(cards: Cards) -> None:
    (crusades,) = cards.event_named("Crusades")
    forts = [e for e in crusades.effects if isinstance(e, PlaceBuildings)]
    assert [e.building for e in forts] == [Building.FORT]


def test_establish_cities_places_cities_in_friendly_lands(cards: Cards) -> None:
    copies = cards.event_named("Establish cities")
    assert copies
    for card in copies:
        (effect,) = card.effects
        assert isinstance(effect, PlaceBuildings) and effect.building is Building.CITY
        assert effect.where.control is Control.FRIENDLY


def test_ocean_trade_is_a_later_event_played_in_raise_revenue(cards: Cards) -> None:
    copies = cards.event_named("Ocean trade")
    assert any(card.epoch == cards.empire("incas-aztecs").epoch for card in copies)
    for card in copies:
        assert card.later_event is Phase.REVENUE and card.phase is Phase.REVENUE
        (effect,) = card.effects
        assert isinstance(effect, CollectGold)
        assert effect.where is not None and effect.where.control is Control.EMPIRE


def test_liberate_and_revolution_take_enemy_lands_for_the_current_player(cards: Cards) -> None:
    for name in ("Liberate", "Revolution"):
        for card in cards.event_named(name):
            assert card.kind is EventKind.TEXT
            assert isinstance(card.effects[0], RemoveGarrisons)
            assert card.effects[0].where.control is Control.ENEMY
            assert isinstance(card.effects[-1], PlaceArmies)
            assert card.effects[-1].where.scope is Scope.PREVIOUS


def test_most_events_are_played_in_the_reveal_phase(cards: Cards) -> None:
    events = list(cards.all_events())
    later = [e for e in events if e.later_event is not None]
    assert later and len(later) < len(events) / 2


def test_barbarian_events_exist_in_both_kinds(cards: Cards) -> None:
    kinds = {e.kind for e in cards.all_events() if e.barbarian}
    assert kinds == {EventKind.TEXT, EventKind.EMPIRE_LIKE}


def test_a_player_has_ten_honors_seven_of_them_with_coins(cards: Cards) -> None:
    assert len(cards.honors) == 10
    assert sum(1 for h in cards.honors if h.shows_coins) == 7


def test_recruit_1_shows_one_coin_and_adds_one_people_piece(cards: Cards) -> None:
    recruit = cards.honor("recruit-1")
    assert recruit.coins == 1 and recruit.effect == (AddPeople(1),)


def test_there_are_several_fleet_honors(cards: Cards) -> None:
    fleets = [h for h in cards.honors if any(isinstance(e, PlaceFleet) for e in h.effect)]
    assert len(fleets) >= 2


def test_the_three_honors_without_coins_act_in_revenue_and_in_the_endgame(cards: Cards) -> None:
    coinless = {h.name: h for h in cards.honors if not h.shows_coins}
    assert set(coinless) == {"Buildings bonus", "Lands bonus", "Catastrophe"}
    for honor in coinless.values():
        assert honor.effect and honor.endgame_effect
    bonus = coinless["Lands bonus"].effect[0]
    assert isinstance(bonus, CollectGold) and bonus.where is not None
    assert bonus.where.active_only and bonus.where.control is Control.EMPIRE
    endgame = coinless["Lands bonus"].endgame_effect[0]
    assert isinstance(endgame, CollectGold) and endgame.where is not None
    assert endgame.where.control is Control.FRIENDLY


def test_catastrophe_removes_an_enemy_monument_and_costs_its_owner_one_gold(
    cards: Cards,
) -> None:
    (effect,) = cards.honor("catastrophe").effect
    assert isinstance(effect, RemoveBuildings)
    assert effect.building is Building.MONUMENT and effect.owner_loses_gold == 1
    assert effect.where.control is Control.ENEMY


def test_coin_honors_pay_coins_in_the_endgame_instead_of_an_effect(cards: Cards) -> None:
    assert all(not h.endgame_effect for h in cards.honors if h.shows_coins)


def test_each_player_has_thirty_people_a_leader_and_a_gold_chest(cards: Cards) -> None:
    player = cards.pieces.per_player
    assert (player.people, player.leaders, player.gold_chests, player.honors) == (30, 1, 1, 10)


def test_there_are_exactly_three_great_wall_forts(cards: Cards) -> None:
    assert cards.pieces.shared.great_wall_forts == 3


def test_dice_are_three_red_and_two_white_with_a_third_white_for_option_three(
    cards: Cards,
) -> None:
    dice = cards.pieces.dice
    assert (dice.red, dice.white, dice.option3_extra_white) == (3, 2, 1)
    assert cards.pieces.invasion_modifiers == (2, 4)


def test_the_gold_track_has_a_hundred_spaces_and_wraps(cards: Cards) -> None:
    assert cards.pieces.gold_track_spaces == 100 and cards.pieces.gold_track_wraps
    assert cards.pieces.endgame_spaces == 5


def test_the_supply_can_hold_every_starting_building_of_an_epoch(cards: Cards) -> None:
    for empires in cards.empires_by_epoch.values():
        capitals = sum(
            spec.starting_buildings.count(Building.CAPITAL)
            for card in empires
            for spec in card.empires
        )
        assert capitals <= cards.pieces.shared.count(Building.CAPITAL)


def test_every_effect_kind_of_the_vocabulary_can_be_loaded() -> None:
    assert EFFECT_SCHEMAS.keys() == EFFECT_KINDS


# --- the rules catalogue -------------------------------------------------------------------


def test_the_rules_catalogue_has_one_entry_per_clause(catalogue: RulesCatalogue) -> None:
    assert catalogue.ruleset == "hotw-2024"
    assert 100 <= len(catalogue) <= 200
    assert all(entry.page == "?" or entry.page.isdigit() for entry in catalogue)


def test_catalogue_entries_are_one_line_paraphrases(catalogue: RulesCatalogue) -> None:
    for entry in catalogue:
        assert entry.text and "\n" not in entry.text and entry.section


def test_the_player_count_reading_is_recorded(catalogue: RulesCatalogue) -> None:
    entry = catalogue.get("hotw24.setup.player-count")
    assert entry is not None and "3-6" in entry.reading


def test_the_catalogue_covers_every_chapter_and_every_play_example(
    catalogue: RulesCatalogue,
) -> None:
    prefixes = (
        "setup", "organization", "turn", "reveal", "establish", "expand", "invasion", "leader",
        "building-reduction", "forts", "plunder", "monuments", "revenue", "conclude", "endgame",
        "winning", "events", "empires", "fleets", "honors", "buildings", "option1", "option2",
        "option3", "option4",
    )  # fmt: skip
    chapters = {entry.id.split(".")[1] for entry in catalogue}
    assert set(prefixes) <= chapters
    assert {f"hotw24.example.{n}" for n in range(1, 11)} <= set(catalogue.entries)


def test_every_rule_id_cited_by_the_card_code_is_in_the_catalogue(
    catalogue: RulesCatalogue,
) -> None:
    sources = [REPO / "domain/hotw/editions/hotw_2024/cards.py", *REPO.glob("packs/hotw_card*.py")]
    sources += [
        PACK / name for name in ("empires.yaml", "events.yaml", "honors.yaml", "facts.yaml")
    ]
    cited = {
        rule_id.rstrip(".")
        for path in sources
        for rule_id in re.findall(r"hotw24\.[a-z0-9.-]+", path.read_text(encoding="utf-8"))
    }
    assert cited and cited <= set(catalogue.entries)


# --- a broken pack -------------------------------------------------------------------------


@pytest.fixture
def broken_pack(tmp_path: Path) -> Path:
    target = tmp_path / "hotw-2024"
    shutil.copytree(PACK, target)
    return target


def mutate(pack: Path, file: str, change: Callable[[Any], None]) -> None:
    path = pack / file
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def entry(data: Any, section: str, entry_id: str) -> dict[str, Any]:
    return next(e for e in data[section] if e["id"] == entry_id)


def problems_of(load: Callable[[], object]) -> list[PackProblem]:
    with pytest.raises(PackError) as caught:
        load()
    return list(caught.value.problems)


def has_problem(problems: list[PackProblem], file: str, entry: str, field: str) -> bool:
    return any((p.file, p.entry, p.field) == (file, entry, field) for p in problems)


def test_an_unknown_field_is_rejected_naming_file_entry_and_field(
    broken_pack: Path, board: Board
) -> None:
    mutate(
        broken_pack, "empires.yaml", lambda d: entry(d, "empires", "egypt").update(leader="Zoser")
    )
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert [(p.file, p.entry, p.field) for p in problems] == [("empires.yaml", "egypt", "leader")]
    assert "Unknown field" in problems[0].message


def test_a_start_land_that_is_not_on_the_board_is_rejected(broken_pack: Path, board: Board) -> None:
    mutate(
        broken_pack,
        "empires.yaml",
        lambda d: entry(d, "empires", "sumeria").update(start_lands=["atlantis"]),
    )
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "empires.yaml", "sumeria", "start_lands[0]")
    assert "atlantis" in str(problems[0])


def test_a_start_land_in_a_wasteland_is_rejected(broken_pack: Path, board: Board) -> None:
    mutate(
        broken_pack,
        "events.yaml",
        lambda d: entry(d, "events", "hyksos")["pieces"].update(start_lands=["sahara"]),
    )
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "events.yaml", "hyksos", "pieces.start_lands[0]")
    assert "wasteland" in problems[0].message


def test_a_barbarian_with_a_building_is_rejected(broken_pack: Path, board: Board) -> None:
    mutate(
        broken_pack,
        "empires.yaml",
        lambda d: entry(d, "empires", "mongols").update(starting_buildings=["capital"]),
    )
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "empires.yaml", "mongols", "starting_buildings")


def test_a_barbarian_with_a_power_icon_is_rejected(broken_pack: Path, board: Board) -> None:
    mutate(
        broken_pack,
        "empires.yaml",
        lambda d: entry(d, "empires", "huns").update(power_icon="sword"),
    )
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "empires.yaml", "huns", "power_icon")


def test_an_ocean_fleet_in_epoch_two_is_rejected(broken_pack: Path, board: Board) -> None:
    mutate(
        broken_pack,
        "empires.yaml",
        lambda d: entry(d, "empires", "carthage").update(fleet_kind="ocean"),
    )
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert [(p.file, p.entry, p.field) for p in problems] == [
        ("empires.yaml", "carthage", "fleet_kind")
    ]


def test_two_sea_fleets_on_an_epoch_one_card_are_rejected(broken_pack: Path, board: Board) -> None:
    mutate(broken_pack, "empires.yaml", lambda d: entry(d, "empires", "egypt").update(fleets=2))
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "empires.yaml", "egypt", "fleets")


def test_mughals_with_an_ocean_fleet_are_rejected(broken_pack: Path, board: Board) -> None:
    mutate(
        broken_pack,
        "empires.yaml",
        lambda d: entry(d, "empires", "mughals").update(fleets=1, fleet_kind="ocean"),
    )
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "empires.yaml", "mughals", "fleets")


def test_huns_with_one_start_land_are_rejected(broken_pack: Path, board: Board) -> None:
    mutate(
        broken_pack,
        "empires.yaml",
        lambda d: entry(d, "empires", "huns").update(start_lands=["volga"]),
    )
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "empires.yaml", "huns", "start_lands")


def test_too_few_empires_in_an_epoch_are_rejected(broken_pack: Path, board: Board) -> None:
    def drop_three(data: Any) -> None:
        data["empires"] = [
            e for e in data["empires"] if e["id"] not in {"minoans", "hittites", "babylonia"}
        ]

    mutate(broken_pack, "empires.yaml", drop_three)
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "empires.yaml", "", "empires")


def test_a_power_icon_on_an_event_is_rejected(broken_pack: Path, board: Board) -> None:
    mutate(
        broken_pack,
        "events.yaml",
        lambda d: entry(d, "events", "safavids")["pieces"].update(power_icon="crown"),
    )
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "events.yaml", "safavids", "pieces.power_icon")


def test_an_unknown_effect_kind_is_rejected(broken_pack: Path, board: Board) -> None:
    mutate(
        broken_pack,
        "events.yaml",
        lambda d: entry(d, "events", "trade-1")["effects"][0].update(kind="earthquake"),
    )
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "events.yaml", "trade-1", "effects.0.kind")


def test_an_effect_naming_an_unknown_area_is_rejected(broken_pack: Path, board: Board) -> None:
    mutate(
        broken_pack,
        "events.yaml",
        lambda d: entry(d, "events", "crusades")["effects"][0]["where"].update(areas=["levant"]),
    )
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "events.yaml", "crusades", "effects[0].where.areas[0]")


def test_a_missing_text_named_event_is_rejected(broken_pack: Path, board: Board) -> None:
    def drop_black_death(data: Any) -> None:
        data["events"] = [e for e in data["events"] if e["name"] != "Black Death"]

    mutate(broken_pack, "events.yaml", drop_black_death)
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "events.yaml", "Black Death", "name")


def test_nine_honors_are_rejected(broken_pack: Path, board: Board) -> None:
    def drop_one(data: Any) -> None:
        data["honors"] = [h for h in data["honors"] if h["id"] != "recruit-3"]

    mutate(broken_pack, "honors.yaml", drop_one)
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert has_problem(problems, "honors.yaml", "", "honors")
    assert any("found 9" in p.message for p in problems)


def test_a_fourth_great_wall_fort_is_rejected(broken_pack: Path, board: Board) -> None:
    mutate(broken_pack, "pieces.yaml", lambda d: d["shared"].update(great_wall_forts=4))
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert [(p.file, p.entry, p.field) for p in problems] == [
        ("pieces.yaml", "shared", "great_wall_forts")
    ]


def test_a_duplicate_rule_id_is_rejected(broken_pack: Path) -> None:
    def duplicate(data: Any) -> None:
        data["rules"].append(dict(data["rules"][0], text="Another clause."))

    mutate(broken_pack, "rules.yaml", duplicate)
    problems = problems_of(lambda: load_rules_catalogue(broken_pack / "rules.yaml"))
    assert [(p.file, p.entry, p.field) for p in problems] == [
        ("rules.yaml", "hotw24.intro.goal", "id")
    ]


def test_a_rule_entry_without_a_page_is_rejected(broken_pack: Path) -> None:
    mutate(broken_pack, "rules.yaml", lambda d: d["rules"][0].pop("page"))
    problems = problems_of(lambda: load_rules_catalogue(broken_pack / "rules.yaml"))
    assert has_problem(problems, "rules.yaml", "hotw24.intro.goal", "page")


def test_every_problem_of_a_pack_is_reported_together(broken_pack: Path, board: Board) -> None:
    mutate(broken_pack, "empires.yaml", lambda d: entry(d, "empires", "egypt").update(fleets=2))
    mutate(broken_pack, "honors.yaml", lambda d: d["honors"].pop())
    problems = problems_of(lambda: load_cards(broken_pack, board))
    assert {p.file for p in problems} == {"empires.yaml", "honors.yaml"}


# --- the rule text's facts (facts.yaml) ----------------------------------------------------


def drop(section: str, ids: set[str]) -> Callable[[Any], None]:
    def change(data: Any) -> None:
        data[section] = [e for e in data[section] if e["id"] not in ids]

    return change


def recruit_2_without_coins(data: Any) -> None:
    endgame = [{"kind": "collect_gold", "amount": 1, "per": "flat"}]
    entry(data, "honors", "recruit-2").update(coins=0, endgame_effect=endgame)


def aztecs_with_three_fleets(data: Any) -> None:
    entry(data, "empires", "incas-aztecs")["empires"][1].update(fleets=3, fleet_kind="ocean")


CARD_FACT_BREAKS: list[tuple[str, str, Callable[[Any], None], tuple[str, str, str, str], str]] = [
    (
        "count",
        "honors.yaml",
        drop("honors", {"recruit-3"}),
        ("honors.yaml", "", "honors", "ten-honors-a-player"),
        "expected exactly 10 entries, found 9",
    ),
    (
        "count, where",
        "honors.yaml",
        recruit_2_without_coins,
        ("honors.yaml", "", "honors", "seven-honors-show-coins"),
        "expected exactly 7 entries, found 6",
    ),
    (
        "count, per",
        "empires.yaml",
        drop("empires", {"minoans", "hittites", "babylonia"}),
        ("empires.yaml", "", "empires", "six-empire-cards-an-epoch"),
        "epoch 1: expected at least 6 entries, found 5",
    ),
    (
        "count, per, against a count",
        "events.yaml",
        drop("events", {"tribute-2"}),
        ("events.yaml", "", "events", "an-event-for-every-empire"),
        "epoch 2: expected at least 8 entries (the entries of empires.yaml), found 7",
    ),
    (
        "each",
        "empires.yaml",
        lambda d: entry(d, "empires", "egypt").update(fleets=2),
        ("empires.yaml", "egypt", "fleets", "at-most-one-sea-fleet"),
        "is 2, the fact wants at most 1",
    ),
    (
        "each, unnest",
        "empires.yaml",
        aztecs_with_three_fleets,
        ("empires.yaml", "incas-aztecs", "empires[1].fleets", "at-most-two-ocean-fleets"),
        "is 3, the fact wants at most 2",
    ),
    (
        "each, whole file",
        "pieces.yaml",
        lambda d: d["dice"].update(red=4),
        ("pieces.yaml", "dice", "red", "dice"),
        "is 4, the fact wants 3",
    ),
    (
        "named, missing",
        "events.yaml",
        lambda d: entry(d, "events", "black-death").update(name="Plague"),
        ("events.yaml", "Black Death", "name", "black-death"),
        "not found",
    ),
    (
        "named, has",
        "empires.yaml",
        lambda d: entry(d, "empires", "huns").update(start_lands=["volga"]),
        ("empires.yaml", "huns", "start_lands", "huns-two-start-lands"),
        "is ['volga'], the fact wants ['volga', 'turanian-plain'] in any order",
    ),
    (
        "named, path through a list",
        "empires.yaml",
        lambda d: entry(d, "empires", "incas-aztecs")["empires"].reverse(),
        ("empires.yaml", "incas-aztecs", "empires.name", "incas-then-aztecs"),
        "is ['Aztecs', 'Incas'], the fact wants ['Incas', 'Aztecs']",
    ),
    (
        "named, contains",
        "events.yaml",
        lambda d: entry(d, "events", "crusades")["effects"][1].update(building="city"),
        ("events.yaml", "crusades", "effects", "crusades-place-a-fort"),
        "the fact wants an item like {'kind': 'place_buildings', 'building': 'fort'}",
    ),
    (
        "unique",
        "empires.yaml",
        lambda d: entry(d, "empires", "minoans").update(number=1),
        ("empires.yaml", "minoans", "number", "one-card-a-number"),
        "epoch 1, number 1 is also 'sumeria's",
    ),
]


@pytest.mark.parametrize(
    ("file", "change", "named", "words"),
    [case[1:] for case in CARD_FACT_BREAKS],
    ids=[case[0] for case in CARD_FACT_BREAKS],
)
def test_a_broken_card_fact_names_the_fact_the_file_and_the_entry(
    broken_pack: Path,
    board: Board,
    file: str,
    change: Callable[[Any], None],
    named: tuple[str, str, str, str],
    words: str,
) -> None:
    mutate(broken_pack, file, change)
    problems = problems_of(lambda: load_cards(broken_pack, board))
    file, entry_id, field, fact = named
    assert any(
        (p.file, p.entry, p.field) == (file, entry_id, field)
        and words in p.message
        and f"fact '{fact}'" in p.message
        for p in problems
    ), "\n".join(map(str, problems))


def test_every_empire_start_land_shows_the_empires_power_icon(board: Board, cards: Cards) -> None:
    """p7: monuments come of "each pair of these icons, including the one in the start-land",
    so every non-barbarian Empire's start-land shows its icon (the Sassanids' Zagros and Spain's
    Eastern Iberia are reconstructed so)."""
    for deck in cards.empires_by_epoch.values():
        for card in deck:
            for spec in card.empires:
                if spec.barbarian:
                    continue
                for land in spec.start_lands:
                    assert board.lands[land].power_icon is spec.power_icon, (card.id, land)
    assert board.lands["zagros"].power_icon is PowerIcon.CROWN
    assert board.lands["eastern-iberia"].power_icon is PowerIcon.SWORD


def test_a_start_land_without_a_power_icon_is_refused(broken_pack: Path) -> None:
    pack = broken_pack
    mutate(pack, "board.yaml", lambda d: entry(d, "lands", "zagros").update(power_icon=None))
    problems = problems_of(lambda: load_cards(pack, load_board(pack)))
    assert has_problem(problems, "empires.yaml", "sassanids", "power_icon")
