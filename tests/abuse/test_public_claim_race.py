"""Claims answer what they did (issue 50, 4): when claimants race for a table's last seats, a
seat appended to the log is a seat answered with its token, and a claimant who lost is refused
with nothing appended. When two claims filled a table at once, both found it full and started
it, and the later start's refusal ("the game has already started") became the answer to a claim
already in the log: seated, yet answered 422 with no token (2-3 of 10 races)."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from flask import Flask

import tests.support.toy  # noqa: F401  (registers the toy ruleset in this process)
from api.app import create_app
from tests.support.abuse import TOY, error_body, log_of, store_on

RACES = 100


@pytest.fixture(scope="module")
def racing_app(redis_url: str) -> Flask:
    return create_app(
        redis_url, SYSTEM_STEPS="inline", CORS_ORIGINS=(), QUEUE=f"race-{uuid.uuid4().hex[:8]}"
    )


def players(app: Flask, count: int) -> list[str]:
    with app.test_client() as api:
        keys = []
        for n in range(count):
            answer = api.post("/players", json={"name": f"Racer {n}"})
            assert answer.status_code == 201, answer.get_json()
            keys.append(answer.get_json()["player_key"])
        return keys


def table_with_two_seats_open(app: Flask, creator: str) -> str:
    body = {"ruleset": TOY, "players": ["North", "East", "South"], "options": {"rounds": 1}}
    with app.test_client() as api:
        answer = api.post("/tables", json=body, headers={"Authorization": f"Bearer {creator}"})
        assert answer.status_code == 201, answer.get_json()
        return str(answer.get_json()["game_id"])


def race(app: Flask, game_id: str, keys: list[str]) -> list[Any]:
    """Every key claims "the first open seat" of the table at the same moment."""
    start = threading.Barrier(len(keys))
    answers: list[Any] = [None] * len(keys)

    def claim(n: int) -> None:
        with app.test_client() as api:
            start.wait(10)
            answers[n] = api.post(
                f"/games/{game_id}/claims",
                json={},
                headers={"Authorization": f"Bearer {keys[n]}"},
            )

    racers = [threading.Thread(target=claim, args=(n,)) for n in range(len(keys))]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(30)
    return answers


def seats_claimed(redis_url: str, game_id: str) -> dict[int, str]:
    return {
        event["data"]["seat"]: event["data"]["player"]
        for event in log_of(store_on(redis_url), game_id)
        if event["type"] == "SeatClaimed"
    }


def check_the_race(app: Flask, redis_url: str, creator: str, keys: list[str]) -> None:
    game_id = table_with_two_seats_open(app, creator)
    answers = race(app, game_id, keys)
    seated = [a.get_json() for a in answers if a.status_code == 201]
    for answer in answers:
        if answer.status_code != 201:  # a clear refusal: the seats were taken
            assert answer.status_code in (409, 422), answer.get_json()
            error_body(answer, answer.status_code)
    claimed = seats_claimed(redis_url, game_id)
    assert sorted(body["seat"] for body in seated) == sorted(claimed) == [1, 2], (
        [a.get_json() for a in answers],
        claimed,
    )
    with app.test_client() as api:
        for body in seated:  # each answer's token is the seat's
            me = api.get(
                f"/games/{game_id}/legal-actions",
                headers={"Authorization": f"Bearer {body['seat_token']}"},
            )
            assert me.status_code == 200, me.get_json()
        assert api.get(f"/games/{game_id}").get_json()["status"] != "open"


def test_two_claimants_for_the_last_two_seats_are_both_seated_and_answered(
    racing_app: Flask, redis_url: str
) -> None:
    creator, *keys = players(racing_app, 3)
    for _ in range(RACES):
        check_the_race(racing_app, redis_url, creator, keys)


def test_of_twelve_claimants_for_two_seats_two_are_answered_and_ten_refused_with_nothing_appended(
    racing_app: Flask, redis_url: str
) -> None:
    creator, *keys = players(racing_app, 13)
    for _ in range(RACES):
        check_the_race(racing_app, redis_url, creator, keys)
