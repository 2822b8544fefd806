"""The API over real HTTP: `chronicle serve` (gunicorn gthread workers and an RQ worker) on the
session's redis-server, played by a client that only uses documented endpoints."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from domain.core.kernel import replay
from service.games import GameService
from tests.support.api import bearer, play_to_the_end, sse_frames
from tests.support.http import serving
from tests.support.toy import SealedBidsClosedBySystem

ORIGIN = "http://board.example"
CLOSING = "toy-sealed-bids-closing"


class Reply:
    def __init__(self, response: requests.Response) -> None:
        self.response = response
        self.status_code = response.status_code

    def get_json(self) -> Any:
        return self.response.json()


class Http:
    """Just enough of the Flask test client's interface for the play helpers, over HTTP."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.session = requests.Session()

    def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        return Reply(self.session.get(self.base + path, headers=headers, timeout=10))

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None) -> Reply:
        headers = {**(headers or {}), "Idempotency-Key": uuid.uuid4().hex}
        return Reply(self.session.post(self.base + path, json=json, headers=headers, timeout=10))


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(
        redis_url,
        CHRONICLE_RULESET_MODULES="tests.support.toy",
        CHRONICLE_SNAPSHOT_EVERY="4",
        CHRONICLE_CORS_ORIGINS=ORIGIN,
    ) as base:
        yield base


def test_a_game_played_over_http_streams_live_and_its_worker_closes_rounds_and_snapshots(
    server, store, vault
):
    http = Http(server)
    # rounds are closed by a system step, which the RQ worker runs
    created = http.post("/games", json={"ruleset": CLOSING, "players": ["ann", "bob", "cy"]})
    assert created.status_code == 201
    game = created.get_json()
    game_id = game["game_id"]
    streamed: list[Any] = []

    def follow() -> None:
        with requests.get(
            f"{server}/games/{game_id}/stream",
            headers=bearer(game["seat_tokens"][0]),
            stream=True,
            timeout=30,
        ) as response:
            assert response.headers["Content-Type"].startswith("text/event-stream")
            streamed.extend(sse_frames(response.iter_content(chunk_size=None)))

    follower = threading.Thread(target=follow)
    follower.start()
    play_to_the_end(http, game, random.Random(21))
    follower.join(30)
    assert not follower.is_alive(), "the stream ends with the game"

    feed = http.get(
        f"/games/{game_id}/events?limit=500", headers=bearer(game["seat_tokens"][0])
    ).get_json()
    live = [(f.id, f.data) for f in streamed if f.is_event]
    assert [v for v, _ in live] == [e["version"] for e in feed["events"]]
    for (_, seen_live), after_end in zip(live, feed["events"], strict=True):
        # another seat's bid was redacted while the game was played; after the end it is whole
        if seen_live.get("redacted"):
            assert seen_live["type"] == after_end["type"] and not after_end.get("redacted")
        else:
            assert seen_live == after_end

    closings = [e for e in feed["events"] if e["type"] == "ToyRoundClosed"]
    assert [e["data"]["round"] for e in closings] == [1, 2, 3]
    assert {e["actor"] for e in closings} == {"worker"}

    result = http.get(f"/games/{game_id}/result").get_json()
    rules = SealedBidsClosedBySystem()
    final = replay(rules, GameService(store, vault, rulesets=lambda name: rules).events(game_id))
    assert result["scores"] == list(final.state.scores)
    assert result["version"] == final.version

    deadline = time.monotonic() + 20
    while not store.snapshot_versions(game_id):
        assert time.monotonic() < deadline, "the RQ worker wrote no snapshot"
        time.sleep(0.1)
    assert store.snapshot_versions(game_id)[0] >= 4, "queued when the game crossed version 4"

    with requests.get(
        f"{server}/games/{game_id}/stream",
        headers={"Last-Event-ID": str(final.version - 2)},
        stream=True,
        timeout=10,
    ) as resumed:
        tail = [f.id for f in sse_frames(resumed.iter_content(chunk_size=None)) if f.is_event]
    assert tail == [final.version - 1, final.version]


def test_browsers_from_a_configured_origin_may_call_the_api(server):
    preflight = requests.options(
        f"{server}/games",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, idempotency-key",
        },
        timeout=5,
    )
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "Idempotency-Key" in preflight.headers["Access-Control-Allow-Headers"]
    listed = requests.get(f"{server}/games", headers={"Origin": ORIGIN}, timeout=5)
    assert listed.headers["Access-Control-Allow-Origin"] == ORIGIN
    stranger = requests.get(f"{server}/games", headers={"Origin": "http://evil.example"}, timeout=5)
    assert "Access-Control-Allow-Origin" not in stranger.headers
