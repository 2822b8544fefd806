"""Outage: redis-server stopped (or frozen) under a running API. Every endpoint that needs the
store answers 503 `store_unavailable` with the one error body and a `Retry-After`, never a 500
or an HTML page; a live stream ends with an `error` event; and once redis-server is back on the
same socket and data dir, the same server serves again without a restart. Its own redis-server,
so the session's one is untouched."""

from __future__ import annotations

import os
import signal
import time
import uuid
from typing import Any

import redis
import requests

from api.errors import translate
from tests.support.abuse import TOY, bearer, error_body, gunicorn, own_redis
from tests.support.api import sse_frames


def unavailable(response: requests.Response) -> dict[str, Any]:
    """A 503 `store_unavailable` with the one error body and a Retry-After in seconds."""
    body = error_body(response, 503, "store_unavailable")
    retry_after = response.headers.get("Retry-After", "")
    assert retry_after.isdigit() and int(retry_after) > 0, dict(response.headers)
    assert body["details"] == {"retry_after_s": int(retry_after)}, body
    return body


def no_tracebacks(lines: list[str]) -> None:
    assert not [line for line in lines if "Traceback" in line], "".join(lines[-60:])


def create_game(base: str) -> dict[str, Any]:
    created = requests.post(
        f"{base}/games", json={"ruleset": TOY, "players": ["ann", "bob"]}, timeout=10
    )
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    return game


def a_move(base: str, game: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """The headers (token of an awaited seat) and body of a legal command."""
    game_id = game["game_id"]
    summary = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    headers = bearer(game["seat_tokens"][summary["awaiting"][0]])
    legal = requests.get(f"{base}/games/{game_id}/legal-actions", headers=headers, timeout=10)
    assert legal.status_code == 200 and legal.json()["actions"], legal.text
    action: dict[str, Any] = legal.json()["actions"][0]
    return headers, action


def test_while_redis_is_down_every_endpoint_answers_503_and_serves_again_once_it_is_back():
    with own_redis() as redis_server, gunicorn(redis_server.url, workers=1, threads=4) as server:
        base = server.base
        game = create_game(base)
        game_id = game["game_id"]
        headers, action = a_move(base, game)
        version = requests.get(f"{base}/games/{game_id}", timeout=10).json()["version"]
        stream = requests.get(
            f"{base}/games/{game_id}/stream?from={version + 1}", stream=True, timeout=30
        )
        assert stream.status_code == 200, stream.text
        frames = sse_frames(stream.iter_content(chunk_size=None))
        assert next(frames).comment.startswith("events of game")

        redis_server.stop()  # SIGTERM: Redis writes its append-only file and exits
        key = uuid.uuid4().hex
        job_id = f"replay-verify-{game_id}-{uuid.uuid4().hex}"
        during = {
            "GET the game": requests.get(f"{base}/games/{game_id}", timeout=10),
            "POST a command": requests.post(
                f"{base}/games/{game_id}/commands",
                json=action,
                headers={**headers, "Idempotency-Key": key},
                timeout=10,
            ),
            "GET legal actions": requests.get(
                f"{base}/games/{game_id}/legal-actions", headers=headers, timeout=10
            ),
            "GET the game list": requests.get(f"{base}/games", timeout=10),
            "POST a game": requests.post(
                f"{base}/games", json={"ruleset": TOY, "players": ["ann", "bob"]}, timeout=10
            ),
            "GET the event feed": requests.get(f"{base}/games/{game_id}/events", timeout=10),
            "GET a new stream": requests.get(f"{base}/games/{game_id}/stream", timeout=10),
            "POST a replay job (RQ)": requests.post(
                f"{base}/games/{game_id}/replays",
                json={"kind": "verify"},
                headers=headers,
                timeout=10,
            ),
            "GET a replay job (RQ)": requests.get(f"{base}/replays/{job_id}", timeout=10),
            "GET /healthz": requests.get(f"{base}/healthz", timeout=10),
        }
        for what, response in during.items():
            try:
                unavailable(response)
            except AssertionError as failure:
                raise AssertionError(f"{what}: {failure}") from None
        rulesets = requests.get(f"{base}/rulesets", timeout=10)
        assert rulesets.status_code == 200, "what needs no store is still served"

        # the live stream that was open ends with an error event, not a cut connection
        rest = list(frames)
        stream.close()
        assert rest and rest[-1].event == "error", rest
        assert rest[-1].data is not None and rest[-1].data["code"] == "store_unavailable"
        assert rest[-1].id is None, "so that a client resumes after the last event it got"

        redis_server.start()  # same socket, same data dir: it loads its append-only file
        summary = requests.get(f"{base}/games/{game_id}", timeout=10)
        assert summary.status_code == 200, summary.text
        assert summary.json()["version"] == version, "the game is as it was"
        retried = requests.post(
            f"{base}/games/{game_id}/commands",
            json=action,
            headers={**headers, "Idempotency-Key": key},
            timeout=10,
        )
        assert retried.status_code == 201, "the refused command had not landed: " + retried.text
        assert requests.get(f"{base}/healthz", timeout=10).status_code == 200
        assert requests.get(f"{base}/games", timeout=10).status_code == 200
        no_tracebacks(server.lines)


def test_a_redis_server_that_stops_answering_gets_a_503_after_the_socket_timeout_not_a_hang():
    with own_redis() as redis_server, gunicorn(redis_server.url, workers=1, threads=4) as server:
        base = server.base
        game_id = create_game(base)["game_id"]
        assert redis_server.process is not None
        os.kill(redis_server.process.pid, signal.SIGSTOP)  # alive, listening, silent
        try:
            started = time.monotonic()
            unavailable(requests.get(f"{base}/games/{game_id}", timeout=30))
            assert time.monotonic() - started < 20
        finally:
            os.kill(redis_server.process.pid, signal.SIGCONT)
        again = requests.get(f"{base}/games/{game_id}", timeout=10)
        assert again.status_code == 200, again.text
        no_tracebacks(server.lines)


def wrapped(cause: BaseException, explicitly: bool) -> Exception:
    """A RuntimeError raised from `cause` (`raise ... from`), or while handling it."""
    try:
        try:
            raise cause
        except redis.RedisError as exc:
            if explicitly:
                raise RuntimeError("could not enqueue the job") from exc
            raise RuntimeError("could not enqueue the job")  # noqa: B904
    except RuntimeError as failure:
        return failure


def test_a_failure_raised_from_or_while_handling_a_lost_redis_connection_is_a_503_too():
    """As when a library (RQ enqueueing a job) turns the lost connection into its own error."""
    for cause in (redis.exceptions.ConnectionError("gone"), redis.exceptions.TimeoutError("slow")):
        for explicitly in (True, False):
            error = translate(wrapped(cause, explicitly))
            assert (error.status, error.code) == (503, "store_unavailable"), (cause, explicitly)
            assert error.headers["Retry-After"].isdigit()
    other = translate(wrapped(redis.exceptions.ResponseError("WRONGTYPE"), explicitly=True))
    assert (other.status, other.code) == (500, "internal_error")
