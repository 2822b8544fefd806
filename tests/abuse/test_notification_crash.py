"""A web process killed right after an append, before it wrote the notifications that append
made due (issue 35, durable notifications): the game was put on the catch-up list before the
append, so the worker's watch derives them from the game's log and delivers each once (the
player's inbox, and the player's webhook on a local HTTP server), however many rounds it runs."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import requests

from domain.core.messages import Command
from service import tables
from service.faults import AFTER_APPEND
from service.games import GameService
from store.players import NOTIFY_DUE, PlayerStore
from tests.support.abuse import gunicorn
from tests.support.open_tables import joined_toy_table
from tests.support.toy import SealedBids

REPO_ROOT = Path(__file__).resolve().parents[2]
PAUSE_S = 60.0


class Hook(BaseHTTPRequestHandler):
    received: list[dict[str, Any]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append(json.loads(body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *_: Any) -> None:
        return None


def wait_until(condition: Any, seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := condition()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return found


def inbox(store: PlayerStore, player_id: str) -> list[dict[str, Any]]:
    return [json.loads(body) for _, _, body in store.inbox(player_id, "0", None, count=1000)]


def test_a_notification_lost_to_a_crash_after_the_append_is_delivered_once_by_the_worker(
    redis_url, store, vault, toy_env
) -> None:
    rules = SealedBids()
    service = GameService(store, vault, rulesets=lambda name: rules)
    players = PlayerStore(store.redis)
    ada, _ = tables.create_player(service, "Ada")
    bob, _ = tables.create_player(service, "Bob")
    hooked = ThreadingHTTPServer(("127.0.0.1", 0), type("H", (Hook,), {"received": []}))
    threading.Thread(target=hooked.serve_forever, daemon=True).start()
    hook_url = f"http://127.0.0.1:{hooked.server_address[1]}/hook"
    tables.add_webhook(service, bob.player_id, hook_url, ["your_turn"], allow_private=True)
    made = joined_toy_table(service, ada, bob, listing="private")
    game_id = made.created.game_id
    service.handle(game_id, 1, Command.of("bid", chips=2))  # Bob waits for Ada's bid
    before = inbox(players, bob.player_id)
    version = store.version(game_id)

    # Ada's bid ends the round (Bob won it: his roll, a your_turn): the process dies after the
    # append, before it could write it
    key = f"crash-{uuid.uuid4().hex}"
    with gunicorn(redis_url, workers=1, faults={AFTER_APPEND: PAUSE_S}) as server:
        got: list[Any] = []
        sender = threading.Thread(
            target=lambda: got.append(
                _post(server.base, game_id, made.seat_token or "", key, {"type": "bid", "chips": 1})
            ),
            daemon=True,
        )
        sender.start()
        line = server.wait_for_line(f"after appending command {key} to game {game_id}")
        pid = re.search(r"pid (\d+)", line)
        assert pid is not None
        os.kill(int(pid.group(1)), signal.SIGKILL)  # kill -9 of the worker holding the request
        sender.join(10)
    assert store.version(game_id) == version + 2, "the bid and the reveal are stored"
    assert inbox(players, bob.player_id) == before, "the crash lost Bob's your_turn"
    assert players.notified_up_to(game_id) == version
    assert store.redis.zscore(NOTIFY_DUE, game_id) is not None

    worker = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "worker"],
        env={
            **toy_env,
            "CHRONICLE_QUEUE": f"crash-{uuid.uuid4().hex[:8]}",
            "CHRONICLE_TABLE_WATCH_S": "0.2",
            "CHRONICLE_NOTIFY_GRACE_S": "0",
        },
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_until(
            lambda: len(inbox(players, bob.player_id)) > len(before), 30, "the catch-up's delivery"
        )
        wait_until(lambda: your_turns(hooked), 30, "the webhook's delivery")
        time.sleep(2)  # ten more rounds of the watch: nothing is delivered twice
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(20)
    new = inbox(players, bob.player_id)[len(before) :]
    assert [(n["kind"], n["seat"], n["version"]) for n in new] == [("your_turn", 1, version + 2)]
    assert [h["notification_id"] for h in your_turns(hooked)] == [new[0]["notification_id"]]
    assert players.notified_up_to(game_id) == version + 2
    assert store.redis.zscore(NOTIFY_DUE, game_id) is None
    hooked.shutdown()


def your_turns(server: ThreadingHTTPServer) -> list[dict[str, Any]]:
    """The `your_turn` notifications the webhook's server received."""
    received: list[dict[str, Any]] = server.RequestHandlerClass.received  # type: ignore[attr-defined]
    return [h for h in received if h["kind"] == "your_turn"]


def _post(base: str, game_id: str, token: str, key: str, command: dict[str, Any]) -> Any:
    try:
        return requests.post(
            f"{base}/games/{game_id}/commands",
            json={"command": command},
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key},
            timeout=90,
        )
    except requests.RequestException as exc:
        return exc
