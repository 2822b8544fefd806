"""Helpers for the tests of a service in public (tests/abuse/test_public_*): `chronicle serve`
with its default settings (rate limits and quotas on), and timed requests from a loopback
address of the test's choosing (127.0.0.2 is another client than 127.0.0.1 to the service,
which tells clients apart by the connection's peer)."""

from __future__ import annotations

import http.client
import json
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from tests.support.http import serving


@contextmanager
def served_in_public(redis_url: str, **env: str) -> Iterator[str]:
    """`chronicle serve` on `redis_url` as anyone would run it (limits and quotas on), with
    the tests' toy ruleset."""
    env = {"CHRONICLE_RULESET_MODULES": "tests.support.toy", **env}
    with serving(redis_url, CHRONICLE_RATE_LIMITS="on", **env) as base:
        yield base


def request(
    base: str,
    method: str,
    path: str,
    *,
    source: str = "127.0.0.1",
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> tuple[int, dict[str, str], bytes]:
    """One request on a fresh connection from `source`: (status, headers, body)."""
    where = urlsplit(base)
    connection = http.client.HTTPConnection(
        where.hostname, where.port, timeout=timeout, source_address=(source, 0)
    )
    try:
        sent = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        connection.request(method, path, body=data, headers=sent)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def timed(base: str, path: str, *, source: str, count: int, pause_s: float = 0.0) -> list[float]:
    """Seconds each of `count` GETs of `path` from `source` took, one after another, `pause_s`
    apart (each must answer 200)."""
    taken = []
    for n in range(count):
        if n and pause_s:
            time.sleep(pause_s)
        started = time.perf_counter()
        status, _, text = request(base, "GET", path, source=source)
        taken.append(time.perf_counter() - started)
        assert status == 200, (status, text[:300])
    return taken


def p50(samples: list[float]) -> float:
    return statistics.median(samples)


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
