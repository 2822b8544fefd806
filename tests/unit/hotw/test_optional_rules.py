"""The four Optional rules (p11-p12): Event card selection, Hidden Empire cards, Invasion and
conquest (with play example 10), Paired Area tokens."""

from __future__ import annotations

import pytest

from domain.core.errors import IllegalAction, InvalidOptions
from domain.core.kernel import Game, decide
from domain.core.messages import Command
from domain.core.ruleset import Setup
from domain.hotw.editions.hotw_2024 import Option
from domain.hotw.editions.hotw_2024.cards import Building, Phase
from domain.hotw.editions.hotw_2024.events import (
    AreaTokenPlayed,
    BuildingReduced,
    ConquestEnded,
    ConquestPointsAwarded,
    EmpireCardRevealed,
    EmpireCardsDisplayed,
    EmpireCardsPassed,
    EmpireCardsTaken,
    EventCardChosen,
    EventCardDealt,
    EventCardsPassed,
    EventCardsTaken,
    GoldCollected,
    HiddenEmpireCardChosen,
    HonorAwarded,
    InvasionModifierRemoved,
    InvasionModifierSet,
    InvasionRepulsed,
    InvasionSucceeded,
    LandConquered,
    PairedAreaTokenDrawn,
)
from domain.hotw.editions.hotw_2024.model import ConquestTask, Control, OrganizationStep, Stage
from tests.support.hotw import BLUE, PACK, RED, RULES, act, army, garrison, of_type, position
from tests.unit.hotw.test_setup_and_organization import new_game, play

CONQUEST = (Option.INVASION_AND_CONQUEST.value,)
GREEN = 2


def legal(state, seat=RED):
    return list(RULES.legal_actions(state, seat))


def refusal(state, command, seat=RED):
    game = Game(Setup("hotw-2024", (), {}, ""), 1, 0, state)
    with pytest.raises(IllegalAction) as refused:
        decide(RULES, game, seat, command, None)  # type: ignore[arg-type]
    return refused.value


# --- the options themselves --------------------------------------------------------------------


def test_the_four_optional_rules_are_declared_off_by_default():
    options = {o["name"]: o for o in RULES.describe()["options"]}
    for option in Option:
        assert options[option.value]["default"] is False
    assert RULES.check_options({})[Option.PAIRED_AREA_TOKENS.value] is False
    chosen = RULES.check_options({o.value: True for o in Option})
    assert all(chosen[o.value] for o in Option)


def test_option_three_is_given_only_for_play_with_dice():
    """hotw24.option3.dice: the text gives no without-dice version of Option 3."""
    with pytest.raises(InvalidOptions) as refused:
        RULES.check_options({"invasion_and_conquest": True, "dice": False})
    assert refused.value.rule == "hotw24.option3.dice"
    assert RULES.check_options({"event_card_selection": True, "dice": False})


# --- Option 1: Event card selection -------------------------------------------------------------


def test_the_player_with_most_gold_takes_the_event_cards_and_chooses_one_secretly():
    game, log = new_game(players=4, event_card_selection=True)
    events = [r.event for r in log]
    assert of_type(events, EventCardDealt) == []  # no longer dealt out
    (taken,) = of_type(events, EventCardsTaken)
    richest = game.state.gold_order()[0]
    assert (taken.seat, taken.rule) == (richest, "hotw24.option1.event-selection")
    assert taken.visibility.seats == frozenset({richest}) and len(taken.cards) == 4
    assert game.state.step is OrganizationStep.SELECT_EVENT_CARDS
    assert of_type(events, EmpireCardsDisplayed) == []  # the Empire cards wait for the choices

    order = game.state.gold_order()
    for n, seat in enumerate(order[:-1]):
        assert RULES.awaited_seats(game.state) == {seat}
        offered = legal(game.state, seat)
        assert len(offered) == 4 - n
        game, made = play(game, log, seat, offered[0])
        assert game.state.players[seat].event_card == offered[0].arg("card")
        passed = of_type(made, EventCardsPassed)[0]
        assert (passed.from_seat, passed.to_seat) == (seat, order[n + 1])
        assert passed.visibility.seats == frozenset({seat, order[n + 1]})
    # the last card left is the last player's without a choice (a single legal action)
    kept = {seat: game.state.players[seat].event_card for seat in order}
    assert sorted(kept.values()) == sorted(taken.cards)  # every player has an Event card
    assert game.state.step is OrganizationStep.CHOOSE_EMPIRE_CARDS  # step 4 as usual
    assert of_type([r.event for r in log], EmpireCardsDisplayed)


def test_chosen_event_cards_stay_hidden_from_the_other_players():
    game, log = new_game(players=3, event_card_selection=True)
    while game.state.step is OrganizationStep.SELECT_EVENT_CARDS:
        (seat,) = RULES.awaited_seats(game.state)
        game, _ = play(game, log, seat, legal(game.state, seat)[0])
    chosen = of_type([r.event for r in log], EventCardChosen)
    assert sorted(c.seat for c in chosen) == [0, 1, 2]
    assert all(c.rule == "hotw24.option1.secret" for c in chosen)
    assert all(c.visibility.seats == frozenset({c.seat}) for c in chosen)
    for seat in range(3):
        view = RULES.view(game.state, seat)
        others = [p for p in view["players"] if p["seat"] != seat]
        assert view["players"][seat]["event_card"] == game.state.players[seat].event_card
        assert all(p["event_card"] is None and p["has_event_card"] for p in others)
    assert RULES.view(game.state, None)["offer"] is None


# --- Option 2: Hidden Empire cards ---------------------------------------------------------------


def choose_all_empire_cards(game, log):
    while game.state.stage is Stage.ORGANIZATION:
        (seat,) = RULES.awaited_seats(game.state)
        game, _ = play(game, log, seat, legal(game.state, seat)[-1])
    return game


def test_the_player_with_least_gold_takes_the_empire_cards_and_passes_them_up_the_gold_order():
    game, log = new_game(players=4, hidden_empire_cards=True)
    events = [r.event for r in log]
    assert of_type(events, EmpireCardsDisplayed) == []  # no longer placed on the map
    (taken,) = of_type(events, EmpireCardsTaken)
    poorest_first = tuple(reversed(game.state.gold_order()))
    assert (taken.seat, taken.rule) == (poorest_first[0], "hotw24.option2.hidden-empires")
    assert taken.visibility.seats == frozenset({poorest_first[0]})
    for n, seat in enumerate(poorest_first[:-1]):
        assert RULES.awaited_seats(game.state) == {seat}
        offered = legal(game.state, seat)
        assert len(offered) == 4 - n
        game, made = play(game, log, seat, offered[-1])
        secret = [e for e in made if isinstance(e, EmpireCardsPassed | HiddenEmpireCardChosen)]
        assert secret and all(not e.visibility.is_public for e in secret)
        (passed,) = of_type(made, EmpireCardsPassed)
        assert passed.to_seat == poorest_first[n + 1]
    assert game.state.stage is Stage.TURNS
    numbers = [PACK.cards.empire(c).number for c in game.state.turn_order]
    assert numbers == sorted(numbers)  # turns still follow the chronological numbers


def test_a_hidden_empire_card_is_shown_only_when_its_turn_comes():
    """hotw24.option2.secret."""
    game, log = new_game(players=4, hidden_empire_cards=True)
    game = choose_all_empire_cards(game, log)
    first, second = game.state.turn_order[:2]
    owner_of_second = game.state.empire_choices[second]
    revealed = of_type([r.event for r in log], EmpireCardRevealed)
    assert [e.card for e in revealed] == [first]
    spectator = RULES.view(game.state, None)
    assert spectator["turn_order"] == [first]
    assert second not in spectator["empire_choices"]
    assert RULES.view(game.state, owner_of_second)["empire_choices"][second] == owner_of_second
    assert spectator["players"][owner_of_second]["hidden_empire_cards"] == 1
    assert second not in spectator["players"][owner_of_second]["empire_cards"]
    while game.state.turn.card == first:  # play the first turn out
        seat = game.state.turn.seat
        game, made = play(game, log, seat, legal(game.state, seat)[0])
    (shown,) = [e for e in made if isinstance(e, EmpireCardRevealed)]
    assert (shown.card, shown.seat, shown.rule) == (
        second,
        owner_of_second,
        "hotw24.option2.secret",
    )
    assert second in RULES.view(game.state, None)["empire_choices"]


# --- Option 3: Invasion and conquest ------------------------------------------------------------


def tigris_position(people=3, **lands):
    held = {
        "persia": army(RED),
        "tigris": garrison(BLUE),
        "euphrates": garrison(BLUE),
        "zagros": garrison(BLUE, "capital", "fort"),
        **lands,
    }
    return position(held, people=people, options=CONQUEST)


@pytest.mark.rulebook_example("hotw24.example.10")
def test_red_fails_in_tigris_retries_at_plus_two_and_may_conquer_euphrates_or_zagros_example_10():
    """hotw24.example.10: Red's first army is removed and Blue gains an Honor; the second,
    with the +2 modifier, scores 7 against 4 and earns three conquest points: enough for
    Euphrates (clear, 1) or for Zagros (difficult 2 + fort 1), not for both."""
    state = tigris_position()
    events, state = act(state, "place_army", dice=[2, 3, 4], land="tigris")
    (repulsed,) = of_type(events, InvasionRepulsed)
    assert repulsed.rule == "hotw24.option3.frustrated"
    assert (repulsed.empire_dice, repulsed.enemy_dice) == ((2, 3), (4,))
    assert state.control_of("tigris", RED) is Control.ENEMY  # only the army is removed
    (honor,) = of_type(events, HonorAwarded)
    assert (honor.seat, honor.rule) == (BLUE, "hotw24.option3.honor-each")
    (counter,) = of_type(events, InvasionModifierSet)
    assert (counter.land, counter.modifier) == ("tigris", 2)

    events, state = act(state, "place_army", dice=[5, 1, 4], land="tigris")
    (success,) = of_type(events, InvasionSucceeded)
    assert success.rule == "hotw24.option3.dice"
    assert "hotw24.option3.success" in success.cites
    assert state.control_of("tigris", RED) is Control.EMPIRE
    assert of_type(events, InvasionModifierRemoved)  # taken off when the invasion succeeds
    (points,) = of_type(events, ConquestPointsAwarded)
    assert (points.points, points.enemy) == (3, BLUE)  # 7 - 4
    offered = {c.arg("land") for c in legal(state) if c.type == "conquer_land"}
    assert offered == {"euphrates", "zagros"}

    events, after_euphrates = act(state, "conquer_land", land="euphrates")
    assert after_euphrates.control_of("euphrates", RED) is Control.EMPIRE
    # Zagros would need three more: nothing is left to conquer and the last points are lost
    assert of_type(events, ConquestEnded)[0].unspent == 2
    assert "conquer_land" not in {c.type for c in legal(after_euphrates)}

    events, after_zagros = act(state, "conquer_land", land="zagros")
    (conquered,) = of_type(events, LandConquered)
    assert (conquered.cost, conquered.rule) == (3, "hotw24.option3.conquest-cost")
    assert conquered.cites == (
        "hotw24.option3.conquest-same-enemy",
        "hotw24.option3.conquest-adjacency",
        "hotw24.option3.conquest-no-fleets",
    )
    assert after_zagros.control_of("zagros", RED) is Control.EMPIRE
    (reduced,) = of_type(events, BuildingReduced)
    assert reduced.rule == "hotw24.option3.conquest-reduction"
    assert after_zagros.land("zagros").buildings == {Building.CITY}  # the fort goes first
    assert of_type(events, ConquestEnded)[0].unspent == 0  # nothing left to spend


def test_the_enemy_rolls_one_die_in_clear_terrain_two_in_difficult_and_one_more_for_a_fort():
    state = tigris_position()
    events, _ = act(state, "place_army", dice=[1, 1, 6], land="tigris")
    assert len(of_type(events, InvasionRepulsed)[0].enemy_dice) == 1
    state = position(
        {"tigris": army(RED), "zagros": garrison(BLUE, "fort")}, people=1, options=CONQUEST
    )
    events, _ = act(state, "place_army", dice=[1, 1, 6, 6, 6], land="zagros")
    assert len(of_type(events, InvasionRepulsed)[0].enemy_dice) == 3


def test_a_tie_lets_the_invasion_succeed_even_in_difficult_terrain():
    """hotw24.option3.ties (without Option 3, a tie in difficult terrain frustrates)."""
    state = position({"tigris": army(RED), "zagros": garrison(BLUE)}, people=1, options=CONQUEST)
    events, after = act(state, "place_army", dice=[5, 2, 5, 3], land="zagros")
    assert of_type(events, InvasionSucceeded)[0].rule == "hotw24.option3.ties"
    assert after.control_of("zagros", RED) is Control.EMPIRE
    assert of_type(events, ConquestPointsAwarded) == []  # no difference, no points


def test_further_frustrations_add_four_and_each_gives_the_enemy_an_honor():
    state = tigris_position(people=4)
    modifiers = []
    for _ in range(3):
        events, state = act(state, "place_army", dice=[1, 1, 6], land="tigris")
        modifiers.append(of_type(events, InvasionModifierSet)[0].modifier)
        assert of_type(events, HonorAwarded)[0].seat == BLUE
        assert not of_type(events, BuildingReduced)
    assert modifiers == [2, 4, 4]
    assert state.turn.invasion_modifier == 4


def test_the_counter_comes_off_when_the_player_does_not_go_on_with_that_invasion():
    state = tigris_position(people=3, caucasus=garrison(GREEN))
    _, state = act(state, "place_army", dice=[1, 1, 6], land="tigris")
    assert state.turn.modifier_land == "tigris"
    events, state = act(state, "place_army", land="khorasan")  # persia's neighbour, uncontrolled
    assert of_type(events, InvasionModifierRemoved)[0].rule == "hotw24.option3.modifier"
    assert state.turn.modifier_land is None
    events, state = act(state, "place_army", dice=[1, 1, 6], land="tigris")
    assert of_type(events, InvasionRepulsed)[0].modifier == 0  # the +2 was given up


def test_conquered_lands_chain_from_the_invaded_land_and_belong_to_the_same_enemy():
    """hotw24.option3.conquest-adjacency and .conquest-same-enemy: Caucasus (Green) is never
    offered; Anatolia is offered only once Euphrates is conquered."""
    state = tigris_position(
        people=6, zagros=garrison(BLUE), caucasus=garrison(GREEN), anatolia=garrison(BLUE)
    )
    _, state = act(state, "place_army", dice=[6, 6, 1], land="tigris")  # five points
    offered = {c.arg("land") for c in legal(state) if c.type == "conquer_land"}
    assert offered == {"euphrates", "zagros"}
    assert refusal(state, Command.of("conquer_land", land="caucasus")).rule == (
        "hotw24.option3.conquest-same-enemy"
    )
    assert refusal(state, Command.of("conquer_land", land="anatolia")).rule == (
        "hotw24.option3.conquest-adjacency"
    )
    _, state = act(state, "conquer_land", land="euphrates")
    offered = {c.arg("land") for c in legal(state) if c.type == "conquer_land"}
    assert offered == {"anatolia", "zagros"}


def test_a_conquest_costs_one_point_in_clear_terrain_two_in_difficult_and_one_more_for_a_fort():
    state = tigris_position(people=4, anatolia=garrison(BLUE))
    _, state = act(state, "place_army", dice=[5, 1, 2], land="tigris")  # three points
    _, state = act(state, "conquer_land", land="euphrates")
    assert state.agenda[-1].points == 2  # Anatolia (clear) is still within reach
    refused = refusal(state, Command.of("conquer_land", land="zagros"))
    assert refused.rule == "hotw24.option3.conquest-cost"
    assert "costs 3" in str(refused)


def test_conquest_points_are_spent_or_given_up_before_anything_else():
    state = tigris_position()
    _, state = act(state, "place_army", dice=[6, 6, 1], land="tigris")
    assert isinstance(state.agenda[-1], ConquestTask)
    assert refusal(state, Command.of("place_army", land="khorasan")).rule == (
        "hotw24.option3.conquest-points"
    )
    events, state = act(state, "end_conquest")
    assert of_type(events, ConquestEnded)[0].unspent == 5
    assert not state.agenda
    assert any(c.type == "place_army" for c in legal(state))


def test_without_option_three_there_is_no_conquest():
    state = position({"persia": army(RED), "tigris": garrison(BLUE)}, people=1)
    events, state = act(state, "place_army", dice=[6, 6, 1], land="tigris")
    assert of_type(events, ConquestPointsAwarded) == []
    assert refusal(state, Command.of("end_conquest")).rule == "hotw24.option3.conquest-points"


# --- Option 4: Paired Area tokens ---------------------------------------------------------------


def test_each_player_takes_one_paired_area_token_secretly_after_setting_up():
    game, log = new_game(players=4, paired_area_tokens=True)
    drawn = of_type([r.event for r in log], PairedAreaTokenDrawn)
    assert [d.seat for d in drawn] == [0, 1, 2, 3]
    assert all(d.visibility.seats == frozenset({d.seat}) for d in drawn)
    assert all(d.rule == "hotw24.option4.paired-tokens" for d in drawn)
    tokens = [d.token for d in drawn]
    assert len(set(tokens)) == 4 and set(tokens) <= set(PACK.board.paired_area_tokens)
    for d in drawn:
        assert d.token in game.state.players[d.seat].area_tokens


def test_a_paired_area_token_collects_gold_in_both_its_areas_in_any_epochs_conclude_phase():
    """hotw24.option4.play: southern-europe+north-africa pays for Friendly lands in both areas."""
    token = "southern-europe+north-africa"
    state = position(
        {"italia": garrison(RED, "city"), "numidia": garrison(RED)},
        epoch=4,
        phase=Phase.CONCLUDE,
        area_tokens={RED: (token,)},
        options=(Option.PAIRED_AREA_TOKENS.value,),
    )
    assert Command.of("play_area_token", token=token) in legal(state)
    events, after = act(state, "play_area_token", token=token)
    (played,) = of_type(events, AreaTokenPlayed)
    assert played.rule == "hotw24.option4.play"
    collected = of_type(events, GoldCollected)
    assert sum(g.amount for g in collected) == after.players[RED].gold - state.players[RED].gold
    assert {PACK.board.area_of(land) for land in ("italia", "numidia")} == {
        "southern-europe",
        "north-africa",
    }
    reasons = " ".join(g.reason for g in collected)
    assert "lands:southern-europe" in reasons and "lands:north-africa" in reasons
    assert token not in after.players[RED].area_tokens
