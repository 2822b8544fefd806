"""Fuzz the table operations (issue 35): schemathesis generates valid and invalid requests for
every operation on players, tables, seats and webhooks, aimed at real tables in every state
with real player keys, seat and admin tokens. Nothing may answer 5xx; every error is the one
body and echoes no secret; every answer has a documented status, media type and schema."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rq import Queue

from api.app import create_app
from service.wiring import raw_redis_client
from tests.abuse.test_fuzz import OPERATIONS, RUN, check_response, conformance_checks
from tests.support.abuse import TOY, bearer

TABLE_PATHS = (
    "/players",
    "/tables",
    "/claims",
    "/start",
    "/bot",
    "/resign",
    "/seating",
    "/invitations",
    "/webhooks",
)
TABLE_OPERATIONS = [op for op in OPERATIONS if any(p in op.path for p in TABLE_PATHS)]


@pytest.fixture(scope="module")
def app(redis_url: str) -> Iterator[Flask]:
    queue = f"abuse-tables-{uuid.uuid4().hex[:8]}"
    yield create_app(redis_url, SYSTEM_STEPS="inline", CORS_ORIGINS=(), QUEUE=queue)
    Queue(queue, connection=raw_redis_client(redis_url)).empty()


@pytest.fixture(scope="module")
def world(app: Flask) -> dict[str, Any]:
    client = app.test_client()
    keys = [client.post("/players", json={"name": n}).get_json() for n in ("Ann", "Bob", "Cy")]

    def table(key: str, **body: Any) -> dict[str, Any]:
        request = {"ruleset": TOY, "players": ["N", "S", "E"], "options": {"rounds": 1}, **body}
        made = client.post("/tables", json=request, headers=bearer(key))
        assert made.status_code == 201, made.get_json()
        answer: dict[str, Any] = made.get_json()
        return answer

    public = table(keys[0]["player_key"])
    private = table(
        keys[0]["player_key"], listing="private", clock={"kind": "move", "per_move_ms": 60000}
    )
    started = table(keys[1]["player_key"], bots="random")
    finished = table(keys[2]["player_key"], bots="random", players=["N", "S"])
    client.post(
        f"/games/{finished['game_id']}/bot", json={}, headers=bearer(finished["seat_token"])
    )
    assert client.get(f"/games/{finished['game_id']}").get_json()["status"] == "finished"
    tables = [public, private, started, finished]
    secrets = [
        *(k["player_key"] for k in keys),
        *(t["admin_token"] for t in tables),
        *(t["seat_token"] for t in tables),
        private["invitation"],
    ]
    return {"client": client, "keys": keys, "tables": tables, "secrets": secrets}


def aimed(case: Any, world: dict[str, Any], data: st.DataObject) -> None:
    """Most of the time: a real table, and the Authorization of a player, its seat or its
    admin; a private table's real invitation; a finite stream."""
    tables, keys = world["tables"], world["keys"]
    target = data.draw(st.sampled_from(tables), label="table")
    if "game_id" in case.path_parameters and data.draw(st.booleans(), label="real table"):
        case.path_parameters["game_id"] = target["game_id"]
    who = data.draw(
        st.sampled_from(["player", "creator", "seat", "admin", "none", "generated"]), label="who"
    )
    token = {
        "player": data.draw(st.sampled_from(keys), label="player")["player_key"],
        "creator": keys[tables.index(target) % len(keys)]["player_key"],
        "seat": target["seat_token"],
        "admin": target["admin_token"],
    }.get(who)
    if who == "none":
        case.headers.pop("Authorization", None)
    elif token is not None:
        case.headers["Authorization"] = f"Bearer {token}"
    body = case.body if isinstance(case.body, dict) else None
    if body is not None and "invitation" in body and data.draw(st.booleans(), label="invite"):
        body["invitation"] = tables[1]["invitation"]
    if case.path.endswith("/stream"):
        case.query = {**(case.query or {}), "follow": "false"}


def fuzz_one(
    operation: Any,
    mode: Any,
    app: Flask,
    world: dict[str, Any],
    statuses: Counter[int],
    problems: list[str],
    name: str,
    tally: Counter[str],
) -> None:
    @RUN
    @given(case=operation.as_strategy(generation_mode=mode), data=st.data())
    def fuzz(case: Any, data: st.DataObject) -> None:
        aimed(case, world, data)
        response = case.call(app=app)
        statuses[response.status_code] += 1
        tally[name] += 1
        try:
            check_response(case, response, world["secrets"])
            case.validate_response(response, checks=conformance_checks(case))
        except Exception as failure:  # kept, not raised (see test_fuzz.checked)
            problems.append(f"{case.method} {case.formatted_path} {case.body!r:.300}: {failure}")

    fuzz()


def test_generated_requests_to_the_table_operations_get_no_5xx_and_the_one_error_body(
    app, world
) -> None:
    statuses: Counter[int] = Counter()
    tally: Counter[str] = Counter()
    problems: list[str] = []
    for operation in TABLE_OPERATIONS:
        name = f"{operation.method.upper()} {operation.path}"
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
            try:
                fuzz_one(operation, mode, app, world, statuses, problems, name, tally)
            except Unsatisfiable:
                continue
    print(f"\nstatuses: {dict(sorted(statuses.items()))}\nper operation: {dict(tally)}")
    assert not problems, f"{len(problems)} failed:\n\n" + "\n\n".join(problems[:3])
    assert len(tally) == len(TABLE_OPERATIONS) >= 17
    assert statuses[200] + statuses[201] > 0 and statuses[422] > 0
