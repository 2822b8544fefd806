"""The Avalon Hill 2001 rulings a second audit found departing from the text (issue 49), fixed
together in revision 11: the Allies cards in the Lesser deck, Migrants placing both their
armies, and the Active Empire choosing which manned fleets Naval Control reclaims. Games
created under an earlier revision keep the rulings they were played with."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.core.chance import Chance, ScriptedFaces
from domain.core.errors import RuleViolation
from domain.core.messages import Command
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.context import Ctx
from domain.hotw.editions.ah2001.model import Ah2001State, Cell, SeaHeld, Stage
from domain.hotw.editions.ah2001.revisions import (
    ALLIES_IN_THE_DECK,
    MIGRANTS_PLACE_TWO,
    RECLAIM_CHOSEN,
)
from tests.unit.ah2001.test_engine import RULES, SETUP, before_expansion, of
from tests.unit.ah2001.test_rulings import act_at
from tests.unit.ah2001.test_tables import rulebook

# --- 1. The Allies cards --------------------------------------------------------------------------


def types_of(cards: list) -> set[str]:
    """A card's type is its kind, the coin cards' their own (Population Explosion, Civil
    Service)."""
    return {c.id if c.kind == "coins" else c.kind for c in cards}


def test_the_rule_text_counts_49_lesser_events_of_22_types_allies_the_last_row() -> None:
    text = rulebook()
    assert "Event Cards (22 Greater Events, 49 Lesser Events)" in text
    assert "There are 22 types of Lesser Events" in text
    assert "All\tAllies\t2\tThe Active Empire receives two coins" in text


def test_event_cards_are_22_greater_events_and_49_lesser_events_of_22_types() -> None:
    """The Contents: "Event Cards (22 Greater Events, 49 Lesser Events)"; Chapter IV: "There
    are 22 types of Lesser Events"; the table's last row: "All | Allies | 2"."""
    tables = RULES.at_revision(ALLIES_IN_THE_DECK).tables
    assert len(tables.deck("greater")) == 22
    assert len(tables.deck("lesser")) == 49
    assert tables.deck("lesser").count("allies") == 2
    assert len(types_of([c for c in tables.in_force if c.deck == "lesser"])) == 22


def test_games_created_before_the_allies_keep_their_47_lesser_cards() -> None:
    tables = RULES.at_revision(ALLIES_IN_THE_DECK - 1).tables
    assert len(tables.deck("lesser")) == 47 and "allies" not in tables.deck("lesser")
    assert "allies" not in tables.events_by_id


north = Command.of("place_army", land="northern-apennines", via="land")


def allies_played(**turn: object) -> Ah2001State:
    """The Romans (seat 0) played Allies and began in Southern Apennines; they hold Northern
    Apennines too, and seat 1 holds Danubia next to it (Central Europe lies vacant)."""
    state = before_expansion("romans", 3, ("allies",), **turn)
    events, state = act_at(ALLIES_IN_THE_DECK, state, Command.of("play_event", card="allies"))
    (played,) = of(events, ev.EventCardPlayed)
    assert (played.coins, played.rule) == (2, "ah2001.events.allies")
    assert "ah2001.events.coins" in played.cites
    _, state = act_at(ALLIES_IN_THE_DECK, state, Command.of("begin_expansion"))
    _, state = act_at(ALLIES_IN_THE_DECK, state, north)
    return replace(state, lands={**state.lands, "danubia": Cell(1, 2)})


def lose_every_army_but(state: Ah2001State, left: int) -> Ah2001State:
    """The pool spent but for `left` armies, one of them lost in combat (a coin may save it)."""
    assert state.turn is not None
    return replace(state, turn=replace(state.turn, pool=left, lost=1))


def placements(state: Ah2001State) -> set[str]:
    return {str(c.arg("land")) for c in RULES.legal_actions(state, 0) if c.type == "place_army"}


def test_armies_bought_with_the_allies_coins_may_only_expand_into_unoccupied_lands() -> None:
    """Allies: "These coins may be used normally except that any armies bought with the coins
    may only be used to expand into unoccupied Lands. These armies may not be used to
    attack." """
    state = lose_every_army_but(allies_played(), 0)
    events, state = act_at(ALLIES_IN_THE_DECK, state, Command.of("recover_army"))
    assert of(events, ev.CoinSpent)[0].rule == "ah2001.events.coins.save-army"
    assert state.turn is not None and (state.turn.pool, state.turn.allied) == (1, 1)
    offered = placements(state)
    assert "danubia" not in offered and "central-europe" in offered
    attack = Command.of("place_army", land="danubia", via="land")
    assert not RULES.is_legal(state, 0, attack)
    assert RULES.refusal(state, 0, attack).rule == "ah2001.events.allies"
    with pytest.raises(RuleViolation):
        act_at(ALLIES_IN_THE_DECK, state, attack)
    vacant = Command.of("place_army", land="central-europe", via="land")
    _, state = act_at(ALLIES_IN_THE_DECK, state, vacant)
    assert state.land("central-europe").owner == 0
    assert state.turn is not None and (state.turn.pool, state.turn.allied) == (0, 0)


def test_the_allies_coins_may_be_used_normally_for_a_fort() -> None:
    """ "These coins may be used normally": a fort bought with one stands as any fort, and
    the army another card's coin saves attacks as any army."""
    state = allies_played()
    _, state = act_at(ALLIES_IN_THE_DECK, state, Command.of("buy_fort"))
    assert state.turn is not None and (state.turn.coins, state.turn.allied_coins) == (1, 1)
    assert state.turn.free_forts == 1


def test_a_coin_of_another_card_saves_an_army_free_to_attack() -> None:
    state = allies_played(coins=1)  # one coin of another card, before Allies' two
    state = lose_every_army_but(state, 0)
    _, state = act_at(ALLIES_IN_THE_DECK, state, Command.of("recover_army"))
    assert state.turn is not None and (state.turn.allied, state.turn.allied_coins) == (0, 2)
    assert "danubia" in placements(state)


# --- 2. Migrants place two armies -----------------------------------------------------------------

NORTH_AMERICA = (
    "appalachia",
    "california",
    "canada",
    "central-america",
    "great-lakes",
    "great-plains",
    "mexican-valley",
    "rocky-mountains",
)


def migrants_played(revision: int, vacant: tuple[str, ...]) -> Ah2001State:
    """Seat 0 (the Han, Epoch III) plays Migrants: North America; seat 1 holds every land of
    North America but `vacant`."""
    state = before_expansion("han-dynasty", 3, ("migrants-north-america",))
    held = {land: Cell(1, 2) for land in NORTH_AMERICA if land not in vacant}
    state = replace(state, lands=held)
    played = Command.of("play_event", card="migrants-north-america")
    _, state = act_at(revision, state, played)
    return state


STOP = Command.of("stop_targeting")


def test_migrants_place_two_armies_from_epoch_i_in_any_two_vacant_lands_in_north_america() -> None:
    """Migrants: North America: "Place two armies from Epoch I in any two Lands in North
    America. These armies must occupy vacant Lands." (Disaster, by contrast: "Choose up to
    two".)"""
    state = migrants_played(MIGRANTS_PLACE_TWO, ("canada", "great-plains", "california"))
    assert STOP not in RULES.legal_actions(state, 0)
    assert RULES.refusal(state, 0, STOP).rule == "ah2001.events.migrants"
    _, state = act_at(MIGRANTS_PLACE_TWO, state, Command.of("choose_target", target="canada"))
    legal = RULES.legal_actions(state, 0)
    assert STOP not in legal  # two vacant lands are left for the second army
    with pytest.raises(RuleViolation):
        act_at(MIGRANTS_PLACE_TWO, state, STOP)
    assert {str(c.arg("target")) for c in legal} == {"great-plains", "california"}
    events, state = act_at(
        MIGRANTS_PLACE_TWO, state, Command.of("choose_target", target="california")
    )
    (landed,) = of(events, ev.ArmiesLanded)
    assert (landed.lands, landed.figure) == (("canada", "california"), 1)


def test_migrants_stop_short_only_when_fewer_vacant_lands_are_left_than_armies() -> None:
    """Reading (ah2001.events.migrants): with one vacant land the player places one army
    there, or none."""
    state = migrants_played(MIGRANTS_PLACE_TWO, ("canada",))
    assert STOP in RULES.legal_actions(state, 0)
    _, state = act_at(MIGRANTS_PLACE_TWO, state, Command.of("choose_target", target="canada"))
    assert state.land("canada").owner == 0 and state.turn is not None
    assert state.turn.pending is None  # no vacant land left: the card has acted


def test_games_created_before_the_fix_let_migrants_stop_after_one_army() -> None:
    state = migrants_played(MIGRANTS_PLACE_TWO - 1, ("canada", "great-plains", "california"))
    rules = RULES.at_revision(MIGRANTS_PLACE_TWO - 1)
    assert STOP in rules.legal_actions(state, 0)
    _, state = act_at(MIGRANTS_PLACE_TWO - 1, state, Command.of("choose_target", target="canada"))
    assert STOP in rules.legal_actions(state, 0)


# --- 3. Naval Control: the Active Empire chooses which fleets are reclaimed -----------------------


def macedonia_called(revision: int, counters: int = 1) -> Ah2001State:
    """Epoch III, naval control: Macedonia (seat 0; three seas of navigation) is called next
    with `counters` fleet counters left; fleets with armies hold the North Sea (seat 1, Epoch
    I), and the Bay of Bengal, the Caribbean and the Sea of Japan (seat 2, Epoch II)."""
    state = RULES.at_revision(revision).initial_state(SETUP)
    seas = {
        "north-sea": SeaHeld(1, 1),
        "bay-of-bengal": SeaHeld(2, 2),
        "caribbean-sea": SeaHeld(2, 2),
        "sea-of-japan": SeaHeld(2, 2),
    }
    return replace(
        state,
        epoch=3,
        stage=Stage.TURNS,
        options=frozenset({"naval_control"}),
        holders={"macedonia": 0},
        call_index=1,
        seas=seas,
        supply={**state.supply, "counters": counters},
    )


def proceed(revision: int, state: Ah2001State) -> tuple[list, Ah2001State]:
    """The rules run on by themselves from `state` (as after the last Empire's turn)."""
    rules = RULES.at_revision(revision)
    ctx = Ctx(rules.tables, state, Chance(ScriptedFaces(()), 0))
    rules.proceed(ctx)
    return ctx.events, ctx.state


def test_the_active_empire_decides_which_fleets_to_take_within_the_oldest_epoch() -> None:
    """Naval Control: "fleets with armies are removed from the board starting with the oldest
    Epoch first. The Active Empire (who needs the fleet markers) decides which fleets to take
    within this Epoch and in what order." Macedonia lacks two counters: the North Sea (Epoch I)
    goes first, then its player chooses one of Epoch II's three."""
    events, state = proceed(RECLAIM_CHOSEN, macedonia_called(RECLAIM_CHOSEN))
    (forced,) = of(events, ev.FleetsReclaimed)
    assert forced.waters == ("north-sea",) and forced.rule == "ah2001.option.naval-control"
    assert not of(events, ev.TurnBegan) and state.turn is None
    assert RULES.awaited_seats(state) == {0}
    assert RULES.legal_actions(state, 0) == [
        Command.of("reclaim_fleet", water=w)
        for w in ("bay-of-bengal", "caribbean-sea", "sea-of-japan")
    ]
    assert RULES.legal_actions(state, 2) == []
    refused = RULES.refusal(state, 0, Command.of("reclaim_fleet", water="north-sea"))
    assert refused.rule == "ah2001.option.naval-control"
    events, state = act_at(RECLAIM_CHOSEN, state, Command.of("reclaim_fleet", water="sea-of-japan"))
    (chosen,) = of(events, ev.FleetReclaimed)
    assert (chosen.seat, chosen.water) == (0, "sea-of-japan")
    (began,) = of(events, ev.TurnBegan)
    assert len(began.fleets) == 3 and state.turn is not None and state.turn.seat == 0
    assert set(state.seas) == {"bay-of-bengal", "caribbean-sea"}


def test_a_whole_oldest_epoch_needed_leaves_without_a_choice() -> None:
    state = replace(
        macedonia_called(RECLAIM_CHOSEN, counters=0),
        seas={
            "north-sea": SeaHeld(1, 1),
            "bay-of-bengal": SeaHeld(2, 2),
            "caribbean-sea": SeaHeld(2, 2),
        },
    )
    events, state = proceed(RECLAIM_CHOSEN, state)
    assert [e.waters for e in of(events, ev.FleetsReclaimed)] == [
        ("north-sea",),
        ("bay-of-bengal", "caribbean-sea"),
    ]
    assert of(events, ev.TurnBegan) and not state.seas


def test_games_created_before_the_fix_reclaim_within_an_epoch_alphabetically() -> None:
    revision = RECLAIM_CHOSEN - 1
    events, state = proceed(revision, macedonia_called(revision))
    (reclaimed,) = of(events, ev.FleetsReclaimed)
    assert reclaimed.waters == ("north-sea", "bay-of-bengal")
    assert set(state.seas) == {"caribbean-sea", "sea-of-japan"}
    assert of(events, ev.TurnBegan)
