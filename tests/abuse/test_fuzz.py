"""Fuzz: schemathesis generates requests for every operation of openapi.yaml (valid ones and
invalid ones) and sends them in process to the Flask app on the session's redis-server. Path
parameters and tokens are often real (games made first, in every state; their seat and admin
tokens; a token of another game), so requests reach past the 404s and 401s into the rules. A
second test runs schemathesis's state machine on the document's links (create games, then act
on them with the tokens their creation returned): a thousand requests or more.

Nothing may answer 5xx, every error is the one body {code, message, rule?, details?,
current_version?} and echoes no token, and every answer has a documented status, media type
and schema."""

from __future__ import annotations

import json
import random
import traceback
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from hypothesis.internal.conjecture import providers
from rq import Queue
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

import tests.support.toy  # noqa: F401  (registers the toy rulesets in this process)
from api.app import create_app
from api.openapi import build_spec
from service.rulesets import served_rulesets
from service.wiring import raw_redis_client
from tests.support.abuse import ERROR_KEYS, TOY, TOY_CLOSING, bearer, register_player_names

EXAMPLES_PER_OPERATION_AND_MODE = 40
MIN_REQUESTS = 1_000

CLOSING, HOTW = TOY_CLOSING, "hotw-2024"
SPARE_NAMES = ["ann", "bob", "cy", "di", "eve", "fay"]
register_player_names()
SCHEMA = schemathesis.openapi.from_dict(build_spec(served_rulesets()).to_dict())
"""openapi.yaml (the built-in rulesets; a test holds the two equal) with the toys' commands and
options too, as this process's server documents them at /openapi.yaml."""


@pytest.fixture(scope="module")
def app(redis_url: str) -> Iterator[Flask]:
    queue = f"abuse-fuzz-{uuid.uuid4().hex[:8]}"
    yield create_app(redis_url, SYSTEM_STEPS="inline", CORS_ORIGINS=(), QUEUE=queue)
    Queue(queue, connection=raw_redis_client(redis_url)).empty()  # replay jobs nobody runs


def play(client: Any, game: dict[str, Any], moves: int | None, rng: random.Random) -> None:
    """Up to `moves` random legal commands (None: to the end)."""
    game_id = game["game_id"]
    while moves is None or moves > 0:
        summary = client.get(f"/games/{game_id}").get_json()
        if summary["status"] == "finished":
            return
        seat = summary["awaiting"][0]
        token = game["seat_tokens"][seat]
        legal = client.get(f"/games/{game_id}/legal-actions", headers=bearer(token)).get_json()
        action = rng.choice(legal["actions"])
        posted = client.post(f"/games/{game_id}/commands", json=action, headers=bearer(token))
        assert posted.status_code == 201, posted.get_json()
        moves = None if moves is None else moves - 1


@pytest.fixture(scope="module")
def world(app: Flask) -> dict[str, Any]:
    """Games in every state, and a real replay job of each kind, for the fuzzer to aim at."""
    client, rng = app.test_client(), random.Random(11)

    def create(ruleset: str, players: list[str], **options: Any) -> dict[str, Any]:
        body = {"ruleset": ruleset, "players": players, "options": options}
        response = client.post("/games", json=body)
        assert response.status_code == 201, response.get_json()
        created: dict[str, Any] = response.get_json()
        return created

    fresh = create(TOY, ["ann", "bob", "cy"])
    midway = create(TOY, ["ann", "bob", "cy", "di"], rounds=3)
    play(client, midway, 5, rng)
    finished = create(TOY, ["ann", "bob"], rounds=1)
    play(client, finished, None, rng)
    hotw = create("hotw-2024", ["ann", "bob", "cy"])
    archive = create(TOY, ["ann", "bob"], rounds=1)  # finished, and only ever streamed: the
    play(client, archive, None, rng)  # fuzzer may rewind `finished` and a live stream never ends
    games = [fresh, midway, finished, hotw]
    jobs = []
    for kind in ("verify", "export"):
        started = client.post(
            f"/games/{finished['game_id']}/replays",
            json={"kind": kind},
            headers=bearer(finished["admin_token"]),
        )
        assert started.status_code == 202
        jobs.append(started.get_json()["job_id"])
    position = client.get(
        f"/games/{finished['game_id']}/position?at=3", headers=bearer(finished["admin_token"])
    ).get_json()
    secrets = [t for g in games for t in (g["admin_token"], *g["seat_tokens"])]
    return {
        "client": client,
        "games": games,
        "finished": finished,
        "archive": archive,
        "jobs": jobs,
        "position": position,
        "secrets": secrets,
    }


def every_legal_action(client: Any, game_id: str, token: str | None) -> list[dict[str, Any]]:
    """A seat's legal actions and table actions (undo, rewinds), each a body ready to post;
    none for a seat token the admin has re-issued meanwhile (refused 401, as it must be: the
    fuzzer holds the admin tokens, and schemathesis' own checks may repeat a re-issue)."""
    answer = client.get(f"/games/{game_id}/legal-actions", headers=bearer(token))
    listed = answer.get_json()
    if answer.status_code == 401 and listed["code"] == "unauthenticated":
        return []
    return [*listed["actions"], *listed["table_actions"]]


def often(data: st.DataObject, label: str) -> bool:
    """True two times in three. (Hypothesis leans to its simplest choices, False and the first
    element of a list, so what is wanted most comes first.)"""
    return data.draw(st.sampled_from([True, True, False]), label=label)


def aimed(case: Any, world: dict[str, Any], data: st.DataObject) -> None:
    """Point the generated case at real things most of the time: a real game or job, the
    Authorization of one of its seats, its admin, another game's seat or none (else what was
    generated), a real ruleset, a version the game has, a legal action of that seat, a usable
    position."""
    client, games = world["client"], world["games"]
    body = case.body if isinstance(case.body, dict) else {}
    if case.path == "/games" and "ruleset" in body and often(data, "real ruleset"):
        body["ruleset"] = data.draw(st.sampled_from([TOY, "hotw-2024"]), label="ruleset")
    targets = [world["archive"]] if case.path.endswith("/stream") else games
    target = None
    if "game_id" in case.path_parameters and often(data, "real game"):
        target = data.draw(st.sampled_from(targets), label="game")
        case.path_parameters["game_id"] = target["game_id"]
    if "job_id" in case.path_parameters and often(data, "real job"):
        case.path_parameters["job_id"] = data.draw(st.sampled_from(world["jobs"]), label="job")
    game = target or data.draw(st.sampled_from(games), label="token's game")
    other = next(g for g in games if g is not game)
    who = data.draw(
        st.sampled_from(["seat", "admin", "seat", "none", "other game", "generated"]),
        label="who",
    )
    token = None
    if who == "none":
        case.headers.pop("Authorization", None)
    elif who == "admin":
        token = game["admin_token"]
    elif who == "seat":
        token = data.draw(st.sampled_from(game["seat_tokens"]), label="seat")
    elif who == "other game":
        token = other["seat_tokens"][0]
    if token is not None:
        case.headers["Authorization"] = f"Bearer {token}"
    # drawn whatever the game's state, so that a case replays the same way (Hypothesis insists)
    pick = data.draw(st.integers(0, 10_000), label="which legal action / rewind target")
    use_legal, keep_version, real_version, real_target, real_position = (
        often(data, name) for name in ("legal", "keep version", "version", "target", "position")
    )
    if target is None or not body:
        return
    version = client.get(f"/games/{target['game_id']}").get_json()["version"]
    if case.path.endswith("/commands") and who == "seat" and use_legal:
        actions = every_legal_action(client, target["game_id"], token)
        if actions:  # a legal action, posted as listed or with its version dropped
            case.body = body = dict(actions[pick % len(actions)])
            if not keep_version:
                del body["expected_version"]
    elif "expected_version" in body and real_version:
        body["expected_version"] = version
    if "to_version" in body and real_target:
        body["to_version"] = 1 + pick % version
    if "position" in body and real_position:
        body["position"] = world["position"]


def check_response(case: Any, response: Any, secrets: list[str]) -> None:
    where = f"{case.method} {case.formatted_path} -> {response.status_code}"
    assert response.status_code < 500, f"{where}: {response.text[:500]}"
    if response.status_code >= 400:
        content_type = response.headers.get("content-type", [""])[0]  # lists, names in lower case
        assert content_type.startswith("application/json"), where
        body = json.loads(response.text)
        assert isinstance(body, dict), where
        assert set(body) <= ERROR_KEYS, f"{where}: {sorted(body)}"
        assert isinstance(body.get("code"), str) and body["code"], where
        assert isinstance(body.get("message"), str) and body["message"], where
        assert isinstance(body.get("rule", ""), str), where
        assert isinstance(body.get("details", {}), dict), where
        assert isinstance(body.get("current_version", 0), int), where
        for secret in secrets:  # an error never echoes a token (the caller's own included)
            assert secret not in response.text, where


OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
# Not checked against its response schema: what the document declares a string, schemathesis
# parses (the YAML of /openapi.yaml; each event of the SSE stream).
PARSED_BY_SCHEMATHESIS = {"/openapi.yaml"}


def conformance_checks(case: Any) -> list[Any]:
    """Schemathesis's own checks of the response against the document: a documented status, the
    documented media type, the documented schema. (Not its checks of whether the rules accept
    a schema-valid body: a legal shape can be an illegal move, a 422.)"""
    checks = [not_a_server_error, status_code_conformance, content_type_conformance]
    if case.operation.path not in PARSED_BY_SCHEMATHESIS:
        checks.append(response_schema_conformance)
    return checks


RUN = settings(
    max_examples=EXAMPLES_PER_OPERATION_AND_MODE,  # what bounds the run time
    deadline=None,
    database=None,
    derandomize=True,  # the same requests on every run
    phases=[Phase.explicit, Phase.generate],  # no replaying or shrinking, see `checked`
    suppress_health_check=list(HealthCheck),
)


def checked(case: Any, response: Any, world: dict[str, Any], problems: list[str]) -> None:
    """Our checks and schemathesis's; a failure is kept, not raised. (Raised, Hypothesis would
    replay the case to confirm it, on games that earlier cases have since changed, and report
    its data generation as flaky instead of the failure.)"""
    try:
        check_response(case, response, world["secrets"])
        case.validate_response(response, checks=conformance_checks(case))
    except (AssertionError, FailureGroup) as failure:
        body = case.body if isinstance(case.body, dict | list | str) else None
        problems.append(f"{case.method} {case.formatted_path} {body!r:.300}:\n{failure}")


def fuzz_operation(
    operation: Any,
    mode: schemathesis.GenerationMode,
    app: Flask,
    world: dict[str, Any],
    statuses: Counter[int],
    problems: list[str],
) -> int:
    """Send up to EXAMPLES_PER_OPERATION_AND_MODE generated requests; returns how many."""
    sent = 0

    @RUN
    @given(case=operation.as_strategy(generation_mode=mode), data=st.data())
    def fuzz(case: Any, data: st.DataObject) -> None:
        nonlocal sent
        aimed(case, world, data)
        response = case.call(app=app)
        sent += 1
        statuses[response.status_code] += 1
        checked(case, response, world, problems)

    try:
        fuzz()
    except Unsatisfiable:
        # no invalid request exists for an operation without parameters or body (GET /healthz)
        assert mode == schemathesis.GenerationMode.NEGATIVE and sent == 0
    return sent


def test_a_thousand_generated_requests_get_no_5xx_and_every_error_is_the_one_body(app, world):
    tally: Counter[str] = Counter()
    statuses: Counter[int] = Counter()
    problems: list[str] = []
    for operation in OPERATIONS:
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
            sent = fuzz_operation(operation, mode, app, world, statuses, problems)
            tally[f"{operation.method.upper()} {operation.path}"] += sent
    requests_made = sum(tally.values())
    print(f"\nschemathesis sent {requests_made} requests over {len(tally)} operations")
    print(f"statuses: {dict(sorted(statuses.items()))}")
    print(f"per operation: {dict(tally)}")
    assert not problems, f"{len(problems)} failed:\n\n" + "\n\n".join(problems[:3])
    assert all(tally.values()), f"every operation was exercised: {tally}"
    assert requests_made >= MIN_REQUESTS
    assert statuses[201] + statuses[200] > 0 and statuses[422] > 0, "reached past the checks"


# Hypothesis's own generator under a name of its own: a backend other than "hypothesis" keeps no
# tree of earlier test cases' choices. That tree assumes a replayed prefix of choices draws the
# same way again, and against a live API it does not (a step's status, hence which rules are
# enabled, depends on random seeds and on games that earlier scenarios changed), so Hypothesis
# stops the run with FlakyStrategyDefinition. Generation stays seeded (derandomize).
providers.AVAILABLE_PROVIDERS.setdefault(
    "chronicle-untracked", f"{providers.__name__}.HypothesisProvider"
)

LINKED_ONLY = [
    ("GET", "/games/{game_id}/events/{version}/explain"),
    ("GET", "/replays/{job_id}"),
]
"""Operations whose ids only an earlier answer gives (an event's version, a job's id)."""
STATEFUL_SCENARIOS = 100
STATEFUL_STEPS = 12
MIN_STATEFUL_REQUESTS = 1_000


def test_a_thousand_stateful_requests_that_follow_the_links_get_no_5xx_and_match_the_schemas(
    app, world
):
    """Schemathesis's state machine, on the document's links (a created or sandboxed game's id
    and tokens into every operation on that game, a command's first event into explain and its
    version into the state, a replay job's id into its status): each scenario creates games,
    then acts on them, with the tokens their creation returned."""
    known = {g["game_id"]: g for g in world["games"]}
    statuses: Counter[int] = Counter()
    reached: Counter[tuple[str, str, int]] = Counter()
    played: Counter[int] = Counter()  # the statuses of posted commands
    played_on_created: Counter[int] = Counter()  # of those, on games the scenarios created
    created_here: set[str] = set()
    problems: list[str] = []

    def choices(case: Any) -> random.Random:
        """Choices that depend on the generated case alone, so a replayed case makes them again."""
        return random.Random(repr((case.method, case.path, case.path_parameters, case.body)))

    class Scenario(SCHEMA.as_state_machine()):  # type: ignore[misc]
        def before_call(self, case: Any) -> None:
            pick = choices(case)
            body = case.body if isinstance(case.body, dict) else {}
            if case.path == "/games" and "ruleset" in body and pick.random() < 0.7:
                # mostly the toys, whose games end soon; the generated names kept, and as many
                # more as the ruleset needs
                ruleset, seats = pick.choice([(TOY, (2, 4)), (CLOSING, (2, 4)), (HOTW, (3, 6))])
                listed = body.get("players")  # a negative case may make it anything
                generated = listed if isinstance(listed, list) else []
                names = list(dict.fromkeys([*map(str, generated), *SPARE_NAMES]))
                body.update(ruleset=ruleset, players=names[: pick.randint(*seats)])
                if pick.random() < 0.7:
                    body.pop("options", None)
            game_id = case.path_parameters.get("game_id")
            if case.path.endswith("/stream"):
                case.path_parameters["game_id"] = world["archive"]["game_id"]
                return
            towards_known = 0.8 if case.path.endswith("/commands") else 0.5
            if game_id is not None and game_id not in known and pick.random() < towards_known:
                game_id = case.path_parameters["game_id"] = pick.choice(sorted(known))
            if game_id in known:
                game = known[game_id]
                tokens = [*game["seat_tokens"], game["admin_token"], None, "generated"]
                if case.path.endswith("/commands"):  # mostly a seat playing
                    tokens += game["seat_tokens"] * 3
                token = pick.choice(tokens)
                if token is None:
                    case.headers.pop("Authorization", None)
                elif token != "generated":
                    case.headers["Authorization"] = f"Bearer {token}"
                if token in game["seat_tokens"] and case.path.endswith("/commands"):
                    self.play_a_legal_action(case, game_id, token, pick)

        @staticmethod
        def play_a_legal_action(case: Any, game_id: str, token: str, pick: random.Random) -> None:
            """Mostly, a seat posts one of its legal actions, so that scenarios play games on."""
            actions = every_legal_action(world["client"], game_id, token)
            if actions and pick.random() < 0.8:
                case.body = dict(pick.choice(actions))

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"app": app}

        def step(self, input: Any) -> Any:
            """A step that raises is kept as a problem, like a failed check (see `checked`)."""
            try:
                return super().step(input)
            except Exception:
                case = input.case
                problems.append(f"{case.method} {case.formatted_path}:\n{traceback.format_exc()}")
                return None

        def after_call(self, response: Any, case: Any) -> None:
            statuses[response.status_code] += 1
            reached[(case.method, case.path, response.status_code)] += 1
            if case.method == "POST" and case.path.endswith("/commands"):
                played[response.status_code] += 1
                if case.path_parameters.get("game_id") in created_here:
                    played_on_created[response.status_code] += 1
            if case.method == "POST" and case.path == "/games" and response.status_code == 201:
                created_here.add(json.loads(response.text)["game_id"])
            if (
                case.method == "POST"
                and response.status_code == 201
                and case.path
                in (
                    "/games",
                    "/games/{game_id}/sandbox",
                )
            ):
                created = json.loads(response.text)
                known[created["game_id"]] = created
                world["secrets"].extend([created["admin_token"], *created["seat_tokens"]])

            reissued = case.path == "/games/{game_id}/seats/{seat}/token"
            if case.method == "POST" and reissued and response.status_code in (200, 201):
                answer = json.loads(response.text)  # the old seat token is revoked: use the new
                game = known.get(answer["game_id"])
                if game is not None:
                    game["seat_tokens"][answer["seat"]] = answer["seat_token"]
                world["secrets"].append(answer["seat_token"])

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            checked(case, response, world, problems)

    Scenario.run(
        settings=settings(
            max_examples=STATEFUL_SCENARIOS,
            stateful_step_count=STATEFUL_STEPS,
            deadline=None,
            database=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
            backend="chronicle-untracked",
        )
    )
    made = sum(statuses.values())
    print(f"\nstateful: {made} requests, {len(created_here)} games created by POST /games")
    print(f"statuses: {dict(sorted(statuses.items()))}")
    print(f"of posted commands: {dict(sorted(played.items()))}")
    print(f"of those, on games the scenarios created: {dict(sorted(played_on_created.items()))}")
    assert not problems, f"{len(problems)} failed:\n\n" + "\n\n".join(problems[:3])
    assert made >= MIN_STATEFUL_REQUESTS
    # the scenarios create games of their own (names of the document's `player-name` format are
    # accepted) and their seats play on them, with the tokens the creation returned
    assert created_here, "no scenario created a game"
    assert played_on_created[201] > 0, "no command accepted on a game a scenario created"
    followed = {(method, path) for (method, path, status) in reached if status < 300}
    for linked in LINKED_ONLY:  # reached with a real id only by following a link
        assert linked in followed, f"no scenario followed a link to {linked}: {sorted(followed)}"
