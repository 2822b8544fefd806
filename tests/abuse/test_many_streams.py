"""Open event streams and slow clients do not starve the server (`chronicle serve`, gevent
workers): with 200 streams held open every other request is still answered; a client that
trickles its headers is cut off after the header deadline and holds nothing meanwhile; one
client may hold only so many streams at once (429 past that, with Retry-After)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
import redis
import requests

from store.keys import PREFIX
from tests.support.http import serving

pytestmark = pytest.mark.slow

PLAYERS = ["ann", "bob", "cy"]


def open_stream(base: str, path: str) -> socket.socket:
    """A stream opened by hand and left unread after its first bytes (a browser's idle tab)."""
    parts = urlsplit(base)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=20)
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    head = sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 200"), head[:200]
    return sock


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    # 200 streams from one address: past its streams and its connections per web process
    with serving(
        redis_url,
        web_workers=2,
        CHRONICLE_STREAMS_PER_CLIENT="1000",
        CHRONICLE_CONNECTIONS_PER_ADDRESS="1000",
    ) as base:
        yield base


def test_with_200_streams_open_every_other_request_is_answered(server: str) -> None:
    game = requests.post(f"{server}/games", json={"ruleset": "hotw-2024", "players": PLAYERS})
    assert game.status_code == 201
    body = game.json()
    streams = [open_stream(server, f"/games/{body['game_id']}/stream") for _ in range(200)]
    try:

        def other(n: int) -> int:
            if n % 4 == 0:
                return requests.get(f"{server}/healthz", timeout=15).status_code
            if n % 4 == 1:
                return requests.get(f"{server}/games/{body['game_id']}", timeout=15).status_code
            if n % 4 == 2:
                made = requests.post(
                    f"{server}/games", json={"ruleset": "hotw-2024", "players": PLAYERS}, timeout=15
                )
                return made.status_code
            seat = {"Authorization": f"Bearer {body['seat_tokens'][0]}"}
            legal = requests.get(
                f"{server}/games/{body['game_id']}/legal-actions", headers=seat, timeout=15
            )
            return legal.status_code

        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(other, range(64)))
        assert answers.count(200) + answers.count(201) == 64, answers
    finally:
        for sock in streams:
            sock.close()


def test_a_client_that_trickles_its_headers_is_cut_off_and_blocks_nobody(server: str) -> None:
    parts = urlsplit(server)
    slow = []
    for _ in range(40):
        sock = socket.create_connection((parts.hostname, parts.port), timeout=30)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and never the end of the headers
        slow.append(sock)
    try:
        for _ in range(8):
            assert requests.get(f"{server}/healthz", timeout=5).status_code == 200
        started = time.monotonic()
        for sock in slow:
            assert sock.recv(100) == b"", "the server still waits for the headers"
        assert time.monotonic() - started < 25
    finally:
        for sock in slow:
            sock.close()


def test_one_client_holds_only_so_many_streams(redis_url: str) -> None:
    # places left by another test's server, killed before it could give them back, would count
    # until their lease ran out: this test starts from none
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(match=f"{PREFIX}:streams:*"):
        client.delete(key)
    with serving(
        redis_url, CHRONICLE_STREAMS_PER_CLIENT="3", CHRONICLE_SSE_HEARTBEAT_S="1"
    ) as base:
        game = requests.post(f"{base}/games", json={"ruleset": "hotw-2024", "players": PLAYERS})
        path = f"/games/{game.json()['game_id']}/stream"
        held = [open_stream(base, path) for _ in range(3)]
        try:
            refused = requests.get(base + path, timeout=10, stream=True)
            assert refused.status_code == 429
            assert refused.headers["Retry-After"].isdigit()
            assert json.loads(refused.content)["code"] == "too_many_streams"
            held.pop().close()
            # the server notices the closed stream at a write (a keep-alive each second here);
            # under a loaded machine that can take a few of them
            deadline = time.monotonic() + 30
            while True:
                try:
                    held.append(open_stream(base, path))
                    break
                except AssertionError:
                    assert time.monotonic() < deadline, "a closed stream's place never came back"
                    time.sleep(0.2)
        finally:
            for sock in held:
                sock.close()
