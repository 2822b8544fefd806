"""An Empire turn of A Brief History of the World played through the kernel: establishing,
expansion, invasion and the Invasion dial, overruns, surrender, reduction, forts, monuments,
the Features, reorganising and collecting gold. Dice are the test's (`act(..., dice=...)`:
the attacker's dice first, then the defender's)."""

from __future__ import annotations

from dataclasses import replace

from domain.core.messages import Command
from domain.hotw.editions.brief2009 import events as ev
from domain.hotw.editions.brief2009.expansion import sources as expansion_sources
from domain.hotw.editions.brief2009.model import Turn
from tests.unit.brief.helpers import (
    RULES,
    act,
    expand,
    listed,
    of,
    playing,
    resigned,
    standing,
    table,
)

CONTINUE = Command.of("continue_invasion")
ABANDON = Command.of("abandon_invasion")
END = Command.of("end_expansion")


def test_establishing_fills_the_array_clears_the_start_land_and_places_capital_and_fleets():
    state = table({"greece": resigned(1, "capital", "fort")})
    state = replace(state, turn=Turn(0, "minoans"))
    events, state = act(state, Command.of("establish"))
    (established,) = of(events, ev.EmpireEstablished)
    assert established.removed_colour == 1 and established.removed == ("capital", "fort")
    assert established.rule == "brief.establish.array"
    assert established.cites == (
        "brief.turns.steps",
        "brief.establish.start-army",
        "brief.establish.clear-start-land",
        "brief.establish.capital",
        "brief.establish.fleets",
    )
    assert state.land("greece").colour == 0 and state.land("greece").standing
    assert state.land("greece").buildings == {"capital"}
    assert state.turn.fleets == ("mediterranean-sea",)
    force = state.turn.active
    assert (force.array, force.dial) == (2, 0)  # strength 3, one army in the start land
    assert state.colours[1].supply == 30  # the removed army went back to its colour


def test_an_army_expands_into_an_empty_bordering_land_without_a_roll():
    state = playing(table({"tigris": standing(0)}), 0, "sumerians", array=3)
    events, state = act(state, expand("zagros"))
    (moved,) = of(events, ev.ArmyExpanded)
    assert not of(events, ev.InvasionRolled)
    assert (moved.rule, moved.cites) == ("brief.expand.empty", ("brief.expand.adjacent",))
    assert state.turn.active.array == 2 and state.land("zagros").standing


def test_lands_joined_by_a_strait_are_adjacent():
    state = playing(table({"greece": standing(0)}), 0, "minoans", array=2)
    events, _ = act(state, expand("anatolia"))
    (moved,) = of(events, ev.ArmyExpanded)
    assert "brief.expand.straits" in moved.cites


def test_a_fleet_carries_an_army_across_its_sea():
    state = playing(table({"greece": standing(0)}), 0, "minoans", fleets=("mediterranean-sea",))
    assert expand("lower-egypt", "sea") in listed(state)
    assert expand("lower-egypt", "land") not in listed(state)
    events, state = act(state, expand("lower-egypt", "sea"))
    (moved,) = of(events, ev.ArmyExpanded)
    assert moved.cites == ("brief.expand.fleets",) and state.land("lower-egypt").standing


def test_no_army_goes_into_a_barren_land_nor_where_its_colour_stands():
    state = playing(table({"euphrates": standing(0), "tigris": standing(0)}), 0, "assyrians")
    targets = {c.arg("land") for c in listed(state) if c.type == "expand"}
    assert "arabian-desert" not in targets and "tigris" not in targets
    refused = RULES.refusal(state, 0, expand("arabian-desert"))
    assert refused.rule == "brief.expand.barren"
    assert RULES.refusal(state, 0, expand("tigris")).rule == "brief.expand.one-army"


def test_one_point_defeats_a_defender_in_clear_land():
    state = playing(table({"tigris": standing(0), "persia": resigned(1)}), 0, "sumerians")
    events, state = act(state, expand("persia"), dice=[4, 2, 3])
    (roll,) = of(events, ev.InvasionRolled)
    assert (roll.attack, roll.defence, roll.points, roll.needed) == ((4, 2), (3,), 1, 1)
    assert roll.success and state.land("persia").colour == 0
    assert roll.rule == "brief.invasion.success-reset"
    assert roll.cites == (
        "brief.invasion.dice",
        "brief.invasion.highest-die",
        "brief.invasion.clear",
    )
    assert state.colours[1].supply == 30 and state.turn.overrun is None


def test_a_failed_invasion_continues_with_an_array_army_turning_the_dial_up():
    """Two points are needed in the mountains: 5 against 4 fails; the dial +1, roll again."""
    state = playing(table({"tigris": standing(0), "zagros": resigned(1)}), 0, "sumerians")
    events, state = act(state, expand("zagros"), dice=[5, 1, 4])
    (roll,) = of(events, ev.InvasionRolled)
    assert (roll.points, roll.needed, roll.success) == (1, 2, False)
    assert roll.rule == "brief.invasion.points" and "brief.invasion.difficult" in roll.cites
    assert state.turn.invasion is not None and state.turn.active.array == 4
    assert listed(state) == [CONTINUE, ABANDON]
    events, state = act(state, CONTINUE, dice=[3, 3, 3])
    (roll,) = of(events, ev.InvasionRolled)
    assert (roll.dial, roll.points, roll.success) == (1, 1, False)
    assert "brief.invasion.continue" in roll.cites
    assert state.turn.active.array == 3 and state.colours[0].supply == 30 - 1 - 5 + 1
    events, state = act(state, CONTINUE, dice=[6, 1, 3])
    (roll,) = of(events, ev.InvasionRolled)
    assert (roll.dial, roll.points, roll.success) == (2, 5, True)
    assert roll.rule == "brief.invasion.success-reset"
    assert state.turn.active.dial == 0  # reset by the success
    (ended,) = of(events, ev.OverrunEnded)  # 3 unused points, but nothing of colour 1 borders
    assert ended.unused == 3 and state.turn.overrun is None


def test_the_dial_stops_at_three_and_abandoning_resets_it():
    state = playing(table({"tigris": standing(0), "zagros": resigned(1)}), 0, "sumerians")
    _, state = act(state, expand("zagros"), dice=[1, 1, 6])
    for _ in range(3):
        _, state = act(state, CONTINUE, dice=[1, 1, 6])
    assert state.turn.active.dial == 3 and listed(state) == [ABANDON]
    assert RULES.refusal(state, 0, CONTINUE).rule == "brief.invasion.dial-max"
    events, state = act(state, ABANDON)
    assert of(events, ev.InvasionAbandoned)[0].rule == "brief.invasion.abandon"
    assert state.turn.active.dial == 0 and state.turn.invasion is None
    assert state.land("zagros").colour == 1
    assert state.turn.active.array == 1 and state.colours[0].supply == 30 - 1 - 5 + 4


def test_invading_from_the_sea_rolls_one_die_and_a_fort_gives_the_defender_two():
    lands = {"greece": standing(0), "lower-egypt": resigned(1, "fort")}
    state = playing(table(lands), 0, "minoans", fleets=("mediterranean-sea",))
    events, state = act(state, expand("lower-egypt", "sea"), dice=[6, 2, 1])
    (roll,) = of(events, ev.InvasionRolled)
    assert (roll.attack, roll.defence, roll.points) == ((6,), (2, 1), 4)
    assert {"brief.invasion.fleet-penalty", "brief.invasion.fort"} <= set(roll.cites)
    assert "fort" not in state.land("lower-egypt").buildings  # a fort always goes
    (reduced,) = of(events, ev.LandReduced)
    assert (reduced.rule, reduced.removed) == ("brief.reduction.fort", ("fort",))


def test_unused_points_overrun_bordering_lands_of_the_same_defender_without_dice():
    lands = {
        "tigris": standing(0),
        "persia": resigned(1),
        "zagros": resigned(1),  # mountains: 2 points
        "khorasan": resigned(1, "fort"),  # a fort blocks overruns
        "indus": resigned(2),  # another defender
    }
    state = playing(table(lands), 0, "sumerians")
    _, state = act(state, expand("persia"), dice=[6, 1, 2])  # 4 points, 1 needed: 3 unused
    assert state.turn.overrun.points == 3
    options = [c for c in listed(state) if c.type == "overrun"]
    assert options == [Command.of("overrun", land="zagros")]
    events, state = act(state, Command.of("overrun", land="zagros"))
    (overrun,) = of(events, ev.LandOverrun)
    assert overrun.cost == 2 and state.land("zagros").colour == 0
    assert overrun.rule == "brief.overrun.points"
    assert overrun.cites == (
        "brief.overrun.cost",
        "brief.overrun.same-defender",
        "brief.overrun.adjacent",
        "brief.overrun.no-fort",
    )
    assert not of(events, ev.InvasionRolled)
    # 1 point left, but zagros borders nothing else of colour 1's that it pays for
    assert state.turn.overrun is None and of(events, ev.OverrunEnded)


def test_overruns_cross_no_strait_or_sea():
    lands = {"anatolia": standing(0), "levant": resigned(1), "greece": resigned(1)}
    state = playing(table(lands), 0, "hittites")
    _, state = act(state, expand("levant"), dice=[6, 6, 1])
    # greece is across a strait from levant's neighbour anatolia, never bordering levant
    assert all(c.arg("land") != "greece" for c in listed(state) if c.type == "overrun")
    lands = {"levant": standing(0), "anatolia": resigned(1), "greece": resigned(1)}
    state = playing(table(lands), 0, "hittites")
    events, state = act(state, expand("anatolia"), dice=[6, 6, 1])  # 5 points, 2 needed
    assert state.turn.overrun is None  # greece lies across a strait: no overrun
    (ended,) = of(events, ev.OverrunEnded)
    assert ended.unused == 3 and "brief.overrun.no-sea" in ended.cites


def test_fear_gives_one_more_point_after_a_successful_invasion():
    lands = {"euphrates": standing(0), "tigris": resigned(1), "persia": resigned(1)}
    state = playing(table(lands), 0, "assyrians")
    events, state = act(state, expand("tigris"), dice=[3, 1, 2])
    (roll,) = of(events, ev.InvasionRolled)
    assert (roll.points, roll.fear) == (1, 1) and "brief.features.fear" in roll.cites
    assert state.turn.overrun is not None and state.turn.overrun.points == 1


def test_a_surrender_needs_no_roll_and_reduces_the_land():
    lands = {"tigris": standing(0), "zagros": resigned(0, "capital")}
    state = playing(table(lands), 0, "sumerians")
    events, state = act(state, expand("zagros"))
    (surrendered,) = of(events, ev.Surrendered)
    assert surrendered.rule == "brief.surrender.own" and not of(events, ev.InvasionRolled)
    assert state.land("zagros").buildings == {"city"} and state.land("zagros").standing
    (reduced,) = of(events, ev.LandReduced)
    assert (reduced.rule, reduced.cites) == ("brief.reduction.capital", ("brief.reduction.when",))
    assert state.colours[0].supply == 30 - 2 - 5 + 1  # the resigned army went back


def test_a_barbarian_empire_earns_a_gold_for_each_reduction():
    lands = {"mongolia": standing(0), "kazakh-steppe": resigned(1, "city", "monument")}
    state = playing(table(lands, epoch=4, gold=[5, 6, 7]), 0, "mongols")
    events, state = act(state, expand("kazakh-steppe"), dice=[6, 1, 1])
    (reduced,) = of(events, ev.LandReduced)
    assert reduced.buildings == ("monument",) and reduced.gold == 1
    assert reduced.rule == "brief.reduction.city"
    assert reduced.cites == (
        "brief.reduction.capital-before-monument",
        "brief.reduction.barbarian-gold",
    )
    assert state.colours[0].gold == 6


def test_an_empire_with_a_capital_earns_nothing_for_reductions():
    lands = {"tigris": standing(0), "persia": resigned(1, "city")}
    state = playing(table(lands, gold=[5, 6, 7]), 0, "sumerians")
    events, state = act(state, expand("persia"), dice=[6, 1, 1])
    (reduced,) = of(events, ev.LandReduced)
    assert reduced.gold == 0 and state.colours[0].gold == 5
    assert reduced.rule == "brief.reduction.city" and reduced.cites == ()


def test_france_reduces_no_monument():
    lands = {"gaul": standing(0), "italia": resigned(1, "monument")}
    state = playing(table(lands, epoch=6), 0, "france")
    _, state = act(state, expand("italia"), dice=[6, 1, 1])
    assert state.land("italia").buildings == {"monument"}


def test_the_vikings_take_a_land_from_the_sea_outright_on_a_five_or_six():
    lands = {"scandinavia": standing(0), "britain": resigned(1, "fort")}
    state = playing(table(lands, epoch=4), 0, "vikings", fleets=("atlantic-ocean",))
    events, state = act(state, expand("britain", "sea"), dice=[5])
    (roll,) = of(events, ev.InvasionRolled)
    assert roll.sure and roll.defence == () and roll.success
    assert state.turn.overrun is None


def test_the_vikings_cross_the_atlantic_only_once_a_turn():
    lands = {"scandinavia": standing(0)}
    state = playing(table(lands, epoch=4), 0, "vikings", fleets=("atlantic-ocean",))
    assert expand("canada", "sea") in listed(state)
    events, state = act(state, expand("canada", "sea"))
    (moved,) = of(events, ev.ArmyExpanded)
    assert moved.crossing and state.turn.crossings == 1
    targets = {c.arg("land") for c in listed(state) if c.type == "expand"}
    assert "brazil" not in targets and "west-africa" not in targets
    assert "britain" in targets  # across the North Sea: no Atlantic crossing
    assert "atlantic-seaboard" in targets  # overland from Canada


def test_the_united_states_expand_from_influence_areas_only_with_astronomy():
    lands = {"atlantic-seaboard": standing(0), "brazil": standing(0)}
    state = playing(table(lands, epoch=6), 0, "united-states", fleets=("atlantic-ocean",))
    sources = expansion_sources(RULES.tables, state)
    assert sources == ["atlantic-seaboard"]
    assert expand("pampas") not in listed(state)
    state = replace(state, turn=replace(state.turn, astronomy=True))
    assert expand("pampas") in listed(state)


def test_a_fort_costs_an_array_army_one_per_land():
    state = playing(table({"tigris": standing(0)}), 0, "sumerians", array=2)
    events, state = act(state, Command.of("build_fort", land="tigris"))
    (built,) = of(events, ev.FortBuilt)
    assert state.land("tigris").buildings == {"fort"}
    assert (built.rule, built.cites) == (
        "brief.forts.build",
        ("brief.forts.one-per-land", "brief.forts.permanent"),
    )
    assert state.turn.active.array == 1
    assert Command.of("build_fort", land="tigris") not in listed(state)
    assert state.turn.active.array == 1  # the fort never turns back into an army


def test_every_second_resource_symbol_earns_a_monument_placed_by_priority():
    lands = {
        "tigris": standing(0),  # resource
        "zagros": standing(0, "city"),  # resource, with a city
        "persia": standing(0),  # resource
        "indus": standing(0, "city"),  # resource, with a city
        "euphrates": standing(0, "capital"),  # the capital, no resource
    }
    state = playing(table(lands), 0, "sumerians", array=0)
    events, state = act(state, END)
    (stopped,) = of(events, ev.ExpansionStopped)
    assert (stopped.resources, stopped.monuments) == (4, 2)
    assert (stopped.rule, stopped.cites) == ("brief.expand.end", ("brief.monuments.count",))
    first = of(events, ev.MonumentBuilt)
    assert [m.land for m in first] == ["euphrates"]  # the capital: the only one of its tier
    assert first[0].rule == "brief.monuments.priority"
    assert listed(state) == [
        Command.of("build_monument", land="indus"),
        Command.of("build_monument", land="zagros"),
    ]
    events, state = act(state, Command.of("build_monument", land="zagros"))
    assert "monument" in state.land("zagros").buildings
    (chosen,) = of(events, ev.MonumentBuilt)
    assert "brief.monuments.one-per-land" in chosen.cites
    assert of(events, ev.EmpireReorganised) and of(events, ev.GoldCollected)


def test_reorganising_removes_the_fleets_resigns_the_armies_and_collects_gold():
    lands = {"tigris": standing(0, "capital"), "euphrates": standing(0), "zagros": standing(0)}
    state = playing(table(lands, gold=[1, 2, 3]), 0, "sumerians", array=2, fleets=("arabian-sea",))
    events, state = act(state, END)
    (reorganised,) = of(events, ev.EmpireReorganised)
    assert reorganised.fleets == ("arabian-sea",) and state.supply["fleets"] == 12
    assert (reorganised.rule, reorganised.cites) == (
        "brief.reorganise.resign",
        ("brief.reorganise.fleets", "brief.reorganise.discard"),
    )
    assert not any(cell.standing for cell in state.lands.values())
    (gold,) = of(events, ev.GoldCollected)
    # two resource lands (Tigris, Zagros): a monument, in the capital's land
    assert gold.items == (("capital", 2), ("monument", 1), ("middle-east", 9))  # mastery
    assert (gold.rule, gold.cites) == (
        "brief.gold.spiral",
        ("brief.gold.buildings", "brief.gold.mastery"),
    )
    assert state.colours[0].gold == 1 + 12 and state.colours[0].empire is None
    assert state.colours[0].supply == 30 - 3  # the two Array armies went back
    assert state.turn is None


def test_a_fleet_never_carries_an_overrun():
    """FAQ, Fleet Use: fleets serve invasion adjacency, not overruns."""
    lands = {
        "greece": standing(0),
        "lower-egypt": resigned(1),  # invaded from the sea
        "levant": resigned(1),  # borders Lower Egypt: an overrun may take it
        "numidia": resigned(1),  # on the same sea, bordering nothing taken: no overrun
    }
    state = playing(table(lands), 0, "minoans", fleets=("mediterranean-sea",))
    _, state = act(state, expand("lower-egypt", "sea"), dice=[6, 1])
    overruns = [c.arg("land") for c in listed(state) if c.type == "overrun"]
    assert overruns == ["levant"]
    events, state = act(state, Command.of("overrun", land="levant"))
    (ended,) = of(events, ev.OverrunEnded)  # Numidia lies on the fleet's sea: no overrun
    assert "brief.overrun.no-fleet" in ended.cites and state.land("numidia").colour == 1


def test_a_minor_empire_uses_its_array_to_overrun_and_build():
    """FAQ, Civil War & Minor Empires: they use the Array, overrun, build forts and monuments;
    their armies are resigned once the card is resolved."""
    lands = {
        "yangtze": standing(0),
        "persia": resigned(1),
        "zagros": resigned(1),
    }
    state = playing(table(lands, epoch=4, gold=[9, 9, 9]), 0, "sung")
    hand = ("delhi-sultanate",)
    state = replace(state, players=(replace(state.players[0], hand=hand), *state.players[1:]))
    events, state = act(state, Command.of("play_event", card="delhi-sultanate", target="indus"))
    assert state.turn.active.event and state.turn.active.array == 3
    (raised,) = of(events, ev.EventEmpireRaised)
    assert raised.cites == ("brief.events.supply-armies", "brief.events.minor-empire")
    assert raised.barbarian  # a Minor Empire has no capital
    _, state = act(state, Command.of("build_fort", land="indus"))
    _, state = act(state, expand("persia"), dice=[6, 1, 1])  # 5 points, 1 needed
    assert state.turn.overrun.points == 4
    events, state = act(state, Command.of("overrun", land="zagros"))
    assert of(events, ev.LandOverrun)[0].cost == 2
    assert state.turn.active.array == 0 and state.turn.overrun is None
    events, state = act(state, END)  # Indus, Persia, Zagros: three resource symbols
    assert of(events, ev.ExpansionStopped)[0].monuments == 1
    events, state = act(state, Command.of("build_monument", land="persia"))
    (resigned_,) = of(events, ev.EventEmpireResigned)
    assert set(resigned_.lands) == {"indus", "persia", "zagros"}
    assert resigned_.rule == "brief.events.resigned-after"
    assert not state.land("persia").standing and "monument" in state.land("persia").buildings
    assert state.turn.active.card == "sung"  # back to the called Empire


def test_gold_past_one_hundred_goes_on_round_the_track():
    lands = {"tigris": standing(0, "capital")}
    state = playing(table(lands, gold=[99, 1, 2]), 0, "sumerians", array=0)
    events, state = act(state, END)
    (collected,) = of(events, ev.GoldCollected)
    assert collected.cites[-1] == "brief.gold.past-100"
    assert "brief.gold.presence" in collected.cites
    assert state.colours[0].gold == 99 + 2 + 3  # the capital, presence in the Middle East
    assert RULES.view(state, None)["colours"][0]["track_space"] == 4


def test_taking_a_land_removes_its_monument():
    lands = {"italia": standing(0), "danubia": resigned(1, "monument")}
    state = playing(table(lands, epoch=5), 0, "ottomans")
    events, state = act(state, expand("danubia"), dice=[6, 1, 1])
    (reduced,) = of(events, ev.LandReduced)
    assert (reduced.rule, reduced.removed) == ("brief.reduction.monument", ("monument",))
    assert state.land("danubia").buildings == frozenset()
