"""Streams that stay up: every kind of live stream (a game's in SSE and NDJSON, with a token and
with a ticket; a player's in SSE and NDJSON; the web lobby's, a player's stream opened with a
ticket), followed at once on `chronicle serve` with its default settings (gunicorn's gevent
workers, redis-py's own 5 s socket timeout), held idle for over a minute: each gets its
keep-alive every 15 s as the document says, none is cut, none answers 500. And a Redis server
that answers later than the client's socket timeout while the streams wait (paused) ends none of
them and writes no traceback."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
import requests

from service.following import HEARTBEAT_S
from store import blocking
from tests.support.abuse import bearer, play_turn
from tests.support.http import serving_logged

pytestmark = pytest.mark.slow

PLAYERS = ["ann", "bob", "cy"]
HELD_S = 62.0


@dataclass
class Followed:
    """One stream followed by a thread of its own: when each keep-alive came, what else came,
    and how it ended."""

    name: str
    url: str
    headers: dict[str, str]
    ndjson: bool
    status: int | None = None
    heartbeats: list[float] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    opening: dict[str, Any] | None = None
    opened_at: float = 0.0
    cut: str | None = None
    stopping: bool = False
    connection: http.client.HTTPConnection | None = None

    def follow(self) -> None:
        self.opened_at = time.monotonic()
        parts = urlsplit(self.url)
        self.connection = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=HEARTBEAT_S + 5
        )
        try:
            self.connection.request("GET", f"{parts.path}?{parts.query}", headers=self.headers)
            response = self.connection.getresponse()
            self.status = response.status
            if self.status != 200:
                return
            for item in self.items(iter(response.readline, b"")):
                if item == "heartbeat":
                    self.heartbeats.append(time.monotonic())
                elif item.get("kind") == "opening":
                    self.opening = item
                else:
                    self.lines.append(item)
            if not self.stopping:
                self.cut = "the server ended the stream"
        except Exception as exc:  # a cut, unless the test itself closed it
            if not self.stopping:
                self.cut = repr(exc)

    def items(self, lines: Iterator[bytes]) -> Iterator[str | dict[str, Any]]:
        """Each keep-alive ("heartbeat") and each other frame (its fields) or line (its JSON)."""
        frame: list[str] = []
        for raw in lines:
            line = raw.decode().rstrip("\n")
            if self.ndjson:
                parsed = json.loads(line)
                yield "heartbeat" if parsed == {"kind": "heartbeat"} else parsed
            elif line:
                frame.append(line)
            elif frame == [": keep-alive"]:
                yield "heartbeat"
                frame = []
            else:
                fields = dict(f.split(": ", 1) for f in frame if not f.startswith(":"))
                frame = []
                if "data" in fields:
                    yield {**fields, "data": json.loads(fields["data"])}

    def stop(self) -> None:
        self.stopping = True
        if self.connection is not None and self.connection.sock is not None:
            self.connection.sock.shutdown(socket.SHUT_RDWR)


def followed_at_once(streams: list[Followed]) -> list[threading.Thread]:
    threads = [threading.Thread(target=s.follow, name=s.name, daemon=True) for s in streams]
    for thread in threads:
        thread.start()
    return threads


def every_kind_of_stream(base: str) -> list[Followed]:
    game = requests.post(f"{base}/games", json={"ruleset": "hotw-2024", "players": PLAYERS})
    assert game.status_code == 201, game.text
    body = game.json()
    game_id, seat = body["game_id"], bearer(body["seat_tokens"][0])
    after = requests.get(f"{base}/games/{game_id}", timeout=10).json()["version"]
    game_url = f"{base}/games/{game_id}/stream?from={after + 1}"
    ticket = requests.post(f"{base}/games/{game_id}/stream-tickets", headers=seat, timeout=10)
    assert ticket.status_code == 201, ticket.text
    ticketed = ticket.json()["ticket"]  # as the web table opens it: from the version it shows
    player = requests.post(f"{base}/players", json={"name": "Ada"}, timeout=10)
    assert player.status_code == 201, player.text
    key = bearer(player.json()["player_key"])
    lobby = requests.post(f"{base}/players/me/stream-tickets", headers=key, timeout=10)
    assert lobby.status_code == 201, lobby.text
    return [
        Followed("game SSE, a spectator", game_url, {}, ndjson=False),
        Followed("game SSE, the web table's ticket", f"{game_url}&ticket={ticketed}", {}, False),
        Followed("game NDJSON, a seat", game_url + "&format=ndjson", seat, ndjson=True),
        Followed("player SSE", f"{base}/players/me/stream", key, ndjson=False),
        Followed(
            "player NDJSON",
            f"{base}/players/me/stream",
            {**key, "Accept": "application/x-ndjson"},
            ndjson=True,
        ),
        Followed("the web lobby's feed", base + lobby.json()["stream_url"], {}, ndjson=False),
    ]


def test_every_stream_held_idle_for_a_minute_gets_its_keep_alive_every_15_s_and_is_never_cut(
    redis_url: str,
) -> None:
    with serving_logged(redis_url) as (base, said):
        service_timeout = blocking.socket_timeout_of(redis.Redis.from_url(redis_url))
        assert service_timeout is not None and service_timeout < HEARTBEAT_S, (
            "the default client times out before a keep-alive is due: the case this holds"
        )
        streams = every_kind_of_stream(base)
        threads = followed_at_once(streams)
        time.sleep(HELD_S)
        for stream in streams:
            stream.stop()
        for thread in threads:
            thread.join(10)
        log = b"".join(said).decode(errors="replace")

    expected = int(HELD_S // HEARTBEAT_S)
    for stream in streams:
        assert stream.status == 200, (stream.name, stream.status)
        assert stream.cut is None, (stream.name, stream.cut)
        gaps = [
            later - earlier
            for earlier, later in zip(
                [stream.opened_at, *stream.heartbeats], stream.heartbeats, strict=False
            )
        ]
        assert len(stream.heartbeats) == expected, (stream.name, gaps)
        assert all(HEARTBEAT_S - 0.5 <= gap <= HEARTBEAT_S + 1.5 for gap in gaps), (
            stream.name,
            gaps,
        )
        assert stream.lines == [], (stream.name, stream.lines)
    assert "Traceback" not in log, log[-3000:]


def test_a_redis_server_slower_than_the_socket_timeout_ends_no_stream_and_writes_no_traceback(
    redis_url: str,
) -> None:
    """The service's client times out after 1 s; Redis pauses every client for 2.5 s while the
    streams wait (each read then ends in a TimeoutError): every stream goes on, and tells the
    next event when it comes."""
    slow_url = redis_url + ("&" if "?" in redis_url else "?") + "socket_timeout=1"
    env = {"CHRONICLE_QUEUE_REDIS_URL": redis_url}
    with serving_logged(slow_url, **env) as (base, said):
        game = requests.post(f"{base}/games", json={"ruleset": "hotw-2024", "players": PLAYERS})
        body = game.json()
        game_id = body["game_id"]
        after = requests.get(f"{base}/games/{game_id}", timeout=10).json()["version"]
        url = f"{base}/games/{game_id}/stream?from={after + 1}"
        seat = bearer(body["seat_tokens"][0])
        player = requests.post(f"{base}/players", json={"name": "Bea"}, timeout=10).json()
        streams = [
            Followed("game SSE", url, {}, ndjson=False),
            Followed("game NDJSON", url + "&format=ndjson", seat, ndjson=True),
            Followed(
                "player NDJSON",
                f"{base}/players/me/stream?format=ndjson",
                bearer(player["player_key"]),
                ndjson=True,
            ),
        ]
        threads = followed_at_once(streams)
        time.sleep(1.5)
        paused = redis.Redis.from_url(redis_url)
        paused.execute_command("CLIENT", "PAUSE", 2500, "ALL")
        during = requests.get(url, stream=True, timeout=15)  # opened while Redis is paused
        assert during.status_code in (200, 503), (during.status_code, during.text)
        during.close()
        time.sleep(1.5)
        with requests.Session() as session:
            moved = play_turn(session, base, body, lambda actions: actions[0])
        assert moved is not None and moved.status_code == 201, moved and moved.text
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(s.lines for s in streams[:2]):
            time.sleep(0.1)
        for stream in streams:
            stream.stop()
        for thread in threads:
            thread.join(10)
        log = b"".join(said).decode(errors="replace")

    for stream in streams:
        assert stream.status == 200, (stream.name, stream.status)
        assert stream.cut is None, (stream.name, stream.cut)
        errors = [x for x in stream.lines if "error" in (x.get("kind"), x.get("event"))]
        assert errors == [], (stream.name, errors)
    assert streams[0].lines and streams[0].lines[0]["data"]["version"] == after + 1
    assert streams[1].opening == {"kind": "opening", "id": str(after)}
    assert streams[1].lines and streams[1].lines[0]["kind"] == "event"
    assert streams[1].lines[0]["id"] == str(after + 1), streams[1].lines
    assert "Traceback" not in log and " 500 " not in log, log[-3000:]
