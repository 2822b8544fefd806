"""Every golden game still replays, and is still decided, exactly as it was played, under the
revision of the rules it was created with (tests/golden/README.md).

A rules change that alters a golden game fails here unless it comes as a new revision (the
golden games of older revisions then still reproduce under their own)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from domain.core.ruleset import Ruleset
from service.games import GameService
from service.loading import StateCache
from service.queries import GameQueries
from service.rulesets import built_in, ruleset
from store.credentials import SecretVault
from store.redis_store import EventStore
from tests.conftest import REPO_ROOT
from tests.support.golden import (
    GoldenGame,
    exported,
    final_result,
    golden_games,
    import_game,
    replay_commands,
    settled,
)
from workers.queue import queue

GAMES = golden_games()
JOB_TIMEOUT_S = 120


def by_name(games: list[GoldenGame]) -> dict[str, GoldenGame]:
    return {game.name: game for game in games}


@pytest.fixture(scope="module")
def service(redis_url: str) -> GameService:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    return GameService(EventStore(client), SecretVault(client), cache=StateCache())


@pytest.fixture(scope="module")
def worker(redis_url: str) -> Iterator[str]:
    """A real `chronicle worker` on a queue of its own; yields the queue's name."""
    name = f"golden-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "REDIS_URL": redis_url, "CHRONICLE_QUEUE": name}
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "worker"],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield name
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def verified_by_worker(redis_url: str, queue_name: str, game_id: str) -> dict[str, Any]:
    """The report of the replay-verify job, as run by the worker for `POST .../replays`."""
    job = queue(redis_url, queue_name).enqueue("workers.jobs.verify_replay", game_id)
    deadline = time.monotonic() + JOB_TIMEOUT_S
    while time.monotonic() < deadline:
        status = job.get_status(refresh=True)
        if status == "finished":
            result: dict[str, Any] = job.return_value()
            return result
        if status == "failed":
            raise AssertionError(f"the verify job failed: {job.latest_result().exc_string}")
        time.sleep(0.05)
    raise AssertionError(f"the verify job did not finish in {JOB_TIMEOUT_S} s")


# --- the corpus is what it says it is -----------------------------------------------------------


@pytest.mark.parametrize("name", built_in())
def test_the_corpus_holds_five_games_of_every_ruleset_at_every_player_count(name: str) -> None:
    games = [g for g in GAMES if g.record["ruleset"] == name]
    rules = ruleset(name)
    assert len(games) >= 5
    assert {len(g.record["players"]) for g in games} == set(rules.player_counts)


@pytest.mark.parametrize("name", built_in())
def test_the_corpus_plays_every_option_and_all_of_them_at_once(name: str) -> None:
    rules = ruleset(name)
    games = [g for g in GAMES if g.record["ruleset"] == name]
    defaults = {spec.name: spec.default for spec in rules.options}
    for option, default in defaults.items():
        assert any(g.record["options"][option] != default for g in games), option
    switches = [o for o, d in defaults.items() if isinstance(d, bool)]
    assert any(all(g.record["options"][o] is True for o in switches) for g in games)
    if name == "hotw-ah2001":  # the simultaneous-empires variant is an option of this edition
        assert any(g.record["options"]["simultaneous_empires"] for g in games)


@pytest.mark.parametrize("name", built_in())
def test_every_revision_of_every_ruleset_has_golden_games(name: str) -> None:
    rules: Ruleset[Any] = ruleset(name)
    recorded = {g.record["revision"] for g in GAMES if g.record["ruleset"] == name}
    assert recorded == set(rules.revision_numbers())


def test_every_golden_game_ends_with_its_seed_revealed_and_its_result() -> None:
    for game in GAMES:
        assert game.envelopes[0]["type"] == "GameCreated"
        assert game.envelopes[0]["data"]["revision"] == game.record["revision"], game.name
        assert game.envelopes[-1]["type"] == "SeedRevealed", game.name
        assert game.record["result"]["ranking"], game.name
        assert len(game.lines) == game.record["events"], game.name


# --- every golden game reproduces ---------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(by_name(GAMES)))
def test_a_golden_game_folds_through_the_worker_to_its_recorded_state_and_result(
    name: str, service: GameService, redis_url: str, worker: str
) -> None:
    game = by_name(GAMES)[name]
    game_id = import_game(service.store, game)
    report = verified_by_worker(redis_url, worker, game_id)
    assert report["ok"] is True
    assert report["events"] == game.record["events"]
    assert report["revision"] == game.record["revision"]
    assert report["final_hash"] == game.record["final_hash"]
    assert final_result(GameQueries(service), game_id) == game.record["result"]


@pytest.mark.parametrize("name", sorted(by_name(GAMES)))
def test_a_golden_game_is_decided_again_event_for_event_from_its_commands(
    name: str, service: GameService
) -> None:
    """Each command given again, under the game's revision, decides the same events: compared
    line by line with the recorded export, all but when each was stored, the random ids of
    commands sent without a key, and the pack digest GameCreated records (`settled`)."""
    game = by_name(GAMES)[name]
    game_id = replay_commands(service, game.record, game.seed)
    again = exported(GameQueries(service), game_id)
    recorded = [settled(line) for line in game.lines]
    for number, (was, now) in enumerate(zip(recorded, map(settled, again), strict=False), 1):
        assert now == was, f"{name}: event {number} is decided otherwise"
    assert len(again) == len(recorded)
    assert final_result(GameQueries(service), game_id) == game.record["result"]


def test_golden_exports_are_the_service_export_byte_for_byte(service: GameService) -> None:
    """What is compared is what the API sends: the recorded lines are the export of the game
    imported from them."""
    game = by_name(GAMES)["patchistory/r1-2p-defaults"]
    game_id = import_game(service.store, game)
    assert exported(GameQueries(service), game_id) == list(game.lines)


def test_the_golden_records_are_canonical_json() -> None:
    for game in GAMES:
        text = game.path.read_text(encoding="utf-8")
        assert text == json.dumps(game.record, indent=1, sort_keys=True) + "\n", game.name


@pytest.mark.parametrize(
    "name", ["hotw-2024/r1-3p-defaults", "hotw-ah2001/r1-3p-defaults", "brief-2009/r1-2p-defaults"]
)
def test_a_golden_game_still_draws_on_the_maps_laid_out_since(
    name: str, service: GameService
) -> None:
    """Games created before the maps were laid out anew (their GameCreated records the old
    pack digest) still draw, at their first event and at their end, with every land of the
    map and the pieces of the end."""
    game = by_name(GAMES)[name]
    game_id = import_game(service.store, game)
    queries = GameQueries(service)
    rules: Any = ruleset(game.record["ruleset"])
    board = rules.tables.board if hasattr(rules, "tables") else rules.pack.board
    for at in (1, None):
        svg = queries.board(game_id, None, at)
        drawn = set(re.findall(r'data-(?:land|wasteland)="([^"]+)"', svg))
        assert set(board.lands) <= drawn, (name, at)
    assert 'class="pieces"' in svg
