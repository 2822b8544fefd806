"""The web worker `chronicle serve` runs: the evented one (api.evented), with slow clients
bounded, so that one address cannot hold every connection slot.

- A request's whole body must arrive within `CHRONICLE_BODY_DEADLINE_S` (default 15) of its
  headers; one that has not is answered 408 and its connection closed. (Each read making
  progress within the socket timeout is not enough: a byte every few seconds held a place for
  hours.) The body is read before the app sees the request, up to the app's size limit.
- One client address may hold at most `CHRONICLE_CONNECTIONS_PER_ADDRESS` (default 100)
  connections at once in each web process; a connection past that is answered 503 with
  `Retry-After` and closed at once. The address is the connection's peer: behind reverse
  proxies (`CHRONICLE_TRUSTED_PROXIES` > 0) every connection comes from a proxy, so the cap is
  off unless set, and the proxy bounds its own clients.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

import gevent
from gunicorn.http.body import Body, LengthReader
from gunicorn.http.unreader import IterUnreader

from api.evented import ChronicleWorker

BODY_DEADLINE_S = 15.0
CONNECTIONS_PER_ADDRESS = 100
MAX_BODY_BYTES = 2 * 1024 * 1024
"""The app's own limit (api.app; not imported here, before gevent patches the process)."""
REFUSAL_WAIT_S = 1.0
"""How long the answer to a connection refused may take to write before it is dropped."""


def body_deadline_s() -> float:
    return float(os.environ.get("CHRONICLE_BODY_DEADLINE_S", BODY_DEADLINE_S))


def connections_per_address() -> int:
    """The cap (0: none)."""
    if "CHRONICLE_CONNECTIONS_PER_ADDRESS" in os.environ:
        return int(os.environ["CHRONICLE_CONNECTIONS_PER_ADDRESS"])
    behind_proxies = int(os.environ.get("CHRONICLE_TRUSTED_PROXIES", "0")) > 0
    return 0 if behind_proxies else CONNECTIONS_PER_ADDRESS


def error_answer(status: str, code: str, message: str, headers: dict[str, str]) -> bytes:
    """A whole HTTP answer with the one error body, that closes its connection."""
    body = json.dumps({"code": code, "message": message}).encode()
    lines = [
        f"HTTP/1.1 {status}",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        "Connection: close",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


TOO_SLOW = error_answer(
    "408 Request Timeout",
    "request_timeout",
    "the request's body did not arrive in time: send it whole, and sooner",
    {},
)
TOO_MANY = error_answer(
    "503 Service Unavailable",
    "too_many_connections",
    "this address holds too many connections at once: close some, or wait",
    {"Retry-After": "1"},
)


class SlowBody(Exception):
    """The body did not arrive within its deadline."""


def has_body(req: Any) -> bool:
    reader = req.body.reader
    return not (isinstance(reader, LengthReader) and reader.length == 0)


def read_whole_body(req: Any, sock: Any, deadline_s: float) -> None:
    """Read the request's body (up to one byte past the app's limit, which the app refuses)
    within `deadline_s`, and hand the app what was read. A client that asked to be told to go
    on (`Expect: 100-continue`) is told first, as gunicorn would before the app reads."""
    if not has_body(req):
        return
    declared = next((v for k, v in req.headers if k == "CONTENT-LENGTH"), None)
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return  # the app refuses it (413) without reading it
    if getattr(req, "_expected_100_continue", False):  # the client waits for our go-ahead
        req._expected_100_continue = False
        with gevent.Timeout(REFUSAL_WAIT_S, SlowBody):
            sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
    chunks, size = [], 0
    with gevent.Timeout(deadline_s, SlowBody):
        while size <= MAX_BODY_BYTES:
            chunk = req.body.read(65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    data = b"".join(chunks)
    req.body = Body(LengthReader(IterUnreader([data]), len(data)))


def send_and_close(sock: Any, answer: bytes) -> None:
    try:
        with gevent.Timeout(REFUSAL_WAIT_S, False):
            sock.sendall(answer)
    except OSError:
        pass
    finally:
        sock.close()


class GuardedWorker(ChronicleWorker):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.held: Counter[str] = Counter()
        self.cap = connections_per_address()
        self.deadline_s = body_deadline_s()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        address = str(addr[0]) if isinstance(addr, tuple) else str(addr)
        if self.cap and self.held[address] >= self.cap:
            send_and_close(client, TOO_MANY)
            return
        self.held[address] += 1
        try:
            super().handle(listener, client, addr)
        finally:
            self.held[address] -= 1
            if self.held[address] <= 0:
                del self.held[address]

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        try:
            read_whole_body(req, sock, self.deadline_s)
        except SlowBody:
            send_and_close(sock, TOO_SLOW)
            raise StopIteration("the body did not arrive in time") from None
        return super().handle_request(listener_name, req, sock, addr)
