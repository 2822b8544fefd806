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


LOOK_THE_SAME = (
    ("paul", "paul\ufe00"),  # a variation selector
    ("paul", "pa\u034ful"),  # a combining grapheme joiner
    ("ka", "k\u17b4a"),  # a Khmer inherent vowel
)
NO_BASE = ("\u0301", "\u0301Ann", " \u0308 ")


def test_names_that_differ_only_by_what_draws_nothing_are_refused(redis_url: str) -> None:
    with served_in_public(redis_url) as base:
        for first, second in LOOK_THE_SAME:
            game = {"ruleset": "toy-sealed-bids", "players": [first, second]}
            status, _, body = request(base, "POST", "/games", body=game, source="127.0.0.32")
            assert status == 422, (first, second, status, body)
            assert b"nobody sees" in body or b"looks the same" in body, body
        for name in NO_BASE:
            status, _, body = request(
                base, "POST", "/players", body={"name": name}, source="127.0.0.33"
            )
            assert status == 422, (name, status, body)
        emoji = request(
            base, "POST", "/players", body={"name": "\u2764\ufe0f"}, source="127.0.0.33"
        )
        assert emoji[0] == 201, "an emoji's picture form is a name"
