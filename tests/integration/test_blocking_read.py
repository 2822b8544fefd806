"""The store's blocking read (XREAD BLOCK), which the SSE stream waits on."""

from __future__ import annotations

import json
import threading
import time

from store.redis_store import EventStore

SEED = bytes.fromhex("cd" * 32)


def payload(label: str) -> str:
    return json.dumps({"type": "Noted", "data": {"label": label}})


def new_game(store: EventStore, game_id: str, events: int) -> None:
    store.create(
        game_id,
        ruleset="test",
        players=["ann"],
        status="active",
        events=[payload(str(i)) for i in range(events)],
        seed=SEED,
    )


def test_a_blocking_read_returns_the_events_already_there_at_once(store, game_id):
    new_game(store, game_id, events=4)
    started = time.monotonic()
    found = store.read_after(game_id, 1, block_ms=5000, count=2)
    assert [e.version for e in found] == [2, 3]
    assert time.monotonic() - started < 1


def test_a_blocking_read_wakes_up_when_an_event_is_appended(store, game_id):
    new_game(store, game_id, events=1)
    timer = threading.Timer(
        0.2, lambda: store.append(game_id, [payload("late")], expected_version=1)
    )
    timer.start()
    found = store.read_after(game_id, 1, block_ms=5000)
    timer.join()
    assert [(e.version, e.decoded()["data"]["label"]) for e in found] == [(2, "late")]


def test_a_blocking_read_gives_nothing_when_nothing_comes_in_time(store, game_id):
    new_game(store, game_id, events=2)
    started = time.monotonic()
    assert store.read_after(game_id, 2, block_ms=100) == []
    assert 0.09 <= time.monotonic() - started < 2
