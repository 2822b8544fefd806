"""Fixtures for the API: the Flask app on the session's real redis-server, with the toy ruleset."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

import tests.support.toy  # noqa: F401  (registers the toy ruleset in this process)
from api.app import create_app
from bench.generated_client import generate, generate_pydantic
from tests.support.http import REPO_ROOT


@pytest.fixture()
def app(redis_url: str) -> Flask:
    return create_app(redis_url, SSE_HEARTBEAT_S=0.05, SYSTEM_STEPS="inline", CORS_ORIGINS=())


@pytest.fixture()
def api(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as client:
        yield client


@pytest.fixture(scope="session")
def stock_generators(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding both packages as the stock generators make them from openapi.yaml
    (`chronicle_client` by openapi-python-client, no template override; `chronicle_models` by
    datamodel-code-generator): generated once per worker, for every test that reads them."""
    root = tmp_path_factory.mktemp("stock-generators")
    generate(REPO_ROOT / "openapi.yaml", root)
    return generate_pydantic(REPO_ROOT / "openapi.yaml", root)
