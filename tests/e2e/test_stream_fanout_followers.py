"""Streams of one game share one reader in the process (`service.fanout`): each new event is
read once and rendered once per viewer class (spectators one form, each seat its own), and each
stream still gets every event once and in order, as its own viewer may see it; a stream that
reads slower than the game is played is caught up from the store and holds nobody back."""

from __future__ import annotations

import random
import threading
import time

from service import fanout
from service.queries import rendered
from tests.support.api import bearer, create_toy, play_one, play_to_the_end, sse_frames


def readers_of(game_id: str) -> int:
    return sum(thread.name == f"feed {game_id}" for thread in threading.enumerate())


def followed(app, game_id, headers, frames_out, opened, after=0):
    """Follow the stream in a thread of its own, keeping its event frames."""

    def follow():
        with app.test_client() as own:
            response = own.get(
                f"/games/{game_id}/stream",
                headers={**headers, "Last-Event-ID": str(after)},
                buffered=False,
            )
            frames = sse_frames(response.response)
            next(frames)  # the opening
            opened.release()
            frames_out.extend(f for f in frames if f.is_event)
            response.close()

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    return thread


def test_a_spectator_and_each_seat_following_at_once_see_each_event_once_as_each_may(app, api):
    game = create_toy(api, players=2, rounds=4)
    game_id = game["game_id"]
    viewers = {"spectator": {}, "seat 0": bearer(game["seat_tokens"][0])}
    viewers["seat 1"] = bearer(game["seat_tokens"][1])
    got = {name: [] for name in viewers}
    opened = threading.Semaphore(0)
    threads = [followed(app, game_id, viewers[name], got[name], opened) for name in viewers]
    for _ in threads:
        assert opened.acquire(timeout=10)
    assert readers_of(game_id) == 1, "one reader for every stream of the game"
    rng = random.Random(5)
    for _ in range(3):
        assert play_one(api, game, rng) is not None
    version = api.get(f"/games/{game_id}").get_json()["version"]
    deadline = time.monotonic() + 10
    while any(len(frames) < version for frames in got.values()):
        assert time.monotonic() < deadline, {name: len(f) for name, f in got.items()}
        time.sleep(0.05)
    for name, headers in viewers.items():
        feed = api.get(f"/games/{game_id}/events?limit=500", headers=headers).get_json()
        assert [f.id for f in got[name]] == list(range(1, version + 1)), name
        assert [f.data for f in got[name]] == feed["events"], name
    play_to_the_end(api, game, rng)
    for thread in threads:
        thread.join(10)
        assert not thread.is_alive(), "each stream ends with the game"
    deadline = time.monotonic() + 10
    while readers_of(game_id):
        assert time.monotonic() < deadline, "the game's reader outlived its last follower"
        time.sleep(0.1)


def test_a_follower_slower_than_the_game_is_caught_up_from_the_store_and_holds_nobody_back(
    app, api, monkeypatch
):
    monkeypatch.setattr(fanout, "QUEUE_PAGES", 1)  # one page waiting: the next overflows
    game = create_toy(api, players=3, rounds=2)
    game_id = game["game_id"]
    slow = app.test_client().get(f"/games/{game_id}/stream?from=1", buffered=False)
    slow_frames = sse_frames(slow.response)
    next(slow_frames)  # opened, then not read while the game is played
    fast: list = []
    opened = threading.Semaphore(0)
    quick = followed(app, game_id, {}, fast, opened)
    assert opened.acquire(timeout=10)
    feed = fanout.feeds_of(app.extensions["chronicle.games"].store, rendered).feeds[game_id]
    moves = len(play_to_the_end(api, game, random.Random(6)))
    quick.join(10)
    assert not quick.is_alive(), "the follower that keeps up got to the end meanwhile"
    version = api.get(f"/games/{game_id}").get_json()["version"]
    assert [f.id for f in fast] == list(range(1, version + 1))
    assert moves > 2 and [f.overflowed > 0 for f in feed.followers] == [True], (
        "more pages were handed out than the slow follower's queue holds"
    )
    late = [f.id for f in slow_frames if f.is_event]
    slow.close()
    assert late == list(range(1, version + 1)), "every event once and in order, late"


def test_a_games_reader_stops_when_its_last_follower_leaves_and_the_next_starts_another(app, api):
    game = create_toy(api, players=2, rounds=4)
    game_id = game["game_id"]
    for attempt in range(2):
        response = app.test_client().get(f"/games/{game_id}/stream", buffered=False)
        frames = sse_frames(response.response)
        assert next(frames).comment.startswith("events of game")
        assert readers_of(game_id) == 1
        response.close()
        if attempt:
            break
        deadline = time.monotonic() + 10  # it notices at the end of its current wait (< 5 s)
        while readers_of(game_id):
            assert time.monotonic() < deadline, "the reader outlived its last follower"
            time.sleep(0.1)
