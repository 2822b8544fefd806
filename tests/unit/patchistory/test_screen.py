"""Behind the Player Screen (patchistory.hidden.screen), event by event: two tables that differ
only in what one seat keeps behind its screen (or in what it hands over behind it) must give
every other seat and a spectator the same events, so that nobody can rebuild that seat's Goods
from what they are shown. Revision 2 announced these amounts (the leak revision 3 closes);
its games still decide and replay as they were recorded."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from domain.core.chance import Chance
from domain.core.messages import Event
from domain.patchistory.context import Ctx
from domain.patchistory.engine import proceed
from domain.patchistory.eras import begin_round
from domain.patchistory.model import Cover, PState
from domain.patchistory.negotiation_and_war import begin_conflicts
from domain.patchistory.production import produce
from domain.patchistory.revisions import GOODS_BEHIND_THE_SCREEN
from domain.patchistory.vote import ProsperityScored, begin_vote
from service.chance import HmacSource
from tests.unit.patchistory.support import (
    PACK,
    RULES,
    act_with,
    civ_of,
    fresh,
    managing,
    square,
    with_capital,
)

OLD = GOODS_BEHIND_THE_SCREEN - 1
WAR = PACK.general.index("war")
Viewer = int | None


def seen_by(events: Iterable[Event], viewer: Viewer) -> list[tuple[str, Any]]:
    """The events as `viewer` is shown them (a private event shows its redacted form)."""
    return [
        (e.type, e.data() if e.visibility.shows_to(viewer) else dict(e.visibility.redacted or {}))
        for e in events
    ]


def system_step(rules: Any, state: PState, step: Callable[[Ctx], None]) -> tuple[PState, list]:
    c = Ctx(rules.pack, state, Chance(HmacSource(b"screen"), 0))
    step(c)
    return c.state, c.events


def upkeep(rules: Any, food: int) -> tuple[PState, list[Event]]:
    """Production and Worker upkeep with 5 Food due and `food` behind seat 0's screen."""
    state = fresh(3)
    state = civ_of(state, 0, born=7, food=food, culture=20, workers=((0, 0), (0, 1)))
    return system_step(rules, dataclasses.replace(state, phase="production"), produce)


def threat(rules: Any, coin: int) -> tuple[PState, list[Event]]:
    """Seat 0 threatens a weaker seat 1 for Coin when seat 1 holds `coin`."""
    strong = with_capital([square((0, 0), "Palace", {"politics": 6, "military": 3})])
    strong = strong.at_revision(rules.revision)
    state = managing(fresh(3), 0, 6, phase="diplomacy")
    for seat in (1, 2):
        state = civ_of(state, seat, workers=(), covers=(Cover(0, 0, "granary-1", False),))
    state = civ_of(state, 1, coin=coin)
    state = civ_of(state, 0, workers=())
    return act_with(strong, state, 0, "threaten", to=1, demand="coin")


def aid(rules: Any, food: int, coin: int, resource: int) -> tuple[PState, list[Event]]:
    """Seat 0 offers seat 1 Aid of this mix, and seat 1 accepts it."""
    state = civ_of(managing(fresh(3), 0, 2, phase="diplomacy"), 0, food=3, coin=3, resource=3)
    state, offered = act_with(rules, state, 0, "aid", to=1, food=food, coin=coin, resource=resource)
    state, answered = act_with(rules, state, 1, "accept_aid")
    return state, [*offered, *answered]


def no_coin(rules: Any, culture: int) -> tuple[PState, list[Event]]:
    """An Auction opens with seat 1 holding no Coin and `culture` Culture."""
    state = civ_of(fresh(3), 1, coin=0, culture=culture)
    return system_step(
        rules,
        dataclasses.replace(state, phase="production"),
        lambda c: begin_round(c, 1, 2, 1),
    )


def prosperity(rules: Any, culture: int, votes: int) -> tuple[PState, list[Event]]:
    """A 4-player Vote where all tie for every card (every seat is 4th and loses half the
    Votes on each scored card) and seat 1 holds `culture` Culture and `votes` Votes."""
    state = fresh(4)
    for seat in range(4):
        state = civ_of(state, seat, votes=3, workers=(), culture=20)
    state = civ_of(state, 1, votes=votes, culture=culture)
    state = dataclasses.replace(state, round=5, serial=5, phase="chichen", turn=-1, pending=())
    state = dataclasses.replace(state, won=())
    state, events = system_step(rules, state, begin_vote)
    for seat in range(4):
        state, more = act_with(
            rules, state, seat, "choose_card", card=state.civs[seat].prosperity[0]
        )
        events += more
    for per_card in (1, 1, 1, 0):
        for seat in range(4):
            state, more = act_with(rules, state, seat, "vote", votes=per_card)
            events += more
    return state, events


def war(rules: Any, culture: int) -> tuple[PState, list[Event]]:
    """Seat 1 defends and wins by 5 against an aggressor seat 0 holding `culture` Culture."""
    palace = with_capital([square((0, 0), "Palace", {"politics": 1})])
    palace = palace.at_revision(rules.revision)
    state = fresh(3)
    for seat in (0, 1):
        state = civ_of(state, seat, workers=(), resource=10, culture=20)
    state = civ_of(state, 0, born=1, culture=culture)
    route = dataclasses.replace(state.route(1), workers=((0, WAR),), declared=True, aggressors=(0,))
    state = dataclasses.replace(
        state.with_route(route), phase="movement", turn=-1, pending=(), won=()
    )

    def fought(c: Ctx) -> None:
        begin_conflicts(c)
        proceed(c)

    state, events = system_step(palace, state, fought)
    state, mine = act_with(palace, state, 0, "commit_strength", resources=0, votes=0)
    state, theirs = act_with(palace, state, 1, "commit_strength", resources=5, votes=0)
    return state, [*events, *mine, *theirs]


Play = Callable[..., tuple[PState, list[Event]]]
CASES: dict[str, tuple[Play, dict[str, int], dict[str, int], int, set[Viewer]]] = {
    # name: (the table, one screen, another, whose screen, who is shown the difference)
    "upkeep short of Food": (upkeep, {"food": 9}, {"food": 1}, 0, {0}),
    "a Threat taking what there is": (threat, {"coin": 5}, {"coin": 2}, 1, {0, 1}),
    "the mix of an Aid": (
        aid,
        {"food": 1, "coin": 1, "resource": 1},
        {"food": 3, "coin": 0, "resource": 0},
        1,
        {0, 1},
    ),
    "the spoils of a crushing War": (war, {"culture": 20}, {"culture": 3}, 0, {0, 1}),
    "Culture paid for a Coin": (no_coin, {"culture": 20}, {"culture": 2}, 1, {1}),
    "a Prosperity loss and unused Votes": (
        prosperity,
        {"culture": 20, "votes": 3},
        {"culture": 1, "votes": 8},
        1,
        set(),  # its own Votes and Culture it reads from its state
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_what_is_behind_a_screen_cannot_be_told_from_the_events_shown_to_others(case: str):
    play, one, other, seat, insiders = CASES[case]
    rules = RULES.at_revision(GOODS_BEHIND_THE_SCREEN)
    (state_a, events_a), (state_b, events_b) = play(rules, **one), play(rules, **other)
    assert state_a.civs[seat] != state_b.civs[seat], "the two tables differ behind the screen"
    outsiders: set[Viewer] = {None, *(s for s in range(state_a.players) if s not in insiders)}
    for viewer in outsiders:
        assert seen_by(events_a, viewer) == seen_by(events_b, viewer), f"{viewer} can tell"
    for viewer in insiders:
        assert seen_by(events_a, viewer) != seen_by(events_b, viewer), f"{viewer} sees its own"


@pytest.mark.parametrize("case", sorted(CASES))
def test_revision_two_games_still_announce_the_amounts_as_they_were_recorded(case: str):
    play, one, other, _, _ = CASES[case]
    rules = RULES.at_revision(OLD)
    (_, events_a), (_, events_b) = play(rules, **one), play(rules, **other)
    assert seen_by(events_a, None) != seen_by(events_b, None)
    assert all(e.visibility.is_public for e in events_a if e.type.endswith("Maintained"))


def test_a_prosperity_loss_is_recorded_as_due_and_culture_stops_at_zero():
    state, events = prosperity(RULES.at_revision(GOODS_BEHIND_THE_SCREEN), culture=1, votes=3)
    scored = [e for e in events if isinstance(e, ProsperityScored)]
    assert scored and all(e.culture[1] == e.culture[0] < 0 for e in scored), "as due, alike"
    assert state.civs[1].culture == 0
    old_state, old_events = prosperity(RULES.at_revision(OLD), culture=1, votes=3)
    first = next(e for e in old_events if isinstance(e, ProsperityScored))
    assert first.culture[1] == -1 and old_state.civs[1].culture == 0


def test_the_goods_of_an_aid_awaiting_its_answer_are_seen_by_the_two_players_alone():
    def offered(food: int, coin: int, resource: int) -> PState:
        state = managing(fresh(3), 0, 2, phase="diplomacy")
        state = civ_of(state, 0, food=3, coin=3, resource=3)
        aid = {"to": 1, "food": food, "coin": coin, "resource": resource}
        return act_with(RULES, state, 0, "aid", **aid)[0]

    one, other = offered(1, 1, 1), offered(3, 0, 0)
    assert RULES.view(one, 2) == RULES.view(other, 2)
    assert RULES.view(one, None) == RULES.view(other, None)
    assert RULES.view(one, None)["pending"] == {"kind": "aid", "seat": 1, "numbers": [0, 0, 0, 0]}
    for seat in (0, 1):
        assert RULES.view(one, seat)["pending"]["numbers"] == [0, 1, 1, 1]
        assert RULES.view(one, seat) != RULES.view(other, seat)
