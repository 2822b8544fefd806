"""Cheap requests stay cheap (issue 50, 1): the OpenAPI document, the docs page and the rulesets
are built once per process and answered from memory with an ETag, so a client asking for them
over and over does not slow anyone else down (it pushed another client's median from 4 ms to
1.2 s when every request rebuilt the document)."""

from __future__ import annotations

import threading
import time

from tests.support.public import p50, request, served_in_public, timed

WHOLE_DOCUMENTS = ("/openapi.yaml", "/docs", "/rulesets", "/rulesets/hotw-2024")


def test_every_whole_document_carries_an_etag_and_answers_304_to_it(redis_url: str) -> None:
    with served_in_public(redis_url) as base:
        for path in WHOLE_DOCUMENTS:
            status, headers, body = request(base, "GET", path)
            assert status == 200 and body, (path, status)
            etag = headers["etag"]
            again = request(base, "GET", path, headers={"If-None-Match": etag})
            assert again[0] == 304 and again[2] == b"", (path, again[0])
            assert request(base, "GET", path)[2] == body, f"{path} is the same document"
            stale = request(base, "GET", path, headers={"If-None-Match": '"another"'})
            assert stale[0] == 200 and stale[2] == body, path


def test_four_clients_fetching_the_spec_barely_move_another_clients_median(
    redis_url: str,
) -> None:
    with served_in_public(redis_url) as base:
        request(base, "GET", "/openapi.yaml")  # the one build, done
        quiet = p50(timed(base, "/rulesets", source="127.0.0.2", count=40))
        stop = threading.Event()
        fetched: list[int] = []

        def fetch_the_spec_again_and_again() -> None:
            while not stop.is_set():
                status, headers, body = request(base, "GET", "/openapi.yaml", source="127.0.0.3")
                if status == 429:  # past the address's limit: as polite clients do
                    time.sleep(float(headers["retry-after"]))
                    continue
                assert status == 200 and len(body) > 100_000
                fetched.append(status)

        crowd = [threading.Thread(target=fetch_the_spec_again_and_again) for _ in range(4)]
        for thread in crowd:
            thread.start()
        try:
            time.sleep(0.5)
            loaded = p50(timed(base, "/rulesets", source="127.0.0.2", count=40))
        finally:
            stop.set()
            for thread in crowd:
                thread.join(30)
        assert len(fetched) >= 8, "the crowd was fetching the spec meanwhile"
        # rebuilt on every request, the median was 300 times the quiet one
        assert loaded < 3 * quiet + 0.05, (quiet, loaded, len(fetched))
