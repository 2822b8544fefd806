"""A lost seat token is re-issued by the admin: the new token plays the seat, the old one (and any
stream ticket issued for it) is refused with 401 at once, in every API process: over real HTTP
on two gunicorn workers, and in process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from tests.support.api import bearer, create_toy
from tests.support.http import serving

TOY = "toy-sealed-bids"


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(redis_url, web_workers=2, CHRONICLE_RULESET_MODULES="tests.support.toy") as base:
        yield base


def test_the_admin_reissues_a_lost_seat_token_and_every_process_refuses_the_old_one(server):
    http = requests.Session()
    created = http.post(
        f"{server}/games", json={"ruleset": TOY, "players": ["ann", "bob", "cy"]}, timeout=10
    ).json()
    game_id, old = created["game_id"], created["seat_tokens"][1]
    legal = f"{server}/games/{game_id}/legal-actions"
    for _ in range(8):  # both workers have served the old token
        assert http.get(legal, headers=bearer(old), timeout=10).status_code == 200
    ticket = http.post(
        f"{server}/games/{game_id}/stream-tickets", headers=bearer(old), timeout=10
    ).json()

    reissued = http.post(
        f"{server}/games/{game_id}/seats/1/token",
        headers=bearer(created["admin_token"]),
        timeout=10,
    )
    assert reissued.status_code == 201, reissued.text
    body = reissued.json()
    assert body["seat"] == 1 and body["player"] == "bob" and body["game_id"] == game_id
    new = body["seat_token"]
    assert new != old and new.startswith(f"{game_id}.")
    assert "no-store" in reissued.headers["Cache-Control"]

    for _ in range(8):  # refused by each worker, whichever answers
        refused = http.get(legal, headers=bearer(old), timeout=10)
        assert refused.status_code == 401, refused.text
        assert refused.json()["code"] == "unauthenticated"
        assert old not in refused.text
    command = http.post(
        f"{server}/games/{game_id}/commands",
        json={"command": {"type": "bid", "chips": 1}},
        headers=bearer(old),
        timeout=10,
    )
    assert command.status_code == 401
    stream = http.get(server + ticket["stream_url"], timeout=10)
    assert stream.status_code == 401, "a ticket of the old token opens nothing"
    assert "replaced" in stream.json()["message"]

    mine = http.get(legal, headers=bearer(new), timeout=10).json()
    assert mine["seat"] == 1 and mine["your_turn"]
    played = http.post(
        f"{server}/games/{game_id}/commands",
        json={"command": {"type": "bid", "chips": 1}},
        headers=bearer(new),
        timeout=10,
    )
    assert played.status_code == 201, played.text
    fresh = http.post(f"{server}/games/{game_id}/stream-tickets", headers=bearer(new), timeout=10)
    assert fresh.status_code == 201
    others = [created["seat_tokens"][0], created["seat_tokens"][2]]
    for token in others:  # the other seats keep their tokens
        assert http.get(legal, headers=bearer(token), timeout=10).status_code == 200


def test_only_the_games_admin_reissues_and_only_a_seat_the_game_has(api):
    game = create_toy(api, players=2)
    other = create_toy(api, players=2)
    game_id, admin = game["game_id"], game["admin_token"]
    url = f"/games/{game_id}/seats/0/token"
    assert api.post(url).status_code == 401
    assert api.post(url, headers=bearer("not-a-token")).status_code == 401
    assert api.post(url, headers=bearer(game["seat_tokens"][0])).status_code == 403
    assert api.post(url, headers=bearer(other["admin_token"])).status_code == 403
    missing = api.post(f"/games/{game_id}/seats/2/token", headers=bearer(admin))
    assert missing.status_code == 404 and missing.get_json()["code"] == "seat_not_found"
    assert api.post(f"/games/{game_id}/seats/-1/token", headers=bearer(admin)).status_code == 404
    assert api.post("/games/nope/seats/0/token", headers=bearer(admin)).status_code == 404
    first = api.post(url, headers=bearer(admin)).get_json()["seat_token"]
    second = api.post(url, headers=bearer(admin)).get_json()["seat_token"]
    assert api.get(f"/games/{game_id}/state", headers=bearer(first)).status_code == 401
    view = api.get(f"/games/{game_id}/state", headers=bearer(second))
    assert view.status_code == 200 and view.get_json()["viewer"] == 0
