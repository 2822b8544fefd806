"""The reconstructed Avalon Hill 2001 board honours everything the rulebook states about it:
its counts, every land it names, and the geography its examples rely on."""

from __future__ import annotations

import pytest

from domain.hotw.editions.ah2001.tables import Ah2001Tables


def test_the_board_has_102_lands_in_13_areas_8_barren_and_18_resources(
    tables: Ah2001Tables,
) -> None:
    lands = tables.board.lands.values()
    assert len(tables.board.lands) == 102
    assert {land.area for land in lands if land.area} == set(tables.victory_points.scores)
    assert sum(land.barren for land in lands) == 8
    assert sum(land.resource for land in lands) == 18
    assert tables.board.connected() == set(tables.board.lands)


def test_every_start_land_and_every_land_a_card_names_is_on_the_board(tables: Ah2001Tables) -> None:
    named = {empire.start_land for empire in tables.empires}
    for card in tables.events:
        named |= {card.effect[key] for key in ("start_land", "land") if key in card.effect}
    assert named - set(tables.board.lands) == set()
    waters = {w for empire in tables.empires for w in empire.navigation}
    waters |= {w for card in tables.events for w in card.effect.get("navigation", [])}
    assert waters - set(tables.board.waters) == set()


def test_the_atlantic_navigates_four_seas_and_the_indian_ocean_two(tables: Ah2001Tables) -> None:
    """Chapter V, step 3: the Portuguese in the Atlantic take the North Sea, both
    Mediterraneans and the Black Sea; the Indian Ocean brings the Red Sea and the Bay of
    Bengal."""
    assert tables.board.navigation(["atlantic-ocean"]) == {
        "atlantic-ocean",
        "north-sea",
        "western-mediterranean",
        "eastern-mediterranean",
        "black-sea",
    }
    assert tables.board.navigation(["indian-ocean"]) == {"indian-ocean", "red-sea", "bay-of-bengal"}


@pytest.mark.rulebook_example("ah2001.example.greeks-stepping-stones")
def test_the_greeks_step_from_morea_to_shatts_plateau_and_to_caucasus_over_their_fleets(
    tables: Ah2001Tables,
) -> None:
    """ah2001.example.greeks-stepping-stones."""
    (greeks,) = [e for e in tables.empires if e.id == "greek-city-states"]
    fleets = tables.board.navigation(greeks.navigation)
    reach = tables.board.fleet_reach(["morea"], fleets)
    assert {"shatts-plateau", "caucasus"} <= reach
    assert "shatts-plateau" not in tables.board.fleet_reach(["morea"], {"eastern-mediterranean"})


@pytest.mark.rulebook_example("ah2001.example.guptas-four-battles")
def test_the_guptas_battlefields_have_the_terrain_the_example_gives(tables: Ah2001Tables) -> None:
    """ah2001.example.guptas-four-battles."""
    lands = tables.board.lands
    assert "eastern-ghats" in lands["eastern-deccan"].neighbours
    assert lands["eastern-ghats"].terrain == "clear"
    assert "ceylon" in lands["eastern-ghats"].straits
    assert lands["western-ghats"].terrain == "mountains"
    assert "western-ghats" in tables.board.adjacent("eastern-ghats")
    assert lands["eastern-deccan"].terrain == "forest"
    assert lands["ganges-delta"].terrain == "clear"
    assert "ganges-delta" in lands["eastern-deccan"].neighbours


def test_the_romans_mongols_and_british_examples_fit_the_map(tables: Ah2001Tables) -> None:
    lands = tables.board.lands
    assert "northern-apennines" in lands["southern-apennines"].neighbours
    assert lands["northern-apennines"].terrain == "clear"  # one defending die
    assert tables.board.crosses_great_wall("mongolia", "wei-river")
    (britain,) = [e for e in tables.empires if e.id == "britain"]
    assert "chekiang" in tables.board.fleet_reach(
        ["albion"], tables.board.navigation(britain.navigation)
    )
    assert {"si-kyang", "yangtze-kiang", "great-plain-of-china"} <= lands["chekiang"].neighbours


def test_the_vedic_city_states_hold_two_resource_lands_in_the_scoring_example(
    tables: Ah2001Tables,
) -> None:
    vedic = ["upper-indus", "western-deccan", "eastern-ghats", "hindu-kush", "persian-plateau"]
    assert sum(tables.board.lands[land].resource for land in vedic) == 2
