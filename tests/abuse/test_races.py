"""Races over real HTTP: 32 clients (threads with `requests`) against gunicorn's gthread workers
on the session's redis-server, all playing ONE game at once."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from domain.core.messages import Command
from service.games import GameService
from store.errors import IdempotencyKeyReused
from tests.support.abuse import (
    TOY,
    TOY_CLOSING,
    Gunicorn,
    assert_accepted_exactly_once,
    assert_gapless,
    bearer,
    error_body,
    events_by_command,
    gunicorn,
    log_of,
)
from tests.support.toy import SealedBids

CLIENTS = 32
PLAYERS = ["ann", "bob", "cy", "di"]


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[Gunicorn]:
    # two gthread workers of 16 threads: all 32 clients are served at the same time
    with gunicorn(redis_url, workers=2, threads=16) as running:
        yield running


def create(base: str, ruleset: str, players: int, **options: Any) -> dict[str, Any]:
    response = requests.post(
        f"{base}/games",
        json={"ruleset": ruleset, "players": PLAYERS[:players], "options": options},
        timeout=10,
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_32_clients_racing_on_one_game_leave_a_gapless_log_where_each_accepted_command_is_once(
    server, store
):
    """Half the clients post each legal action with the `expected_version` it was listed at
    (a stale one is a 409 with `current_version`); the other half post without it (refused with
    a 422 naming the rule when the game moved on, or a 409 `game_busy` while a round closes)."""
    game = create(server.base, TOY_CLOSING, 4, rounds=5)
    game_id = game["game_id"]
    barrier = threading.Barrier(CLIENTS)
    outcomes: list[tuple[int, str, dict[str, Any], int, dict[str, Any]]] = []
    failures: list[BaseException] = []

    def client(index: int) -> None:
        seat = index % len(PLAYERS)
        with_version = index % 2 == 0
        rng = random.Random(index)
        session = requests.Session()
        headers = bearer(game["seat_tokens"][seat])
        try:
            barrier.wait(30)
            for _ in range(2000):
                legal = session.get(
                    f"{server.base}/games/{game_id}/legal-actions", headers=headers, timeout=30
                ).json()
                if not legal["actions"]:
                    summary = session.get(f"{server.base}/games/{game_id}", timeout=30).json()
                    if summary["status"] == "finished":
                        return
                    continue
                action = dict(rng.choice(legal["actions"]))
                if not with_version:
                    del action["expected_version"]
                key = uuid.uuid4().hex
                response = session.post(
                    f"{server.base}/games/{game_id}/commands",
                    json=action,
                    headers={**headers, "Idempotency-Key": key},
                    timeout=30,
                )
                outcomes.append((index, key, action, response.status_code, response.json()))
            raise AssertionError("the game did not finish")
        except BaseException as exc:  # reported by the test below
            failures.append(exc)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(t.is_alive() for t in threads), "a client hung"
    assert not failures, failures[:3]

    version = store.version(game_id)
    log = log_of(store, game_id)
    assert_gapless(log, version)
    assert store.meta(game_id).status == "finished"
    assert log[-1]["type"] == "SeedRevealed"

    accepted = {key: body for _, key, _, status, body in outcomes if status == 201}
    assert_accepted_exactly_once(log, accepted)
    by_command = events_by_command(log)
    seat_commands = {e["command_id"] for e in log if isinstance(e["actor"], int)}
    assert seat_commands == set(accepted), "every seat event came from exactly the accepted ones"
    assert [e["type"] for e in log].count("ToyRoundClosed") == 5

    statuses: dict[str, int] = {}
    for _index, key, action, status, body in outcomes:
        if status == 201:
            kind = "accepted"
        elif status == 409 and body.get("code") == "version_conflict":
            kind = "version_conflict"
            assert "expected_version" in action, "only a command naming a version can be stale"
            assert set(body) == {"code", "message", "current_version"}, body
            assert isinstance(body["message"], str) and body["message"]
            assert action["expected_version"] < body["current_version"] <= version
        elif status == 409:
            kind = "game_busy"
            assert set(body) == {"code", "message", "details"}, body
            assert body["code"] == "game_busy" and body["details"] == {"retry_after_s": 1}, body
        elif status == 422:
            kind = "refused"
            assert "expected_version" not in action, "a listed action at its version is legal"
            assert set(body) == {"code", "message", "rule", "details", "current_version"}, body
            assert body["rule"].startswith("toy."), body
            assert body["current_version"] <= version
        else:
            raise AssertionError(f"unexpected answer {status}: {body}")
        if status != 201:
            assert key not in by_command, f"a refused command ({kind}) left events: {body}"
        statuses[kind] = statuses.get(kind, 0) + 1
    print(f"\n{len(outcomes)} commands posted by {CLIENTS} clients: {statuses}")
    assert statuses["version_conflict"] >= 10, "the clients really raced"
    assert statuses["accepted"] == len(accepted)


@pytest.mark.parametrize("with_version", [True, False], ids=["expected-version", "no-version"])
def test_32_clients_repeating_one_idempotency_key_at_once_append_it_once_and_get_one_answer(
    server, store, with_version
):
    game = create(server.base, TOY, 3)
    game_id = game["game_id"]
    before = store.version(game_id)
    body: dict[str, Any] = {"command": {"type": "bid", "chips": 2}}
    if with_version:
        body["expected_version"] = before
    key = f"same-{uuid.uuid4().hex}"
    headers = {**bearer(game["seat_tokens"][0]), "Idempotency-Key": key}
    barrier = threading.Barrier(CLIENTS)
    answers: list[tuple[int, dict[str, Any]]] = []

    def client() -> None:
        session = requests.Session()
        barrier.wait(30)
        response = session.post(
            f"{server.base}/games/{game_id}/commands", json=body, headers=headers, timeout=30
        )
        answers.append((response.status_code, response.json()))

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert len(answers) == CLIENTS
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] * (CLIENTS - 1) + [201], [a for a in answers if a[0] not in (200, 201)]
    first = next(answer for status, answer in answers if status == 201)
    assert all(answer == first for _, answer in answers), "every repeat gets the first answer"
    log = log_of(store, game_id)
    assert store.version(game_id) == before + 1
    assert_gapless(log, before + 1)
    assert [e["version"] for e in events_by_command(log)[key]] == [before + 1]

    # the same key with another body, however many at once, is refused and appends nothing
    other = {"command": {"type": "bid", "chips": 1}}
    reused = [
        requests.post(
            f"{server.base}/games/{game_id}/commands", json=other, headers=headers, timeout=10
        )
        for _ in range(3)
    ]
    for response in reused:
        refused = error_body(response, 409, "idempotency_key_reused")
        assert refused["current_version"] == before + 1
    assert store.version(game_id) == before + 1


@pytest.mark.parametrize("with_version", [True, False], ids=["expected-version", "no-version"])
def test_a_repeat_that_checked_its_key_just_before_the_first_landed_still_gets_the_first_answer(
    store, vault, monkeypatch, with_version
):
    """The race the test above provokes, made deterministic: the repeat finds no record of its
    key, then the first request lands, so the repeat finds the game moved on (a stale version,
    or a seat that has already bid). The key's first answer must still be the answer."""
    rules = SealedBids()
    service = GameService(store, vault, rulesets=lambda name: rules)
    created = service.create_game(TOY, ["ann", "bob", "cy"])
    expected = created.version if with_version else None
    bid = Command.of("bid", chips=2)
    first = service.handle(created.game_id, 0, bid, expected, "key-1")
    recorded = store.idempotent_result
    missed = iter([None])  # the repeat's first look at the key comes too early
    monkeypatch.setattr(
        store, "idempotent_result", lambda game_id, key: next(missed, recorded(game_id, key))
    )
    again = service.handle(created.game_id, 0, bid, expected, "key-1")
    assert again.duplicate and again.version == first.version
    assert again.events == first.events
    assert store.version(created.game_id) == first.version

    missed = iter([None])
    with pytest.raises(IdempotencyKeyReused):  # same key, another command: still refused
        service.handle(created.game_id, 0, Command.of("bid", chips=1), expected, "key-1")
    assert store.version(created.game_id) == first.version
