"""How the example's clients wait: a 429 is sent again once its `Retry-After` has passed, a 503
after its `Retry-After` or, without one, after an exponential backoff with jitter; eight
times at most, never longer than a minute at once. httpx-retries does it (urllib3's `Retry`,
rebuilt for httpx) under every call of the generated client, streams included: the client is
given its transport. Given a `Counter`, every answer's status is counted in it, those waited
out and sent again included (a 503 retried away is still a 503 the server gave)."""

from __future__ import annotations

from collections import Counter
from http import HTTPMethod

import httpx
from httpx_retries import Retry, RetryTransport

POLITE = Retry(
    total=8,
    allowed_methods=list(HTTPMethod),  # a refused request did nothing: a POST is sent again too
    status_forcelist=[429, 503],
    retry_on_exceptions=[],  # a connection that fails is reported, not tried again
    backoff_factor=0.25,
    backoff_jitter=0.5,
    max_backoff_wait=60.0,
    respect_retry_after_header=True,
)


class Tallied(httpx.HTTPTransport):
    """httpx's own transport, counting the status of every answer it reads."""

    def __init__(self, statuses: Counter[int]) -> None:
        super().__init__()
        self.statuses = statuses

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        self.statuses[response.status_code] += 1
        return response


def polite(statuses: Counter[int] | None = None) -> dict[str, RetryTransport]:
    """The `httpx_args` of a generated `Client` or `AuthenticatedClient` that waits as above
    (and counts every status in `statuses`, if given)."""
    sent = httpx.HTTPTransport() if statuses is None else Tallied(statuses)
    return {"transport": RetryTransport(transport=sent, retry=POLITE)}
