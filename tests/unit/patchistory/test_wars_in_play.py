"""Negotiation and War as they arise in play. Uniformly random play almost never brings a
Worker to the Preparation space (one war in forty games), so these games are played by a bot
that trades and advances whenever it may and otherwise picks a command type at random. Every
Negotiation and every War of those games is checked against the rulebook's wording, worked out
here from the state before it (patchistory.negotiation.*, patchistory.war.*); the state keeps
its invariants after every event and the log replays to it."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from domain.core.kernel import fold, replay
from domain.core.messages import Command
from domain.patchistory import territory as terr
from domain.patchistory.negotiation_and_war import (
    SideChosen,
    SidesRevealed,
    WarDeclared,
    WarResolved,
    WorkerLeftRoute,
)
from service.rulesets import ruleset
from tests.support.table import Table

RULES: Any = ruleset("patchistory")
PACK = RULES.pack
NAMES = ("gandhi", "alexander", "yi-sun-sin", "bismarck")
GAMES = 36


def warlike(rng: random.Random, legal: list[Command]) -> Command:
    kinds = {m.type for m in legal}
    if "trade" in kinds and rng.random() < 0.8:
        return rng.choice([m for m in legal if m.type == "trade"])
    if "advance" in kinds and rng.random() < 0.9:
        return max((m for m in legal if m.type == "advance"), key=lambda m: m.arg("steps"))
    kind = rng.choice(sorted(kinds))
    return rng.choice([m for m in legal if m.type == kind])


@functools.cache
def played(index: int) -> Table:
    players = 2 + index % 3
    seed = f"wars-{index}".encode().ljust(32, b"\0")
    table = Table(RULES, NAMES[:players], seed, capital_side=("equality", "liberty")[index % 2])
    rng = random.Random(f"wars-{index}")
    while not RULES.is_over(table.state):
        assert len(table.log) < 30_000
        if RULES.system_action(table.state) is not None:
            table.resolve()
            continue
        seat = rng.choice(sorted(table.awaited()))
        table.play(seat, warlike(rng, list(RULES.legal_actions(table.state, seat))))
    return table


def games() -> list[Table]:
    return [played(i) for i in range(GAMES)]


def before(table: Table, version: int) -> Any:
    """The state just before the event at `version`."""
    return replay(RULES, table.log[: version - 1]).state


def test_the_warlike_games_keep_every_invariant_after_every_event_and_replay():
    for table in games():
        game = None
        for record in table.log:
            game = fold(RULES, game, record)
            failures = RULES.invariant_failures(game.state)
            assert failures == [], (record.version, type(record.event).__name__, failures)
        assert game == table.game == replay(RULES, table.log)


def test_a_negotiation_is_two_secret_choices_and_any_red_declares_war_on_the_red_players():
    checked = 0
    for table in games():
        log = table.log
        for n, record in enumerate(log):
            e = record.event
            if isinstance(e, SideChosen):
                assert e.visibility.seats == frozenset({e.seat}), "the choice is secret"
                assert e.rule == "patchistory.negotiation.choose"
            if not isinstance(e, SidesRevealed):
                continue
            checked += 1
            state = before(table, record.version)
            rest = [r.event for r in log[n + 1 :] if r.command_id == record.command_id]
            declared = [x for x in rest if isinstance(x, WarDeclared) and x.route == e.route]
            if all(e.blue):
                assert declared == []
                assert any(
                    isinstance(x, WorkerLeftRoute)
                    and x.route == e.route
                    and x.rule == "patchistory.negotiation.blue"
                    for x in rest
                ), "the Worker goes home either way"
                continue
            (war,) = declared
            red = tuple(s for s, blue in zip(e.seats, e.blue, strict=True) if not blue)
            assert war.aggressors == red
            cost = PACK.era_number("war_preparation_resources", state.era)
            assert war.paid == tuple(min(cost, state.civs[s].resource) for s in red)
    assert checked >= 10, checked


def test_every_war_is_resolved_exactly_as_the_rulebook_words_it():
    outcomes: set[str] = set()
    wars = 0
    for table in games():
        for record in table.log:
            e = record.event
            if not isinstance(e, WarResolved):
                continue
            wars += 1
            state = before(table, record.version)
            route = state.route(e.route)
            assert e.seats == (route.a, route.b)
            for i, seat in enumerate(e.seats):
                board = terr.statuses(PACK, state, seat)
                strength = board["military"]
                if seat not in route.aggressors:
                    strength += board["defense"]  # Defenders add their Defense
                assert e.base[i] == strength
                assert (e.resources[i], e.votes[i]) == state.sealed_map()[seat]
                assert e.totals[i] == strength + e.resources[i] + e.votes[i]
            a, b = e.totals
            defenders = tuple(s for s in e.seats if s not in route.aggressors)
            if a != b:
                assert e.winners == (e.seats[0] if a > b else e.seats[1],)
            else:
                assert e.winners == defenders, "the defender wins a tie; two aggressors lose"
            if not e.winners:
                assert e.culture == (0, 0)
                outcomes.add("no winner")
                continue
            (winner,) = e.winners
            w = e.seats.index(winner)
            key = "aggressor_win_culture" if winner in route.aggressors else "defender_win_culture"
            gain = PACK.era_number(key, state.era)
            crushing = PACK.numbers["war_crushing"]
            if e.totals[w] - e.totals[1 - w] >= crushing["margin"]:
                taken = min(crushing["culture"], state.civs[e.seats[1 - w]].culture)
                assert e.culture[w] == gain + taken and e.culture[1 - w] == -taken
                assert "patchistory.war.spoils" in e.cites
                outcomes.add("crushing")
            else:
                assert e.culture[w] == gain and e.culture[1 - w] == 0
            outcomes.add("aggressor" if winner in route.aggressors else "defender")
            assert e.cites[0] == "patchistory.war.strength"
    assert wars >= 20 and {"aggressor", "defender", "crushing", "no winner"} <= outcomes, (
        wars,
        outcomes,
    )


@pytest.mark.parametrize("index", range(3))
def test_after_a_war_the_worker_comes_home_whatever_the_outcome(index):
    wars = 0
    for table in games()[index::3]:
        log = table.log
        for n, record in enumerate(log):
            if not isinstance(record.event, WarResolved):
                continue
            wars += 1
            rest = [r.event for r in log[n + 1 :] if r.command_id == record.command_id]
            home = [x for x in rest if isinstance(x, WorkerLeftRoute)]
            assert home and home[0].rule == "patchistory.war.worker-home"
            assert home[0].route == record.event.route
    assert wars >= 1
