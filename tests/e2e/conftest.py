"""Fixtures for the API: the Flask app on the session's real redis-server, with the toy ruleset."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

import tests.support.toy  # noqa: F401  (registers the toy ruleset in this process)
from api.app import create_app


@pytest.fixture()
def app(redis_url: str) -> Flask:
    return create_app(redis_url, SSE_HEARTBEAT_S=0.05, SYSTEM_STEPS="inline", CORS_ORIGINS=())


@pytest.fixture()
def api(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as client:
        yield client
