"""The small findings of issue 50 (its Low items), each against a served stack: /healthz keeps
answering a monitor whose address is rate-limited for its other traffic."""

from __future__ import annotations

import threading
import time

from tests.support.public import request, served_in_public


def test_healthz_answers_a_monitor_whose_address_is_past_its_limit(redis_url: str) -> None:
    with served_in_public(redis_url) as base:
        source = "127.0.0.31"
        refused: list[int] = []
        stop = threading.Event()

        def flood() -> None:
            while not stop.is_set():
                status, _, _ = request(base, "GET", "/rulesets", source=source)
                if status == 429:
                    refused.append(status)

        crowd = [threading.Thread(target=flood) for _ in range(4)]
        for thread in crowd:
            thread.start()
        try:
            deadline = time.monotonic() + 20
            while not refused:
                assert time.monotonic() < deadline, "the flood never passed the address's limit"
                time.sleep(0.05)
            monitor = []
            for _ in range(10):
                monitor.append(request(base, "GET", "/healthz", source=source)[0])
                time.sleep(0.1)
            seen_refused = len(refused)
        finally:
            stop.set()
            for thread in crowd:
                thread.join(30)
        assert seen_refused > 0
        assert monitor == [200] * 10, monitor
