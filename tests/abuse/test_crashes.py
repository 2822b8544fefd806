"""Crashes: an API process killed with SIGKILL in the middle of a command (made deterministic by
the service's fault injection: it stops just before, or just after, the store append and says so
on stderr). The Lua append is all or nothing, so no part of the command is ever visible; the
client's retry with the same Idempotency-Key lands exactly once; and play goes on."""

from __future__ import annotations

import os
import random
import re
import signal
import threading
import uuid
from typing import Any

import requests

from cli.http import polite_session
from domain.core.messages import Command
from service.faults import AFTER_APPEND, BEFORE_APPEND
from service.games import GameService
from tests.support.abuse import (
    TOY,
    Gunicorn,
    assert_gapless,
    bearer,
    events_by_command,
    gunicorn,
    log_of,
    play_turn,
)
from tests.support.toy import SealedBids

PAUSE_S = 60.0  # far longer than the test needs: the process is killed long before it ends


def toy_service(store, vault) -> GameService:
    rules = SealedBids()
    return GameService(store, vault, rulesets=lambda name: rules)


def post_in_background(
    base: str, game_id: str, body: dict[str, Any], headers: dict[str, str]
) -> tuple[threading.Thread, list[Any]]:
    """Post a command from another thread; what it got (a response or an exception) is kept."""
    got: list[Any] = []

    def send() -> None:
        try:
            got.append(
                requests.post(
                    f"{base}/games/{game_id}/commands", json=body, headers=headers, timeout=90
                )
            )
        except requests.RequestException as exc:
            got.append(exc)

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread, got


def play_on_to_the_end(base: str, game: dict[str, Any]) -> int:
    session, rng, moves = polite_session(), random.Random(7), 0
    while (response := play_turn(session, base, game, rng.choice)) is not None:
        assert response.status_code == 201, response.text
        moves += 1
    return moves


def a_round_all_but_sealed(store, vault) -> tuple[dict[str, Any], int]:
    """A 3-seat toy game where seats 0 and 1 have bid: seat 2's bid completes the round, so it
    is one command of two events (its sealed bid, and all bids revealed)."""
    service = toy_service(store, vault)
    created = service.create_game(TOY, ["ann", "bob", "cy"], {"rounds": 2})
    service.handle(created.game_id, 0, Command.of("bid", chips=1))
    service.handle(created.game_id, 1, Command.of("bid", chips=2))
    game = {"game_id": created.game_id, "seat_tokens": list(created.tokens.seats)}
    return game, store.version(created.game_id)


LAST_BID = {"command": {"type": "bid", "chips": 3}}


def test_a_server_killed_before_the_append_leaves_no_trace_and_the_retry_lands_once(
    redis_url, store, vault
):
    game, version = a_round_all_but_sealed(store, vault)
    game_id = game["game_id"]
    key = f"crash-before-{uuid.uuid4().hex}"
    headers = {**bearer(game["seat_tokens"][2]), "Idempotency-Key": key}
    doomed = Gunicorn(redis_url, faults={BEFORE_APPEND: PAUSE_S}).start()
    try:
        thread, got = post_in_background(doomed.base, game_id, {**LAST_BID}, headers)
        doomed.wait_for_line(f"before appending command {key} to game {game_id}")
    finally:
        doomed.kill()  # kill -9 of the master and every worker
    thread.join(10)
    assert len(got) == 1 and isinstance(got[0], requests.ConnectionError), got

    assert store.version(game_id) == version, "no part of the command is visible"
    assert key not in events_by_command(log_of(store, game_id))
    assert store.idempotent_result(game_id, key) is None
    assert store.meta(game_id).extra["awaiting"] == "[2]"

    with gunicorn(redis_url) as server:
        retried = requests.post(
            f"{server.base}/games/{game_id}/commands", json=LAST_BID, headers=headers, timeout=10
        )
        assert retried.status_code == 201, retried.text
        again = requests.post(
            f"{server.base}/games/{game_id}/commands", json=LAST_BID, headers=headers, timeout=10
        )
        assert again.status_code == 200 and again.json() == retried.json()
        landed = events_by_command(log_of(store, game_id))[key]
        assert [(e["version"], e["type"]) for e in landed] == [
            (version + 1, "ToyBidSealed"),
            (version + 2, "ToyBidsRevealed"),
        ]
        assert play_on_to_the_end(server.base, game) > 0

    log = log_of(store, game_id)
    assert_gapless(log, store.version(game_id))
    assert store.meta(game_id).status == "finished" and log[-1]["type"] == "SeedRevealed"
    assert len(events_by_command(log)[key]) == 2, "the retried command is in the log once"


def test_a_web_worker_killed_after_the_append_keeps_the_whole_command_and_the_retry_is_a_repeat(
    redis_url, store, vault
):
    game, version = a_round_all_but_sealed(store, vault)
    game_id = game["game_id"]
    key = f"crash-after-{uuid.uuid4().hex}"
    headers = {**bearer(game["seat_tokens"][2]), "Idempotency-Key": key}
    with gunicorn(redis_url, workers=2, faults={AFTER_APPEND: PAUSE_S}) as server:
        thread, got = post_in_background(server.base, game_id, {**LAST_BID}, headers)
        line = server.wait_for_line(f"after appending command {key} to game {game_id}")
        worker_pid = int(re.search(r"pid (\d+)", line).group(1))  # type: ignore[union-attr]
        assert worker_pid != server.process.pid  # type: ignore[union-attr]
        os.kill(worker_pid, signal.SIGKILL)  # kill -9 of the gunicorn worker holding the request
        thread.join(10)
        assert len(got) == 1 and isinstance(got[0], requests.ConnectionError), got

        landed = events_by_command(log_of(store, game_id))[key]
        assert [(e["version"], e["type"]) for e in landed] == [
            (version + 1, "ToyBidSealed"),
            (version + 2, "ToyBidsRevealed"),
        ], "the whole command is stored, never half of it"
        assert store.version(game_id) == version + 2

        # the master has replaced the worker; the client retries on the same server
        retried = requests.post(
            f"{server.base}/games/{game_id}/commands", json=LAST_BID, headers=headers, timeout=10
        )
        assert retried.status_code == 200, retried.text  # the first answer; nothing appended
        assert [e["version"] for e in retried.json()["events"]] == [version + 1, version + 2]
        assert retried.json()["version"] == version + 2
        assert store.version(game_id) == version + 2

    with gunicorn(redis_url) as clean:  # without fault injection, to play on
        assert play_on_to_the_end(clean.base, game) > 0
    log = log_of(store, game_id)
    assert_gapless(log, store.version(game_id))
    assert store.meta(game_id).status == "finished" and log[-1]["type"] == "SeedRevealed"
    assert len(events_by_command(log)[key]) == 2


def test_a_freshly_started_server_serves_a_games_feed_before_it_has_loaded_the_games_ruleset(
    redis_url, store, vault
):
    """After a crash the new web worker's first request may be a feed: decoding the game's
    events must not depend on an earlier request having imported the ruleset's event types."""
    created = GameService(store, vault).create_game("hotw-2024", ["ann", "bob", "cy"])
    with gunicorn(redis_url, workers=1) as server:  # one worker, which has loaded nothing yet
        feed = requests.get(f"{server.base}/games/{created.game_id}/events?limit=500", timeout=10)
        assert feed.status_code == 200, feed.text
        assert [e["version"] for e in feed.json()["events"]] == list(range(1, created.version + 1))
        assert {e["type"] for e in feed.json()["events"]} - {"GameCreated"}, "hotw's own events"
