"""Restart: redis-server killed with SIGKILL while clients play, then started again from its
append-only file (same data dir). Its own redis-server, so the session's one is untouched."""

from __future__ import annotations

import random
import threading
import time
import uuid
from typing import Any

import requests

from tests.support.abuse import (
    TOY,
    assert_accepted_exactly_once,
    assert_gapless,
    bearer,
    error_body,
    events_by_command,
    gunicorn,
    log_of,
    own_redis,
    store_on,
    wait_until,
)

CLIENTS = 8
PLAYERS = ["ann", "bob", "cy", "di"]
RETRY_FOR_S = 30.0


class Client:
    """A seat's client: plays a random legal action with `expected_version` and a fresh
    Idempotency-Key, and retries the very same request while the service cannot answer it."""

    def __init__(self, base: str, game: dict[str, Any], seat: int, seed: int) -> None:
        self.base = base
        self.game_id = game["game_id"]
        self.headers = bearer(game["seat_tokens"][seat])
        self.rng = random.Random(seed)
        self.session = requests.Session()
        self.acknowledged: dict[str, dict[str, Any]] = {}
        self.unavailable: list[str] = []  # what the client saw while Redis was down

    def call(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        deadline = time.monotonic() + RETRY_FOR_S
        while True:
            try:
                response = self.session.request(method, f"{self.base}{path}", timeout=10, **kwargs)
            except requests.ConnectionError as exc:
                self.unavailable.append(type(exc).__name__)
            else:
                if response.status_code < 500:
                    return response
                body = error_body(response, response.status_code)
                self.unavailable.append(f"{response.status_code} {body['code']}")
            assert time.monotonic() < deadline, f"no answer for {RETRY_FOR_S}s: {self.unavailable}"
            time.sleep(0.05)

    def play(self) -> None:
        while True:
            legal = self.call("GET", f"/games/{self.game_id}/legal-actions", headers=self.headers)
            assert legal.status_code == 200, legal.text
            if not legal.json()["actions"]:
                if self.call("GET", f"/games/{self.game_id}").json()["status"] == "finished":
                    return
                time.sleep(0.01)
                continue
            key = uuid.uuid4().hex
            response = self.call(
                "POST",
                f"/games/{self.game_id}/commands",
                json=self.rng.choice(legal.json()["actions"]),
                headers={**self.headers, "Idempotency-Key": key},
            )
            if response.status_code in (200, 201):
                self.acknowledged[key] = response.json()
            else:
                error_body(response, 409, "version_conflict")


def test_every_acknowledged_command_survives_redis_killed_and_restarted_from_its_aof():
    with own_redis() as redis_server, gunicorn(redis_server.url, workers=2, threads=8) as server:
        store = store_on(redis_server.url)
        created = requests.post(
            f"{server.base}/games",
            json={"ruleset": TOY, "players": PLAYERS, "options": {"rounds": 5}},
            timeout=10,
        )
        assert created.status_code == 201, created.text
        game = created.json()
        game_id = game["game_id"]
        clients = [Client(server.base, game, i % len(PLAYERS), i) for i in range(CLIENTS)]
        failures: list[BaseException] = []

        def run(client: Client) -> None:
            try:
                client.play()
            except BaseException as exc:  # reported below
                failures.append(exc)

        threads = [threading.Thread(target=run, args=(c,)) for c in clients]
        for thread in threads:
            thread.start()
        wait_until(lambda: store.version(game_id) >= 10, 30, "play is under way")
        redis_server.kill()  # kill -9, mid-play
        time.sleep(0.5)  # the clients keep trying, and get no answer
        redis_server.start()  # same data dir: it loads its append-only file
        for thread in threads:
            thread.join(90)
        assert not any(t.is_alive() for t in threads), "a client hung"
        assert not failures, failures[:3]

        acknowledged = {k: v for c in clients for k, v in c.acknowledged.items()}
        outage = [seen for c in clients for seen in c.unavailable]
        print(f"\n{len(acknowledged)} commands acknowledged; during the outage: {set(outage)}")
        assert outage, "the clients did feel the outage"

        # restarted once more, from disk alone: everything acknowledged is still there
        redis_server.kill()
        redis_server.start()
        store = store_on(redis_server.url)
        version = store.version(game_id)
        log = log_of(store, game_id)
        assert_gapless(log, version)
        assert_accepted_exactly_once(log, acknowledged)
        seat_commands = {e["command_id"] for e in log if isinstance(e["actor"], int)}
        assert seat_commands == set(acknowledged), "and nothing that was not acknowledged"
        assert store.meta(game_id).status == "finished" and log[-1]["type"] == "SeedRevealed"
        assert len(events_by_command(log)["reveal-seed"]) == 1
