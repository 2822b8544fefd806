"""Sandboxes: the admin rebuilds a position in a new game, then plays and explains it."""

from __future__ import annotations

import random

from tests.support.api import bearer, create_toy, play_to_the_end


def finished_game(api, seed: int = 6) -> dict:
    game = create_toy(api, players=3, rounds=2)
    play_to_the_end(api, game, random.Random(seed))
    return game


def position_in_the_middle_of_a_round() -> dict:
    """Round 2 of 2; seat 1 has sealed 3 chips, seats 0 and 2 have still to bid."""
    return {
        "setup": {
            "ruleset": "toy-sealed-bids",
            "players": ["ann", "bob", "cy"],
            "options": {"rounds": 2},
        },
        "state": {
            "players": 3,
            "rounds": 2,
            "sides": 6,
            "round": 2,
            "phase": "bid",
            "order": [2, 0, 1],
            "chips": [4, 5, 1],
            "sealed": {"1": 3},
            "scores": [0, 5, 0],
            "roller": None,
        },
    }


def test_a_finished_games_position_at_any_version_can_be_exported_by_its_admin(api):
    game = finished_game(api)
    admin = bearer(game["admin_token"])
    position = api.get(f"/games/{game['game_id']}/position?at=3", headers=admin).get_json()
    assert position["version"] == 3
    assert position["setup"] == {
        "ruleset": "toy-sealed-bids",
        "players": ["ann", "bob", "cy"],
        "options": {"rounds": 2, "die_sides": 6, "bonus": False},
        "revision": 1,
        "pack_digest": "",  # the toy ruleset has no data pack
    }
    assert position["state"]["phase"] == "bid" and len(position["state"]["sealed"]) == 1


def test_an_exported_position_posted_back_starts_a_sandbox_at_that_moment(api):
    game = finished_game(api)
    admin = bearer(game["admin_token"])
    position = api.get(f"/games/{game['game_id']}/position?at=4", headers=admin).get_json()
    created = api.post(
        f"/games/{game['game_id']}/sandbox", json={"position": position}, headers=admin
    )
    assert created.status_code == 201
    sandbox = created.get_json()
    assert sandbox["sandbox_of"] == game["game_id"] and sandbox["version"] == 2
    assert (
        sandbox["seed_commitment"]
        != api.get(f"/games/{game['game_id']}").get_json()["seed_commitment"]
    )
    original = api.get(f"/games/{game['game_id']}/state?at=4").get_json()
    rebuilt = api.get(f"/games/{sandbox['game_id']}/state").get_json()
    assert rebuilt["view"] == original["view"] and rebuilt["awaiting"] == original["awaiting"]
    summary = api.get(f"/games/{sandbox['game_id']}").get_json()
    assert summary["sandbox_of"] == game["game_id"]


def test_a_hand_written_position_can_be_played_on_and_explained(api):
    game = create_toy(api, players=3)
    admin = bearer(game["admin_token"])
    created = api.post(
        f"/games/{game['game_id']}/sandbox",
        json={"position": position_in_the_middle_of_a_round()},
        headers=admin,
    )
    assert created.status_code == 201, created.get_json()
    sandbox = created.get_json()
    sandbox_id = sandbox["game_id"]
    assert api.get(f"/games/{sandbox_id}").get_json()["awaiting"] == [0, 2]
    for seat, chips in ((0, 4), (2, 1)):
        response = api.post(
            f"/games/{sandbox_id}/commands",
            json={"command": {"type": "bid", "chips": chips}},
            headers=bearer(sandbox["seat_tokens"][seat]),
        )
        assert response.status_code == 201
    revealed = api.get(f"/games/{sandbox_id}/events/5/explain").get_json()
    assert revealed["type"] == "ToyBidsRevealed" and revealed["rule"] == "toy.reveal"
    assert revealed["inputs"]["data"] == {"bids": [4, 3, 1], "winner": 0}
    roll = api.get(
        f"/games/{sandbox_id}/legal-actions", headers=bearer(sandbox["seat_tokens"][0])
    ).get_json()
    assert [a["command"] for a in roll["actions"]] == [{"type": "roll"}]


def test_the_loaded_position_is_hidden_from_the_sandboxs_feeds(api):
    game = create_toy(api, players=3)
    created = api.post(
        f"/games/{game['game_id']}/sandbox",
        json={"position": position_in_the_middle_of_a_round()},
        headers=bearer(game["admin_token"]),
    ).get_json()
    for token in (None, created["seat_tokens"][0], created["seat_tokens"][1]):
        loaded = api.get(f"/games/{created['game_id']}/events", headers=bearer(token)).get_json()[
            "events"
        ][1]
        assert loaded["type"] == "PositionLoaded" and loaded["redacted"] is True
        assert loaded["data"] == {"source_game": game["game_id"]}
    seat_1 = api.get(
        f"/games/{created['game_id']}/state", headers=bearer(created["seat_tokens"][1])
    ).get_json()
    seat_0 = api.get(
        f"/games/{created['game_id']}/state", headers=bearer(created["seat_tokens"][0])
    ).get_json()
    assert seat_1["view"]["sealed"] == {"1": 3} and seat_0["view"]["sealed"] == {}


def test_a_live_games_position_is_not_exported_because_it_would_reveal_hidden_bids(api):
    game = create_toy(api, players=2)
    api.post(
        f"/games/{game['game_id']}/commands",
        json={"command": {"type": "bid", "chips": 2}},
        headers=bearer(game["seat_tokens"][0]),
    )
    refused = api.get(f"/games/{game['game_id']}/position", headers=bearer(game["admin_token"]))
    assert refused.status_code == 409 and refused.get_json()["code"] == "game_not_finished"
    assert "chips" not in refused.get_data(as_text=True)


def test_positions_the_ruleset_cannot_use_are_refused_as_invalid(api):
    game = create_toy(api, players=3)
    admin = bearer(game["admin_token"])
    url = f"/games/{game['game_id']}/sandbox"
    good = position_in_the_middle_of_a_round()
    broken_states = [
        {},
        {**good["state"], "chips": ["a", "b", "c"]},
        {**good["state"], "chips": [1]},
        {**good["state"], "sealed": {"x": 1}},
        {**good["state"], "players": "three"},
        [1, 2, 3],
        "state",
    ]
    for state in broken_states:
        response = api.post(url, json={"position": {**good, "state": state}}, headers=admin)
        assert response.status_code == 422, (state, response.get_json())
        assert response.get_json()["code"] == "invalid_position"
    other_ruleset = {**good, "setup": {**good["setup"], "ruleset": "hotw-2024"}}
    assert api.post(url, json={"position": other_ruleset}, headers=admin).status_code == 422
    too_few = {**good, "setup": {**good["setup"], "players": ["solo"]}}
    refused = api.post(url, json={"position": too_few}, headers=admin)
    assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_player_count"
    no_state = {"setup": good["setup"]}
    assert api.post(url, json={"position": no_state}, headers=admin).status_code == 400
