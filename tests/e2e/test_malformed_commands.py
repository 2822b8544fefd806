"""A command body that breaks its command type's schema is a 400 naming the field, decided before
the rules are asked, and appends nothing; a well-formed command the rules refuse stays a 422
naming its rule. For every ruleset, every command type it documents (`GET /rulesets/{name}`,
the same specs the OpenAPI document's `Command` schemas come from)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import bearer

GAMES = {
    "hotw-2024": 3,
    "hotw-ah2001": 3,
    "brief-2009": 3,
    "patchistory": 2,
}
EXTRA = "surplus"


def well_formed(spec: dict[str, Any]) -> dict[str, Any]:
    """A body of this command type that fits its schema: each argument its first allowed
    value, else its least, else a value of its type."""
    body: dict[str, Any] = {"type": spec["type"]}
    for arg in spec["args"]:
        if arg["allowed"]:
            body[arg["name"]] = arg["allowed"][0]
        elif arg["type"] == "integer":
            body[arg["name"]] = arg["minimum"] if arg["minimum"] is not None else 1
        elif arg["type"] == "boolean":
            body[arg["name"]] = True
        else:
            body[arg["name"]] = "x"
    return body


WRONG_TYPE = {"integer": "seven", "string": 7, "boolean": "yes"}


def malformed(spec: dict[str, Any], body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(the field to be named, the body): one missing an argument, one giving an argument a
    value of the wrong type, one with an extra key."""
    variants = []
    required = [arg for arg in spec["args"] if arg["required"]]
    if required:
        name = required[0]["name"]
        variants.append((name, {k: v for k, v in body.items() if k != name}))
    if spec["args"]:
        arg = spec["args"][-1]
        variants.append((arg["name"], {**body, arg["name"]: WRONG_TYPE[arg["type"]]}))
    variants.append((EXTRA, {**body, EXTRA: 1}))
    return variants


def created(api, ruleset: str) -> dict[str, Any]:
    players = ["Ann", "Bob", "Cy", "Di"][: GAMES[ruleset]]
    response = api.post("/games", json={"ruleset": ruleset, "players": players})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def awaited_seat(api, game: dict[str, Any]) -> int:
    summary = api.get(f"/games/{game['game_id']}").get_json()
    return summary["awaiting"][0]


def post(api, game: dict[str, Any], seat: int, command: dict[str, Any]):
    return api.post(
        f"/games/{game['game_id']}/commands",
        json={"command": command},
        headers=bearer(game["seat_tokens"][seat]),
    )


def version(api, game: dict[str, Any]) -> int:
    return api.get(f"/games/{game['game_id']}").get_json()["version"]


def named_field(response, field: str) -> dict[str, Any]:
    assert response.status_code == 400, (field, response.get_json())
    body = response.get_json()
    assert body["code"] == "invalid_command", body
    assert field in body["details"]["fields"]["command"], (field, body)
    assert f"command.{field}" in body["message"], body
    assert "rule" not in body
    return body


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_command_missing_an_argument_of_the_wrong_type_or_with_an_extra_key_is_a_400_naming_it(
    api, ruleset
):
    game = created(api, ruleset)
    seat = awaited_seat(api, game)
    before = version(api, game)
    commands = api.get(f"/rulesets/{ruleset}").get_json()["commands"]
    assert len(commands) > 5
    tried = 0
    for spec in commands:
        for field, body in malformed(spec, well_formed(spec)):
            named_field(post(api, game, seat, body), field)
            tried += 1
    named_field(post(api, game, seat, {"type": "no_such_command"}), "type")
    assert tried > len(commands)  # the extra key for every type, more for those with arguments
    assert version(api, game) == before  # nothing appended for any of them


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_the_same_legal_command_is_accepted_and_a_well_formed_illegal_one_is_refused_by_its_rule(
    api, ruleset
):
    game = created(api, ruleset)
    seat = awaited_seat(api, game)
    listed = api.get(
        f"/games/{game['game_id']}/legal-actions", headers=bearer(game["seat_tokens"][seat])
    ).get_json()["actions"]
    legal = listed[0]["command"]
    specs = {s["type"]: s for s in api.get(f"/rulesets/{ruleset}").get_json()["commands"]}
    before = version(api, game)
    for field, body in malformed(specs[legal["type"]], legal):
        named_field(post(api, game, seat, body), field)
    assert version(api, game) == before
    # a command type the seat's legal actions lack, well formed: the rules refuse it
    listed_types = {a["command"]["type"] for a in listed}
    unlisted = next(
        t for t in specs if t not in listed_types and t not in ("undo", "accept_rewind")
    )
    refused = post(api, game, seat, well_formed(specs[unlisted]))
    assert refused.status_code == 422, refused.get_json()
    assert refused.get_json()["code"] in ("illegal_action", "unknown_command"), refused.get_json()
    assert refused.get_json()["rule"]
    assert version(api, game) == before
    accepted = post(api, game, seat, legal)
    assert accepted.status_code == 201, accepted.get_json()
    assert accepted.get_json()["version"] > before
