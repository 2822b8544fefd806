"""A typed Python client generated from the committed openapi.yaml (openapi-python-client, pinned
in the test extras) plays a whole 4-player History of the World game against `chronicle serve`
(gunicorn, and an RQ worker that closes the epochs): every request goes through the generated
functions and models, none is written by hand. Each seat posts back one of the legal actions
it is given, as it is, until the game is finished."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.http import REPO_ROOT, serving

PACKAGE = "chronicle_client"
PLAYERS = ["ann", "bob", "cy", "di"]
GAME_DEADLINE_S = 240
MAX_COMMANDS = 2_000


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The client package, generated into a temporary folder and imported from there."""
    root = tmp_path_factory.mktemp("generated-client")
    config = root / "config.yaml"
    config.write_text(f"package_name_override: {PACKAGE}\npost_hooks: []\n")
    generator = Path(sys.executable).with_name("openapi-python-client")
    run = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(REPO_ROOT / "openapi.yaml"),
            "--meta",
            "none",
            "--output-path",
            str(root / PACKAGE),
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(redis_url, CHRONICLE_QUEUE=f"client-{uuid.uuid4().hex[:8]}") as base:
        yield base


def part(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{name}")


def play_to_the_end(
    generated: ModuleType, server: str, ruleset: str, options: dict[str, Any] | None = None
) -> tuple[Any, Counter[str], Counter[str], int]:
    """Create a game through the generated client and post back one of the awaited seat's
    legal actions, as given, until the game is finished: (created, played, statuses, busy)."""
    models = part("models")
    create = part("api.games.post_games")
    summary_of = part("api.games.get_games_game_id")
    legal_actions = part("api.play.get_games_game_id_legal_actions")
    post_command = part("api.play.post_games_game_id_commands")
    public = generated.Client(base_url=server, raise_on_unexpected_status=True)
    body = models.CreateGame(ruleset=ruleset, players=PLAYERS)
    if options:
        body = models.CreateGame.from_dict(
            {"ruleset": ruleset, "players": PLAYERS, "options": options}
        )
    created = create.sync(client=public, body=body)
    assert isinstance(created, models.CreatedGame), created
    seats = [
        generated.AuthenticatedClient(base_url=server, token=token, raise_on_unexpected_status=True)
        for token in created.seat_tokens
    ]
    rng = random.Random("generated-client")
    played: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    busy = 0
    deadline = time.monotonic() + GAME_DEADLINE_S
    while True:
        assert time.monotonic() < deadline, f"not finished in {GAME_DEADLINE_S} s: {played}"
        assert sum(played.values()) < MAX_COMMANDS
        summary = summary_of.sync(created.game_id, client=public)
        assert isinstance(summary, models.GameSummary), summary
        statuses[summary.status.value] += 1
        if summary.status == models.GameSummaryStatus.FINISHED:
            break
        if summary.status == models.GameSummaryStatus.CLOSING or not summary.awaiting:
            time.sleep(0.02)  # the worker is closing an epoch
            continue
        seat = summary.awaiting[0]
        listed = legal_actions.sync(created.game_id, client=seats[seat])
        assert isinstance(listed, models.LegalActions), listed
        if not listed.your_turn or not listed.actions:
            continue  # the game moved on between the two reads
        action = rng.choice(listed.actions)
        assert isinstance(action, models.CommandRequest)
        answer = post_command.sync_detailed(
            created.game_id,
            client=seats[seat],
            body=action,
            idempotency_key=f"move-{sum(played.values())}-{seat}",
        )
        if answer.status_code == 409:  # busy (an epoch closing) or the version moved on
            assert isinstance(answer.parsed, models.Error)
            assert answer.parsed.code in {"game_busy", "version_conflict"}
            busy += 1
            continue
        assert answer.status_code == 201, (action.to_dict(), answer.content[:3000])
        assert isinstance(answer.parsed, models.CommandResult)
        assert answer.parsed.version > listed.version
        played[type(action.command).__name__] += 1

    return created, played, statuses, busy


def test_the_generated_client_plays_a_whole_four_player_game_by_posting_legal_actions_back(
    generated, server
):
    models = part("models")
    result_of = part("api.play.get_games_game_id_result")
    events_of = part("api.events.get_games_game_id_events")
    state_of = part("api.play.get_games_game_id_state")

    public = generated.Client(base_url=server, raise_on_unexpected_status=True)
    created, played, statuses, busy = play_to_the_end(generated, server, "hotw-2024")
    seats = [
        generated.AuthenticatedClient(base_url=server, token=token, raise_on_unexpected_status=True)
        for token in created.seat_tokens
    ]
    result = result_of.sync(created.game_id, client=public)
    assert isinstance(result, models.Result), result
    assert len(result.scores) == len(PLAYERS)
    assert sorted(standing.seat for standing in result.ranking) == [0, 1, 2, 3]
    # the commands came back as the typed models of their command types
    assert played["PlaceArmyCommand"] > 0 and played["ChooseEmpireCardCommand"] > 0
    assert statuses["finished"] == 1
    # and the events as typed envelopes: the worker closed the epochs
    actors: set[str] = set()
    typed: Counter[str] = Counter()
    start: int | None = 1
    while start is not None:
        feed = events_of.sync(created.game_id, client=public, from_=start, limit=500)
        assert isinstance(feed, models.Feed), feed
        actors |= {str(getattr(e.actor, "value", e.actor)) for e in feed.events}
        typed.update(type(e).__name__ for e in feed.events)
        for event in feed.events:
            if isinstance(event, models.EventHotwArmyPlaced):
                assert isinstance(event.data.land, str) and event.data.seat in range(4)
            if isinstance(event, models.EventHotwGoldCollected):
                assert event.data.amount > 0
        start = feed.next_ if isinstance(feed.next_, int) else None
    assert {"system", "worker", "0", "1", "2", "3"} <= actors
    # each event parsed as its own type's model, its data typed fields
    assert typed["EventHotwArmyPlaced"] > 0 and typed["EventHotwGoldCollected"] > 0
    assert typed["EventGameCreated"] == 1 and "dict" not in typed
    state = state_of.sync(created.game_id, client=seats[0])
    assert isinstance(state, models.State), state
    assert state.view.epoch == 5 and len(state.view.players) == 4
    assert state.view.players[0].area_tokens is not None  # seat 0 sees its own tokens
    print(f"\n{sum(played.values())} commands ({busy} busy answers): {dict(played)}")


def test_the_generated_client_plays_a_whole_avalon_hill_game_with_every_optional_rule(
    generated, server
):
    """hotw-ah2001 with Minor Empires, Multiple Armies and Naval Control on: the same client
    code, the commands and events typed as the edition's own models."""
    models = part("models")
    result_of = part("api.play.get_games_game_id_result")
    events_of = part("api.events.get_games_game_id_events")
    state_of = part("api.play.get_games_game_id_state")
    options = {"minor_empires": True, "multiple_armies": True, "naval_control": True}
    created, played, _, busy = play_to_the_end(generated, server, "hotw-ah2001", options)
    public = generated.Client(base_url=server, raise_on_unexpected_status=True)
    result = result_of.sync(created.game_id, client=public)
    assert isinstance(result, models.Result), result
    assert sorted(standing.seat for standing in result.ranking) == [0, 1, 2, 3]
    assert played["PlaceArmyCommand"] > 0 and played["KeepEmpireCommand"] > 0
    typed: Counter[str] = Counter()
    start: int | None = 1
    while start is not None:
        feed = events_of.sync(created.game_id, client=public, from_=start, limit=500)
        assert isinstance(feed, models.Feed), feed
        typed.update(type(e).__name__ for e in feed.events)
        for event in feed.events:
            if isinstance(event, models.EventAh2001TurnScored):
                assert event.data.total >= 0 and event.data.seat in range(4)
        start = feed.next_ if isinstance(feed.next_, int) else None
    assert typed["EventAh2001TurnScored"] > 0 and typed["EventAh2001GameEnded"] == 1
    assert "dict" not in typed
    seat = generated.AuthenticatedClient(
        base_url=server, token=created.seat_tokens[0], raise_on_unexpected_status=True
    )
    state = state_of.sync(created.game_id, client=seat)
    assert isinstance(state, models.State), state
    assert isinstance(state.view, models.ViewHotwAh2001)
    assert state.view.epoch == 7 and state.view.result is not None
    print(f"\n{sum(played.values())} commands ({busy} busy answers): {dict(played)}")


def test_the_generated_client_plays_a_whole_three_player_patchistory_game(generated, server):
    """The same generated client, another game: Patchistory's commands and events come back as
    their own typed models, and its view as the documented one."""
    models = part("models")
    create = part("api.games.post_games")
    summary_of = part("api.games.get_games_game_id")
    legal_actions = part("api.play.get_games_game_id_legal_actions")
    post_command = part("api.play.post_games_game_id_commands")
    result_of = part("api.play.get_games_game_id_result")
    events_of = part("api.events.get_games_game_id_events")
    state_of = part("api.play.get_games_game_id_state")

    public = generated.Client(base_url=server, raise_on_unexpected_status=True)
    created = create.sync(
        client=public, body=models.CreateGame(ruleset="patchistory", players=PLAYERS[:3])
    )
    assert isinstance(created, models.CreatedGame), created
    seats = [
        generated.AuthenticatedClient(base_url=server, token=token, raise_on_unexpected_status=True)
        for token in created.seat_tokens
    ]
    rng = random.Random("generated-client-patchistory")
    played: Counter[str] = Counter()
    deadline = time.monotonic() + GAME_DEADLINE_S
    while True:
        assert time.monotonic() < deadline, f"not finished in {GAME_DEADLINE_S} s: {played}"
        summary = summary_of.sync(created.game_id, client=public)
        assert isinstance(summary, models.GameSummary), summary
        if summary.status == models.GameSummaryStatus.FINISHED:
            break
        seat = summary.awaiting[0]
        listed = legal_actions.sync(created.game_id, client=seats[seat])
        assert isinstance(listed, models.LegalActions), listed
        if not listed.your_turn or not listed.actions:
            continue
        action = rng.choice(listed.actions)
        answer = post_command.sync_detailed(
            created.game_id,
            client=seats[seat],
            body=action,
            idempotency_key=f"patch-{sum(played.values())}-{seat}",
        )
        assert answer.status_code == 201, answer.content[:500]
        played[type(action.command).__name__] += 1
    result = result_of.sync(created.game_id, client=public)
    assert isinstance(result, models.Result) and len(result.scores) == 3
    assert played["PatchCommand"] > 0 and played["BidCommand"] > 0, played
    typed: Counter[str] = Counter()
    start: int | None = 1
    while start is not None:
        feed = events_of.sync(created.game_id, client=public, from_=start, limit=500)
        assert isinstance(feed, models.Feed), feed
        typed.update(type(e).__name__ for e in feed.events)
        start = feed.next_ if isinstance(feed.next_, int) else None
    assert typed["EventPatchistoryTilePatched"] > 0 and "dict" not in typed
    state = state_of.sync(created.game_id, client=seats[0])
    assert isinstance(state, models.State), state
    assert isinstance(state.view, models.ViewPatchistory)
    audit_of = part("api.trust.get_games_game_id_audit")
    audit = audit_of.sync(created.game_id, client=public)
    assert isinstance(audit, models.Audit), audit
    assert audit.clean and audit.commitment_verified and audit.counters_in_order
    assert audit.outcomes_checked > 0 and audit.mismatches == []
    assert verified_replay(generated, server, created.game_id, seats[1]) == {"ok": True}
    print(f"\n{sum(played.values())} commands: {dict(played)}")


def verified_replay(generated: ModuleType, server: str, game_id: str, seat: Any) -> dict[str, Any]:
    """A `verify` replay job started and polled with the generated client: its result's
    verdict."""
    models = part("models")
    start = part("api.trust.post_games_game_id_replays")
    job_of = part("api.trust.get_replays_job_id")
    job = start.sync(
        game_id, client=seat, body=models.ReplayRequest(kind=models.ReplayRequestKind.VERIFY)
    )
    assert isinstance(job, models.ReplayJob), job
    deadline = time.monotonic() + 60
    while job.status.value not in {"finished", "failed", "stopped", "canceled"}:
        assert time.monotonic() < deadline, job
        time.sleep(0.1)
        job = job_of.sync(job.job_id, client=seat)
        assert isinstance(job, models.ReplayJob), job
    assert job.status.value == "finished", job.error
    result = job.result.to_dict()
    return {"ok": result["ok"]}
