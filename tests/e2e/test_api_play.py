"""A whole game through the API, using only documented endpoints and each seat's legal actions."""

from __future__ import annotations

import json
import random

import yaml

from domain.core.kernel import replay
from schemas.api import CommandResultSchema
from service.games import GameService
from tests.support.api import TOY, bearer, create_toy, play_one, play_to_the_end
from tests.support.toy import SealedBids


def test_the_rulesets_endpoint_lists_the_toy_with_its_options_and_player_counts(api):
    rulesets = {r["name"]: r for r in api.get("/rulesets").get_json()["rulesets"]}
    toy = rulesets[TOY]
    assert toy["player_counts"] == [2, 3, 4]
    rounds = next(o for o in toy["options"] if o["name"] == "rounds")
    assert (rounds["type"], rounds["default"], rounds["allowed"]) == ("integer", 3, [1, 2, 3, 4, 5])
    bonus = next(o for o in toy["options"] if o["name"] == "bonus")
    assert (bonus["type"], bonus["default"], bonus["allowed"]) == ("boolean", False, None)


def test_creating_a_game_returns_tokens_a_commitment_and_where_to_find_it(api):
    response = api.post("/games", json={"ruleset": TOY, "players": ["ann", "bob"]})
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"].endswith(f"/games/{body['game_id']}")
    assert len(body["seat_tokens"]) == 2 and len(set(body["seat_tokens"])) == 2
    assert body["admin_token"] not in body["seat_tokens"]
    assert len(body["seed_commitment"]) == 64
    assert body["version"] == 2
    summary = api.get(f"/games/{body['game_id']}").get_json()
    assert summary["status"] == "active"
    assert summary["players"] == ["ann", "bob"]
    assert summary["awaiting"] == [0, 1]
    assert summary["options"] == {"rounds": 3, "die_sides": 6, "bonus": False}
    assert summary["summary"] == {"round": 1, "phase": "bid"}
    assert summary["seed_commitment"] == body["seed_commitment"]


def test_a_whole_game_played_by_legal_actions_ends_with_the_result_a_replay_gives(
    api, store, vault
):
    game = create_toy(api, players=3, rounds=4)
    moves = play_to_the_end(api, game, random.Random(7))
    assert len(moves) >= 12, "4 rounds of 3 bids at least"
    summary = api.get(f"/games/{game['game_id']}").get_json()
    assert summary["status"] == "finished" and summary["awaiting"] == []
    result = api.get(f"/games/{game['game_id']}/result").get_json()

    service = GameService(store, vault, rulesets=lambda name: SealedBids())
    final = replay(SealedBids(), service.events(game["game_id"]))
    expected = SealedBids().result(final.state)
    assert result["scores"] == expected["scores"]
    assert [(r["seat"], r["place"], r["score"]) for r in result["ranking"]] == [
        (r["seat"], r["place"], r["score"]) for r in expected["ranking"]
    ]
    assert [r["player"] for r in result["ranking"]] == [
        ["ann", "bob", "cy"][r["seat"]] for r in expected["ranking"]
    ]
    assert result["tie_breaks"] == ["chips left"]
    assert result["version"] == final.version == summary["version"]


def test_each_command_answers_with_its_events_and_the_new_version(api):
    game = create_toy(api, players=2, rounds=1)
    token = game["seat_tokens"][1]
    response = api.post(
        f"/games/{game['game_id']}/commands",
        json={"command": {"type": "bid", "chips": 3}, "expected_version": 2},
        headers=bearer(token),
    )
    assert response.status_code == 201
    body = response.get_json()
    assert body["version"] == 3
    assert [(e["version"], e["type"], e["data"]) for e in body["events"]] == [
        (3, "ToyBidSealed", {"seat": 1, "chips": 3})
    ]
    after = api.get(f"/games/{game['game_id']}/legal-actions", headers=bearer(token)).get_json()
    assert after == {
        "game_id": game["game_id"],
        "seat": 1,
        "version": 3,
        "your_turn": False,
        "actions": [],
        "action_words": [],
        "table_actions": [
            {"command": {"type": "undo"}, "expected_version": 3},
            {"command": {"type": "propose_rewind", "to_version": 2}, "expected_version": 3},
        ],
    }


def test_legal_actions_are_command_bodies_that_post_back_as_they_are(api):
    game = create_toy(api, players=2)
    token = game["seat_tokens"][0]
    legal = api.get(f"/games/{game['game_id']}/legal-actions", headers=bearer(token)).get_json()
    assert legal["your_turn"] is True and legal["version"] == 2
    assert [a["command"] for a in legal["actions"]] == [
        {"type": "bid", "chips": n} for n in range(6)
    ]
    assert all(a["expected_version"] == 2 for a in legal["actions"])
    assert [w["words"] for w in legal["action_words"]] == [f"Bid: chips {n}" for n in range(6)]
    posted = api.post(
        f"/games/{game['game_id']}/commands", json=legal["actions"][-1], headers=bearer(token)
    )
    assert posted.status_code == 201


def test_the_same_idempotency_key_and_body_give_the_same_answer_and_append_once(api):
    game = create_toy(api, players=2)
    headers = {**bearer(game["seat_tokens"][0]), "Idempotency-Key": "bid-once-1"}
    body = {"command": {"type": "bid", "chips": 2}}
    first = api.post(f"/games/{game['game_id']}/commands", json=body, headers=headers)
    again = api.post(f"/games/{game['game_id']}/commands", json=body, headers=headers)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json() == first.get_json()
    assert api.get(f"/games/{game['game_id']}").get_json()["version"] == 3
    other = api.post(
        f"/games/{game['game_id']}/commands",
        json={"command": {"type": "bid", "chips": 1}},
        headers=headers,
    )
    assert other.status_code == 409
    assert other.get_json()["code"] == "idempotency_key_reused"
    assert other.get_json()["current_version"] == 3


def test_another_seat_may_reuse_a_key_and_gets_its_own_answer_each_seat_its_first(api):
    game = create_toy(api, players=3)
    url = f"/games/{game['game_id']}/commands"

    def post(seat: int, chips: int):
        headers = {**bearer(game["seat_tokens"][seat]), "Idempotency-Key": "my-move"}
        return api.post(url, json={"command": {"type": "bid", "chips": chips}}, headers=headers)

    zero, two = post(0, 2), post(2, 1)
    assert (zero.status_code, two.status_code) == (201, 201), two.get_json()
    assert [e["actor"] for e in two.get_json()["events"]] == [2]
    assert two.get_json()["version"] == zero.get_json()["version"] + 1
    zero_again, two_again = post(0, 2), post(2, 1)
    assert (zero_again.status_code, two_again.status_code) == (200, 200)
    assert zero_again.get_json() == zero.get_json()
    assert two_again.get_json() == two.get_json()
    assert api.get(f"/games/{game['game_id']}").get_json()["version"] == two.get_json()["version"]
    reused = post(2, 3)
    assert reused.status_code == 409 and reused.get_json()["code"] == "idempotency_key_reused"


def test_the_state_at_a_past_version_is_the_view_of_that_moment(api):
    game = create_toy(api, players=2, rounds=1)
    rng = random.Random(3)
    while play_one(api, game, rng):
        pass
    game_id = game["game_id"]
    now = api.get(f"/games/{game_id}/state").get_json()
    assert now["status"] == "finished" and now["view"]["phase"] == "over"
    start = api.get(f"/games/{game_id}/state?at=2").get_json()
    assert start["version"] == 2 and start["status"] == "active"
    assert start["view"]["phase"] == "bid" and start["awaiting"] == [0, 1]
    assert start["view"]["scores"] == [0, 0]


def test_the_event_feed_pages_through_every_event_in_order(api):
    game = create_toy(api, players=3, rounds=2)
    play_to_the_end(api, game, random.Random(11))
    game_id = game["game_id"]
    versions, start = [], 1
    while start is not None:
        page = api.get(f"/games/{game_id}/events?from={start}&limit=4").get_json()
        assert len(page["events"]) <= 4
        versions += [e["version"] for e in page["events"]]
        start = page["next"]
    assert versions == list(range(1, page["version"] + 1))
    assert api.get(f"/games/{game_id}/events?from=999").get_json()["events"] == []


def test_the_export_is_one_event_per_line_like_the_feed(api):
    game = create_toy(api, players=2, rounds=1)
    play_to_the_end(api, game, random.Random(5))
    game_id = game["game_id"]
    response = api.get(f"/games/{game_id}/export", headers=bearer(game["seat_tokens"][0]))
    assert response.status_code == 200
    assert response.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    feed = api.get(
        f"/games/{game_id}/events?limit=500", headers=bearer(game["seat_tokens"][0])
    ).get_json()
    assert lines == feed["events"]
    as_text = api.get(
        f"/games/{game_id}/export",
        headers={**bearer(game["seat_tokens"][0]), "Accept": "text/plain"},
    )
    assert as_text.mimetype == "text/plain" and as_text.data == response.data


def test_explaining_a_die_roll_shows_its_rule_and_the_draw_that_decided_it(api):
    game = create_toy(api, players=2, rounds=3)
    rng = random.Random(1)
    while play_one(api, game, rng):
        pass
    events = api.get(f"/games/{game['game_id']}/events?limit=500").get_json()["events"]
    roll = next(e for e in events if e["type"] == "ToyDieRolled")
    explained = api.get(f"/games/{game['game_id']}/events/{roll['version']}/explain").get_json()
    assert explained["rule"] == "toy.roll"
    assert explained["rule_entry"] is None, "the toy has no rules catalogue"
    assert explained["inputs"]["data"] == roll["data"]
    k, n, result = roll["draws"][0]
    assert explained["inputs"]["draws"] == [{"k": k, "n": n, "result": result}]
    assert explained["inputs"]["draws"][0]["result"] + 1 == roll["data"]["face"]
    assert explained["before"]["version"] == roll["version"] - 1
    assert explained["before"]["summary"]["phase"] == "roll"


def test_the_game_list_filters_by_status_and_ruleset_and_pages(api):
    finished = create_toy(api, players=2, rounds=1)
    play_to_the_end(api, finished, random.Random(2))
    active = create_toy(api, players=2)
    listed = api.get("/games?status=finished&limit=200").get_json()
    ids = [g["game_id"] for g in listed["games"]]
    assert finished["game_id"] in ids and active["game_id"] not in ids
    assert all(g["status"] == "finished" for g in listed["games"])
    newest = api.get(f"/games?ruleset={TOY}&limit=1").get_json()
    assert newest["games"][0]["game_id"] == active["game_id"]
    assert newest["games"][0]["awaiting"] == [0, 1]
    assert newest["total"] >= 2 and newest["limit"] == 1
    second = api.get(f"/games?ruleset={TOY}&limit=1&offset=1").get_json()
    assert second["games"][0]["game_id"] == finished["game_id"]
    assert api.get("/games?ruleset=no-such-ruleset").get_json()["games"] == []


def test_the_docs_page_lists_every_documented_operation_without_any_script(api):
    response = api.get("/docs")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    spec = yaml.safe_load(api.get("/openapi.yaml").get_data(as_text=True))
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            assert f'id="{operation["operationId"]}"' in page, (method, path)
    assert "<script" not in page and "http://" not in page and "https://" not in page


def test_a_commands_answer_is_exactly_what_its_response_schema_would_serialise(api):
    """The command answer is sent as built (no marshmallow dump on the hot path): every answer
    of a game's first 150 commands, redacted events included, must equal its schema's dump."""
    body = {"ruleset": "hotw-2024", "players": ["a", "b", "c", "d"], "options": {"dice": True}}
    game = api.post("/games", json=body).get_json()
    url = f"/games/{game['game_id']}"
    rng = random.Random(7)
    redacted = 0
    for _ in range(150):
        (seat,) = api.get(url).get_json()["awaiting"][:1] or (None,)
        if seat is None:
            break
        token = bearer(game["seat_tokens"][seat])
        actions = api.get(f"{url}/legal-actions", headers=token).get_json()["actions"]
        moves = [a for a in actions if a["command"]["type"] != "undo"]
        answer = api.post(f"{url}/commands", json=rng.choice(moves), headers=token)
        if answer.status_code == 409:  # the worker is closing an epoch
            continue
        assert answer.status_code == 201, answer.get_json()
        served = answer.get_json()
        assert CommandResultSchema().dump(served) == served
        redacted += sum(1 for e in served["events"] if e.get("redacted"))
    assert redacted > 0
