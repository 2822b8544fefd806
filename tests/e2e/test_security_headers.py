"""Every answer, whatever made it (a view, an error, a page, a picture), says not to sniff its
type and not to be framed, and carries a Content-Security-Policy."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.support.api import create_toy


def paths(api: FlaskClient) -> list[str]:
    game = create_toy(api)
    return [
        "/",
        "/docs",
        "/openapi.yaml",
        "/healthz",
        "/rulesets",
        "/web/table.js",
        f"/games/{game['game_id']}",
        f"/games/{game['game_id']}/state",
        "/games/nope",
        "/nowhere",
    ]


@pytest.mark.parametrize("index", range(10))
def test_every_answer_forbids_sniffing_and_framing(api: FlaskClient, index: int) -> None:
    path = paths(api)[index]
    response = api.get(path)
    assert response.headers["X-Content-Type-Options"] == "nosniff", path
    policy = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy, path
    assert response.headers["X-Frame-Options"] == "DENY", path
    assert "default-src 'none'" in policy, path
    if response.mimetype in ("application/json", "application/yaml"):
        assert "script-src" not in policy, path


def test_the_board_picture_can_run_nothing(api: FlaskClient) -> None:
    created = api.post(
        "/games", json={"ruleset": "hotw-2024", "players": ["ann", "bob", "cy"]}
    ).get_json()
    response = api.get(f"/games/{created['game_id']}/board")
    assert response.mimetype == "image/svg+xml"
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
