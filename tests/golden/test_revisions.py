"""A rule changed behind a new revision: the games played before it reproduce as they were, new
games follow the new rule, and `chronicle replay --verify` names the revision it folded under.

The change shown is the Avalon Hill 2001 coin/fleet fix (revision 2 of hotw-ah2001: coins draw
on the twelve shared coin/fleet counters), applied through the revision mechanism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from typing import Any

import pytest
import redis

from domain.core.chance import Chance, ScriptedFaces
from domain.core.errors import RulesetRevisionMismatch, RulesetRevisionUnavailable
from domain.core.kernel import Game, decide, replay
from domain.core.messages import Command, Recorded
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.model import Ah2001State
from domain.hotw.editions.ah2001.revisions import COINS_TAKE_COUNTERS, NEWEST
from service.codec import encode_game, state_hash
from service.games import GameService
from service.loading import StateCache
from service.rulesets import pack_digest, ruleset
from store.credentials import SecretVault
from store.redis_store import EventStore
from tests.conftest import REPO_ROOT
from tests.support.golden import GoldenGame, golden_games, import_game
from tests.unit.ah2001.test_engine import SETUP, before_expansion

AH2001 = "hotw-ah2001"
FIRST = [g for g in golden_games() if g.record["ruleset"] == AH2001 and g.record["revision"] == 1]


def folded(game: GoldenGame, revision: int) -> Game[Any]:
    """The golden game's events folded by the rules of `revision`, its GameCreated saying so."""
    return folded_through(game, revision, len(game.envelopes))


def folded_through(game: GoldenGame, revision: int, end: int) -> Game[Any]:
    """`folded`, of the first `end` events only."""
    records = [Recorded.from_dict(envelope) for envelope in game.envelopes[:end]]
    created = records[0]
    claimed = replace(created, event=replace(created.event, revision=revision))
    return replay(ruleset(AH2001).at_revision(revision), [claimed, *records[1:]])


def final_hash(game: Game[Any]) -> str:
    return state_hash(encode_game(ruleset(AH2001).at_revision(game.setup.revision), game))


def test_the_coin_and_fleet_fix_is_revision_2_of_the_avalon_hill_rules() -> None:
    rules = ruleset(AH2001)
    assert rules.revisions[1].number == COINS_TAKE_COUNTERS == 2
    assert rules.revisions[1].rules == ("ah2001.components.coin-fleet",)
    assert rules.at_revision(1).revision == 1 and rules.at_revision(1).tables.revision == 1


@pytest.mark.parametrize("game", FIRST, ids=lambda g: g.name)
def test_games_played_before_the_fix_fold_under_their_own_revision_as_they_were(
    game: GoldenGame,
) -> None:
    assert final_hash(folded(game, 1)) == game.record["final_hash"]


@pytest.mark.parametrize("game", FIRST, ids=lambda g: g.name)
def test_the_same_events_under_the_new_rules_would_count_the_counters_otherwise(
    game: GoldenGame,
) -> None:
    """Why the revision is kept: these games played coins, and the new fold takes a counter
    for each one: the same log folds to another state, first where a card gives coins."""
    assert final_hash(folded(game, 2)) != game.record["final_hash"]
    records = [Recorded.from_dict(envelope) for envelope in game.envelopes]
    for end in range(2, len(records) + 1):
        old, new = folded_through(game, 1, end), folded_through(game, 2, end)
        if old.state.supply != new.state.supply:
            event = records[end - 1].event
            assert isinstance(event, ev.EventCardPlayed) and event.coins > 0
            assert new.state.supply["counters"] == old.state.supply["counters"] - event.coins
            return
    pytest.fail("the two revisions never counted the supply apart")


def test_a_game_cannot_be_folded_by_rules_of_another_revision_than_its_own() -> None:
    records = [Recorded.from_dict(envelope) for envelope in FIRST[0].envelopes]
    with pytest.raises(RulesetRevisionMismatch):
        replay(ruleset(AH2001), records)


def act(rules: Any, state: Ah2001State, command: Command) -> tuple[list[Any], Ah2001State]:
    seat = min(rules.awaited_seats(state))
    game = Game(replace(SETUP, revision=rules.revision), 1, 0, state)
    events = decide(rules, game, seat, command, Chance(ScriptedFaces(()), 0))
    for event in events:
        state = rules.evolve(state, event)
    return events, state


@pytest.mark.parametrize(
    ("revision", "coins", "counters_after"),
    [(2, 1, 0), (1, 2, 1)],
    ids=["new-games-take-a-counter-per-coin", "first-revision-games-took-none"],
)
def test_population_explosion_with_one_counter_left(
    revision: int, coins: int, counters_after: int
) -> None:
    rules = ruleset(AH2001).at_revision(revision)
    state = before_expansion("romans", 3, ("population-explosion",))
    state = replace(state, supply={**state.supply, "counters": 1})
    events, state = act(rules, state, Command.of("play_event", card="population-explosion"))
    (played,) = [e for e in events if isinstance(e, ev.EventCardPlayed)]
    assert played.coins == coins
    assert state.supply["counters"] == counters_after


def test_new_games_get_the_newest_revision_and_record_the_packs_digest(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    service = GameService(EventStore(client), SecretVault(client), cache=StateCache())
    created = service.create_game(AH2001, ["a", "b", "c"])
    first = created.events[0].event
    assert first.revision == NEWEST  # type: ignore[attr-defined]
    assert first.pack_digest == pack_digest(AH2001)  # type: ignore[attr-defined]
    older = service.create_game(AH2001, ["a", "b", "c"], revision=1)
    assert service.load(older.game_id)[0].revision == 1
    with pytest.raises(RulesetRevisionUnavailable) as lacking:
        service.create_game(AH2001, ["a", "b", "c"], revision=NEWEST + 1)
    assert lacking.value.revision == NEWEST + 1
    assert lacking.value.known == tuple(range(1, NEWEST + 1))


def test_replay_verify_names_the_revision_it_folded_under(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    game_id = import_game(EventStore(client), FIRST[0])
    env = {**os.environ, "REDIS_URL": redis_url}
    command = [sys.executable, "-m", "cli.main", "replay", game_id, "--verify", "--quiet"]
    said = subprocess.run(command, env=env, cwd=REPO_ROOT, capture_output=True, text=True)
    assert said.returncode == 0, said.stderr
    assert f"under {AH2001} revision 1," in said.stdout
    as_json = subprocess.run(
        [*command, "--json"], env=env, cwd=REPO_ROOT, capture_output=True, text=True
    )
    report = json.loads(as_json.stdout)
    assert (report["ruleset"], report["revision"], report["ok"]) == (AH2001, 1, True)
    assert report["final_hash"] == FIRST[0].record["final_hash"]
    assert report["pack_digest"] == FIRST[0].record["pack_digest"]
