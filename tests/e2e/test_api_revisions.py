"""Every game shows the revision of the rules it is played under; a game or a position of a
revision this server lacks, or an event of a newer schema, is refused naming it (never folded
under other rules)."""

from __future__ import annotations

import json
import re

import redis

from domain.hotw.editions.ah2001.revisions import NEWEST
from service.codec import stored_payload
from service.rulesets import pack_digest, ruleset
from store.redis_store import EventStore
from tests.support.api import bearer
from tests.support.golden import GoldenGame, golden_games, import_game

FIRST_AH2001 = next(
    g for g in golden_games() if g.record["ruleset"] == "hotw-ah2001" and g.record["revision"] == 1
)


def created(api, name: str = "hotw-ah2001", players: int = 3) -> dict:
    answer = api.post(
        "/games", json={"ruleset": name, "players": [f"p{n}" for n in range(players)]}
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def store_of(redis_url: str) -> EventStore:
    return EventStore(redis.Redis.from_url(redis_url, decode_responses=True))


def test_a_games_summary_names_its_ruleset_revision_and_pack_digest(api) -> None:
    game = created(api)
    summary = api.get(f"/games/{game['game_id']}").get_json()
    assert summary["revision"] == ruleset("hotw-ah2001").newest_revision() == NEWEST
    assert summary["pack_digest"] == pack_digest("hotw-ah2001")
    described = api.get("/rulesets/hotw-ah2001").get_json()
    assert described["revision"] == NEWEST
    assert [r["revision"] for r in described["revisions"]] == list(range(1, NEWEST + 1))
    assert described["revisions"][1]["rules"] == ["ah2001.components.coin-fleet"]


def test_the_export_and_the_position_of_a_game_carry_its_revision(api, redis_url) -> None:
    game_id = import_game(store_of(redis_url), FIRST_AH2001)
    summary = api.get(f"/games/{game_id}").get_json()
    assert (summary["revision"], summary["status"]) == (1, "finished")
    first = json.loads(api.get(f"/games/{game_id}/export").get_data(as_text=True).splitlines()[0])
    assert first["type"] == "GameCreated" and first["data"]["revision"] == 1
    assert first["data"]["pack_digest"] == FIRST_AH2001.record["pack_digest"]
    # the position needs the admin; an imported game has none, so read it through a sandbox's
    # source: a game created under revision 1 by this server
    assert summary["pack_digest"] == FIRST_AH2001.record["pack_digest"]


def test_the_html_replay_names_the_revision(api, redis_url) -> None:
    from service.replay_html import replay_html
    from service.wiring import game_service

    game_id = import_game(store_of(redis_url), FIRST_AH2001)
    page = replay_html(game_service(redis_url), game_id)
    assert re.search(r"Rules: hotw-ah2001 revision 1, data pack SHA-256 [0-9a-f]{64}", page)


def lacking_revision(game: GoldenGame, revision: int) -> GoldenGame:
    """The golden game as a newer server would have stored it, under a revision of its own."""
    lines = list(game.lines)
    first = json.loads(lines[0])
    first["data"]["revision"] = revision
    lines[0] = json.dumps(first)
    return GoldenGame(game.path, {**game.record, "revision": revision}, tuple(lines))


def test_a_stored_game_of_a_revision_this_server_lacks_is_refused_naming_it(api, redis_url) -> None:
    unknown = NEWEST + 5
    game_id = import_game(store_of(redis_url), lacking_revision(FIRST_AH2001, unknown))
    for path in ("/events", "/export"):  # the log itself reads: only folding needs the rules
        assert api.get(f"/games/{game_id}{path}").status_code == 200
    for path in ("", "/state", "/result", "/board", "/narrative"):
        answer = api.get(f"/games/{game_id}{path}")
        assert answer.status_code == 409, (path, answer.get_data(as_text=True)[:200])
        body = answer.get_json()
        assert body["code"] == "ruleset_revision_unavailable"
        available = list(range(1, NEWEST + 1))
        assert body["details"] == {
            "ruleset": "hotw-ah2001",
            "revision": unknown,
            "available": available,
        }
        assert f"revision {unknown}" in body["message"]


def test_an_event_of_a_newer_schema_is_refused_never_misread(api, redis_url) -> None:
    game = created(api)
    store = store_of(redis_url)
    envelope = {
        "type": "hotw.ah2001.FromANewerServer",
        "schema_version": 1,
        "data": {},
        "rule": "ah2001.turn.parts",
        "visibility": {"scope": "public"},
        "actor": "system",
        "command_id": "newer",
        "recorded_at": "2026-11-25T00:00:00Z",
    }
    store.append(game["game_id"], [stored_payload(envelope)], expected_version=game["version"])
    answer = api.get(f"/games/{game['game_id']}/events")
    assert answer.status_code == 409
    assert answer.get_json()["code"] == "event_schema_unavailable"
    assert "FromANewerServer" in answer.get_json()["message"]


def test_a_sandbox_keeps_its_games_revision_and_refuses_one_the_server_lacks(
    api, redis_url
) -> None:
    from service.wiring import game_service

    service = game_service(redis_url)
    made = service.create_game("hotw-ah2001", ["ann", "bob", "cy"], revision=1)
    rules, game = service.load(made.game_id)
    admin = bearer(made.tokens.admin)
    setup = {"ruleset": "hotw-ah2001", "players": ["ann", "bob", "cy"], "options": {}}
    position = {"setup": setup, "state": rules.encode_state(game.state)}
    sandbox = api.post(f"/games/{made.game_id}/sandbox", json={"position": position}, headers=admin)
    assert sandbox.status_code == 201, sandbox.get_json()
    assert api.get(f"/games/{sandbox.get_json()['game_id']}").get_json()["revision"] == 1

    position = {**position, "setup": {**setup, "revision": NEWEST + 1}}
    refused = api.post(f"/games/{made.game_id}/sandbox", json={"position": position}, headers=admin)
    assert refused.status_code == 422
    assert refused.get_json()["code"] == "ruleset_revision_unavailable"
    assert refused.get_json()["details"]["revision"] == NEWEST + 1
    other = {**position, "setup": {**setup, "revision": 2}}
    mismatch = api.post(f"/games/{made.game_id}/sandbox", json={"position": other}, headers=admin)
    assert mismatch.status_code == 422 and "keeps the revision" in mismatch.get_json()["message"]
