"""Organisation and Allocation (sealed, simultaneous choices), Event cards and their timing,
the Conclusion (stacked gold markers, Bonus tokens), the end, and the two-player variant."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from domain.core.chance import Chance, ScriptedFaces
from domain.core.messages import Command
from domain.hotw.editions.brief2009 import events as ev
from domain.hotw.editions.brief2009.model import Phase, Stage, Turn
from tests.unit.brief.helpers import (
    RULES,
    act,
    expand,
    listed,
    of,
    playing,
    resigned,
    setup,
    standing,
    table,
)

END = Command.of("end_expansion")


def started(players: int = 3):
    """A game set up with every draw at its lowest: colour 0 starts (1 gold), then 2, 3..."""
    state = RULES.initial_state(setup(players))
    events = RULES.set_up(state, Chance(ScriptedFaces([]), 0))
    for event in events:
        state = RULES.evolve(state, event)
    return events, state


def holding(state, *cards):
    """Seat 0 holds `cards`."""
    return replace(state, players=(replace(state.players[0], hand=cards), *state.players[1:]))


def play(command: str, **args):
    return Command.of(command, **args)


def view_text(state, viewer):
    return json.dumps(RULES.view(state, viewer))


# --- setup and Organisation and Allocation ------------------------------------------------


def test_each_player_starts_with_a_leader_and_a_weaponry_and_gold_in_clockwise_order():
    events, state = started(4)
    (drawn,) = of(events, ev.StartingPlayerDrawn)
    assert drawn.gold == (1, 2, 3, 4)
    assert (drawn.rule, drawn.cites) == (
        "brief.setup.starting-player",
        ("brief.setup.gold-markers",),
    )
    assert all(p.hand[:2] == ("leader", "weaponry") for p in state.players)
    (starters,) = of(events, ev.StarterCardsDealt)
    assert starters.rule == "brief.setup.leader-weaponry"
    (shuffled,) = of(events, ev.BonusTokensShuffled)
    assert [len(space) for space in shuffled.spaces] == [3] * 6
    assert not shuffled.visibility.is_public  # face down
    assert (shuffled.rule, shuffled.cites) == ("brief.setup.bonus-tokens", ("brief.setup.hidden",))


def test_the_poorest_chooses_an_empire_card_while_the_richest_chooses_an_event_card():
    events, state = started(3)
    (epoch,) = of(events, ev.EpochBegan)
    assert (epoch.epoch, epoch.rule, epoch.cites) == (
        1,
        "brief.organisation.area-values",
        ("brief.epoch.phases",),
    )
    (began,) = of(events, ev.AllocationBegan)
    assert (began.empire_order, began.event_order) == ((0, 1, 2), (2, 1, 0))
    assert (began.rule, began.cites) == (
        "brief.organisation.simultaneous",
        ("brief.organisation.empire-cards", "brief.organisation.event-cards"),
    )
    set_out = of(events, ev.CardsPassed)
    assert {p.rule for p in set_out} == {"brief.organisation.set-out"}
    assert {len(p.cards) for p in set_out} == {3}  # one of each kind per colour
    assert RULES.awaited_seats(state) == {0, 2}
    assert {c.type for c in listed(state, 0)} == {"select_empire_card"}
    assert {c.type for c in listed(state, 2)} == {"select_event_card"}
    assert len(listed(state, 0)) == 3 and len(listed(state, 2)) == 3
    pile = [c.arg("card") for c in listed(state, 0)]
    assert all(card not in view_text(state, 1) for card in pile)  # hidden from the others
    assert all(card not in view_text(state, None) for card in pile)


def test_a_sealed_choice_is_hidden_and_the_round_ends_when_both_have_chosen():
    _, state = started(3)
    empire = listed(state, 0)[0]
    events, state = act(state, empire, seat=0)
    (chosen,) = of(events, ev.CardChosen)
    assert chosen.visibility.seats == {0} and chosen.visibility.redacted["seat"] == 0
    assert chosen.rule == "brief.organisation.empire-cards"
    assert "brief.organisation.simultaneous" in chosen.cites
    assert RULES.awaited_seats(state) == {2} and state.allocation.round == 0
    events, state = act(state, listed(state, 2)[1], seat=2)
    assert of(events, ev.CardChosen)[0].rule == "brief.organisation.event-cards"
    assert of(events, ev.AllocationRoundEnded)[0].rule == "brief.organisation.simultaneous"
    passed = of(events, ev.CardsPassed)
    assert {(p.kind, p.colour, len(p.cards)) for p in passed} == {("empire", 1, 2), ("event", 1, 2)}
    assert state.colours[0].empire == empire.arg("card")


def test_in_a_three_player_game_the_middle_player_chooses_both_kinds():
    """brief.organisation.middle-player (FAQ: Simultaneous Card Selection)."""
    _, state = started(3)
    _, state = act(state, listed(state, 0)[0], seat=0)
    _, state = act(state, listed(state, 2)[0], seat=2)
    assert RULES.awaited_seats(state) == {1}
    kinds = {c.type for c in listed(state, 1)}
    assert kinds == {"select_empire_card", "select_event_card"}
    events, state = act(state, listed(state, 1)[0], seat=1)
    (chosen,) = of(events, ev.CardChosen)
    assert "brief.organisation.middle-player" in chosen.cites
    assert RULES.awaited_seats(state) == {1}  # the other kind is still to choose
    events, state = act(state, listed(state, 1)[0], seat=1)
    taken = of(events, ev.LastCardTaken)  # the last colour takes the one card left
    assert {(t.colour, t.kind) for t in taken} == {(2, "empire"), (0, "event")}
    assert {t.rule for t in taken} == {"brief.organisation.last-card"}
    assert all(not t.visibility.is_public for t in taken)
    assert all(c.empire is not None for c in state.colours)
    assert all(len(p.hand) == 3 for p in state.players)
    assert state.stage is Stage.TURNS


def test_an_empire_nobody_holds_is_skipped():
    _, state = started(3)
    while state.stage is Stage.ALLOCATING:
        seat = min(RULES.awaited_seats(state))
        events, state = act(state, listed(state, seat)[0], seat=seat)
    skipped = {e.empire for e in of(events, ev.EmpireSkipped)}
    assert {(e.rule, e.cites) for e in of(events, ev.EmpireSkipped)} == {
        ("brief.turns.skipped", ("brief.turns.order",))
    }
    (declared,) = of(events, ev.TurnBegan)
    assert declared.rule == "brief.turns.declare" and declared.empire == state.turn.empire
    held = {c.empire for c in state.colours}
    order = [e.id for e in RULES.tables.empires_by_epoch[1]]
    called = order[: state.call_index]
    assert skipped == set(called) - held
    assert state.turn is not None and state.turn.empire in held


# --- Event cards ------------------------------------------------------------------------------


def opening(
    colour: int, empire: str, hand: tuple[str, ...], epoch: int = 1, gold=(10, 10, 10), lands=None
):
    state = table(lands or {}, epoch=epoch, gold=gold)
    players = list(state.players)
    players[colour] = replace(players[colour], hand=hand)
    return replace(state, players=tuple(players), turn=Turn(colour, empire))


def test_a_red_card_is_played_before_establishing_and_never_after():
    state = opening(0, "sumerians", ("kingdom-of-elam",))
    assert play("play_event", card="kingdom-of-elam", target="zagros") in listed(state)
    _, later = act(state, play("establish"))
    assert not [c for c in listed(later) if c.type == "play_event"]
    refused = RULES.refusal(later, 0, play("play_event", card="kingdom-of-elam", target="zagros"))
    assert refused.rule == "brief.events.red"


def test_a_card_costs_its_gold_and_needs_it():
    state = opening(0, "sumerians", ("kingdom-of-elam",), gold=(2, 5, 6))
    events, state = act(state, play("play_event", card="kingdom-of-elam", target="zagros"))
    (played,) = of(events, ev.EventCardPlayed)
    assert played.price == 2 and state.colours[0].gold == 0
    assert played.rule == "brief.events.kingdom"
    assert played.cites == (
        "brief.events.any-number",
        "brief.events.red",
        "brief.events.price",
        "brief.events.discard",
    )
    assert "kingdom-of-elam" not in state.players[0].hand  # discarded
    poor = opening(0, "sumerians", ("kingdom-of-elam",), gold=(1, 5, 6))
    assert not [c for c in listed(poor) if c.type == "play_event"]


def test_an_event_empire_brings_supply_armies_its_own_array_and_resigns_when_done():
    """brief.events.event-empire (FAQ: Civil War & Minor Empires use the Array, overrun,
    build) and brief.events.resigned-after (FAQ: Event Cards and Surrender)."""
    state = opening(0, "sumerians", ("kingdom-of-elam", "leader"))
    events, state = act(state, play("play_event", card="kingdom-of-elam", target="zagros"))
    (raised,) = of(events, ev.EventEmpireRaised)
    assert raised.armies == 2 and raised.capital and not raised.barbarian
    assert (raised.rule, raised.cites) == (
        "brief.events.event-empire",
        ("brief.events.supply-armies", "brief.events.kingdom"),
    )
    force = state.turn.active
    assert force.event and force.array == 1 and force.lands == ("zagros",)
    assert state.colours[0].supply == 28
    assert state.land("zagros").buildings == {"capital"}
    # one card active at a time: the Leader waits until the Kingdom is done
    assert not [c for c in listed(state) if c.type == "play_event"]
    assert RULES.refusal(state, 0, play("play_event", card="leader", target="")).rule == (
        "brief.events.one-active"
    )
    assert play("establish") not in listed(state)
    _, state = act(state, expand("tigris"))
    events, state = act(state, END)
    assert of(events, ev.EventEmpireResigned)
    assert not state.land("zagros").standing and not state.land("tigris").standing
    assert state.turn.phase is Phase.OPENING and state.turn.forces == ()
    assert play("play_event", card="leader", target="") in listed(state)
    assert play("establish") in listed(state)


def test_no_card_is_played_once_the_dice_are_rolled_or_during_overruns():
    lands = {"tigris": standing(0), "zagros": resigned(1), "persia": resigned(1)}
    state = playing(table(lands, gold=[10, 10, 10]), 0, "sumerians")
    state = holding(state, "leader")
    assert play("play_event", card="leader", target="") in listed(state)
    _, failed = act(state, expand("zagros"), dice=[2, 1, 6])
    assert failed.turn.invasion is not None
    assert not [c for c in listed(failed) if c.type == "play_event"]
    refused = RULES.refusal(failed, 0, play("play_event", card="leader", target=""))
    assert refused.rule == "brief.events.not-mid-invasion"
    _, overrunning = act(state, expand("persia"), dice=[6, 1, 1])
    assert overrunning.turn.overrun is not None
    assert not [c for c in listed(overrunning) if c.type == "play_event"]


def test_a_leader_adds_one_to_every_invasion_of_the_turn():
    lands = {"tigris": standing(0), "persia": resigned(1), "zagros": resigned(1)}
    state = playing(table(lands, gold=[10, 10, 10]), 0, "sumerians")
    state = holding(state, "leader")
    events, state = act(state, play("play_event", card="leader", target=""))
    (played,) = of(events, ev.EventCardPlayed)
    assert played.rule == "brief.events.leader" and "brief.events.black" in played.cites
    assert "leader" not in state.players[0].hand and state.turn.leader  # it holds for the turn
    events, state = act(state, expand("persia"), dice=[3, 1, 3])
    (roll,) = of(events, ev.InvasionRolled)
    assert (roll.leader, roll.points, roll.success) == (1, 1, True)
    assert "brief.events.leader" in roll.cites
    events, state = act(state, expand("zagros"), dice=[4, 1, 3])
    (roll,) = of(events, ev.InvasionRolled)
    assert (roll.leader, roll.points, roll.success) == (1, 2, True)


def test_weaponry_rolls_one_more_die_in_the_next_invasion_only():
    lands = {"tigris": standing(0), "persia": resigned(1), "zagros": resigned(1)}
    state = playing(table(lands, gold=[10, 10, 10]), 0, "sumerians")
    state = holding(
        state,
        "weaponry",
    )
    _, state = act(state, play("play_event", card="weaponry", target=""))
    events, state = act(state, expand("persia"), dice=[1, 1, 4, 3])
    (roll,) = of(events, ev.InvasionRolled)
    assert roll.attack == (1, 1, 4) and roll.success and not state.turn.weaponry
    assert "brief.events.weaponry" in roll.cites
    events, state = act(state, expand("zagros"), dice=[6, 1, 2])
    (roll,) = of(events, ev.InvasionRolled)
    assert len(roll.attack) == 2


def test_israel_is_a_kingdom_played_in_a_later_epoch_at_the_start_of_a_turn():
    """brief.events.israel (FAQ: Israel Event Card)."""
    state = opening(0, "greeks", ("israel", "kingdom-of-elam"), epoch=2)
    cards = {c.arg("card") for c in listed(state) if c.type == "play_event"}
    assert cards == {"israel"}  # Elam's Epoch has passed
    events, state = act(state, play("play_event", card="israel", target="levant"))
    (played,) = of(events, ev.EventCardPlayed)
    assert played.rule == "brief.events.israel" and "brief.events.red" in played.cites


def test_civil_war_rises_in_a_land_another_player_holds():
    lands = {"persia": resigned(1, "city"), "tigris": resigned(2, "capital")}
    state = opening(0, "sumerians", ("civil-war-1",), lands=lands)
    targets = {c.arg("target") for c in listed(state) if c.arg("card") == "civil-war-1"}
    assert targets == {"persia"}  # never a capital
    events, state = act(state, play("play_event", card="civil-war-1", target="persia"))
    (raised,) = of(events, ev.EventEmpireRaised)
    assert raised.removed_colour == 1 and raised.removed == () and raised.barbarian
    assert raised.cites == ("brief.events.supply-armies", "brief.events.civil-war")
    assert state.land("persia").colour == 0 and state.land("persia").buildings == {"city"}


def test_only_the_barbarian_event_places_an_army_in_a_barren_land():
    state = opening(0, "sumerians", ("barbarians-1",))
    targets = {c.arg("target") for c in listed(state) if c.arg("card") == "barbarians-1"}
    assert targets == {land.id for land in RULES.tables.board.lands.values() if land.barren}
    events, state = act(state, play("play_event", card="barbarians-1", target="sahara"))
    assert state.land("sahara").standing and state.turn.active.barbarian
    assert of(events, ev.EventEmpireRaised)[0].cites[-1] == "brief.events.barbarians"
    expansions = {c.arg("land") for c in listed(state) if c.type == "expand"}
    assert "numidia" in expansions and "arabian-desert" not in expansions


def test_astronomy_places_a_fleet_for_the_turn():
    state = playing(table({"gaul": standing(0)}, epoch=5, gold=[9, 9, 9]), 0, "spain")
    state = holding(
        state,
        "astronomy-5",
    )
    assert expand("southern-africa", "sea") not in listed(state)
    events, state = act(state, play("play_event", card="astronomy-5", target="atlantic-ocean"))
    assert "atlantic-ocean" in state.turn.fleets and state.turn.astronomy
    assert of(events, ev.EventCardPlayed)[0].rule == "brief.events.astronomy"
    assert expand("southern-africa", "sea") in listed(state)


# --- the Conclusion and the end --------------------------------------------------------------


def last_turn(epoch: int, gold, hand=()):
    """Colour 0 plays the last Empire of `epoch`; everything else has been called."""
    empire = RULES.tables.empires_by_epoch[epoch][-1]
    state = table({empire.start_land: standing(0)}, epoch=epoch, gold=gold)
    players = list(state.players)
    players[0] = replace(players[0], hand=tuple(hand))
    colours = list(state.colours)
    colours[0] = replace(colours[0], empire=empire.id)
    state = replace(state, players=tuple(players), colours=tuple(colours), call_index=7)
    return playing(state, 0, empire.id, array=0)


def test_red_cards_unplayed_in_their_epoch_are_discarded_unseen():
    state = last_turn(1, gold=[3, 8, 9], hand=("leader", "kingdom-of-elam", "israel"))
    events, state = act(state, END)
    (discarded,) = of(events, ev.RedCardsDiscarded)
    assert discarded.cards == ("kingdom-of-elam",) and discarded.visibility.seats == {0}
    assert state.players[0].hand == ("leader", "israel")


def test_stacked_gold_markers_are_separated_at_the_conclusion():
    """brief.gold.stack and brief.conclusion.adjust: the Assyrians' colour collects 3 (presence
    in the Middle East) and lands on top of colour 1's marker on space 4; at the Conclusion the
    top marker moves forward to the next empty space."""
    state = last_turn(1, gold=[1, 4, 12])
    events, state = act(state, END)
    (collected,) = of(events, ev.GoldCollected)
    assert collected.items == (("middle-east", 3),)
    assert collected.cites == ("brief.gold.presence", "brief.gold.stack")
    (adjusted,) = of(events, ev.GoldTrackAdjusted)
    assert adjusted.moves == ((0, 4, 5),)
    assert adjusted.rule == "brief.conclusion.adjust"
    assert [c.gold for c in state.colours] == [5, 4, 12]


def test_the_richest_keeps_one_of_three_bonus_tokens_the_second_one_of_two_the_third_the_last():
    state = last_turn(2, gold=[3, 20, 30])
    events, state = act(state, END)
    (began,) = of(events, ev.BonusDrawBegan)
    assert began.order == (2, 1, 0) and began.rule == "brief.conclusion.bonus-first"
    (offered,) = of(events, ev.BonusTokensOffered)
    assert offered.colour == 2 and len(offered.tokens) == 3
    assert offered.rule == "brief.conclusion.bonus-first"
    assert offered.visibility.seats == {2}
    assert RULES.awaited_seats(state) == {2}
    assert all(t not in view_text(state, 1) for t in offered.tokens)
    events, state = act(state, listed(state)[1], seat=2)
    (kept,) = of(events, ev.BonusTokenKept)
    assert kept.visibility.seats == {2} and kept.token == offered.tokens[1]
    assert (kept.rule, kept.cites) == ("brief.conclusion.bonus-first", ("brief.conclusion.hidden",))
    (second,) = of(events, ev.BonusTokensOffered)
    assert second.colour == 1 and len(second.tokens) == 2
    assert second.rule == "brief.conclusion.bonus-second"
    events, state = act(state, listed(state)[0], seat=1)
    kept = of(events, ev.BonusTokenKept)
    assert [k.colour for k in kept] == [1, 0]  # the third takes the last without a choice
    assert {k.rule for k in kept} == {"brief.conclusion.bonus-second"}
    assert of(events, ev.BonusDrawEnded)[0].rule == "brief.conclusion.bonus-second"
    assert state.epoch == 3 and state.stage is Stage.ALLOCATING
    assert all(len(c.bonus) == 1 for c in state.colours)
    assert view_text(state, 0).count(state.colours[2].bonus[0]) == 0


def test_the_game_ends_after_epoch_six_with_the_bonus_tokens_added_and_ties_shared():
    state = last_turn(6, gold=[1, 40, 50])
    colours = list(state.colours)
    colours[1] = replace(colours[1], bonus=("bonus-01",))  # worth 1
    state = replace(state, colours=tuple(colours))
    _, state = act(state, END)
    _, state = act(state, listed(state)[0], seat=2)  # bonus-16 (4): 54
    events, state = act(state, listed(state)[0], seat=1)  # bonus-17 (5): 40 + 1 + 5
    (revealed,) = of(events, ev.BonusTokensRevealed)
    assert revealed.values[1] == 6
    assert (revealed.rule, revealed.cites) == (
        "brief.end.reveal-bonus",
        ("brief.end.after-epoch-6",),
    )
    (ended,) = of(events, ev.GameEnded)
    assert state.stage is Stage.OVER
    assert (ended.rule, ended.cites) == (
        "brief.end.most-gold",
        ("brief.object.most-gold", "brief.end.ties"),
    )
    assert ended.scores[2] == 54 and ended.scores[1] == 46
    assert ended.ranking[0] == (2,)
    tied = RULES.result(replace(state, final=(5, 9, 9), result=((1, 2), (0,))))
    assert [(r["seat"], r["place"]) for r in tied["ranking"]] == [(1, 1), (2, 1), (0, 3)]


# --- the two-player variant -------------------------------------------------------------------


def test_two_players_take_two_colours_each_alternating_round_the_table():
    events, state = started(2)
    assert [c.seat for c in state.colours] == [0, 1, 0, 1]
    (drawn,) = of(events, ev.StartingPlayerDrawn)
    assert "brief.two-player.colours" in drawn.cites


def test_a_players_colour_surrenders_to_its_other_colour():
    lands = {"tigris": standing(0), "zagros": resigned(2, "city")}
    state = playing(table(lands, players=2), 0, "sumerians")
    events, state = act(state, expand("zagros"))
    (surrendered,) = of(events, ev.Surrendered)
    assert surrendered.from_colour == 2 and surrendered.rule == "brief.two-player.surrender"
    assert state.land("zagros").colour == 0 and state.land("zagros").buildings == frozenset()


def test_two_players_win_with_their_colours_combined_gold():
    state = table({}, players=2, gold=[10, 30, 25, 1])
    result = RULES.result(state)
    assert result["scores"] == [35, 31]
    assert result["ranking"][0]["seat"] == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_count_sets_out_a_card_of_each_kind_per_colour(players):
    events, state = started(players)
    colours = len(state.colours)
    passed = of(events, ev.CardsPassed)
    assert sorted(len(p.cards) for p in passed) == [colours, colours]


def test_an_event_empires_resigned_armies_are_surrendered_to_by_the_empire():
    """FAQ, Event Cards and Surrender: the Kingdom's armies lie down once it is resolved, and
    the Empire established after it takes them over by surrender, without dice."""
    state = opening(0, "sumerians", ("kingdom-of-elam",))
    _, state = act(state, play("play_event", card="kingdom-of-elam", target="zagros"))
    _, state = act(state, END)
    assert state.land("zagros").colour == 0 and not state.land("zagros").standing
    _, state = act(state, play("establish"))
    events, state = act(state, expand("zagros"))
    (surrendered,) = of(events, ev.Surrendered)
    assert surrendered.from_colour == 0 and not of(events, ev.InvasionRolled)
    assert state.land("zagros").standing and state.land("zagros").buildings == {"city"}
