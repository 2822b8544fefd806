"""A sandbox refuses, when it is loaded, a position that breaks its ruleset's invariants: a
Patchistory Vote on no card (or on cards the pack does not have) was accepted, and the next
`vote` command answered 500."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.rulesets import ruleset
from service.wiring import game_service
from tests.support.api import bearer

PLAYERS = ["ann", "bob", "cy"]


def a_real_position(api: FlaskClient, redis_url: str) -> tuple[dict[str, Any], dict[str, Any]]:
    created = api.post("/games", json={"ruleset": "patchistory", "players": PLAYERS}).get_json()
    service = game_service(redis_url)
    _, game = service.load(created["game_id"])
    state = ruleset("patchistory").encode_state(game.state)
    setup = {"ruleset": "patchistory", "players": PLAYERS, "options": {}}
    return created, {"setup": setup, "state": state}


@pytest.mark.parametrize(
    "vote",
    [
        {"phase": "vote", "vote_cards": [], "vote_index": 0, "votes_on": []},
        {"phase": "vote", "vote_cards": [], "vote_index": 0, "votes_on": [], "sealing": [0, 1, 2]},
        {"phase": "vote", "vote_cards": ["no-such-card"], "vote_index": 0, "votes_on": [0]},
        {"phase": "vote", "vote_cards": [], "vote_index": 3, "votes_on": [0, 0]},
    ],
)
def test_a_broken_vote_position_is_refused_when_loaded(
    api: FlaskClient, redis_url: str, vote: dict[str, Any]
) -> None:
    source, position = a_real_position(api, redis_url)
    position["state"].update(vote)
    answer = api.post(
        f"/games/{source['game_id']}/sandbox",
        json={"position": position},
        headers=bearer(source["admin_token"]),
    )
    if answer.status_code == 201:  # what happened before: the next vote failed
        sandbox = answer.get_json()
        for token in sandbox["seat_tokens"]:
            voted = api.post(
                f"/games/{sandbox['game_id']}/commands",
                json={"type": "vote", "votes": 0},
                headers=bearer(token),
            )
            assert voted.status_code < 500, voted.get_json()
    assert answer.status_code == 422, answer.get_json()
    body = answer.get_json()
    assert body["code"] == "invalid_position"


def test_an_untouched_position_still_loads(api: FlaskClient, redis_url: str) -> None:
    source, position = a_real_position(api, redis_url)
    answer = api.post(
        f"/games/{source['game_id']}/sandbox",
        json={"position": position},
        headers=bearer(source["admin_token"]),
    )
    assert answer.status_code == 201, answer.get_json()
