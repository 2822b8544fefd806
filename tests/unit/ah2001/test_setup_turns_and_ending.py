"""The Avalon Hill 2001 rules from setting up to the end, each played through the rules and
checked against the clause the emitted event or refusal cites: the setup and its options, the
first drawing order, the calling of the epoch's Empires and an Empire's turn (start land,
expansion over land, straits and fleets, forts, monuments, scoring), the epoch's end with its
pre-eminence marker and drawing order, and the final ranking with its tie-breaks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.core.chance import Chance, ScriptedFaces
from domain.core.errors import InvalidOptions, InvalidPlayerCount, NotYourTurn
from domain.core.kernel import Game, GameCreated, creation_events, decide
from domain.core.messages import Command
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.context import Ctx
from domain.hotw.editions.ah2001.model import Ah2001State, Cell, Player, Stage
from domain.hotw.editions.ah2001.pre_eminence import end_epoch
from tests.unit.ah2001.test_engine import RULES, SETUP, act, before_expansion, of, playing


def created(players: int = 3, options: dict[str, Any] | None = None) -> list[Any]:
    names = ("a", "b", "c", "d", "e", "f")[:players]
    chance = Chance(ScriptedFaces([6, 6, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]), 0)
    return creation_events(RULES, names, options or {}, "", chance)


def settle(state: Ah2001State, dice: tuple[int, ...] = ()) -> tuple[list[Any], Ah2001State]:
    """Let the rules run on by themselves from `state`."""
    ctx = Ctx(RULES.tables, state, Chance(ScriptedFaces(dice), 0))
    RULES.proceed(ctx)
    return ctx.events, ctx.state


# --- setting up --------------------------------------------------------------------------------


def test_three_to_six_players_play_and_two_are_refused() -> None:
    assert RULES.player_counts == (3, 4, 5, 6)
    with pytest.raises(InvalidPlayerCount) as refused:
        created(players=2)
    assert refused.value.rule == "ah2001.setup.player-count"
    assert of(created(players=6), GameCreated)[0].rule == "ah2001.setup.player-count"


def test_the_optional_rules_are_chosen_when_the_game_is_created() -> None:
    with pytest.raises(InvalidOptions) as refused:
        RULES.check_options({"fog_of_war": True})
    assert refused.value.rule == "ah2001.setup.options"
    (game,) = of(created(options={"no_pre_eminence": True}), GameCreated)
    assert game.options["no_pre_eminence"] is True and game.options["multiple_armies"] is False


@pytest.mark.parametrize(
    ("option", "rule"),
    [
        ("no_pre_eminence", "ah2001.option.no-pre-eminence"),
        ("multiple_armies", "ah2001.option.multiple-armies"),
        ("minor_empires", "ah2001.option.minor-empires"),
        ("naval_control", "ah2001.option.naval-control"),
        ("simultaneous_empires", "ah2001.variant.simultaneous"),
    ],
)
def test_each_optional_rule_is_a_yes_or_no_option_refused_by_its_own_clause(
    option: str, rule: str
) -> None:
    with pytest.raises(InvalidOptions) as refused:
        RULES.check_options({option: "maybe"})
    assert refused.value.rule == rule
    assert RULES.check_options({option: True})[option] is True


def test_every_player_starts_with_a_colour_a_shared_supply_and_no_points() -> None:
    events = created()
    (game,) = of(events, GameCreated)
    assert set(game.cites) == {
        "ah2001.components.pieces",
        "ah2001.components.coin-fleet",
        "ah2001.setup.pieces",
        "ah2001.setup.board",
        "ah2001.setup.score-charts",
    }
    state = RULES.initial_state(SETUP)
    pieces = RULES.tables.pieces
    assert state.supply == {
        "capitals_and_cities": pieces.capitals_and_cities,
        "forts": pieces.forts,
        "monuments": pieces.monuments,
        "counters": pieces.coins_and_fleets,  # one supply for coins and fleets
    }
    assert (pieces.coins_and_fleets, pieces.dice) == (12, 5)
    assert [p.points for p in state.players] == [0, 0, 0]
    assert len(RULES.tables.board.lands) == 102


def test_epoch_one_is_drawn_in_order_from_the_highest_roll_with_ties_rolled_again() -> None:
    state = RULES.initial_state(SETUP)
    events = RULES.set_up(state, Chance(ScriptedFaces([3, 4, 6, 1, 2, 5, 2, 2, 6, 6]), 0))
    (rolled,) = of(events, ev.DrawOrderRolled)
    assert rolled.rule == "ah2001.empires.first-draw-order"
    assert rolled.rolls == ((3, 4, 2, 2), (6, 1, 6, 6), (2, 5, 1, 1))  # 7 each: all roll again
    assert rolled.order == (1, 2, 0)  # seat 1 rolled highest and draws first, then clockwise


def test_each_player_is_dealt_three_greater_and_seven_lesser_cards_in_secret() -> None:
    events = created(players=4)
    dealt = of(events, ev.EventCardsDealt)
    decks = {c.id: c.deck for c in RULES.tables.events}
    for seat, hand in enumerate(dealt):
        assert hand.rule == "ah2001.setup.event-cards"
        assert sorted(decks[c] for c in hand.cards) == ["greater"] * 3 + ["lesser"] * 7
        assert hand.visibility.seats == frozenset({seat})


def test_the_eight_pre_eminence_markers_are_shuffled_face_down() -> None:
    (shuffled,) = of(created(), ev.MarkersShuffled)
    assert shuffled.rule == "ah2001.setup.pre-eminence"
    assert sorted(shuffled.markers) == [3, 3, 4, 4, 4, 5, 5, 6]
    assert shuffled.visibility.seats == frozenset()


def test_the_game_begins_with_the_first_of_seven_epochs() -> None:
    (began,) = of(created(), ev.EpochBegan)
    assert (began.rule, began.epoch) == ("ah2001.object.epochs", 1)


# --- the epoch and an Empire's turn -------------------------------------------------------------


def called(holders: dict[str, int], call_index: int = 0) -> tuple[list[Any], Ah2001State]:
    state = RULES.initial_state(SETUP)
    state = replace(state, epoch=1, stage=Stage.TURNS, holders=holders, call_index=call_index)
    return settle(state)


def test_the_epochs_empires_are_called_in_order_and_one_nobody_holds_is_skipped() -> None:
    events, state = called({"egypt": 2})
    (skipped,) = of(events, ev.EmpireSkipped)
    assert (skipped.empire, skipped.rule) == ("sumeria", "ah2001.epoch.call-order")
    (began,) = of(events, ev.TurnBegan)
    assert (began.empire, began.seat, began.rule) == ("egypt", 2, "ah2001.epoch.call-order")
    assert state.turn is not None and state.turn.seat == 2


def test_the_empire_card_gives_the_army_pool_the_capital_and_a_fleet_in_each_sea() -> None:
    events, _ = called({"egypt": 2})
    (began,) = of(events, ev.TurnBegan)
    (egypt,) = [e for e in RULES.tables.empires_by_epoch[1] if e.id == "egypt"]
    assert (began.armies, began.capital) == (egypt.strength, egypt.capital) == (5, True)
    assert began.fleets == tuple(sorted(RULES.tables.board.navigation(egypt.navigation)))
    assert began.cites == (
        "ah2001.empires.card",
        "ah2001.turn.army-pool",
        "ah2001.turn.capital",
        "ah2001.turn.fleets",
    )


def test_fleets_are_limited_by_the_coin_and_fleet_counters_left() -> None:
    state = RULES.initial_state(SETUP)
    state = replace(
        state,
        epoch=1,
        stage=Stage.TURNS,
        holders={"egypt": 0},
        call_index=1,
        supply={**state.supply, "counters": 1},
    )
    events, state = settle(state)
    (began,) = of(events, ev.TurnBegan)
    assert len(began.fleets) == 1 and state.supply["counters"] == 0
    assert "ah2001.turn.fleets" in began.cites
    assert RULES.tables.pieces.coins_and_fleets == 12  # ah2001.components.coin-fleet


def test_coins_take_counters_from_the_supply_fleets_share_and_give_them_back() -> None:
    state = before_expansion("romans", 3, ("population-explosion",))
    state = replace(state, supply={**state.supply, "counters": 1})
    events, state = act(state, Command.of("play_event", card="population-explosion"))
    (played,) = of(events, ev.EventCardPlayed)
    assert played.coins == 1  # two printed, one counter left
    assert "ah2001.events.coins" in played.cites
    assert state.supply["counters"] == 0 and state.turn is not None and state.turn.coins == 1
    _, state = act(state, Command.of("begin_expansion"))
    _, state = act(state, Command.of("buy_fort"))
    assert state.supply["counters"] == 1  # the spent coin's counter is back
    full = before_expansion("romans", 3, ("population-explosion",))
    counters = full.supply["counters"]
    _, full = act(full, Command.of("play_event", card="population-explosion"))
    assert full.supply["counters"] == counters - 2
    _, full = act(full, Command.of("begin_expansion"))
    events, full = act(full, Command.of("end_expansion"))
    assert of(events, ev.TurnScored) and full.turn is None
    assert full.supply["counters"] == counters  # coins are never kept from turn to turn
    assert RULES.tables.pieces.coins_and_fleets == 12


def test_the_capital_and_first_army_clear_the_start_land_of_an_army_and_fort() -> None:
    state = RULES.initial_state(SETUP)
    state = replace(
        state,
        epoch=1,
        stage=Stage.TURNS,
        holders={"sumeria": 0},
        lands={"lower-tigris": Cell(1, 1, frozenset({"fort", "monument"}))},
    )
    _, state = settle(state)
    events, state = act(state, Command.of("begin_expansion"))
    (cleared,) = of(events, ev.StartLandCleared)
    assert (cleared.land, cleared.owner, cleared.fort) == ("lower-tigris", 1, True)
    assert cleared.rule == "ah2001.turn.start-land"
    (placed,) = of(events, ev.ArmyPlaced)
    assert (placed.rule, placed.capital, placed.figure) == ("ah2001.turn.start-land", True, 1)
    assert state.land("lower-tigris") == Cell(0, 1, frozenset({"capital", "monument"}))


def test_only_the_active_player_acts_in_a_turn() -> None:
    state = playing("romans", 3, {"southern-apennines": Cell(0, 3)})
    with pytest.raises(NotYourTurn) as refused:
        decide(RULES, Game(SETUP, 1, 0, state), 1, Command.of("end_expansion"), Chance.forbidden())
    assert refused.value.rule == "ah2001.turn.parts"
    refusal = RULES.refusal(state, 0, Command.of("keep_empire"))
    assert refusal.rule == "ah2001.empires.one-card"
    assert RULES.refusal(state, 0, Command.of("no_such_thing")).rule == "ah2001.turn.parts"


def test_armies_expand_next_to_any_land_the_empire_holds_not_only_the_last() -> None:
    state = playing("egypt", 1, {"libya": Cell(0, 1), "nile-delta": Cell(0, 1)})
    events, state = act(state, Command.of("place_army", land="upper-egypt", via="land"))
    (placed,) = of(events, ev.ArmyPlaced)
    assert (placed.land, placed.rule) == ("upper-egypt", "ah2001.expand.adjacent")
    lands = {c.arg("land") for c in RULES.legal_actions(state, 0) if c.type == "place_army"}
    assert "shatts-plateau" in lands  # next to Libya, an earlier land
    assert "mauretania" not in RULES.tables.board.adjacent("libya")
    far = Command.of("place_army", land="mauretania", via="land")
    assert RULES.refusal(state, 0, far).rule == "ah2001.expand.adjacent"


def test_a_fleet_is_a_stepping_stone_into_any_land_on_its_water() -> None:
    state = playing("greek-city-states", 2, {"morea": Cell(0, 2)})
    state = replace(
        state,
        turn=replace(state.turn, fleets=("eastern-mediterranean", "western-mediterranean")),
    )
    events, state = act(state, Command.of("place_army", land="shatts-plateau", via="sea"))
    (placed,) = of(events, ev.ArmyPlaced)
    assert (placed.land, placed.rule) == ("shatts-plateau", "ah2001.expand.fleets")


def test_an_attack_across_a_strait_faces_two_dice() -> None:
    state = playing("guptas", 4, {"eastern-ghats": Cell(0, 4), "ceylon": Cell(1, 3)})
    events, _ = act(state, Command.of("place_army", land="ceylon", via="land"), dice=[6, 2, 1, 3])
    (battle,) = of(events, ev.BattleFought)
    assert (battle.defence_dice, battle.result) == ((1, 3), "defender_lost")
    assert battle.cites == ("ah2001.combat.dice", "ah2001.expand.straits")


def test_expanding_into_another_players_land_starts_a_combat_two_dice_against_one() -> None:
    state = playing("romans", 3, {"southern-apennines": Cell(0, 3), "northern-apennines": Cell(1)})
    events, state = act(
        state, Command.of("place_army", land="northern-apennines", via="land"), dice=[2, 5, 4]
    )
    (battle,) = of(events, ev.BattleFought)
    assert (battle.attack_dice, battle.defence_dice, battle.result) == (
        (2, 5),
        (4,),
        "defender_lost",
    )
    assert (battle.rule, battle.cites) == ("ah2001.combat.when", ("ah2001.combat.dice",))
    assert state.land("northern-apennines") == Cell(0, 3)


def test_a_land_never_holds_a_second_fort() -> None:
    fortified = Cell(0, 3, frozenset({"fort", "capital"}))
    state = playing(
        "romans", 3, {"southern-apennines": fortified, "northern-apennines": Cell(0, 3)}
    )
    forts = {c.arg("land") for c in RULES.legal_actions(state, 0) if c.type == "build_fort"}
    assert forts == {"northern-apennines"}  # a fort may stand with the capital, but only one
    second = Command.of("build_fort", land="southern-apennines")
    assert RULES.refusal(state, 0, second).rule == "ah2001.forts.one-per-land"


def test_no_monument_is_built_when_no_land_may_take_one() -> None:
    two = ["lower-tigris", "arabian-peninsula"]
    assert all(RULES.tables.board.lands[land].resource for land in two)
    lands = {land: Cell(0, 1, frozenset({"monument"})) for land in two}
    state = playing("sumeria", 1, lands)
    events, state = act(state, Command.of("end_expansion"))
    assert of(events, ev.ExpansionEnded)[0].monuments == 1
    (unbuilt,) = of(events, ev.MonumentsUnbuilt)
    assert (unbuilt.count, unbuilt.rule) == (1, "ah2001.monuments.supply")
    assert not of(events, ev.MonumentBuilt)


def test_a_turn_scores_presence_dominance_and_control_then_buildings() -> None:
    lands = {
        "southern-apennines": Cell(0, 3, frozenset({"capital", "fort"})),
        "northern-apennines": Cell(0, 3),
        "morea": Cell(1, 2),
        "nile-delta": Cell(0, 1, frozenset({"city"})),
        "libya": Cell(0, 1),
        "upper-egypt": Cell(2, 1),
        "palestine": Cell(0, 2),
        "levant": Cell(1, 2),
    }
    state = playing("romans", 3, lands)
    events, state = act(state, Command.of("end_expansion"))
    (scored,) = of(events, ev.TurnScored)
    base = RULES.tables.victory_points.base
    assert scored.points == {
        "southern-europe": 2 * base("southern-europe", 3),  # dominance: two against one
        "north-africa": 2 * base("north-africa", 3),  # dominance: two against one
        "middle-east": base("middle-east", 3),  # presence: one against one
        "buildings": 2 + 1,  # the capital and the city; the fort scores nothing
    }
    assert scored.cites == (
        "ah2001.turn.clean-up",
        "ah2001.scoring.table",
        "ah2001.scoring.presence",
        "ah2001.scoring.dominance",
        "ah2001.scoring.buildings",
    )
    assert state.players[0].points == scored.total == sum(scored.points.values())
    assert state.turn is None  # the fleets left and the turn is over


def test_past_a_hundred_points_the_score_goes_round_the_track_and_keeps_counting() -> None:
    state = playing("romans", 3, {"southern-apennines": Cell(0, 3, frozenset({"capital"}))})
    players = (replace(state.players[0], points=97), *state.players[1:])
    events, state = act(replace(state, players=players), Command.of("end_expansion"))
    (scored,) = of(events, ev.TurnScored)
    assert scored.total == 3 + 2  # presence in Southern Europe, the capital
    assert state.players[0].points == 102
    assert scored.cites[-1] == "ah2001.scoring.track"
    events, _ = act(
        playing("romans", 3, {"southern-apennines": Cell(0, 3)}), Command.of("end_expansion")
    )
    assert "ah2001.scoring.track" not in of(events, ev.TurnScored)[0].cites


def test_an_attacker_that_lost_may_attack_the_same_land_again_while_its_pool_lasts() -> None:
    lands = {"southern-apennines": Cell(0, 3), "northern-apennines": Cell(1, 2)}
    state = playing("romans", 3, lands, pool=2)
    attack = Command.of("place_army", land="northern-apennines", via="land")
    events, state = act(state, attack, dice=[1, 2, 6])
    (lost,) = of(events, ev.BattleFought)
    assert lost.result == "attacker_lost" and "ah2001.combat.repeat" in lost.cites
    assert attack in RULES.legal_actions(state, 0)
    events, state = act(state, attack, dice=[1, 2, 6])
    assert "ah2001.combat.repeat" in of(events, ev.BattleFought)[0].cites
    assert of(events, ev.TurnScored)  # the pool is spent: no third attack, the turn ends
    won, _ = act(playing("romans", 3, lands), attack, dice=[6, 2, 1])
    assert "ah2001.combat.repeat" not in of(won, ev.BattleFought)[0].cites


# --- between epochs and the end -----------------------------------------------------------------


def scored(points: list[int], epoch: int, **players: Any) -> Ah2001State:
    state = RULES.initial_state(SETUP)
    people = tuple(
        replace(p, points=n, **players) for p, n in zip(state.players, points, strict=True)
    )
    return replace(
        state, epoch=epoch, stage=Stage.TURNS, players=people, markers=(5, 3, 4, 6, 4, 3, 5, 4)
    )


def test_the_sole_leader_takes_a_pre_eminence_marker_and_the_lowest_score_draws_first() -> None:
    ctx = Ctx(RULES.tables, scored([10, 24, 7], 1), Chance.forbidden())
    end_epoch(ctx)
    (taken,) = of(ctx.events, ev.PreEminenceTaken)
    assert (taken.seat, taken.marker, taken.rule) == (1, 5, "ah2001.between.pre-eminence")
    assert taken.visibility.seats == frozenset()
    (began,) = of(ctx.events, ev.EpochBegan)
    assert (began.epoch, began.order, began.rule) == (2, (2, 0, 1), "ah2001.between.draw-order")


def test_a_tie_for_the_lead_takes_no_marker_nor_does_any_leader_without_pre_eminence() -> None:
    ctx = Ctx(RULES.tables, scored([24, 24, 7], 1), Chance.forbidden())
    end_epoch(ctx)
    assert not of(ctx.events, ev.PreEminenceTaken)
    without = replace(scored([10, 24, 7], 1), options=frozenset({"no_pre_eminence"}))
    ctx = Ctx(RULES.tables, without, Chance.forbidden())
    end_epoch(ctx)
    assert not of(ctx.events, ev.PreEminenceTaken)
    assert RULES.check_options({"no_pre_eminence": True})["no_pre_eminence"] is True
    assert of(ctx.events, ev.EpochBegan)[0].rule == "ah2001.between.draw-order"


def final(players: list[Player]) -> Any:
    state = replace(scored([0, 0, 0], 7), players=tuple(players), markers=())
    ctx = Ctx(RULES.tables, state, Chance.forbidden())
    end_epoch(ctx)
    (ended,) = of(ctx.events, ev.GameEnded)
    return ended


def seven(last: str, **instead: str) -> tuple[str, ...]:
    """A player's seven Empires: the same six first (those named `instead` replaced) and `last`
    in Epoch VII."""
    six = ["egypt", "persia", "romans", "byzantines", "mongols", "spain"]
    return (*(instead.get(e, e) for e in six), last)


def test_after_epoch_seven_pre_eminence_is_added_and_the_most_points_win() -> None:
    ended = final(
        [
            Player("a", 90, pre_eminence=(6,), empires=seven("russia")),
            Player("b", 94, empires=seven("russia")),
            Player("c", 80, pre_eminence=(4, 5), empires=seven("russia")),
        ]
    )
    assert ended.rule == "ah2001.winning.most-points"
    assert (ended.markers, ended.points) == ((6, 0, 9), (96, 94, 89))
    assert ended.ranking == ((0,), (1,), (2,))
    assert "ah2001.winning.pre-eminence" in ended.cites


def test_tied_players_with_the_weaker_empires_win() -> None:
    ended = final(
        [
            Player("a", 90, empires=seven("russia")),
            Player("b", 90, empires=seven("russia", egypt="minoans")),  # 3 weaker than 5
            Player("c", 10, empires=seven("russia")),
        ]
    )
    assert ended.ranking == ((1,), (0,), (2,))
    assert "ah2001.winning.tie.strength" in ended.cites


def test_still_tied_more_pre_eminence_wins() -> None:
    ended = final(
        [
            Player("a", 93, pre_eminence=(3,), empires=seven("russia")),
            Player("b", 90, pre_eminence=(6,), empires=seven("russia")),
            Player("c", 10, empires=seven("russia")),
        ]
    )
    assert ended.points[:2] == (96, 96)
    assert ended.ranking == ((1,), (0,), (2,))
    assert "ah2001.winning.tie.pre-eminence" in ended.cites


def test_still_tied_the_weaker_epoch_seven_empire_wins_and_then_the_win_is_shared() -> None:
    ended = final(
        [
            Player("a", 90, empires=seven("france")),  # France 11 in Epoch VII
            Player("b", 90, empires=seven("netherlands", egypt="goths")),  # 6, and 5 more before
            Player("c", 90, empires=seven("france")),
        ]
    )
    assert ended.ranking == ((1,), (0, 2))  # a and c are level on every count: they share
    assert "ah2001.winning.tie.last-epoch" in ended.cites
