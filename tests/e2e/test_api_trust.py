"""Over HTTP: replay jobs run by a real RQ worker, the chance audit, the seed reveal, and the
admin's rewind."""

from __future__ import annotations

import json
import random
import time

import pytest

from api.app import create_app
from domain.core.messages import Command
from service.wiring import game_service
from store import keys
from store.compression import pack_event, unpack_event
from tests.support.api import bearer, create_toy, play_to_the_end


@pytest.fixture()
def worker_api(redis_url, rq_worker):
    app = create_app(redis_url, SYSTEM_STEPS="inline", CORS_ORIGINS=(), QUEUE=rq_worker.queue_name)
    with app.test_client() as client:
        yield client


def wait_for(api, url: str, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        body = api.get(url).get_json()
        if body["status"] in ("finished", "failed"):
            return body
        assert time.monotonic() < deadline, f"job still {body['status']}"
        time.sleep(0.1)


def test_a_verify_job_folds_the_game_in_the_worker_and_reports_no_divergence(worker_api):
    game = create_toy(worker_api, players=3, rounds=3)
    play_to_the_end(worker_api, game, random.Random(1))
    started = worker_api.post(
        f"/games/{game['game_id']}/replays",
        json={"kind": "verify"},
        headers=bearer(game["seat_tokens"][0]),
    )
    assert started.status_code == 202
    job = wait_for(worker_api, started.get_json()["status_url"])
    assert job["status"] == "finished"
    assert job["result"]["ok"] is True
    assert job["result"]["first_divergence"] is None
    assert (
        job["result"]["events"] == worker_api.get(f"/games/{game['game_id']}").get_json()["version"]
    )


def test_an_export_job_builds_an_html_replay_to_download(worker_api):
    game = create_toy(worker_api, players=2, rounds=2)
    play_to_the_end(worker_api, game, random.Random(2))
    started = worker_api.post(
        f"/games/{game['game_id']}/replays",
        json={"kind": "export"},
        headers=bearer(game["admin_token"]),
    )
    job = wait_for(worker_api, started.get_json()["status_url"])
    assert job["status"] == "finished", job
    page = worker_api.get(job["result"]["html_url"])
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert b'id="slider"' in page.data
    assert len(page.data) == job["result"]["bytes"]


def test_replay_jobs_need_a_token_of_the_game_and_unknown_jobs_are_not_found(worker_api):
    game = create_toy(worker_api, players=2)
    assert (
        worker_api.post(f"/games/{game['game_id']}/replays", json={"kind": "verify"}).status_code
        == 401
    )
    bad = worker_api.post(
        f"/games/{game['game_id']}/replays",
        json={"kind": "rewrite"},
        headers=bearer(game["admin_token"]),
    )
    assert bad.status_code == 400 and bad.get_json()["code"] == "invalid_request"
    missing = worker_api.get(f"/replays/replay-verify-{game['game_id']}-{'0' * 32}")
    assert missing.status_code == 404 and missing.get_json()["code"] == "job_not_found"
    assert worker_api.get("/replays/rq:job:anything").status_code == 404


def test_the_audit_waits_for_the_seed_then_finds_every_outcome_sound(api):
    game = create_toy(api, players=3, rounds=3)
    early = api.get(f"/games/{game['game_id']}/audit")
    assert early.status_code == 409 and early.get_json()["code"] == "seed_not_revealed"
    play_to_the_end(api, game, random.Random(3))
    report = api.get(f"/games/{game['game_id']}/audit").get_json()
    assert report["clean"] is True and report["commitment_verified"] is True
    assert report["seed_commitment"] == game["seed_commitment"]
    assert report["outcomes_checked"] >= 2


def test_the_audit_catches_an_outcome_tampered_in_the_store(api, client):
    """An attacker with write access to Redis copies a finished game with one die changed;
    the audit endpoint names the version of the forged outcome."""
    game = create_toy(api, players=2, rounds=2)
    play_to_the_end(api, game, random.Random(4))
    forged_id = f"forged-{game['game_id'][:20]}"
    forged_version = None
    for entry_id, fields in client.xrange(keys.events(game["game_id"])):
        body = json.loads(unpack_event(fields["e"]))
        if body.get("draws") and forged_version is None:
            k, n, result = body["draws"][0]
            body["draws"][0] = [k, n, (result + 1) % n]
            forged_version = int(entry_id.split("-")[0])
        client.xadd(keys.events(forged_id), {"e": pack_event(json.dumps(body))}, id=entry_id)
    client.hset(keys.meta(forged_id), mapping=client.hgetall(keys.meta(game["game_id"])))
    client.hset(keys.tokens(forged_id), mapping=client.hgetall(keys.tokens(game["game_id"])))
    honest = api.get(f"/games/{game['game_id']}/audit").get_json()
    forged = api.get(f"/games/{forged_id}/audit").get_json()
    assert honest["clean"] is True
    assert forged["clean"] is False
    assert [m["version"] for m in forged["mismatches"]] == [forged_version]


def test_only_the_admin_reveals_the_seed_early_and_only_once(api):
    game = create_toy(api, players=2, rounds=2)
    url = f"/games/{game['game_id']}/seed"
    assert api.post(url).status_code == 401
    assert api.post(url, headers=bearer(game["seat_tokens"][0])).status_code == 403
    revealed = api.post(url, headers=bearer(game["admin_token"]))
    assert revealed.status_code == 201
    assert len(revealed.get_json()["seed"]) == 64
    again = api.post(url, headers=bearer(game["admin_token"]))
    assert again.status_code == 409 and again.get_json()["code"] == "seed_already_revealed"
    assert api.get(f"/games/{game['game_id']}/audit").status_code == 200


def test_the_admin_orders_a_rewind_and_seats_cannot(api, redis_url):
    game = create_toy(api, players=2, rounds=3)
    rng = random.Random(5)
    for _ in range(4):
        summary = api.get(f"/games/{game['game_id']}").get_json()
        seat = summary["awaiting"][0]
        actions = api.get(
            f"/games/{game['game_id']}/legal-actions", headers=bearer(game["seat_tokens"][seat])
        ).get_json()["actions"]
        api.post(
            f"/games/{game['game_id']}/commands",
            json=rng.choice(actions),
            headers=bearer(game["seat_tokens"][seat]),
        )
    url = f"/games/{game['game_id']}/rewind"
    target = game["version"]
    refused = api.post(url, json={"to_version": target}, headers=bearer(game["seat_tokens"][0]))
    assert refused.status_code == 403
    ordered = api.post(url, json={"to_version": target}, headers=bearer(game["admin_token"]))
    assert ordered.status_code == 201, ordered.get_json()
    assert ordered.get_json()["events"][0]["type"] == "GameRewound"
    state = api.get(f"/games/{game['game_id']}/state").get_json()
    at_target = api.get(f"/games/{game['game_id']}/state?at={target}").get_json()
    assert state["view"] == at_target["view"]
    too_far = api.post(url, json={"to_version": 10**6}, headers=bearer(game["admin_token"]))
    assert too_far.status_code == 422 and too_far.get_json()["rule"] == "toy.table"
    service = game_service(redis_url)
    assert Command.of("undo") not in [
        Command.from_dict(a["command"])
        for a in api.get(
            f"/games/{game['game_id']}/legal-actions", headers=bearer(game["seat_tokens"][0])
        ).get_json()["table_actions"]
    ]
    assert service.store.version(game["game_id"]) == ordered.get_json()["version"]
