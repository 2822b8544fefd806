"""A lost seat token is re-issued by the admin: the new token plays the seat, the old one (and any
stream ticket issued for it) is refused with 401 at once, in every API process: over real HTTP
on two gunicorn workers, and in process."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
import requests

from service.auth import seat_role, token_hash
from store.credentials import TokenHashes
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


def token_reads(client: redis.Redis) -> int:
    return int(client.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0))


def awaited_command(api: Any, game: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A seat the game awaits, with its token, and its first legal action."""
    for token in game["seat_tokens"]:
        actions = api.get(
            f"/games/{game['game_id']}/legal-actions", headers=bearer(token)
        ).get_json()
        if actions["your_turn"]:
            return token, actions["actions"][0]
    raise AssertionError("no seat is awaited")


def test_a_known_token_is_checked_by_the_append_itself_and_a_reissued_one_is_refused_at_once(
    api, redis_url
):
    """A command whose token this process has read before reads no token hashes (its append
    checks the token's hash in the same script); a token re-issued meanwhile by another process
    is refused with 401 at the append, and before a refusal or a repeat's answer is told."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    game = create_toy(api, players=2, rounds=5)
    game_id, commands = game["game_id"], f"/games/{game['game_id']}/commands"
    read = 0
    for _ in range(6):
        token, body = awaited_command(api, game)
        before = token_reads(client)
        assert api.post(commands, json=body, headers=bearer(token)).status_code == 201
        read += token_reads(client) - before
    assert read == 0, f"{read} reads of the token hashes for 6 commands of known tokens"

    keyed_token, keyed_body = awaited_command(api, game)
    keyed = {**bearer(keyed_token), "Idempotency-Key": "a-key-of-this-seat"}
    assert api.post(commands, json=keyed_body, headers=keyed).status_code == 201
    token, body = awaited_command(api, game)
    version = api.get(f"/games/{game_id}").get_json()["version"]
    other_process = TokenHashes(client)

    def reissued_behind_this_process(old: str, new: str) -> None:
        """`old` remembered here as its seat's token, then replaced by `new` elsewhere."""
        seat = seat_role(game["seat_tokens"].index(old))
        assert other_process.replace(game_id, seat, token_hash(old))
        assert api.get(f"/games/{game_id}/state", headers=bearer(old)).status_code == 200
        assert other_process.replace(game_id, seat, token_hash(new))

    for old, request in (
        (token, {"json": body}),  # legal: refused by the append
        (token, {"json": {"command": {"type": "bid", "chips": 999}}}),  # the rules would refuse
        (token, {"json": {"nonsense": 1}}),  # malformed
        (keyed_token, {"json": keyed_body, "headers": {"Idempotency-Key": "a-key-of-this-seat"}}),
    ):
        reissued_behind_this_process(old, f"{game_id}.new")
        headers = {**bearer(old), **request.get("headers", {})}
        refused = api.post(commands, json=request["json"], headers=headers)
        assert refused.status_code == 401, (request, refused.get_json())
        assert refused.get_json()["code"] == "unauthenticated"
    assert api.get(f"/games/{game_id}").get_json()["version"] == version, "nothing appended"
    played = api.post(commands, json=body, headers=bearer(f"{game_id}.new"))
    assert played.status_code == 201, played.get_json()
    client.close()
