"""A small client for the commands that work against a running Chronicle server (`--url`,
`--via-api`): JSON in and out, bearer tokens, and the API's one error body."""

from __future__ import annotations

import time
import uuid
from typing import Any
from urllib.parse import urljoin

import requests

TIMEOUT_S = 30


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
        self.session = requests.Session()

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
