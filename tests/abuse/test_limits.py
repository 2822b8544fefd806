"""Rate limits and quotas (api/limits.py): one client address creating games past its limit is
refused with 429, the one error body and Retry-After, while another address is not; a token
past its own limit is refused, and requests without one are not charged to it; the counts are
kept in Redis, so two API processes share them."""

from __future__ import annotations

import re
import uuid
from typing import Any

import yaml
from flask import Flask

import tests.support.toy  # noqa: F401  (registers the toy ruleset in this process)
from api.app import create_app
from api.openapi import spec_yaml
from tests.support.abuse import TOY, error_body


def limited_app(redis_url: str, **limits: str) -> Flask:
    unique = uuid.uuid4().hex[:8]  # each test counts on its own: no window shared with another
    return create_app(
        redis_url,
        SYSTEM_STEPS="inline",
        CORS_ORIGINS=(),
        RATE_LIMITS=True,
        CHRONICLE_LIMIT_ADDRESS=limits.get("address", "1000/second"),
        CHRONICLE_LIMIT_CREATE=limits.get("create", "1000/second"),
        CHRONICLE_LIMIT_TOKEN=limits.get("token", "1000/second"),
        CHRONICLE_LIMIT_HEALTH=limits.get("health", "1000/second"),
        QUEUE=f"limits-{unique}",
    )


def create(client: Any, address: str) -> Any:
    return client.post(
        "/games",
        json={"ruleset": TOY, "players": ["ann", "bob"]},
        environ_base={"REMOTE_ADDR": address},
    )


def test_creating_games_past_the_limit_is_a_429_with_retry_after(redis_url: str) -> None:
    app = limited_app(redis_url, create="5/minute")
    address = f"10.{uuid.uuid4().int % 250}.0.1"
    with app.test_client() as client:
        for _ in range(5):
            assert create(client, address).status_code == 201
        refused = create(client, address)
        body = error_body(refused, 429, "rate_limited")
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert body["details"]["retry_after_s"] == int(refused.headers["Retry-After"])
        assert create(client, address + "0").status_code == 201, "another address is not limited"
        assert client.get("/rulesets", environ_base={"REMOTE_ADDR": address}).status_code == 200


def test_two_api_processes_share_the_count(redis_url: str) -> None:
    address = f"10.{uuid.uuid4().int % 250}.1.1"
    first = limited_app(redis_url, create="4/minute")
    second = limited_app(redis_url, create="4/minute")
    one, two = first.test_client(), second.test_client()
    for client in (one, two, one, two):
        assert create(client, address).status_code == 201
    assert create(two, address).status_code == 429
    assert create(one, address).status_code == 429


def test_a_token_past_its_limit_is_refused_and_anonymous_reads_are_not(redis_url: str) -> None:
    app = limited_app(redis_url, token="3/minute")
    with app.test_client() as client:
        game = create(client, "10.9.9.9").get_json()
        seat = {"Authorization": f"Bearer {game['seat_tokens'][0]}"}
        other = {"Authorization": f"Bearer {game['seat_tokens'][1]}"}
        path = f"/games/{game['game_id']}/state"
        for _ in range(3):
            assert client.get(path, headers=seat).status_code == 200
        refused = client.get(path, headers=seat)
        error_body(refused, 429, "rate_limited")
        assert "Retry-After" in refused.headers
        assert client.get(path, headers=other).status_code == 200, "another token is not"
        assert client.get(path).status_code == 200, "a spectator is not charged to the token"


def test_every_request_of_one_address_is_limited(redis_url: str) -> None:
    """The window is a minute, not a second: forty requests take far less than a minute on any
    host, so the count does not depend on how fast this machine answers them (a 1-second
    moving window let 27 through on a slow CI host)."""
    app = limited_app(redis_url, address="20/minute")
    draw = uuid.uuid4().int  # an address no other run counted on in the last minute
    address = f"10.{draw % 250}.{draw // 250 % 250}.2"
    with app.test_client() as client:
        answers = [
            client.get("/rulesets", environ_base={"REMOTE_ADDR": address}).status_code
            for _ in range(40)
        ]
    assert answers == [200] * 20 + [429] * 20


def test_every_operation_declares_its_429_and_answers_it_with_retry_after(redis_url: str) -> None:
    """Every request is counted against its address's limit, so every operation of the document
    declares 429 `rate_limited` with `Retry-After`, and answers it so once the limit is spent
    (`/healthz` in its own bucket, spent here too)."""
    document = yaml.safe_load(spec_yaml())
    app = limited_app(redis_url, address="1/minute", health="1/minute")
    address = f"10.{uuid.uuid4().int % 250}.3.1"
    at = {"REMOTE_ADDR": address}
    with app.test_client() as client:
        assert client.get("/rulesets", environ_base=at).status_code == 200
        assert client.get("/healthz", environ_base=at).status_code == 200
        for path, operations in document["paths"].items():
            for method, operation in operations.items():
                declared = operation["responses"].get("429")
                assert declared is not None, f"{method} {path} does not declare 429"
                assert declared["headers"]["Retry-After"] == {
                    "$ref": "#/components/headers/RetryAfter"
                }, (method, path)
                url = re.sub(r"\{[^}]+\}", "1", path)
                refused = client.open(url, method=method.upper(), environ_base=at)
                body = error_body(refused, 429, "rate_limited")
                assert body["details"]["retry_after_s"] == int(refused.headers["Retry-After"]) >= 1
