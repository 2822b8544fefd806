"""A small client for the commands that work against a running Chronicle server (`--url`,
`--via-api`): JSON in and out, bearer tokens, and the API's one error body.

Every Python client of the project that speaks to a served stack over `requests` (this one,
the bench's, the test support's, `chronicle soak`) is polite through `polite_session()`: a 429
is retried once its `Retry-After` has passed, a 503 after its `Retry-After` or, without one,
after an exponential backoff with jitter; a bounded number of times, and never for a
`Retry-After` longer than `MAX_WAIT_S` (a day's quota is an answer, not a wait). The policy is
urllib3's `Retry` mounted on the session, so the waiting happens under every call, streams
included; `retry_wait` gives the same policy's answer to a client that keeps its own sockets
(the bench's crowd)."""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import urljoin

import requests
from requests.adapters import HTTPAdapter
from urllib3.exceptions import MaxRetryError, ResponseError
from urllib3.response import BaseHTTPResponse, HTTPResponse
from urllib3.util.retry import Retry

TIMEOUT_S = 30
RETRIED_STATUSES = frozenset({429, 503})
"""Too many requests, and the store not reachable: both say `Retry-After`."""
RETRIES = 8
"""Tries after the first, for one request."""
BACKOFF_S = 0.25
"""The first backoff of a 503 without `Retry-After`; it doubles each try, up to BACKOFF_MAX_S."""
BACKOFF_MAX_S = 8.0
MAX_WAIT_S = 60.0
"""The longest `Retry-After` a client waits out; a longer one is handed to the caller."""

log = logging.getLogger("chronicle.client")


class PoliteRetry(Retry):
    """urllib3's `Retry` that backs off from the first retry of a 503 (urllib3's first retry is
    immediate), draws each backoff between half and all of its doubling (jitter, so clients
    refused together do not come back together), gives up on a `Retry-After` past MAX_WAIT_S,
    and logs each wait (`chronicle.client`, with `status` and `wait_s`)."""

    def get_backoff_time(self) -> float:
        if not self.history:
            return 0.0
        doubled = min(self.backoff_max, self.backoff_factor * 2 ** (len(self.history) - 1))
        return random.uniform(doubled / 2, doubled)

    def increment(  # type: ignore[override]
        self,
        method: str | None = None,
        url: str | None = None,
        response: BaseHTTPResponse | None = None,
        error: Exception | None = None,
        _pool: Any = None,
        _stacktrace: Any = None,
    ) -> Retry:
        announced = self.get_retry_after(response) if response is not None else None
        if announced is not None and announced > MAX_WAIT_S:
            reason = f"Retry-After {announced:g} s is past the {MAX_WAIT_S:g} s a client waits"
            raise MaxRetryError(_pool, url or "", ResponseError(reason))
        return super().increment(method, url, response, error, _pool, _stacktrace)

    def sleep(self, response: BaseHTTPResponse | None = None) -> None:
        wait = self.wait_for(response)
        status = response.status if response is not None else None
        how = "as Retry-After asks" if self.announced(response) is not None else "backing off"
        log.info(
            "HTTP %s: waiting %.2f s (%s)",
            status,
            wait,
            how,
            extra={"status": status, "wait_s": wait},
        )
        time.sleep(wait)

    def announced(self, response: BaseHTTPResponse | None) -> float | None:
        if response is None or not self.respect_retry_after_header:
            return None
        return self.get_retry_after(response)

    def wait_for(self, response: BaseHTTPResponse | None) -> float:
        """How long to wait before the next try: the answer's `Retry-After`, else the backoff."""
        announced = self.announced(response)
        return announced if announced is not None else self.get_backoff_time()


def polite_retry() -> PoliteRetry:
    """The one policy: status retries only (a connection that fails is the caller's finding),
    for every method (a refused request did nothing; a command is sent again with its
    Idempotency-Key, so a 503's retry cannot apply it twice)."""
    return PoliteRetry(
        total=RETRIES,
        connect=0,
        read=0,
        other=0,
        redirect=0,
        status=RETRIES,
        status_forcelist=RETRIED_STATUSES,
        allowed_methods=None,
        backoff_factor=BACKOFF_S,
        backoff_max=BACKOFF_MAX_S,
        respect_retry_after_header=True,
        raise_on_status=False,
    )


def polite_session() -> requests.Session:
    """A `requests.Session` whose every request waits out 429 and 503 as `polite_retry` says."""
    session = requests.Session()
    adapter = HTTPAdapter(max_retries=polite_retry())
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def retry_wait(status: int, headers: Mapping[str, str], tries: int) -> float | None:
    """For a client with its own sockets: how long to wait before trying again a request that
    got `status` with `headers` after `tries` earlier retries; None when not to retry."""
    answer = HTTPResponse(body=b"", headers=dict(headers), status=status, preload_content=False)
    retry: Retry = polite_retry()
    if not retry.is_retry("POST", status, "Retry-After" in answer.headers):
        return None
    try:
        for _ in range(tries + 1):
            retry = retry.increment("POST", "/", response=answer)
    except MaxRetryError:
        return None
    assert isinstance(retry, PoliteRetry)
    return retry.wait_for(answer)


class ApiError(Exception):
    """A non-2xx answer: its status and the API's `{code, message, ...}` body."""

    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.body = body if isinstance(body, dict) else {"message": str(body)}
        self.code = str(self.body.get("code", ""))
        super().__init__(f"HTTP {status} {self.code}: {self.body.get('message', '')}".strip())


class ApiClient:
    def __init__(self, base_url: str, timeout: float = TIMEOUT_S) -> None:
        self.base = base_url.rstrip("/") + "/"
        self.timeout = timeout
        self.session = polite_session()
        self.refused: dict[int, int] = {}
        """How many answers of each retried status (429, 503) were waited out and tried again."""

    def url(self, path: str) -> str:
        return urljoin(self.base, path.lstrip("/"))

    def request(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> requests.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if method == "POST":
            headers["Idempotency-Key"] = uuid.uuid4().hex
        response = self.session.request(
            method, self.url(path), json=body, headers=headers, timeout=self.timeout
        )
        retries = getattr(response.raw, "retries", None)
        for step in retries.history if retries is not None else ():
            self.refused[step.status] = self.refused.get(step.status, 0) + 1
        if response.status_code >= 400:
            try:
                error = response.json()
            except ValueError:
                error = response.text[:500]
            raise ApiError(response.status_code, error)
        return response

    def get(self, path: str, token: str | None = None) -> Any:
        return self.request("GET", path, token).json()

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        return self.request("POST", path, token, body).json()

    def text(self, path: str, token: str | None = None) -> str:
        return self.request("GET", path, token).text

    def poll_job(self, status_url: str, deadline_s: float = 600, every_s: float = 0.1) -> Any:
        """Poll a job's status URL until it is `finished` or `failed`."""
        deadline = time.monotonic() + deadline_s
        while True:
            job = self.get(status_url)
            if job.get("status") in ("finished", "failed", "stopped", "canceled"):
                return job
            if time.monotonic() > deadline:
                raise TimeoutError(f"job {job.get('job_id')} still {job.get('status')}")
            time.sleep(every_s)
