"""The error model: one JSON body, the right status for each failure, and never a 500."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.openapi import build_spec
from service.errors import GameBusy
from service.games import GameService
from tests.support.api import TOY, bearer, create_toy, play_to_the_end
from tests.support.toy import START_CHIPS


def error_of(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert set(body) <= {"code", "message", "rule", "details", "current_version"}
    assert isinstance(body["code"], str) and isinstance(body["message"], str)
    return body


@pytest.fixture()
def game(api):
    return create_toy(api, players=3)


def command_url(game) -> str:
    return f"/games/{game['game_id']}/commands"


BID = {"command": {"type": "bid", "chips": 1}}

# --- 400 -----------------------------------------------------------------------------------


def test_malformed_json_is_a_400(api, game):
    response = api.post(
        command_url(game),
        data=b'{"command": {"type": "bid",',
        content_type="application/json",
        headers=bearer(game["seat_tokens"][0]),
    )
    assert error_of(response, 400)["code"] == "invalid_json"


def test_missing_fields_and_wrong_types_are_400_with_field_errors(api):
    missing = error_of(api.post("/games", json={"players": ["a", "b"]}), 400)
    assert missing["code"] == "invalid_request"
    assert "ruleset" in missing["details"]["fields"]
    wrong = error_of(api.post("/games", json={"ruleset": 7, "players": "ab", "options": []}), 400)
    assert set(wrong["details"]["fields"]) == {"ruleset", "players", "options"}
    unknown = error_of(api.post("/games", json={"ruleset": TOY, "players": ["a"], "x": 1}), 400)
    assert "x" in unknown["details"]["fields"]
    assert error_of(api.post("/games", json=[1, 2]), 400)["code"] == "invalid_request"


def test_a_command_without_a_type_or_with_a_bad_expected_version_is_a_400(api, game):
    headers = bearer(game["seat_tokens"][0])
    no_type = error_of(
        api.post(command_url(game), json={"command": {"chips": 1}}, headers=headers), 400
    )
    assert "command" in no_type["details"]["fields"]
    for version in (-1, "3", 2.5, True, 2**60):
        body = {**BID, "expected_version": version}
        refused = error_of(api.post(command_url(game), json=body, headers=headers), 400)
        assert "expected_version" in refused["details"]["fields"], version


def test_nan_huge_numbers_and_deep_nesting_are_refused_as_malformed(api, game):
    headers = bearer(game["seat_tokens"][0])
    for raw in (
        '{"command": {"type": "bid", "chips": NaN}}',
        '{"command": {"type": "bid", "chips": ' + "9" * 5000 + "}}",
        '{"command": {"type": "bid", "chips": ' + "[" * 40 + "]" * 40 + "}}",
        '{"command": {"type": "bid", "chips": ' + "[" * 100000 + "]" * 100000 + "}}",
    ):
        response = api.post(
            command_url(game), data=raw, content_type="application/json", headers=headers
        )
        assert error_of(response, 400)["code"] == "invalid_json"


def test_negative_or_non_numeric_versions_in_queries_are_400(api, game):
    game_id = game["game_id"]
    for url in (
        f"/games/{game_id}/state?at=-1",
        f"/games/{game_id}/state?at=abc",
        f"/games/{game_id}/state?at=1&at=2",
        f"/games/{game_id}/events?from=-3",
        f"/games/{game_id}/events?limit=0",
        f"/games/{game_id}/events?limit=100000",
        f"/games/{game_id}/stream?from=x",
        f"/games/{game_id}/state?unknown=1",
        "/games?status=sleeping",
        "/games?offset=-1",
    ):
        error_of(api.get(url), 400)
    bad_resume = api.get(f"/games/{game_id}/stream", headers={"Last-Event-ID": "seven"})
    assert "Last-Event-ID" in error_of(bad_resume, 400)["details"]["fields"]


def test_an_unusable_idempotency_key_is_a_400(api, game):
    headers = {**bearer(game["seat_tokens"][0]), "Idempotency-Key": "has spaces in it"}
    refused = error_of(api.post(command_url(game), json=BID, headers=headers), 400)
    assert "Idempotency-Key" in refused["details"]["fields"]


def test_a_body_that_is_not_json_is_a_415_and_a_huge_one_a_413(api, game):
    headers = bearer(game["seat_tokens"][0])
    plain = api.post(command_url(game), data="bid 1", content_type="text/plain", headers=headers)
    assert error_of(plain, 415)["code"] == "unsupported_media_type"
    form = api.post("/games", data={"ruleset": TOY})
    error_of(form, 415)
    huge = api.post(
        "/games",
        data=json.dumps({"ruleset": TOY, "players": ["a" * 3_000_000]}),
        content_type="application/json",
    )
    error_of(huge, 413)


# --- 401 / 403 -----------------------------------------------------------------------------


def test_a_command_without_a_token_is_a_401(api, game):
    response = api.post(command_url(game), json=BID)
    assert error_of(response, 401)["code"] == "unauthenticated"
    assert response.headers["WWW-Authenticate"] == "Bearer"
    error_of(api.get(f"/games/{game['game_id']}/legal-actions"), 401)


def test_an_unknown_or_malformed_token_is_a_401_even_where_spectators_may_read(api, game):
    token = game["seat_tokens"][0]
    forged = token[:-4] + ("AAAA" if token[-4:] != "AAAA" else "BBBB")
    error_of(api.post(command_url(game), json=BID, headers=bearer(forged)), 401)
    error_of(api.get(f"/games/{game['game_id']}/state", headers=bearer("nonsense")), 401)
    error_of(api.get(f"/games/{game['game_id']}/state", headers=bearer("ünïcode")), 401)
    basic = api.get(f"/games/{game['game_id']}/events", headers={"Authorization": "Basic eDp5"})
    error_of(basic, 401)


def test_the_admin_token_cannot_act_or_list_actions_as_a_seat(api, game):
    admin = bearer(game["admin_token"])
    assert (
        error_of(api.post(command_url(game), json=BID, headers=admin), 403)["code"] == "forbidden"
    )
    error_of(api.get(f"/games/{game['game_id']}/legal-actions", headers=admin), 403)


def test_a_token_of_another_game_is_a_403(api, game):
    other = create_toy(api, players=2)
    response = api.post(command_url(game), json=BID, headers=bearer(other["seat_tokens"][0]))
    error_of(response, 403)
    state = api.get(f"/games/{game['game_id']}/state", headers=bearer(other["admin_token"]))
    error_of(state, 403)


def test_nobody_may_export_a_position_while_the_game_is_played_and_only_the_admin_sandboxes(
    api, game
):
    seat = bearer(game["seat_tokens"][0])
    for headers in (seat, {}, bearer(game["admin_token"])):
        refused = api.get(f"/games/{game['game_id']}/position", headers=headers)
        assert error_of(refused, 409)["code"] == "game_not_finished"
    sandbox = api.post(f"/games/{game['game_id']}/sandbox", json={}, headers=seat)
    error_of(sandbox, 403)


# --- 404 / 405 -----------------------------------------------------------------------------


def test_unknown_games_versions_events_rulesets_and_routes_are_404(api, game):
    game_id = game["game_id"]
    assert error_of(api.get("/games/no-such-game"), 404)["code"] == "game_not_found"
    error_of(api.get("/games/no-such-game/state"), 404)
    error_of(api.get("/games/no-such-game/events"), 404)
    error_of(api.get("/games/%E2%98%83%00/state"), 404)
    error_of(api.get("/games/" + "x" * 5000), 404)
    at = error_of(api.get(f"/games/{game_id}/state?at=99"), 404)
    assert (at["code"], at["current_version"]) == ("version_not_found", 2)
    error_of(api.get(f"/games/{game_id}/state?at=0"), 404)
    explain = error_of(api.get(f"/games/{game_id}/events/99/explain"), 404)
    assert explain["code"] == "event_not_found"
    error_of(api.get(f"/games/{game_id}/events/0/explain"), 404)
    error_of(api.get(f"/games/{game_id}/events/{'9' * 40}/explain"), 404)
    error_of(api.get(f"/games/{game_id}/events/-1/explain"), 404)
    error_of(api.get(f"/games/{game_id}/stream", headers={"Last-Event-ID": "99"}), 404)
    unknown = error_of(api.post("/games", json={"ruleset": "chess", "players": ["a", "b"]}), 404)
    assert unknown["code"] == "ruleset_not_found"
    assert error_of(api.get("/no/such/route"), 404)["code"] == "not_found"


def test_a_wrong_method_is_a_405_that_names_the_allowed_ones(api, game):
    response = api.delete(f"/games/{game['game_id']}")
    assert error_of(response, 405)["code"] == "method_not_allowed"
    assert "GET" in response.headers["Allow"]
    error_of(api.put("/games"), 405)


# --- 409 -----------------------------------------------------------------------------------


def test_a_stale_expected_version_is_a_409_with_the_current_version(api, game):
    api.post(command_url(game), json=BID, headers=bearer(game["seat_tokens"][0]))
    stale = api.post(
        command_url(game),
        json={**BID, "expected_version": 2},
        headers=bearer(game["seat_tokens"][1]),
    )
    body = error_of(stale, 409)
    assert (body["code"], body["current_version"]) == ("version_conflict", 3)


def test_a_whole_number_written_with_a_fraction_is_an_integer_version(api, game):
    """JSON Schema's integer admits `3.0`: a client whose encoder writes whole numbers so gets
    the same answer as one that writes `3` (here a conflict, then an accepted command)."""
    headers = bearer(game["seat_tokens"][0])
    stale = api.post(command_url(game), json={**BID, "expected_version": 1.0}, headers=headers)
    assert error_of(stale, 409)["current_version"] == 2
    fresh = api.post(command_url(game), json={**BID, "expected_version": 2.0}, headers=headers)
    assert fresh.status_code == 201, fresh.get_json()


def test_a_busy_game_is_a_409_to_retry(api, game, monkeypatch):
    def always_busy(self, game_id, *args, **kwargs):
        raise GameBusy(game_id)

    monkeypatch.setattr(GameService, "handle", always_busy)
    busy = error_of(
        api.post(command_url(game), json=BID, headers=bearer(game["seat_tokens"][0])), 409
    )
    assert busy["code"] == "game_busy"


def test_the_result_of_a_game_still_being_played_is_a_409(api, game):
    body = error_of(api.get(f"/games/{game['game_id']}/result"), 409)
    assert (body["code"], body["current_version"]) == ("game_not_finished", 2)


# --- 422 -----------------------------------------------------------------------------------


def test_a_bid_beyond_any_chips_a_bid_may_hold_is_a_400_naming_chips_before_the_rules(api, game):
    refused = api.post(
        command_url(game),
        json={"command": {"type": "bid", "chips": 2 * START_CHIPS + 1}},
        headers=bearer(game["seat_tokens"][0]),
    )
    body = error_of(refused, 400)
    assert body["code"] == "invalid_command" and "rule" not in body
    assert list(body["details"]["fields"]["command"]) == ["chips"]


def test_acting_twice_in_a_round_is_a_422_not_your_turn(api, game):
    headers = bearer(game["seat_tokens"][0])
    api.post(command_url(game), json=BID, headers=headers)
    body = error_of(api.post(command_url(game), json=BID, headers=headers), 422)
    assert (body["code"], body["rule"]) == ("not_your_turn", "toy.turn")
    assert body["details"] == {"awaited": [1, 2]}


def test_a_command_after_the_end_is_a_422_game_over(api):
    game = create_toy(api, players=2, rounds=1)
    play_to_the_end(api, game, random.Random(4))
    late = api.post(command_url(game), json=BID, headers=bearer(game["seat_tokens"][0]))
    assert (error_of(late, 422)["code"], error_of(late, 422)["rule"]) == ("game_over", "toy.end")


def test_a_wrong_player_count_is_a_422_naming_the_setup_rule(api):
    one = error_of(api.post("/games", json={"ruleset": TOY, "players": ["solo"]}), 422)
    assert (one["code"], one["rule"]) == ("invalid_player_count", "toy.setup")
    assert one["details"]["allowed"] == [2, 3, 4]


def test_an_option_the_ruleset_lacks_or_of_the_wrong_type_or_value_is_a_400_naming_it(api):
    for options, name in (
        ({"rounds": 9}, "rounds"),
        ({"rounds": "3"}, "rounds"),
        ({"bonus": 1}, "bonus"),
        ({"colour": "red"}, "colour"),
        ({"rounds": 1e308}, "rounds"),
    ):
        body = {"ruleset": TOY, "players": ["a", "b"], "options": options}
        refused = error_of(api.post("/games", json=body), 400)
        assert refused["code"] == "invalid_request" and "rule" not in refused, options
        assert list(refused["details"]["fields"]["options"]) == [name], refused
        assert f"options.{name}" in refused["message"]


def test_argument_names_that_shadow_python_parameters_are_just_fields_the_type_does_not_take(
    api, game
):
    for command, field in (
        ({"type": "bid", "chips": 1, "cls": 1}, "cls"),
        ({"type": "bid", "chips": 1, "type_": 1}, "type_"),
        ({"type": "ß" * 100}, "type"),
    ):
        response = api.post(
            command_url(game), json={"command": command}, headers=bearer(game["seat_tokens"][0])
        )
        body = error_of(response, 400)
        assert body["code"] == "invalid_command", command
        assert field in body["details"]["fields"]["command"], command


# --- never a 500 ---------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
commands = st.builds(
    lambda args, type_: {**args, "type": type_},
    st.dictionaries(
        st.sampled_from(["chips", "cls", "type_", "seat"]) | st.text(max_size=5),
        json_values,
        max_size=3,
    ),
    st.sampled_from(["bid", "roll", "", "ß"]),
)
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({"command": commands}, optional={"expected_version": json_values}),
    st.fixed_dictionaries(
        {"ruleset": st.sampled_from([TOY, "x"]), "players": json_values},
        optional={"options": json_values},
    ),
)
queries = st.dictionaries(
    st.sampled_from(["at", "from", "limit", "offset", "status", "ruleset", "x"]),
    st.text(max_size=6) | st.integers().map(str),
    max_size=3,
)


SPEC = build_spec().to_dict()


def assert_not_a_500(response, method: str, template: str) -> None:
    """Not a 500, an error in the one body, and a status the OpenAPI document lists."""
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        error_of(response, response.status_code)
    operations = SPEC["paths"][template]
    if method in operations:
        assert str(response.status_code) in operations[method]["responses"], (method, template)
    else:
        assert response.status_code == 405


FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(
    command=commands,
    expected_version=st.none() | json_values,
    seat=st.integers(0, 2),
    key=st.none() | st.text(max_size=10),
)
def test_no_command_body_yields_a_500(api, game, command, expected_version, seat, key):
    body = {"command": command}
    if expected_version is not None:
        body["expected_version"] = expected_version
    headers = bearer(game["seat_tokens"][seat])
    if key is not None and key.isascii() and key.isprintable():  # else no client can send it
        headers["Idempotency-Key"] = key
    response = api.post(command_url(game), json=body, headers=headers)
    assert_not_a_500(response, "post", "/games/{game_id}/commands")


@FUZZ
@given(body=bodies)
def test_no_creation_or_sandbox_body_yields_a_500(api, game, body):
    assert_not_a_500(api.post("/games", json=body), "post", "/games")
    sandbox = {"position": {"setup": body, "state": body}}
    admin = bearer(game["admin_token"])
    response = api.post(f"/games/{game['game_id']}/sandbox", json=sandbox, headers=admin)
    assert_not_a_500(response, "post", "/games/{game_id}/sandbox")


@FUZZ
@given(
    args=queries,
    who=st.sampled_from(["none", "seat", "admin", "junk"]),
    path=st.sampled_from(
        [
            "",
            "/commands",
            "/legal-actions",
            "/state",
            "/events",
            "/events/{version}/explain",
            "/result",
            "/position",
            "/sandbox",
            "/export",
        ]
    ),
    body=bodies,
)
def test_no_query_token_or_path_yields_a_500(api, game, args, who, path, body):
    token = {
        "none": None,
        "seat": game["seat_tokens"][1],
        "admin": game["admin_token"],
        "junk": "junk.token",
    }[who]
    url = f"/games/{game['game_id']}{path}".replace("{version}", "3")
    template = "/games/{game_id}" + path
    response = api.get(url, query_string=args, headers=bearer(token))
    assert_not_a_500(response, "get", template)
    response = api.post(url, json=body, query_string=args, headers=bearer(token))
    assert_not_a_500(response, "post", template)


def test_an_accept_header_that_admits_no_answer_is_a_406_on_every_operation(api, game):
    """Each operation answers in its documented media types: an `Accept` that admits none of
    them is a 406 with the one error body; no `Accept`, or `*/*`, admits them all."""
    game_id = game["game_id"]
    for path, wrong in (
        ("/healthz", "text/html"),
        ("/rulesets", "application/xml"),
        ("/openapi.yaml", "application/json"),
        ("/", "application/json"),
        ("/docs", "application/json"),
        (f"/games/{game_id}/export", "application/json"),
        (f"/games/{game_id}", "text/plain"),
    ):
        refused = error_of(api.get(path, headers={"Accept": wrong}), 406)
        assert refused["code"] == "not_acceptable", path
        assert api.get(path, headers={"Accept": "*/*"}).status_code == 200, path
        assert api.get(path).status_code == 200, path
