"""The Avalon Hill 2001 rules played through the kernel: Empire cards kept or passed, an
Empire's turn from its start land, combat as the rulebook's examples roll it, monuments, scoring
and the end of the game."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from domain.core.chance import Chance, ScriptedFaces
from domain.core.kernel import Game, decide, fold, replay
from domain.core.messages import Command, Event
from domain.core.ruleset import Setup
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.lesser_events import adjacent_areas
from domain.hotw.editions.ah2001.model import Ah2001State, Cell, Stage, Turn
from service.rulesets import ruleset

RULES: Any = ruleset("hotw-ah2001")
SETUP = Setup("hotw-ah2001", ("a", "b", "c"), {}, "")


def act(
    state: Ah2001State, command: Command, dice: Iterable[int] = ()
) -> tuple[list[Event], Ah2001State]:
    seat = min(RULES.awaited_seats(state))
    events = decide(RULES, Game(SETUP, 1, 0, state), seat, command, Chance(ScriptedFaces(dice), 0))
    for event in events:
        state = RULES.evolve(state, event)
    return events, state


def playing(empire: str, epoch: int, lands: dict[str, Cell], pool: int = 5) -> Ah2001State:
    """Seat 0 expanding `empire` from its armies in `lands` (those of seat 0 with this epoch's
    figure; older figures of seat 0 are past Empires')."""
    state = RULES.initial_state(SETUP)
    held = tuple(land for land, c in lands.items() if c.owner == 0 and c.figure == epoch)
    turn = Turn(0, empire, pool=pool, lands=held, expanding=True)
    return replace(state, epoch=epoch, stage=Stage.TURNS, lands=lands, turn=turn)


def of(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


@pytest.mark.rulebook_example("ah2001.example.romans-repeated-attack")
def test_the_romans_lose_attack_again_tie_and_walk_into_the_empty_land() -> None:
    """ah2001.example.romans-repeated-attack, through place_army."""
    state = playing(
        "romans", 3, {"southern-apennines": Cell(0, 3), "northern-apennines": Cell(1, 2)}
    )
    attack = Command.of("place_army", land="northern-apennines", via="land")
    events, state = act(state, attack, dice=[1, 3, 4])
    (lost,) = of(events, ev.BattleFought)
    assert (lost.attack_dice, lost.defence_dice, lost.result) == ((1, 3), (4,), "attacker_lost")
    assert (lost.rule, lost.cites) == (
        "ah2001.combat.when",
        ("ah2001.combat.dice", "ah2001.combat.repeat"),
    )
    assert attack in RULES.legal_actions(state, 0)  # the Romans may attack again
    events, state = act(state, attack, dice=[5, 5, 5])
    (tie,) = of(events, ev.BattleFought)
    assert (tie.result, tie.rule) == ("both_lost", "ah2001.combat.tie")
    assert state.land("northern-apennines").owner is None
    events, state = act(state, attack)
    assert of(events, ev.ArmyPlaced) and not of(events, ev.BattleFought)
    assert state.land("northern-apennines").owner == 0
    assert state.turn is not None and state.turn.pool == 2


@pytest.mark.rulebook_example("ah2001.example.british-sea-attack")
def test_the_british_land_in_chekiang_from_the_sea_against_three_dice() -> None:
    """ah2001.example.british-sea-attack: from Albion over the fleets, then inland freely."""
    state = playing("britain", 7, {"albion": Cell(0, 7), "chekiang": Cell(1, 6)})
    state = replace(
        state,
        turn=replace(
            state.turn,
            fleets=("atlantic-ocean", "indian-ocean", "west-pacific-ocean", "south-china-sea"),
        ),
    )
    landing = Command.of("place_army", land="chekiang", via="sea")
    assert landing in RULES.legal_actions(state, 0)
    events, state = act(state, landing, dice=[2, 4, 1, 1, 5])
    (first,) = of(events, ev.BattleFought)
    assert (len(first.defence_dice), first.result) == (3, "attacker_lost")
    assert "ah2001.combat.from-sea" in first.cites
    events, state = act(state, landing, dice=[6, 1, 2, 2, 4])
    assert of(events, ev.BattleFought)[0].result == "defender_lost"
    inland = {
        c.arg("land")
        for c in RULES.legal_actions(state, 0)
        if c.type == "place_army" and c.arg("via") == "land"
    }
    assert {"si-kyang", "yangtze-kiang", "great-plain-of-china"} <= inland


@pytest.mark.rulebook_example("ah2001.example.mongols-great-wall")
def test_the_mongols_take_wei_river_losing_once_to_the_fort_and_the_capital_becomes_a_city() -> (
    None
):
    """ah2001.example.mongols-great-wall (without the Leader card, not yet playable, the
    Mongols roll two dice: the example's rolls keep their highest)."""
    state = playing(
        "mongols",
        5,
        {"mongolia": Cell(0, 5), "wei-river": Cell(1, 3, frozenset({"capital", "fort"}))},
    )
    attack = Command.of("place_army", land="wei-river", via="land")
    events, state = act(state, attack, dice=[4, 6, 1, 6])
    (first,) = of(events, ev.BattleFought)
    assert (first.attack, first.defence, first.result) == (6, 7, "attacker_lost")
    assert "ah2001.combat.difficult-terrain" in first.cites  # over the Great Wall: two dice
    assert "ah2001.combat.fort" in first.cites  # 6 + 1 for the fort
    events, state = act(state, attack, dice=[4, 5, 3, 4])
    assert of(events, ev.BattleFought)[0].result == "fort_and_attacker_lost"
    assert state.land("wei-river").buildings == {"capital"}
    events, state = act(state, attack, dice=[2, 6, 2, 5])
    assert of(events, ev.BattleFought)[0].result == "defender_lost"
    (sack,) = of(events, ev.LandSacked)
    assert sack.rule == "ah2001.combat.sack"
    assert state.land("wei-river") == Cell(0, 5, frozenset({"city"}))


def test_a_fort_falls_first_and_the_same_army_fights_on() -> None:
    state = playing(
        "romans",
        3,
        {"southern-apennines": Cell(0, 3), "northern-apennines": Cell(1, 2, frozenset({"fort"}))},
    )
    events, state = act(
        state,
        Command.of("place_army", land="northern-apennines", via="land"),
        dice=[6, 1, 3, 6, 1, 2],
    )
    rounds = of(events, ev.BattleFought)
    assert [r.result for r in rounds] == ["fort_lost", "defender_lost"]
    assert "ah2001.combat.fort" in rounds[0].cites and "ah2001.combat.fort" not in rounds[1].cites
    assert [r.first_round for r in rounds] == [True, False]
    assert state.turn is not None and state.turn.pool == 4  # one army did it


def test_an_army_of_the_players_own_colour_is_replaced_without_combat() -> None:
    state = playing(
        "romans", 3, {"southern-apennines": Cell(0, 3), "northern-apennines": Cell(0, 1)}
    )
    events, state = act(state, Command.of("place_army", land="northern-apennines", via="land"))
    (placed,) = of(events, ev.ArmyPlaced)
    assert placed.replaced and placed.rule == "ah2001.expand.own-colour"
    assert state.land("northern-apennines") == Cell(0, 3)


def test_barren_lands_are_never_entered() -> None:
    state = playing("egypt", 1, {"libya": Cell(0, 1)})
    lands = {c.arg("land") for c in RULES.legal_actions(state, 0) if c.type == "place_army"}
    assert "libya" not in lands and "sahara" not in lands and "shatts-plateau" in lands
    into_sahara = Command.of("place_army", land="sahara", via="land")
    assert RULES.refusal(state, 0, into_sahara).rule == "ah2001.expand.barren"


def test_ending_expansion_builds_monuments_in_the_capital_then_scores_the_turn() -> None:
    """ah2001.monuments.count and .placement, then ah2001.scoring.when."""
    lands = {
        "upper-indus": Cell(0, 2, frozenset({"capital"})),
        "hindu-kush": Cell(0, 2),
        "western-deccan": Cell(0, 2),
    }
    state = playing("vedic-city-states", 2, lands)
    events, state = act(state, Command.of("end_expansion"))
    assert of(events, ev.ExpansionEnded)[0].monuments == 1
    (built,) = of(events, ev.MonumentBuilt)
    assert (built.land, built.rule) == ("upper-indus", "ah2001.monuments.placement")
    (scored,) = of(events, ev.TurnScored)
    assert scored.rule == "ah2001.scoring.when"
    assert scored.cites == (
        "ah2001.turn.clean-up",
        "ah2001.scoring.table",
        "ah2001.scoring.control",
        "ah2001.scoring.buildings",
    )
    assert scored.points == {
        "india": 6,
        "buildings": 3,
    }  # control of India (2 x 3), capital 2, monument 1
    assert state.players[0].points == 9


def play_whole_game(seed: int, options: dict[str, Any]) -> Game[Ah2001State]:
    from domain.core.kernel import creation_events
    from domain.core.messages import SYSTEM, Recorded
    from service.chance import HmacSource, commitment

    secret = f"ah-{seed}".encode().ljust(32, b".")
    chance = Chance(HmacSource(secret), 0)
    log = [
        Recorded(n, e, SYSTEM)
        for n, e in enumerate(
            creation_events(RULES, ("a", "b", "c", "d"), options, commitment(secret), chance), 1
        )
    ]
    game = replay(RULES, log)
    rng = random.Random(seed)
    while not RULES.is_over(game.state):
        seat = min(RULES.awaited_seats(game.state))
        command = rng.choice(list(RULES.legal_actions(game.state, seat)))
        for event in decide(RULES, game, seat, command, Chance(HmacSource(secret), game.draws)):
            log.append(Recorded(game.version + 1, event, seat))
            game = fold(RULES, game, log[-1])
    assert replay(RULES, log).state == game.state
    return game


def test_a_whole_game_runs_seven_epochs_and_ranks_every_player() -> None:
    game = play_whole_game(1, {})
    state = game.state
    assert state.epoch == 7 and state.stage is Stage.OVER
    assert all(len(p.empires) >= 6 for p in state.players)  # seven epochs, at most one skipped
    result = RULES.result(state)
    assert sorted(row["seat"] for row in result["ranking"]) == [0, 1, 2, 3]
    scores = result["scores"]
    assert all(scores[w] == max(scores) for w in result["details"]["winners"])
    assert sum(len(p.pre_eminence) for p in state.players) <= 7


def test_without_pre_eminence_no_marker_is_taken() -> None:
    state = play_whole_game(2, {"no_pre_eminence": True}).state
    assert all(p.pre_eminence == () for p in state.players)


def test_each_player_draws_once_and_the_last_card_goes_without_a_choice() -> None:
    state = RULES.initial_state(SETUP)
    events = RULES.set_up(state, Chance(ScriptedFaces([6, 6, 1, 1, 2, 2]), 0))
    for event in events:
        state = RULES.evolve(state, event)
    assert state.drawing is not None and state.drawing.order == (0, 1, 2)
    (drawn,) = of(events, ev.EmpireCardDrawn)
    assert drawn.seat == 0 and drawn.visibility.seats == frozenset({0})
    assert drawn.rule == "ah2001.empires.draw"
    actions = RULES.legal_actions(state, 0)
    assert Command.of("keep_empire") in actions and Command.of("pass_empire", to=1) in actions
    events, state = act(state, Command.of("pass_empire", to=1))
    (given,) = of(events, ev.EmpireCardGiven)
    assert (given.to_seat, given.rule) == (1, "ah2001.empires.passed-unseen")
    assert given.visibility.seats == frozenset({0})  # seat 1 may not look at it yet
    assert RULES.awaited_seats(state) == {1}
    assert Command.of("keep_empire") not in RULES.legal_actions(state, 1)  # seat 1 holds a card
    refused = RULES.refusal(state, 1, Command.of("keep_empire"))
    assert refused.rule == "ah2001.empires.one-card"
    events, state = act(state, Command.of("pass_empire", to=2))
    assert state.stage is Stage.TURNS and len(state.holders) == 3
    learned = of(events, ev.EmpireCardLearned)
    assert {e.seat for e in learned} == {0, 1, 2}
    assert {e.rule for e in learned} == {"ah2001.empires.passed-unseen"}
    (handed_out,) = of(events, ev.EmpireCardsHandedOut)
    assert handed_out.rule == "ah2001.empires.unused"
    assert len(state.holders) == 3 < len(RULES.tables.empires_by_epoch[1])  # four go unseen
    assert of(events, ev.EmpireCardGiven)[-1].rule == "ah2001.empires.last-drawer"


def before_expansion(empire: str, epoch: int, hand: tuple[str, ...], **turn: Any) -> Ah2001State:
    """Seat 0's turn has begun: its cards may be played before the first army."""
    state = RULES.initial_state(SETUP)
    spec = RULES.tables.empires_by_epoch[epoch]
    (found,) = [e for e in spec if e.id == empire]
    players = (replace(state.players[0], hand=hand), *state.players[1:])
    begun = Turn(0, empire, pool=found.strength, capital=found.capital, **turn)
    return replace(state, epoch=epoch, stage=Stage.TURNS, turn=begun, players=players)


def test_two_cards_at_most_never_two_of_the_same_and_none_after_the_first_army() -> None:
    """ah2001.events.two-per-turn and .before-first-army."""
    state = before_expansion("romans", 3, ("leader", "leader", "weaponry", "siegecraft"))
    plays = {c.arg("card") for c in RULES.legal_actions(state, 0) if c.type == "play_event"}
    assert plays == {"leader", "weaponry", "siegecraft"}
    events, state = act(state, Command.of("play_event", card="leader"))
    (played,) = of(events, ev.EventCardPlayed)
    assert played.rule == "ah2001.events.leader" and played.visibility.seats is None
    assert {
        "ah2001.events.two-per-turn",
        "ah2001.events.epochs",
        "ah2001.events.active-empire",
        "ah2001.events.greater-kinds",
    } <= set(played.cites)
    again = RULES.refusal(state, 0, Command.of("play_event", card="leader"))
    assert again.rule == "ah2001.events.two-per-turn"
    plays = {c.arg("card") for c in RULES.legal_actions(state, 0) if c.type == "play_event"}
    assert plays == {"weaponry", "siegecraft"}  # never a second Leader
    _, state = act(state, Command.of("play_event", card="weaponry"))
    assert not [c for c in RULES.legal_actions(state, 0) if c.type == "play_event"]
    events, state = act(state, Command.of("begin_expansion"))
    assert of(events, ev.ExpansionBegan)[0].rule == "ah2001.events.before-first-army"
    assert of(events, ev.ArmyPlaced)[0].land == "southern-apennines"
    assert not [c for c in RULES.legal_actions(state, 0) if c.type == "play_event"]
    late = RULES.refusal(state, 0, Command.of("play_event", card="siegecraft"))
    assert late.rule == "ah2001.events.before-first-army"
    assert state.players[0].hand == ("leader", "siegecraft")


def test_a_leader_rolls_three_dice_until_triples_and_weaponry_adds_one() -> None:
    state = before_expansion("romans", 3, ("leader", "weaponry"))
    _, state = act(state, Command.of("play_event", card="leader"))
    _, state = act(state, Command.of("play_event", card="weaponry"))
    _, state = act(state, Command.of("begin_expansion"))
    state = replace(state, lands={**state.lands, "northern-apennines": Cell(1, 2)})
    attack = Command.of("place_army", land="northern-apennines", via="land")
    events, state = act(state, attack, dice=[4, 4, 4, 5])
    (battle,) = of(events, ev.BattleFought)
    assert battle.attack_dice == (4, 4, 4) and battle.attack == 5  # Weaponry's +1
    assert battle.leader_killed and battle.result == "both_lost"
    assert state.turn is not None and not state.turn.leader
    events, _ = act(state, attack)  # the land was emptied by the tie: no combat
    assert not of(events, ev.BattleFought)


def test_coins_return_a_lost_army_or_buy_a_fort() -> None:
    """ah2001.events.coins.save-army and .buy-fort (Population Explosion: two coins)."""
    state = before_expansion("romans", 3, ("population-explosion",))
    events, state = act(state, Command.of("play_event", card="population-explosion"))
    (played,) = of(events, ev.EventCardPlayed)
    assert (played.coins, played.rule) == (2, "ah2001.events.population-explosion")
    assert {"ah2001.events.coins", "ah2001.events.lesser-kinds"} <= set(played.cites)
    _, state = act(state, Command.of("begin_expansion"))
    state = replace(state, lands={**state.lands, "northern-apennines": Cell(1, 2)})
    pool = state.turn.pool
    _, state = act(
        state, Command.of("place_army", land="northern-apennines", via="land"), dice=[1, 1, 6]
    )
    assert state.turn.pool == pool - 1 and state.turn.lost == 1
    events, state = act(state, Command.of("recover_army"))
    (spent,) = of(events, ev.CoinSpent)
    assert (spent.rule, spent.cites) == ("ah2001.events.coins.save-army", ("ah2001.events.coins",))
    assert (state.turn.pool, state.turn.coins, state.turn.lost) == (pool, 1, 0)
    events, state = act(state, Command.of("buy_fort"))
    assert of(events, ev.CoinSpent)[0].rule == "ah2001.events.coins.buy-fort"
    events, state = act(state, Command.of("build_fort", land="southern-apennines"))
    assert of(events, ev.FortBuilt)[0].rule == "ah2001.forts.build"
    assert "fort" in state.land("southern-apennines").buildings and state.turn.pool == pool


def test_a_kingdom_places_its_army_and_a_city_destroying_what_was_there() -> None:
    state = before_expansion("sumeria", 1, ("kingdom-cannanites",))
    state = replace(state, lands={"palestine": Cell(1, 1, frozenset({"fort"}))})
    events, state = act(state, Command.of("play_event", card="kingdom-cannanites"))
    (kingdom,) = of(events, ev.KingdomPlaced)
    assert (kingdom.land, kingdom.figure) == ("palestine", 7)
    assert (kingdom.rule, kingdom.cites) == ("ah2001.events.kingdom", ("ah2001.events.far-epoch",))
    assert state.land("palestine") == Cell(0, 7, frozenset({"city"}))


def test_engineering_gives_an_empire_with_a_capital_two_forts() -> None:
    state = before_expansion("romans", 3, ("engineering",))
    events, state = act(state, Command.of("play_event", card="engineering"))
    assert of(events, ev.EventCardPlayed)[0].forts == 2 and state.turn.free_forts == 2
    assert of(events, ev.EventCardPlayed)[0].rule == "ah2001.events.engineering"
    celts = before_expansion("celts", 3, ("engineering",))
    events, _ = act(celts, Command.of("play_event", card="engineering"))
    assert of(events, ev.EventCardPlayed)[0].forts == 0  # no capital, no forts


def test_reallocation_turns_fleets_into_coins_before_expansion() -> None:
    state = before_expansion(
        "romans", 3, ("reallocation",), fleets=("eastern-mediterranean", "western-mediterranean")
    )
    _, state = act(state, Command.of("play_event", card="reallocation"))
    events, state = act(state, Command.of("reallocate_fleet", water="eastern-mediterranean"))
    assert of(events, ev.FleetReallocated)[0].rule == "ah2001.events.reallocation"
    assert state.turn.fleets == ("western-mediterranean",) and state.turn.coins == 1


def test_disaster_destroys_up_to_two_monuments_with_their_cities_and_forts() -> None:
    state = before_expansion("romans", 3, ("disaster",))
    lands = {
        "nile-delta": Cell(1, 1, frozenset({"monument", "capital", "fort"})),
        "crete": Cell(2, 1, frozenset({"monument", "city"})),
    }
    state = replace(state, lands=lands)
    _, state = act(state, Command.of("play_event", card="disaster"))
    targets = {c.arg("target") for c in RULES.legal_actions(state, 0) if c.type == "choose_target"}
    assert targets == {"nile-delta", "crete"}
    assert Command.of("stop_targeting") in RULES.legal_actions(state, 0)  # up to two
    _, state = act(state, Command.of("choose_target", target="nile-delta"))
    events, state = act(state, Command.of("stop_targeting"))
    (destroyed,) = of(events, ev.MonumentsDestroyed)
    assert (destroyed.lands, destroyed.rule) == (("nile-delta",), "ah2001.events.disaster")
    assert state.land("nile-delta").buildings == {"city"}
    assert state.land("crete").buildings == {"monument", "city"}


def test_famine_destroys_the_armies_of_an_area_that_roll_a_one_with_their_forts() -> None:
    state = before_expansion("romans", 3, ("famine",))
    state = replace(
        state,
        lands={"crete": Cell(1, 1, frozenset({"fort"})), "morea": Cell(2, 2), "libya": Cell(1, 1)},
    )
    _, state = act(state, Command.of("play_event", card="famine"))
    events, state = act(state, Command.of("choose_target", target="southern-europe"), dice=[1, 4])
    (struck,) = of(events, ev.ArmiesStruck)
    assert (struck.lands, struck.rolls, struck.destroyed) == (
        ("crete", "morea"),
        ((1,), (4,)),
        ("crete",),
    )
    assert struck.rule == "ah2001.events.famine"
    assert state.land("crete") == Cell() and state.land("morea").owner == 2
    assert state.land("libya").owner == 1  # another area


def test_treachery_wins_the_named_land_without_dice() -> None:
    state = before_expansion("romans", 3, ("treachery",))
    state = replace(state, lands={"northern-apennines": Cell(1, 2, frozenset({"fort", "capital"}))})
    _, state = act(state, Command.of("play_event", card="treachery"))
    events, state = act(state, Command.of("choose_target", target="northern-apennines"))
    assert of(events, ev.TreacheryNamed)
    _, state = act(state, Command.of("begin_expansion"))
    events, state = act(state, Command.of("place_army", land="northern-apennines", via="land"))
    (battle,) = of(events, ev.BattleFought)
    assert battle.rule == "ah2001.events.treachery" and battle.attack_dice == ()
    assert state.land("northern-apennines") == Cell(0, 3, frozenset({"city"}))


def test_black_death_strikes_two_adjacent_areas_and_migrants_take_vacant_lands() -> None:
    state = before_expansion("han-dynasty", 3, ("migrants-australia",))
    _, state = act(state, Command.of("play_event", card="migrants-australia"))
    _, state = act(state, Command.of("choose_target", target="eastern-australia"))
    events, state = act(state, Command.of("choose_target", target="northern-australia"))
    (landed,) = of(events, ev.ArmiesLanded)
    assert set(landed.lands) == {"eastern-australia", "northern-australia"}
    assert landed.rule == "ah2001.events.migrants"
    assert state.land("eastern-australia").owner == 0
    areas = adjacent_areas(RULES.tables, "india")  # Black Death's second area borders the first
    assert {"middle-east", "southeast-asia", "eurasia"} <= areas and "africa" not in areas


def test_astronomy_adds_a_fleet_in_a_sea_but_never_an_ocean() -> None:
    state = before_expansion("romans", 3, ("astronomy",), fleets=("eastern-mediterranean",))
    _, state = act(state, Command.of("play_event", card="astronomy"))
    seas = {c.arg("target") for c in RULES.legal_actions(state, 0) if c.type == "choose_target"}
    assert (
        "black-sea" in seas and "atlantic-ocean" not in seas and "eastern-mediterranean" not in seas
    )
    events, state = act(state, Command.of("choose_target", target="black-sea"))
    assert of(events, ev.FleetAdded)[0].rule == "ah2001.events.astronomy"
    assert state.turn.fleets == ("eastern-mediterranean", "black-sea")


def test_every_seats_view_fits_the_documented_view() -> None:
    import jsonschema

    from api.openapi import build_spec

    spec = build_spec(["hotw-ah2001"]).to_dict()
    schema = {"$ref": "#/components/schemas/View_hotw-ah2001", "components": spec["components"]}
    check = jsonschema.Draft202012Validator(schema)
    state = play_whole_game(3, {}).state
    for viewer in (None, 0, 1, 2, 3):
        assert [e.message for e in check.iter_errors(RULES.view(state, viewer))][:3] == []
    fresh = RULES.initial_state(SETUP)
    for event in RULES.set_up(fresh, Chance(ScriptedFaces([6, 6, 1, 1, 2, 2]), 0)):
        fresh = RULES.evolve(fresh, event)
    for viewer in (None, 0, 1):
        view = RULES.view(fresh, viewer)
        assert check.is_valid(view)
        assert (view["players"][0]["hand"] is None) is (viewer != 0)
        assert (view["drawing"]["drawn"] is None) is (viewer != 0)


def test_the_jewish_revolt_takes_palestine_with_three_dice_and_no_terrain_penalty() -> None:
    state = before_expansion("romans", 3, ("jewish-revolt",))
    state = replace(state, lands={"palestine": Cell(1, 2, frozenset({"fort", "city"}))})
    events, state = act(
        state, Command.of("play_event", card="jewish-revolt"), dice=[2, 6, 3, 4, 5, 1, 6]
    )
    rounds = of(events, ev.RevoltFought)
    assert {r.rule for r in rounds} == {"ah2001.events.jewish-revolt"}
    assert {"ah2001.events.far-epoch", "ah2001.combat.fort"} <= set(rounds[0].cites)
    assert [(r.attack_dice, r.defence_dice, r.result) for r in rounds] == [
        ((2, 6, 3), (4,), "fort_lost"),  # 6 against 4 + 1 for the fort: the fort goes first
        ((5, 1, 6), (1,), "defender_lost"),
    ]
    assert state.land("palestine") == Cell(0, 7, frozenset())  # the city sacked
