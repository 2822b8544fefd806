"""A stream ticket is used once (on `chronicle serve`, its default settings): a ticket's URL read
from a log, or an expired ticket, opens nothing from the start, for nobody else, and never
several times at once; the stream's own EventSource still reconnects with `Last-Event-ID`, from
its address, going on from where it was, in its place."""

from __future__ import annotations

import http.client
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
import redis
import requests

from service import tickets
from service.auth import token_hash
from store.credentials import SecretVault
from tests.support.abuse import bearer, play_turn
from tests.support.http import serving

pytestmark = pytest.mark.slow

PLAYERS = ["ann", "bob", "cy"]


class Sse:
    """A stream opened by hand: its status and, read frame by frame, its frames' fields."""

    def __init__(self, url: str, last_event_id: str | None = None, source: str = "127.0.0.1"):
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=20, source_address=(source, 0)
        )
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.connection.request("GET", f"{parts.path}?{parts.query}", headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def frames(self) -> Iterator[dict[str, str]]:
        fields: dict[str, str] = {}
        for raw in iter(self.response.readline, b""):
            line = raw.decode().rstrip("\n")
            if line:
                name, _, value = line.partition(": ")
                fields[name] = value
                continue
            yield fields
            fields = {}

    def events_until(self, version: int) -> list[dict[str, str]]:
        got = []
        for frame in self.frames():
            if "data" in frame:
                got.append(frame)
                if int(frame["id"]) >= version:
                    return got
        raise AssertionError(f"the stream ended before version {version}: {got}")

    def close(self) -> None:
        self.connection.close()


def test_a_used_or_expired_ticket_reopens_nothing_and_its_own_reconnection_goes_on(
    redis_url: str,
) -> None:
    with serving(redis_url) as base:
        made = requests.post(f"{base}/games", json={"ruleset": "hotw-2024", "players": PLAYERS})
        game = made.json()
        game_id, seat = game["game_id"], bearer(game["seat_tokens"][0])
        version = requests.get(f"{base}/games/{game_id}", timeout=10).json()["version"]
        issued = requests.post(f"{base}/games/{game_id}/stream-tickets", headers=seat, timeout=10)
        url = base + issued.json()["stream_url"]  # as it would stand in an access log

        first = Sse(url)
        assert first.status == 200
        seen = first.events_until(version)
        assert [int(f["id"]) for f in seen] == list(range(1, version + 1))
        first.close()
        time.sleep(0.5)

        def opened(last_event_id: str | None, source: str = "127.0.0.1") -> int:
            stream = Sse(url, last_event_id, source)
            stream.close()
            return stream.status

        with ThreadPoolExecutor(6) as pool:
            again = list(pool.map(opened, [None, None, "0", "0", "0", "1"]))
        assert again == [401] * 6, "the logged URL opens nothing anew, nor from the start"
        assert opened(str(version), source="127.0.0.2") == 401, "nor from another address"

        seed = SecretVault(redis.Redis.from_url(redis_url, decode_responses=True)).seed(game_id)
        expired, _ = tickets.issue(
            seed, game_id, 0, token_hash(game["seat_tokens"][0]), now=time.time() - 600
        )
        stale = f"{base}/games/{game_id}/stream?ticket={expired}"
        with ThreadPoolExecutor(4) as pool:
            late = list(pool.map(lambda _: Sse(stale, "0").status, range(4)))
        assert late == [401] * 4, "an expired ticket never opened opens nothing"
        refusal = requests.get(stale, headers={"Last-Event-ID": "0"}, timeout=10)
        assert refusal.status_code == 401 and refusal.json()["code"] == "unauthenticated"

        # its own EventSource, reconnecting from where it was, goes on
        resumed = Sse(url, str(version))
        assert resumed.status == 200
        with requests.Session() as session:
            moved = play_turn(session, base, game, lambda actions: actions[0])
            assert moved is not None and moved.status_code == 201, moved and moved.text
        now = moved.json()["version"]
        got = resumed.events_until(now)
        assert [int(f["id"]) for f in got] == list(range(version + 1, now + 1))
        # a second reconnection takes its place: the first ends at its next frame
        replacing = Sse(url, str(now))
        assert replacing.status == 200
        with requests.Session() as session:
            again_moved = play_turn(session, base, game, lambda actions: actions[0])
            assert again_moved is not None and again_moved.status_code == 201
        assert [f for f in resumed.frames() if "data" in f] == [], "the replaced stream ended"
        later = replacing.events_until(again_moved.json()["version"])
        assert int(later[0]["id"]) == now + 1
        replacing.close()
        resumed.close()

        # the web lobby's notification stream: its EventSource got nothing yet, and reconnects
        player = requests.post(f"{base}/players", json={"name": "Ada"}, timeout=10).json()
        key = bearer(player["player_key"])
        lobby = requests.post(f"{base}/players/me/stream-tickets", headers=key, timeout=10)
        feed = base + lobby.json()["stream_url"]
        quiet = Sse(feed)
        assert quiet.status == 200
        where = next(quiet.frames())["id"]
        quiet.close()
        time.sleep(0.5)
        with ThreadPoolExecutor(3) as pool:
            logged = list(pool.map(lambda lei: Sse(feed, lei).status, [None, None, None]))
        assert logged == [401] * 3
        assert Sse(feed, where, source="127.0.0.2").status == 401
        back = Sse(feed, where)
        assert back.status == 200, "its own reconnection, from the id of the opening frame"
        back.close()
