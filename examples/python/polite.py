"""How the example's clients wait: a 429 is sent again once its `Retry-After` has passed, a 503
after its `Retry-After` or, without one, after an exponential backoff with jitter; eight
times at most, never longer than a minute at once. httpx-retries does it (urllib3's `Retry`,
rebuilt for httpx) under every call of the generated client, streams included: the client is
given its transport."""

from __future__ import annotations

from http import HTTPMethod

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


def polite() -> dict[str, RetryTransport]:
    """The `httpx_args` of a generated `Client` or `AuthenticatedClient` that waits as above."""
    return {"transport": RetryTransport(retry=POLITE)}
