"""Steps no seat takes (the toy's round closing, like History of the World's epoch closing) run
through the same service: inline, or on an RQ worker while seats are told the game is busy."""

from __future__ import annotations

import random
import threading
import time
import uuid

from api.app import create_app
from service.games import GameService
from service.loading import StateCache
from service.wiring import game_service
from tests.support.api import bearer, play_to_the_end
from tests.support.toy import SealedBidsClosedBySystem
from workers.queue import queue, urgent_queue

CLOSING = "toy-sealed-bids-closing"


def create_closing(api, rounds: int = 2) -> dict:
    response = api.post(
        "/games",
        json={"ruleset": CLOSING, "players": ["ann", "bob"], "options": {"rounds": rounds}},
    )
    assert response.status_code == 201
    return response.get_json()


def bid(api, game, seat, chips):
    return api.post(
        f"/games/{game['game_id']}/commands",
        json={"command": {"type": "bid", "chips": chips}},
        headers=bearer(game["seat_tokens"][seat]),
    )


def test_inline_system_steps_close_every_round_and_the_game_ends(api):
    game = create_closing(api, rounds=3)
    play_to_the_end(api, game, random.Random(12))
    events = api.get(f"/games/{game['game_id']}/events?limit=500").get_json()["events"]
    closings = [e for e in events if e["type"] == "ToyRoundClosed"]
    assert [e["data"]["round"] for e in closings] == [1, 2, 3]
    assert {e["actor"] for e in closings} == {"worker"}
    assert api.get(f"/games/{game['game_id']}/result").status_code == 200


def test_with_workers_seats_are_told_to_retry_until_the_queued_step_has_run(redis_url):
    queue_name = f"steps-{uuid.uuid4().hex[:8]}"  # a queue no worker takes
    app = create_app(redis_url, SYSTEM_STEPS="worker", QUEUE=queue_name, BUSY_HOLD_MS=150)
    with app.test_client() as api:
        game = create_closing(api, rounds=2)
        game_id = game["game_id"]
        assert bid(api, game, 0, 0).status_code == 201
        assert bid(api, game, 1, 0).status_code == 201  # a tie: nobody rolls; round 1 ends
        summary = api.get(f"/games/{game_id}").get_json()
        assert summary["awaiting"] == [] and summary["summary"]["phase"] == "closing"
        asked = time.monotonic()
        busy = bid(api, game, 0, 1)
        assert time.monotonic() - asked >= 0.15  # held for the step first
        assert busy.status_code == 409 and busy.get_json()["code"] == "game_busy"
        assert busy.headers["Retry-After"] == "1"
        assert queue(redis_url, queue_name).jobs == []  # the step goes first, on its own queue
        jobs = urgent_queue(redis_url, queue_name).jobs
        assert {job.func_name for job in jobs} == {"workers.jobs.run_system_steps"}
        assert all(job.args == (game_id,) for job in jobs)
        assert game_service(redis_url).run_system_steps(game_id) == 1
        assert api.get(f"/games/{game_id}").get_json()["summary"] == {"round": 2, "phase": "bid"}
        assert bid(api, game, 0, 1).status_code == 201


def test_a_command_posted_while_the_worker_closes_the_round_waits_and_is_played_after_it(
    redis_url, rq_worker
):
    app = create_app(
        redis_url, SYSTEM_STEPS="worker", QUEUE=rq_worker.queue_name, BUSY_HOLD_MS=10_000
    )
    with app.test_client() as api:
        game = create_closing(api, rounds=2)
        game_id = game["game_id"]
        assert bid(api, game, 0, 0).status_code == 201
        closing_at = bid(api, game, 1, 0).get_json()["version"]  # a tie: round 1 ends
        held = bid(api, game, 0, 1)  # at once: the worker has not closed the round yet
        assert held.status_code == 201, held.get_json()
        events = api.get(f"/games/{game_id}/events?limit=500").get_json()["events"]
        closed = [e["version"] for e in events if e["type"] == "ToyRoundClosed"]
        played = [e["version"] for e in held.get_json()["events"]]
        assert closed == [closing_at + 1] and played and min(played) > closed[0]
        assert {e["actor"] for e in events if e["version"] in played} == {0}
        assert api.get(f"/games/{game_id}").get_json()["summary"] == {"round": 2, "phase": "bid"}


def test_the_system_step_is_taken_once_however_many_runners_try(store, vault, redis_url):
    app = create_app(redis_url, SYSTEM_STEPS="worker", QUEUE=f"q-{uuid.uuid4().hex[:8]}")
    api = app.test_client()
    game = create_closing(api, rounds=2)
    assert bid(api, game, 0, 2).status_code == 201
    assert bid(api, game, 1, 2).status_code == 201  # a tie: round 1 waits to be closed
    runners = [
        GameService(store, vault, rulesets=lambda n: SealedBidsClosedBySystem(), cache=StateCache())
        for _ in range(3)
    ]
    start = threading.Barrier(len(runners))
    taken: list[int] = []

    def run(runner: GameService) -> None:
        runner.load(game["game_id"])  # every runner sees the step as due
        start.wait()
        taken.append(runner.run_system_steps(game["game_id"]))

    threads = [threading.Thread(target=run, args=(r,)) for r in runners]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sorted(taken) == [0, 0, 1]
    events = api.get(f"/games/{game['game_id']}/events?limit=500").get_json()["events"]
    assert [e["data"]["round"] for e in events if e["type"] == "ToyRoundClosed"] == [1]
