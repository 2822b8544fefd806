"""Security: every mutating endpoint (commands, sandbox, rewind, seed reveal, replays) refuses
every wrong credential with the right status and the one error body, appends nothing, queues
nothing, creates nothing, and never echoes a token or the seed. The token decides the seat."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

import tests.support.toy  # noqa: F401  (registers the toy rulesets in this process)
from api.app import create_app
from service.wiring import game_service
from store import keys
from tests.support.abuse import TOY, bearer, error_body
from workers.queue import queue, urgent_queue

HAND_WRITTEN_POSITION = {  # round 2 of 2 of a 3-seat toy game; seat 1 has sealed 3 chips
    "setup": {"ruleset": TOY, "players": ["ann", "bob", "cy"], "options": {"rounds": 2}},
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


@pytest.fixture()
def queue_name() -> str:
    return f"abuse-security-{uuid.uuid4().hex[:8]}"


@pytest.fixture()
def api(redis_url: str, queue_name: str) -> Iterator[FlaskClient]:
    app = create_app(redis_url, SYSTEM_STEPS="inline", CORS_ORIGINS=(), QUEUE=queue_name)
    with app.test_client() as client:
        yield client


def create(api: FlaskClient, players: int) -> dict[str, Any]:
    response = api.post("/games", json={"ruleset": TOY, "players": ["ann", "bob", "cy"][:players]})
    assert response.status_code == 201, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


@pytest.fixture()
def games(api: FlaskClient, redis_url: str) -> dict[str, Any]:
    """Game A (3 seats; seat 0 has bid, so a rewind has somewhere to go) and game B."""
    a, b = create(api, 3), create(api, 2)
    bid = api.post(
        f"/games/{a['game_id']}/commands",
        json={"command": {"type": "bid", "chips": 1}},
        headers=bearer(a["seat_tokens"][0]),
    )
    assert bid.status_code == 201
    vault = game_service(redis_url).vault
    secrets = [
        *a["seat_tokens"],
        a["admin_token"],
        *b["seat_tokens"],
        b["admin_token"],
        vault.seed(a["game_id"]).hex(),
        vault.seed(b["game_id"]).hex(),
    ]
    secrets += [hashlib.sha256(s.encode()).hexdigest() for s in secrets]
    return {"a": a, "b": b, "secrets": secrets}


# the endpoints that change something, each with a body its rightful caller would succeed with
MUTATING = {
    "commands": ("seat", lambda a: {"command": {"type": "bid", "chips": 2}}),
    "sandbox": ("admin", lambda a: {"position": HAND_WRITTEN_POSITION}),
    "rewind": ("admin", lambda a: {"to_version": a["version"]}),
    "seed": ("admin", lambda a: None),
    "replays": ("seat or admin", lambda a: {"kind": "verify"}),
}

# (credential, its Authorization header given games A and B, status, code) for each endpoint
UNAUTHENTICATED = [
    ("no token", lambda a, b: None, 401, "unauthenticated"),
    ("a token nobody issued", lambda a, b: "Bearer " + "x" * 32, 401, "unauthenticated"),
    (
        "a token naming this game that it never issued",
        lambda a, b: f"Bearer {a['game_id']}.{'y' * 32}",
        401,
        "unauthenticated",
    ),
    (
        "a seat token that lost a character",
        lambda a, b: f"Bearer {a['seat_tokens'][1][:-1]}",
        401,
        "unauthenticated",
    ),
    ("another scheme", lambda a, b: f"Basic {a['admin_token']}", 401, "unauthenticated"),
    ("an empty bearer", lambda a, b: "Bearer ", 401, "unauthenticated"),
    ("a token with junk", lambda a, b: f"Bearer {a['admin_token']}\u00e9", 401, "unauthenticated"),
    ("an endless token", lambda a, b: "Bearer " + "z" * 5000, 401, "unauthenticated"),
]
OTHER_GAME = [
    ("another game's seat token", lambda a, b: f"Bearer {b['seat_tokens'][0]}", 403, "forbidden"),
    ("another game's admin token", lambda a, b: f"Bearer {b['admin_token']}", 403, "forbidden"),
]
WRONG_ROLE = {
    "seat": [("the admin token", lambda a, b: f"Bearer {a['admin_token']}", 403, "forbidden")],
    "admin": [
        (f"seat {i}'s token", lambda a, b, i=i: f"Bearer {a['seat_tokens'][i]}", 403, "forbidden")
        for i in range(3)
    ],
    "seat or admin": [],
}


def cases() -> Iterator[Any]:
    for endpoint, (who, _) in MUTATING.items():
        for credential, header, status, code in [*UNAUTHENTICATED, *OTHER_GAME, *WRONG_ROLE[who]]:
            yield pytest.param(endpoint, header, status, code, id=f"{endpoint}-{credential}")


def observable(redis_url: str, a: dict[str, Any], queue_name: str) -> Any:
    """Everything a mutating endpoint could change about game A."""
    store = game_service(redis_url).store
    meta = store.meta(a["game_id"])
    recent = store.redis.zrangebyscore(keys.GAME_INDEX, float(meta.created_at), "+inf")
    sandboxes = [m.game_id for m in store._metas(recent) if m.extra.get("sandbox_of")]
    return (
        meta.version,
        len(store.read(a["game_id"])),
        meta.status,
        meta.extra.get("seed_revealed"),
        [g for g in sandboxes if store.meta(g).extra["sandbox_of"] == a["game_id"]],
        [q.count for q in (queue(redis_url, queue_name), urgent_queue(redis_url, queue_name))],
    )


def assert_leaks_nothing(response: Any, secrets: list[str]) -> None:
    seen = response.get_data(as_text=True) + repr(sorted(response.headers.items()))
    for secret in secrets:
        assert secret not in seen, "a token or the seed is in the response"


@pytest.mark.parametrize(("endpoint", "header", "status", "code"), list(cases()))
def test_a_mutating_endpoint_refuses_a_wrong_credential_and_changes_nothing(
    api, games, redis_url, queue_name, endpoint, header, status, code
):
    a, b = games["a"], games["b"]
    authorization = header(a, b)
    headers = {"Authorization": authorization} if authorization is not None else {}
    before = observable(redis_url, a, queue_name)
    for body in (MUTATING[endpoint][1](a), {"junk": True}):  # the token is checked first
        response = api.post(f"/games/{a['game_id']}/{endpoint}", json=body, headers=headers)
        refused = error_body(response, status, code)
        assert "rule" not in refused and "current_version" not in refused
        if status == 401:
            assert response.headers["WWW-Authenticate"] == "Bearer"
        assert_leaks_nothing(response, games["secrets"])
    assert observable(redis_url, a, queue_name) == before


@pytest.mark.parametrize("endpoint", list(MUTATING))
def test_the_rightful_caller_succeeds_with_the_same_request(
    api, games, redis_url, queue_name, endpoint
):
    """So the refusals above are the credential's doing, not the body's."""
    a = games["a"]
    who, body = MUTATING[endpoint]
    token = a["seat_tokens"][1] if who.startswith("seat") else a["admin_token"]
    before = observable(redis_url, a, queue_name)
    response = api.post(f"/games/{a['game_id']}/{endpoint}", json=body(a), headers=bearer(token))
    assert response.status_code in (201, 202), response.get_json()
    assert observable(redis_url, a, queue_name) != before
    secrets = [s for s in games["secrets"] if s != token]
    if endpoint == "seed":  # revealing it is that endpoint's purpose
        secrets = [s for s in secrets if s != response.get_json()["seed"]]
    assert_leaks_nothing(response, secrets)


def test_a_seats_token_only_ever_acts_as_that_seat(api, games, redis_url):
    a = games["a"]
    game_id, store = a["game_id"], game_service(redis_url).store
    url = f"/games/{game_id}/commands"
    for seat, token in enumerate(a["seat_tokens"]):
        listed = api.get(f"/games/{game_id}/legal-actions", headers=bearer(token)).get_json()
        assert listed["seat"] == seat
        for other in {0, 1, 2} - {seat}:
            version = store.version(game_id)
            # naming another seat anywhere in the request is not a way to act for it: a key
            # the command does not take is a 400 naming it, before the rules are asked
            claimed = api.post(
                url,
                json={"command": {"type": "bid", "chips": 0, "seat": other}},
                headers=bearer(token),
            )
            assert "command.seat" in error_body(claimed, 400, "invalid_command")["message"]
            smuggled = api.post(
                url,
                json={"command": {"type": "bid", "chips": 0}, "seat": other},
                headers=bearer(token),
            )
            error_body(smuggled, 400, "invalid_request")
            assert store.version(game_id) == version
    # seats 1 and 2 bid with their own tokens: each event is that seat's, never another's
    for seat in (1, 2):
        key = f"bid-of-{seat}-{uuid.uuid4().hex}"
        headers = {**bearer(a["seat_tokens"][seat]), "Idempotency-Key": key}
        body = {"command": {"type": "bid", "chips": 1}}
        played = api.post(url, json=body, headers=headers)
        assert played.status_code == 201, played.get_json()
        events = played.get_json()["events"]
        assert {e["actor"] for e in events} == {seat}
        assert events[0]["type"] == "ToyBidSealed" and events[0]["data"]["seat"] == seat
        if seat == 2:  # the round is over: every seat may bid again
            continue
        # another seat replaying that request (same key, same body) is not handed its answer:
        # keys are per seat, so it is seat 0's own bid, refused (seat 0 has bid this round)
        before = store.version(game_id)
        replayed = api.post(
            url, json=body, headers={**bearer(a["seat_tokens"][0]), "Idempotency-Key": key}
        )
        assert replayed.status_code in (409, 422), replayed.get_json()
        assert "events" not in error_body(replayed, replayed.status_code)
        assert store.version(game_id) == before
    sealed = [e.decoded() for e in store.read(game_id) if e.decoded()["type"] == "ToyBidSealed"]
    assert [(e["actor"], e["data"]["seat"]) for e in sealed] == [(0, 0), (1, 1), (2, 2)]
