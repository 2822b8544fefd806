"""Tables that run themselves, with a real RQ worker (issue 35): bots in seats play on the
worker; a clock's timeout is fired once even when the worker is killed at the deadline; a
player's notifications stream across games, and a client plays from that stream alone;
webhooks arrive signed on a local HTTP server, retried after a failure."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from api.app import create_app

REPO_ROOT = Path(__file__).resolve().parents[2]
TOY = "toy-sealed-bids"


def start_worker(toy_env, queue_name: str) -> subprocess.Popen[bytes]:
    env = {
        **toy_env,
        "CHRONICLE_QUEUE": queue_name,
        "CHRONICLE_BOT_DELAY_S": "0.05",
        "CHRONICLE_TABLE_WATCH_S": "0.2",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", "worker"],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
    process.wait(20)


def wait_until(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while True:
        found = condition()
        if found:
            return found
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture()
def queue_name() -> str:
    return f"test-{uuid.uuid4().hex[:8]}"


@pytest.fixture()
def worker(toy_env, queue_name):
    process = start_worker(toy_env, queue_name)
    yield process
    stop(process)


@pytest.fixture()
def api(redis_url, queue_name):
    app = create_app(
        redis_url,
        SSE_HEARTBEAT_S=0.05,
        SYSTEM_STEPS="worker",
        QUEUE=queue_name,
        CORS_ORIGINS=(),
        WEBHOOK_ALLOW_PRIVATE=True,
    )
    with app.test_client() as client:
        yield client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def player(api, name: str) -> str:
    return api.post("/players", json={"name": name}).get_json()["player_key"]


def events(api, game_id: str) -> list[dict]:
    return api.get(f"/games/{game_id}/events?limit=500").get_json()["events"]


def first_action(api, game_id: str, key: str) -> dict | None:
    actions = api.get(f"/games/{game_id}/legal-actions", headers=bearer(key)).get_json()
    return actions["actions"][0] if actions["actions"] else None


def test_bots_in_seats_play_on_the_worker_as_their_seats(api, worker) -> None:
    ada = player(api, "Ada")
    table = api.post(
        "/tables",
        json={
            "ruleset": TOY,
            "players": ["Ada", "Bot"],
            "options": {"rounds": 2},
            "bots": "random",
        },
        headers=bearer(ada),
    ).get_json()
    game_id = table["game_id"]
    for _ in range(100):
        if api.get(f"/games/{game_id}").get_json()["status"] == "finished":
            break
        action = wait_until(
            lambda: (
                first_action(api, game_id, ada)
                or api.get(f"/games/{game_id}").get_json()["status"] == "finished"
            ),
            30,
            "the bot moved and the game came back to Ada",
        )
        if action is True:
            break
        api.post(f"/games/{game_id}/commands", json=action, headers=bearer(ada))
    assert api.get(f"/games/{game_id}").get_json()["status"] == "finished"
    moves = [e for e in events(api, game_id) if e["actor"] == 1]
    assert moves and all(e["command_id"].startswith("bot-") for e in moves)


def test_a_timeout_fires_once_even_when_the_worker_is_killed_at_the_deadline(
    api, toy_env, queue_name
) -> None:
    ada, bob = player(api, "Ada"), player(api, "Bob")
    table = api.post(
        "/tables",
        json={
            "ruleset": TOY,
            "players": ["Ada", "Bob"],
            "options": {"rounds": 3},
            "listing": "private",
            "clock": {"kind": "move", "per_move_ms": 1500},
            "on_timeout": "bot",
        },
        headers=bearer(ada),
    ).get_json()
    game_id = table["game_id"]
    joined = api.post(
        f"/games/{game_id}/claims", json={"invitation": table["invitation"]}, headers=bearer(bob)
    )
    assert joined.status_code == 201
    first = worker_a = start_worker(toy_env, queue_name)
    api.post(
        f"/games/{game_id}/commands", json=first_action(api, game_id, ada), headers=bearer(ada)
    )
    seating = api.get(f"/games/{game_id}/seating").get_json()
    deadline_ms = seating["seats"][1]["deadline_ms"]
    assert deadline_ms is not None
    time.sleep(max(0.0, deadline_ms / 1000 - time.time() - 0.05))
    stop(worker_a, signal.SIGKILL)  # killed at the deadline
    assert first.returncode is not None
    workers = [start_worker(toy_env, queue_name), start_worker(toy_env, queue_name)]
    try:
        timed_out = wait_until(
            lambda: [e for e in events(api, game_id) if e["type"] == "SeatTimedOut"],
            30,
            "a worker fired the timeout",
        )
        time.sleep(1.0)  # both workers have had every chance to fire it again
        timed_out = [e for e in events(api, game_id) if e["type"] == "SeatTimedOut"]
        assert len(timed_out) == 1
        assert timed_out[0]["data"]["seat"] == 1 and timed_out[0]["actor"] == "worker"
        assert timed_out[0]["data"]["noticed_ms"] >= timed_out[0]["data"]["deadline_ms"]
        # a bot took the seat over and moved for it
        wait_until(lambda: any(e["actor"] == 1 for e in events(api, game_id)), 30, "the bot moved")
        assert api.get(f"/games/{game_id}/seating").get_json()["seats"][1]["bot"] == "random"
    finally:
        for process in workers:
            stop(process)


def read_stream(api, key: str, after: str) -> list[dict]:
    answer = api.get(
        f"/players/me/stream?format=ndjson&follow=false&after={after}", headers=bearer(key)
    )
    assert answer.status_code == 200
    return [json.loads(line) for line in answer.get_data(as_text=True).splitlines() if line]


def move_until_not_outrun(api, game_id: str, key: str) -> int:
    """What a client does on `your_turn`: read its actions and send the first; when the bot
    moved in between (409, the game is at a later version), read them again and resend. The
    seat stays awaited through the bot's move, so no second `your_turn` comes for it."""
    for _ in range(10):
        action = first_action(api, game_id, key)
        if action is None:
            return 0
        answer = api.post(f"/games/{game_id}/commands", json=action, headers=bearer(key))
        if answer.status_code != 409:
            assert answer.status_code in (200, 201), answer.get_json()
            return 1
        assert answer.get_json()["current_version"] > action["expected_version"]
    raise AssertionError("outrun ten times in a row")


def test_a_client_plays_a_whole_game_from_its_notification_stream_alone(api, worker) -> None:
    key = player(api, "Streamer")
    table = api.post(
        "/tables",
        json={"ruleset": TOY, "players": ["Me", "Bot"], "options": {"rounds": 2}, "bots": "greedy"},
        headers=bearer(key),
    ).get_json()
    game_id = table["game_id"]
    after, kinds, moves = "0", [], 0
    deadline = time.monotonic() + 60
    while "game_finished" not in kinds:
        assert time.monotonic() < deadline, kinds
        for note in read_stream(api, key, after):
            after = note["id"]
            kinds.append(note["kind"])
            if note["kind"] == "your_turn":
                moves += move_until_not_outrun(api, note["game_id"], key)
        time.sleep(0.05)
    assert kinds[0] in ("game_started", "your_turn") and moves >= 2
    assert api.get(f"/games/{game_id}").get_json()["status"] == "finished"
    # resumable: from the id of the first notification, the rest again, in order
    replayed = read_stream(api, key, "0")
    assert [n["kind"] for n in replayed] == kinds
    later = read_stream(api, key, replayed[0]["id"])
    assert [n["id"] for n in later] == [n["id"] for n in replayed[1:]]
    # and as Server-Sent Events, resumed with Last-Event-ID
    sse = api.get(
        "/players/me/stream?follow=false",
        headers={**bearer(key), "Last-Event-ID": replayed[-2]["id"]},
    ).get_data(as_text=True)
    assert f"id: {replayed[-1]['id']}\nevent: game_finished\n" in sse
    events = [frame for frame in sse.split("\n\n") if "\nevent: " in f"\n{frame}"]
    assert not [f for f in events if f.startswith(f"id: {replayed[-2]['id']}\n")], sse


class Receiver(BaseHTTPRequestHandler):
    received: list[tuple[dict[str, str], bytes]]
    fail_first: list[bool]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.fail_first and self.fail_first.pop():
            self.send_response(500)
            self.end_headers()
            return
        self.received.append((dict(self.headers), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:
        return None


@pytest.fixture()
def receiver():
    handler = type("Handler", (Receiver,), {"received": [], "fail_first": [True]})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server, handler
    server.shutdown()


def test_webhooks_arrive_signed_retried_and_logged(api, worker, receiver) -> None:
    server, handler = receiver
    key = player(api, "Hooked")
    url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    hook = api.post("/players/me/webhooks", json={"url": url}, headers=bearer(key))
    assert hook.status_code == 201, hook.get_json()
    hook = hook.get_json()
    api.post(
        "/tables",
        json={"ruleset": TOY, "players": ["Me", "Bot"], "options": {"rounds": 1}, "bots": "random"},
        headers=bearer(key),
    )
    wait_until(lambda: len(handler.received) >= 2, 60, "two notifications delivered")
    for headers, body in handler.received:
        expected = "sha256=" + hmac.new(hook["secret"].encode(), body, hashlib.sha256).hexdigest()
        assert headers["X-Chronicle-Signature"] == expected
    kinds = {json.loads(body)["kind"] for _, body in handler.received}
    assert {"game_started", "your_turn"} <= kinds

    def delivery_log() -> list[dict]:
        return api.get(
            f"/players/me/webhooks/{hook['webhook_id']}/deliveries", headers=bearer(key)
        ).get_json()["deliveries"]

    # the worker logs a delivery once the receiver has answered it: wait for the log to catch up
    wait_until(
        lambda: sum(d["ok"] for d in delivery_log()) >= len(handler.received),
        30,
        "every delivery received is logged",
    )
    log = delivery_log()
    assert any(not d["ok"] and d["status"] == 500 for d in log)  # the first try failed ...
    assert sum(d["ok"] for d in log) == len(handler.received)  # ... and was tried again
    other = player(api, "Other")
    assert (
        api.get(
            f"/players/me/webhooks/{hook['webhook_id']}/deliveries", headers=bearer(other)
        ).status_code
        == 404
    )


def test_a_time_bank_runs_out_the_seat_resigns_and_with_nobody_left_the_game_ends(
    api, worker
) -> None:
    ada, bob = player(api, "Ada"), player(api, "Bob")
    table = api.post(
        "/tables",
        json={
            "ruleset": TOY,
            "players": ["Ada", "Bob"],
            "options": {"rounds": 3},
            "clock": {"kind": "bank", "initial_ms": 2000, "increment_ms": 1000},
            "on_timeout": "resign",
        },
        headers=bearer(ada),
    ).get_json()
    game_id = table["game_id"]
    api.post(f"/games/{game_id}/claims", json={}, headers=bearer(bob))
    seats = api.get(f"/games/{game_id}/seating").get_json()["seats"]
    assert [s["bank_ms"] for s in seats] == [2000, 2000]
    api.post(
        f"/games/{game_id}/commands", json=first_action(api, game_id, ada), headers=bearer(ada)
    )
    seats = api.get(f"/games/{game_id}/seating").get_json()["seats"]
    assert 2000 < seats[0]["bank_ms"] <= 3000  # charged its time, given the increment
    timed_out = wait_until(
        lambda: [e for e in events(api, game_id) if e["type"] == "SeatTimedOut"],
        30,
        "Bob's bank ran out",
    )
    assert timed_out[0]["data"]["seat"] == 1 and timed_out[0]["data"]["then"] == "resign"
    assert api.get(f"/games/{game_id}/seating").get_json()["seats"][1]["left"] == "timed_out"
    # Ada now lets her own bank run out: nobody is left, the game ends
    wait_until(
        lambda: api.get(f"/games/{game_id}").get_json()["status"] == "finished",
        30,
        "the table abandoned",
    )

    # the seed is revealed by an append of its own, just after the one that ended the game
    def kinds_once_revealed() -> list[str] | None:
        kinds = [e["type"] for e in events(api, game_id)]
        return kinds if "SeedRevealed" in kinds else None

    kinds = wait_until(kinds_once_revealed, 10, "the seed revealed")
    assert kinds.count("SeatTimedOut") == 2 and "TableAbandoned" in kinds
