"""An idle live stream: a client follows a game in which nothing happens for longer than the
Redis client's socket timeout (redis-py 8 defaults it to 5 s, below the 15 s keep-alive). The
blocking read must give up in time and send a keep-alive, not die with a TimeoutError."""

from __future__ import annotations

import time

import redis

import tests.support.toy  # noqa: F401  (registers the toy rulesets in this process)
from api.app import create_app
from service.wiring import game_service
from store import blocking
from store.redis_store import EventStore
from tests.support.abuse import TOY


def test_a_blocking_read_gives_up_before_the_socket_timeout_instead_of_failing(redis_url, game_id):
    store = EventStore(redis.Redis.from_url(redis_url, decode_responses=True, socket_timeout=0.5))
    store.create(game_id, ruleset=TOY, players=["a"], status="active", events=["{}"], seed=b"s")
    started = time.monotonic()
    assert store.read_after(game_id, 1, block_ms=3000) == []
    assert time.monotonic() - started < 0.5


def test_a_live_stream_idle_past_the_socket_timeout_sends_a_keep_alive_when_due(redis_url):
    """The blocking reads wait less than the socket timeout; the keep-alive still comes once a
    heartbeat interval (as the document says), not after every read, and not late."""
    timeout = blocking.socket_timeout_of(game_service(redis_url).store.redis)
    heartbeat = 7.0
    assert timeout and timeout < heartbeat, "the service's client times out before the keep-alive"
    app = create_app(redis_url, SYSTEM_STEPS="inline", CORS_ORIGINS=(), SSE_HEARTBEAT_S=heartbeat)
    client = app.test_client()
    game = client.post("/games", json={"ruleset": TOY, "players": ["ann", "bob"]}).get_json()
    version = game["version"]
    response = client.get(f"/games/{game['game_id']}/stream?from={version + 1}", buffered=False)
    frames = iter(response.response)
    try:
        assert next(frames).startswith(b": events of game")
        started = time.monotonic()
        assert next(frames) == b": keep-alive\n\n"  # not a TimeoutError out of the generator
        waited = time.monotonic() - started
        # on time: not rounded up to a whole number of capped reads (2 × 4.75 s = 9.5 s)
        assert heartbeat <= waited < heartbeat + 1.5, waited
    finally:
        response.close()
