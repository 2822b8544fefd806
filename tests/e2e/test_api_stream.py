"""Server-Sent Events: every event once and in order, live, resumable with Last-Event-ID."""

from __future__ import annotations

import random
import threading
from itertools import islice

from tests.support.api import bearer, create_toy, play_one, play_to_the_end, sse_frames


def frames_of(api, url, headers=None):
    response = api.get(url, headers=headers or {}, buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    return response, sse_frames(response.response)


def events_only(frames):
    return [f for f in frames if f.is_event]


def test_a_finished_game_streams_every_event_once_in_order_then_ends(api):
    game = create_toy(api, players=3, rounds=2)
    play_to_the_end(api, game, random.Random(8))
    game_id = game["game_id"]
    response, frames = frames_of(api, f"/games/{game_id}/stream")
    streamed = events_only(list(frames))
    response.close()
    feed = api.get(f"/games/{game_id}/events?limit=500").get_json()
    assert [f.id for f in streamed] == list(range(1, feed["version"] + 1))
    assert [f.event for f in streamed] == [e["type"] for e in feed["events"]]
    assert [f.data for f in streamed] == feed["events"]


def test_a_live_stream_delivers_each_new_event_as_it_is_played_and_ends_with_the_game(app, api):
    game = create_toy(api, players=2, rounds=2)
    game_id = game["game_id"]
    received = []

    def follow():
        with app.test_client() as own:
            response, frames = frames_of(own, f"/games/{game_id}/stream")
            received.extend(frames)
            response.close()

    follower = threading.Thread(target=follow)
    follower.start()
    play_to_the_end(api, game, random.Random(9))
    follower.join(timeout=20)
    assert not follower.is_alive(), "the stream ends once the game is finished"
    version = api.get(f"/games/{game_id}").get_json()["version"]
    assert [f.id for f in events_only(received)] == list(range(1, version + 1))


def test_a_stream_resumes_after_a_disconnect_from_the_last_event_id(api):
    game = create_toy(api, players=3, rounds=2)
    play_to_the_end(api, game, random.Random(10))
    game_id = game["game_id"]
    response, frames = frames_of(api, f"/games/{game_id}/stream")
    first_part = []
    for frame in frames:
        if frame.is_event:
            first_part.append(frame)
        if len(first_part) == 5:
            break
    response.close()
    resumed, rest = frames_of(api, f"/games/{game_id}/stream", {"Last-Event-ID": "5"})
    second_part = events_only(list(rest))
    resumed.close()
    version = api.get(f"/games/{game_id}").get_json()["version"]
    assert [f.id for f in first_part + second_part] == list(range(1, version + 1))
    _, from_query = frames_of(api, f"/games/{game_id}/stream?from=4")
    assert events_only(list(from_query))[0].id == 4


def test_an_idle_stream_sends_keep_alive_comments(api):
    game = create_toy(api, players=2)
    response, frames = frames_of(api, f"/games/{game['game_id']}/stream?from=3")
    seen = [next(frames), next(frames), next(frames)]
    response.close()
    # the opening frame names the version the stream starts after (2: from=3), the keep-alives
    # carry no id
    assert [(f.id, f.data) for f in seen] == [(2, None), (None, None), (None, None)]
    assert [f.comment for f in seen][1:] == ["keep-alive", "keep-alive"]


def test_a_stream_picks_up_events_appended_while_it_waits(app, api):
    game = create_toy(api, players=2, rounds=1)
    game_id = game["game_id"]
    response, frames = frames_of(api, f"/games/{game_id}/stream?from=3")
    assert next(frames).comment.startswith("events of game")
    assert next(frames).comment == "keep-alive"
    play_one(api, game, random.Random(1))
    arrived = next(f for f in frames if f.is_event)
    response.close()
    assert (arrived.id, arrived.event) == (3, "ToyBidSealed")


def test_a_seat_streams_its_own_bid_and_only_the_redacted_form_of_others(api):
    game = create_toy(api, players=2, rounds=1)
    game_id = game["game_id"]
    for seat, chips in ((0, 4), (1, 2)):
        api.post(
            f"/games/{game_id}/commands",
            json={"command": {"type": "bid", "chips": chips}},
            headers=bearer(game["seat_tokens"][seat]),
        )
    response, frames = frames_of(api, f"/games/{game_id}/stream", bearer(game["seat_tokens"][0]))
    bids = list(islice((f.data for f in frames if f.event == "ToyBidSealed"), 2))
    response.close()
    assert bids[0]["data"] == {"seat": 0, "chips": 4}
    assert bids[1]["data"] == {"seat": 1} and bids[1]["redacted"] is True
