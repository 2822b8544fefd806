"""Slow clients are bounded (issue 50, 2): one address opening thousands of uploads that trickle
their bodies (a byte every few seconds: each read progresses, so no socket timeout fires) held
every connection slot, and another address's /healthz answered 0 of 10. Now a body must arrive
whole within `CHRONICLE_BODY_DEADLINE_S` (else 408, connection closed) and one address holds at
most `CHRONICLE_CONNECTIONS_PER_ADDRESS` connections per web process (past it: 503 at once), so
another address is served as before. Against `chronicle serve` with its default settings."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from urllib.parse import urlsplit

from api import guarded
from api.app import MAX_BODY_BYTES
from tests.support.public import p99, request, served_in_public, timed

SLOW_UPLOADS = 2500
TRICKLE_EVERY_S = 3.0
HELD_S = 20.0


def slow_upload(base: str) -> socket.socket:
    """A `POST /players` from 127.0.0.1 that promises 100,000 bytes and sends one."""
    where = urlsplit(base)
    sock = socket.create_connection((where.hostname, where.port), timeout=10)
    sock.sendall(
        b"POST /players HTTP/1.1\r\nHost: chronicle\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100000\r\n\r\n{"
    )
    sock.setblocking(False)
    return sock


def answer_of(sock: socket.socket) -> bytes:
    """What the server sent on the connection so far (b"" if nothing yet)."""
    with contextlib.suppress(BlockingIOError, OSError):
        return sock.recv(4096)
    return b""


def trickle(uploads: list[socket.socket], stop: threading.Event) -> None:
    while not stop.wait(TRICKLE_EVERY_S):
        for sock in uploads:
            with contextlib.suppress(OSError):
                sock.send(b" ")


def test_the_worker_reads_bodies_up_to_the_apps_own_limit() -> None:
    assert guarded.MAX_BODY_BYTES == MAX_BODY_BYTES


def test_a_body_that_does_not_arrive_in_time_is_a_408_and_the_connection_closes(
    redis_url: str,
) -> None:
    with served_in_public(redis_url, CHRONICLE_BODY_DEADLINE_S="2") as base:
        sock = slow_upload(base)
        sent_at = time.monotonic()
        try:
            sock.setblocking(True)
            sock.settimeout(10)
            answer = b""
            while True:
                with contextlib.suppress(TimeoutError):
                    sock.send(b" ")
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
                time.sleep(0.5)
        finally:
            sock.close()
        took = time.monotonic() - sent_at
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b'"code": "request_timeout"' in answer
        assert 1.5 <= took <= 6, took
        # a body that arrives whole within the deadline is served as ever
        status, _, body = request(base, "POST", "/players", body={"name": "Ada"})
        assert status == 201, body


def test_thousands_of_slow_uploads_from_one_address_leave_another_address_served(
    redis_url: str,
) -> None:
    with served_in_public(redis_url) as base:
        # a monitor's pace, within /healthz's own limit (20 a second)
        quiet = timed(base, "/healthz", source="127.0.0.2", count=100, pause_s=0.1)
        uploads = [slow_upload(base) for _ in range(SLOW_UPLOADS)]
        opened_at = time.monotonic()
        stop = threading.Event()
        trickler = threading.Thread(target=trickle, args=(uploads, stop))
        trickler.start()
        try:
            loaded: list[float] = []
            while time.monotonic() - opened_at < HELD_S:
                loaded += timed(base, "/healthz", source="127.0.0.2", count=1)
                time.sleep(0.1)
        finally:
            stop.set()
            trickler.join(30)
            answers = [answer_of(sock) for sock in uploads]
            for sock in uploads:
                sock.close()
        refused = sum(a.startswith(b"HTTP/1.1 503") for a in answers)
        timed_out = sum(a.startswith(b"HTTP/1.1 408") for a in answers)
        assert refused >= SLOW_UPLOADS - 2 * guarded.CONNECTIONS_PER_ADDRESS, (refused, timed_out)
        assert refused + timed_out == SLOW_UPLOADS, "every slow upload was answered and closed"
        assert len(loaded) >= 100
        # starved, the other address waits out the body deadline (seconds); served, it waits a
        # few scheduler slices of a shared host at most
        assert p99(loaded) <= max(5 * p99(quiet), 0.25), (p99(quiet), p99(loaded))


def test_a_client_that_waits_for_100_continue_is_told_to_go_on_and_served(
    redis_url: str,
) -> None:
    with served_in_public(redis_url) as base:
        where = urlsplit(base)
        body = b'{"name": "Ada"}'
        with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
            sock.sendall(
                b"POST /players HTTP/1.1\r\nHost: chronicle\r\nContent-Type: application/json\r\n"
                b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n" % len(body)
            )
            assert sock.recv(4096).startswith(b"HTTP/1.1 100 Continue"), "told to go on"
            sock.sendall(body)
            answer = sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 201"), answer[:300]
