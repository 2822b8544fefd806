"""Small holes: a lone surrogate anywhere in a body is a 400 (it was a 500); names are stored
in NFC and refused when blank, invisible or looking like another seat's; /healthz counts the
live workers of its queue only; what a credential shows is `Cache-Control: private, no-store`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from typing import Any

import pytest
from flask.testing import FlaskClient

import tests.support.toy  # noqa: F401  (registers the toy ruleset in this process)
from api.app import create_app
from tests.conftest import REPO_ROOT
from tests.support.api import TOY, bearer, create_toy

LONE = '"\\ud800"'


def raw_post(api: FlaskClient, path: str, body: str, **headers: str) -> Any:
    return api.post(path, data=body, content_type="application/json", headers=headers)


def test_a_lone_surrogate_in_a_player_name_is_a_400(api: FlaskClient) -> None:
    body = f'{{"ruleset": "{TOY}", "players": ["ann", {LONE}, "cy"]}}'
    answer = raw_post(api, "/games", body)
    assert answer.status_code == 400, answer.get_data(as_text=True)
    assert answer.get_json()["code"] == "invalid_json"


@pytest.mark.parametrize("where", ["key", "value", "nested"])
def test_a_lone_surrogate_in_a_command_with_an_idempotency_key_is_a_400(
    api: FlaskClient, where: str
) -> None:
    game = create_toy(api)
    seat = bearer(game["seat_tokens"][0])
    legal = api.get(f"/games/{game['game_id']}/legal-actions", headers=seat).get_json()
    action = json.dumps(legal["actions"][0]["command"])[1:-1]  # its fields, without braces
    body = {
        "key": f'{{"command": {{{action}, {LONE}: 1}}}}',
        "value": f'{{"command": {{{action}, "note": {LONE}}}}}',
        "nested": f'{{"command": {{{action}, "x": [{{"y": {LONE}}}]}}}}',
    }[where]
    answer = raw_post(
        api,
        f"/games/{game['game_id']}/commands",
        body,
        Authorization=f"Bearer {game['seat_tokens'][0]}",
        **{"Idempotency-Key": f"k-{uuid.uuid4().hex}"},
    )
    assert answer.status_code == 400, answer.get_data(as_text=True)


def test_names_are_stored_composed(api: FlaskClient) -> None:
    decomposed = "Jose\u0301"  # e + combining acute
    created = api.post("/games", json={"ruleset": TOY, "players": [decomposed, "bob"]})
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["players"][0] == "Jos\u00e9"


@pytest.mark.parametrize(
    "players",
    [
        ["ann", "ann\u200b"],  # a zero-width space
        ["ann", "\u2066bob\u2069"],  # direction isolates
        ["ann", "\u3164"],  # a Hangul filler: a letter that draws nothing
        ["ann", "   "],
        ["ann", "bob\x07"],
        ["paul", "\u0440aul"],  # Cyrillic er for Latin p
        ["Olga", "\u039flga"],  # Greek capital omicron
        ["ann", "ANN"],
        ["ann", "\uff41nn"],  # full-width a
        ["bo b", "bo  b"],
        ["Jos\u00e9", "Jose\u0301"],
    ],
)
def test_invisible_and_look_alike_names_are_refused(api: FlaskClient, players: list[str]) -> None:
    answer = api.post("/games", json={"ruleset": TOY, "players": [*players, "zed"]})
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["code"] == "invalid_names"
    assert "players" in answer.get_json()["details"]["fields"]


def test_names_that_merely_differ_are_kept(api: FlaskClient) -> None:
    answer = api.post("/games", json={"ruleset": TOY, "players": ["Ann", "Anna", "Zoë"]})
    assert answer.status_code == 201, answer.get_json()


def test_seat_private_answers_may_not_be_cached(api: FlaskClient) -> None:
    game = create_toy(api)
    seat = bearer(game["seat_tokens"][0])
    gid = game["game_id"]
    for path in ("state", "legal-actions", "events", "export", "narrative"):
        answer = api.get(f"/games/{gid}/{path}", headers=seat)
        assert answer.status_code == 200, (path, answer.get_json())
        assert answer.headers["Cache-Control"] == "private, no-store", path
        assert "Authorization" in answer.headers.get("Vary", ""), path
    spectator = api.get(f"/games/{gid}/state")
    assert "private" not in spectator.headers.get("Cache-Control", "")


def start_worker(queue_name: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", "worker", "--queue", queue_name, "--sweep-every", "0"],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_healthz_counts_only_the_live_workers_of_its_queue(
    redis_url: str, toy_env: dict[str, str]
) -> None:
    queue_name = f"health-{uuid.uuid4().hex[:8]}"
    other = f"other-{uuid.uuid4().hex[:8]}"
    app = create_app(redis_url, QUEUE=queue_name, CORS_ORIGINS=())
    workers = [start_worker(queue_name, toy_env), start_worker(other, toy_env)]
    try:

        def count() -> int:
            with app.test_client() as client:
                return int(json.loads(client.get("/healthz").data)["rq_workers"])

        deadline = time.monotonic() + 30
        while count() != 1:
            assert time.monotonic() < deadline, count()
            time.sleep(0.1)
        os.kill(workers[0].pid, signal.SIGKILL)
        workers[0].wait()
        workers.append(start_worker(queue_name, toy_env))
        time.sleep(3)
        deadline = time.monotonic() + 30
        while count() != 1:
            assert time.monotonic() < deadline, f"{count()} workers counted, 1 running"
            time.sleep(0.1)
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()


def test_a_rewind_to_a_version_beyond_any_stream_id_is_refused_not_a_500(
    api: FlaskClient,
) -> None:
    """Schemathesis found it: `to_version` past 2**64 reached Redis's XRANGE as a stream id."""
    game = create_toy(api)
    huge = {"type": "propose_rewind", "to_version": 5666827093745731807031066624}
    seat = bearer(game["seat_tokens"][0])
    answer = api.post(f"/games/{game['game_id']}/commands", json={"command": huge}, headers=seat)
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["code"] == "illegal_action"
