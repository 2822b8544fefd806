"""Behind the Player Screens (patchistory.hidden.screen) over HTTP: two sandbox games start from
positions that differ only in what the rules hide from everyone but seat 1 - its Goods, its
Building Tiles (and the supply's secret order), its Prosperity Cards and its sealed Votes. Every
other seat, the admin and a spectator must get the same answers from both, from every
endpoint; seat 1 itself sees the difference."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from service.rulesets import ruleset
from tests.support.api import everything_asked, sandboxes
from tests.support.table import Table

PATCH = "patchistory"
RULES: Any = ruleset(PATCH)
NAMES = ("gandhi", "alexander", "yi-sun-sin")
NEVER_LEGAL = {"command": {"type": "retire_worker", "row": 99, "col": 99}}


def while_seat_one_has_sealed_its_votes(seed: str) -> Any:
    """A random game played in process until the Vote of its first Era, stopped once seat 1
    has sealed its Votes on the card and the other two have not."""
    table = Table(RULES, NAMES, seed.encode().ljust(32, b"\0"), capital_side="equality")
    rng = random.Random(seed)
    while True:
        state = table.state
        if state.phase == "vote" and state.sealed_map().keys() == {1}:
            return state
        assert not RULES.is_over(state)
        if RULES.system_action(state) is not None:
            table.resolve()
            continue
        awaited = sorted(table.awaited())
        seat = 1 if state.phase == "vote" and 1 in awaited else rng.choice(awaited)
        table.play(seat, rng.choice(list(RULES.legal_actions(state, seat))))


def with_other_secrets(state: Any) -> Any:
    """Seat 1's screen holds other things: more Goods, a Building Tile swapped with the top of
    the supply, a Prosperity Card swapped for one nobody was dealt, two Votes sealed, not none."""
    civ = state.civs[1]
    dealt = {card for c in state.civs for card in c.prosperity} | set(state.vote_cards)
    undealt = sorted(set(RULES.pack.prosperity) - dealt)
    hand, stack = list(civ.hand), list(state.stack)
    hand[0], stack[0] = stack[0], hand[0]
    changed = dataclasses.replace(
        civ,
        coin=civ.coin + 3,
        food=civ.food + 1,
        resource=civ.resource + 2,
        culture=civ.culture + 5,
        votes=civ.votes + 2,
        hand=tuple(hand),
        prosperity=(undealt[0], *civ.prosperity[1:]),
    )
    (count,) = state.sealed_map()[1]
    return dataclasses.replace(
        state.with_civ(1, changed), stack=tuple(stack), sealed=((1, (count + 2,)),)
    )


def test_what_other_callers_see_does_not_depend_on_what_seat_one_keeps_behind_its_screen(api):
    state = while_seat_one_has_sealed_its_votes("screen")
    other = with_other_secrets(state)
    assert other != state and RULES.invariant_failures(other) == []
    setup = {"ruleset": PATCH, "players": list(NAMES), "options": {"capital_side": "equality"}}
    worlds = sandboxes(api, setup, [RULES.encode_state(s) for s in (state, other)])

    def asked(game: dict[str, Any], who: int | str) -> list[Any]:
        token = game["seat_tokens"][who] if isinstance(who, int) else None
        if who == "admin":
            token = game["admin_token"]
        return everything_asked(api, game, token, NEVER_LEGAL, extra=("/board",))

    for who in (0, 2, "admin", "spectator"):
        seen = [asked(game, who) for game in worlds]
        assert seen[0] == seen[1], f"{who} can tell seat 1's secrets apart"
    mine = [asked(game, 1) for game in worlds]
    assert mine[0] != mine[1], "seat 1 itself sees its own screen"
