"""Status `closing`: while the worker runs a step no seat takes (the toy's round closing, like
History of the World's epoch closing), the game says so everywhere its status shows, lists under
`GET /games?status=closing`, and tells seats when to come back (409 `game_busy`, Retry-After)."""

from __future__ import annotations

import uuid

import pytest

from api.app import create_app
from service.wiring import game_service
from tests.support.api import bearer

CLOSING = "toy-sealed-bids-closing"


@pytest.fixture()
def api(redis_url):
    """The API with system steps left to a worker that never comes: a closing game stays so."""
    app = create_app(redis_url, SYSTEM_STEPS="worker", QUEUE=f"closing-{uuid.uuid4().hex[:8]}")
    with app.test_client() as client:
        yield client


def bid(api, game, seat, chips):
    return api.post(
        f"/games/{game['game_id']}/commands",
        json={"command": {"type": "bid", "chips": chips}},
        headers=bearer(game["seat_tokens"][seat]),
    )


@pytest.fixture()
def closing_game(api):
    created = api.post("/games", json={"ruleset": CLOSING, "players": ["ann", "bob"]})
    assert created.status_code == 201
    game = created.get_json()
    assert bid(api, game, 0, 1).status_code == 201
    assert bid(api, game, 1, 1).status_code == 201  # a tie: nobody rolls; round 1 must close
    return game


def listed(api, status):
    page = api.get(f"/games?status={status}&limit=200")
    assert page.status_code == 200, page.get_json()
    return {g["game_id"]: g for g in page.get_json()["games"]}


def test_a_game_whose_round_is_being_closed_has_status_closing_in_its_summary_and_state(
    api, closing_game
):
    game_id = closing_game["game_id"]
    summary = api.get(f"/games/{game_id}").get_json()
    assert summary["status"] == "closing"
    assert summary["awaiting"] == []
    assert api.get(f"/games/{game_id}/state").get_json()["status"] == "closing"


def test_games_being_closed_are_listed_by_status_closing_and_not_as_active(api, closing_game):
    game_id = closing_game["game_id"]
    closing = listed(api, "closing")
    assert game_id in closing and closing[game_id]["status"] == "closing"
    assert game_id not in listed(api, "active")
    assert game_id not in listed(api, "finished")


def test_a_command_while_closing_is_a_409_game_busy_with_a_retry_after_header(api, closing_game):
    busy = bid(api, closing_game, 0, 1)
    assert busy.status_code == 409
    assert busy.get_json()["code"] == "game_busy"
    assert busy.headers["Retry-After"] == "1"
    assert busy.get_json()["details"]["retry_after_s"] == 1


def test_once_the_worker_has_closed_the_round_the_game_is_active_again(
    api, closing_game, redis_url
):
    game_id = closing_game["game_id"]
    assert game_service(redis_url).run_system_steps(game_id) == 1
    assert api.get(f"/games/{game_id}").get_json()["status"] == "active"
    assert game_id in listed(api, "active")
    assert game_id not in listed(api, "closing")
    assert bid(api, closing_game, 0, 1).status_code == 201


def test_an_unknown_status_filter_is_a_400_naming_the_statuses_allowed(api):
    refused = api.get("/games?status=paused")
    assert refused.status_code == 400
    message = " ".join(refused.get_json()["details"]["fields"]["status"])
    for status in ("active", "closing", "finished"):
        assert status in message
