"""A sandbox refuses, when it is loaded, a position whose hand holds a card the pack does not
know (before, it was accepted and the legal actions of the seat's turn answered 500): a 422
naming the card. hotw-ah2001 for a made-up card and for Allies in a game created before the
revision that put Allies in the deck; every other ruleset's sandbox (the same check_position,
each ruleset's own invariants) for a made-up card in a hand."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.hotw.editions.ah2001.revisions import ALLIES_IN_THE_DECK, NEWEST
from service.wiring import game_service
from tests.support.api import bearer

PLAYERS = ["ann", "bob", "cy"]


def position_of(redis_url: str, revision: int) -> tuple[Any, dict[str, Any]]:
    made = game_service(redis_url).create_game("hotw-ah2001", PLAYERS, revision=revision)
    rules, game = game_service(redis_url).load(made.game_id)
    setup = {"ruleset": "hotw-ah2001", "players": PLAYERS, "options": {}, "revision": revision}
    return made, {"setup": setup, "state": rules.encode_state(game.state)}


def sandbox(api: FlaskClient, made: Any, position: dict[str, Any]) -> Any:
    return api.post(
        f"/games/{made.game_id}/sandbox",
        json={"position": position},
        headers=bearer(made.tokens.admin),
    )


@pytest.mark.parametrize(
    ("revision", "card"),
    [(NEWEST, "no-such-card"), (ALLIES_IN_THE_DECK - 1, "allies"), (1, "no-such-card")],
    ids=["made-up-card", "allies-before-revision-11", "made-up-card-revision-1"],
)
def test_a_hand_holding_a_card_the_pack_does_not_know_is_refused_naming_the_card(
    api: FlaskClient, redis_url: str, revision: int, card: str
) -> None:
    made, position = position_of(redis_url, revision)
    position["state"]["players"][1]["hand"][0] = card
    answer = sandbox(api, made, position)
    assert answer.status_code == 422, answer.get_json()
    body = answer.get_json()
    assert body["code"] == "invalid_position"
    assert f"bob's hand holds the Event card '{card}'" in body["message"]
    assert body["details"]["reason"] == "invariant"


def test_allies_in_a_hand_of_revision_11_loads_and_plays(api: FlaskClient, redis_url: str) -> None:
    made, position = position_of(redis_url, ALLIES_IN_THE_DECK)
    for player in position["state"]["players"]:
        player["hand"][0] = "allies"
    answer = sandbox(api, made, position)
    assert answer.status_code == 201, answer.get_json()
    for token in answer.get_json()["seat_tokens"]:
        legal = api.get(
            f"/games/{answer.get_json()['game_id']}/legal-actions", headers=bearer(token)
        )
        assert legal.status_code == 200


def hands(name: str, state: dict[str, Any]) -> list[list[str]]:
    """The hands of a ruleset's encoded state, where a made-up card is put."""
    if name == "patchistory":
        return [civ["hand"] for civ in state["civs"]]
    if name == "hotw-2024":
        return [player["empire_cards"] for player in state["players"]]
    return [player["hand"] for player in state["players"]]


@pytest.mark.parametrize("name", ["hotw-2024", "brief-2009", "patchistory"])
def test_every_rulesets_sandbox_refuses_a_hand_card_its_pack_does_not_know(
    api: FlaskClient, redis_url: str, name: str
) -> None:
    service = game_service(redis_url)
    made = service.create_game(name, PLAYERS)
    rules, game = service.load(made.game_id)
    state = rules.encode_state(game.state)
    held = hands(name, state)[1]
    if held:
        held[0] = "no-such-card"
    else:
        held.append("no-such-card")
    if name == "hotw-2024":  # a made-up Event card too, in the same hand
        state["players"][1]["event_card"] = "no-such-event"
    setup = {"ruleset": name, "players": PLAYERS, "options": dict(game.setup.options)}
    answer = sandbox(api, made, {"setup": setup, "state": state})
    assert answer.status_code == 422, answer.get_json()
    message = answer.get_json()["message"]
    assert "bob's hand holds the" in message and "'no-such-card'" in message
    if name == "hotw-2024":
        assert "'no-such-event'" in message
