"""A whole hotw-2024 game over real HTTP: `chronicle serve` (two gunicorn workers and an RQ
worker) on the session's redis-server, played by four clients at once. Each client knows only
its own seat token and the documented endpoints: it polls the game's summary for whose turn it
is, lists its legal actions, posts one chosen by its own seeded random generator, and retries
while the RQ worker closes an epoch (409 `game_busy`)."""

from __future__ import annotations

import hashlib
import random
import re
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from rq.registry import FinishedJobRegistry

from domain.core.kernel import replay
from service.codec import recorded_from
from service.rulesets import ruleset
from tests.support.browser import chromium_binary, dump_dom
from tests.support.http import serving
from workers.queue import urgent_queue

HOTW = "hotw-2024"
PLAYERS = ["ann", "bob", "cy", "di"]
TABLE_PROCEDURES = frozenset(
    {"undo", "propose_rewind", "accept_rewind", "refuse_rewind", "order_rewind"}
)
"""Undo and rewind are on every legal-actions list; a random player that took them would
never finish, so the clients play only the game's own moves."""
NEVER_LEGAL = {"command": {"type": "end_conquest"}}
"""A command of the ruleset that a game without Option 3 never takes (a command that is not the
ruleset's is a 400 before the game is read): posted while the game awaits nobody, to see it told
`game_busy`."""
GAME_DEADLINE_S = 90
IDLE_POLL_S = (0.005, 0.04)
"""How long a client waits between polls while others play: doubling from 5 ms to 40 ms."""


@pytest.fixture(scope="module")
def queue_name() -> str:
    return f"http-hotw-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def server(redis_url: str, queue_name: str) -> Iterator[str]:
    # no hold: a command that finds the epoch closing is told `game_busy` at once, which the
    # probes below look for (tests/e2e/test_api_system_steps.py holds commands for the step)
    with serving(
        redis_url, web_workers=2, CHRONICLE_QUEUE=queue_name, CHRONICLE_BUSY_HOLD_MS="0"
    ) as base:
        yield base


class SeatClient(threading.Thread):
    """One player's client: its own session, its own token, its own random generator."""

    def __init__(self, base: str, game_id: str, seat: int, token: str, seed: str) -> None:
        super().__init__(name=f"seat-{seat}", daemon=True)
        self.base = base
        self.game_id = game_id
        self.seat = seat
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"
        self.rng = random.Random(f"{seed}:{seat}")
        self.moves = 0
        self.requests = 0
        self.busy = 0
        self.probes: Counter[tuple[int, str]] = Counter()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            self.play()
        except BaseException as exc:  # reported by the test thread
            self.failure = exc

    def call(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        self.requests += 1
        response = self.session.request(method, self.base + path, timeout=10, **kwargs)
        assert response.status_code < 500, response.text
        return response

    def play(self) -> None:
        """While its turn lasts, the client lists its legal actions and posts one (two round
        trips a move); otherwise it polls the summary, backing off while others play."""
        game = f"/games/{self.game_id}"
        probed_at = -1
        idle = IDLE_POLL_S[0]
        my_turn = False
        deadline = time.monotonic() + GAME_DEADLINE_S
        while time.monotonic() < deadline:
            if my_turn:
                legal = self.call("GET", f"{game}/legal-actions").json()
                moves = [
                    a for a in legal["actions"] if a["command"]["type"] not in TABLE_PROCEDURES
                ]
                if legal["your_turn"] and moves:
                    self.post(game, self.rng.choice(moves))
                    continue
                my_turn = False
            summary = self.call("GET", game).json()
            if summary["status"] == "finished":
                return
            if self.seat in summary["awaiting"]:
                my_turn, idle = True, IDLE_POLL_S[0]
                continue
            if not summary["awaiting"] and summary["version"] != probed_at:
                probed_at = summary["version"]  # a system step is due: try to act anyway
                self.probe(game)
            time.sleep(idle)
            idle = min(idle * 2, IDLE_POLL_S[1])
        raise AssertionError(f"seat {self.seat}: the game did not finish in {GAME_DEADLINE_S} s")

    def post(self, game: str, action: dict[str, Any]) -> None:
        key = uuid.uuid4().hex
        response = self.call(
            "POST", f"{game}/commands", json=action, headers={"Idempotency-Key": key}
        )
        body = response.json()
        if response.status_code == 409 and body["code"] == "game_busy":
            self.busy += 1  # the worker is closing an epoch: ask again what to do
            time.sleep(0.02)
            return
        assert response.status_code == 201, body
        assert body["version"] == action["expected_version"] + len(body["events"])
        self.moves += 1

    def probe(self, game: str) -> None:
        response = self.call("POST", f"{game}/commands", json=NEVER_LEGAL)
        code = response.json()["code"]
        self.probes[(response.status_code, code)] += 1
        if code == "game_busy":
            self.busy += 1


@pytest.mark.slow
def test_four_http_clients_play_a_whole_hotw_game_that_the_worker_closes_epochs_of(
    server, store, redis_url, queue_name
):
    started = time.monotonic()
    created = requests.post(
        f"{server}/games", json={"ruleset": HOTW, "players": PLAYERS}, timeout=10
    )
    assert created.status_code == 201, created.text
    game = created.json()
    game_id = game["game_id"]
    clients = [
        SeatClient(server, game_id, seat, token, seed="chronicle")
        for seat, token in enumerate(game["seat_tokens"])
    ]
    for client in clients:
        client.start()
    for client in clients:
        client.join(GAME_DEADLINE_S + 10)
    failures = [(c.seat, c.failure) for c in clients if c.failure or c.is_alive()]
    assert not failures, failures
    elapsed = time.monotonic() - started

    summary = requests.get(f"{server}/games/{game_id}", timeout=10).json()
    assert summary["status"] == "finished" and summary["awaiting"] == []
    result = requests.get(f"{server}/games/{game_id}/result", timeout=10)
    assert result.status_code == 200, result.text
    result = result.json()

    # the stored log, read from Redis, replayed in process, gives the same result
    rules = ruleset(HOTW)
    log = [recorded_from(stored) for stored in store.read(game_id, 1)]
    final = replay(rules, log)
    expected = rules.result(final.state)
    assert rules.is_over(final.state)
    assert result["version"] == final.version == summary["version"] == len(log)
    assert result["scores"] == expected["scores"]
    assert [(r["seat"], r["place"], r["score"], r["player"]) for r in result["ranking"]] == [
        (r["seat"], r["place"], r["score"], PLAYERS[r["seat"]]) for r in expected["ranking"]
    ]
    assert result["tie_breaks"] == expected["tie_breaks"]
    assert result["details"] == expected["details"] and result["details"]["final"] is True

    # every seat played, only as itself; epochs II-V and the Endgame were opened by the worker
    assert all(client.moves > 0 for client in clients)
    assert {r.actor for r in log if isinstance(r.actor, int)} == {0, 1, 2, 3}
    commands = Counter(actor for actor, _ in {(r.actor, r.command_id) for r in log})
    assert [commands[seat] for seat in range(4)] == [client.moves for client in clients]
    assert commands["worker"] == 5
    opened = [r for r in log if r.event.type in ("hotw.EpochBegan", "hotw.EndgameBegan")]
    assert [(r.event.type, r.actor) for r in opened] == [
        ("hotw.EpochBegan", "system"),
        *[("hotw.EpochBegan", "worker")] * 4,
        ("hotw.EndgameBegan", "worker"),
    ]
    # seats that tried to act while the worker closed an epoch were told to retry
    probes = sum((client.probes for client in clients), Counter())
    assert set(probes) <= {
        (409, "game_busy"),
        (422, "not_your_turn"),
        (422, "illegal_action"),
        (422, "game_over"),
    }
    assert probes[(409, "game_busy")] >= 1, probes
    print(
        f"{len(log)} events, {sum(c.moves for c in clients)} moves, "
        f"{sum(c.requests for c in clients)} requests, {elapsed:.1f} s, probes {dict(probes)}"
    )

    the_worker_closed_every_epoch_in_rq(redis_url, queue_name, game_id, log)
    the_game_ends_with_the_seed_revealed_and_a_clean_audit(server, game_id, game["admin_token"])
    the_game_verifies_and_its_html_replay_steps_through_in_chromium(
        server, game_id, game["seat_tokens"][0], log
    )


def the_worker_closed_every_epoch_in_rq(
    redis_url: str, queue_name: str, game_id: str, log: list[Any]
) -> None:
    """Each command of the worker is a finished RQ job named after the game and the version it
    started from (contracts §5: exactly once)."""
    finished = set(FinishedJobRegistry(queue=urgent_queue(redis_url, queue_name)).get_job_ids())
    starts = sorted(
        {
            r.version - 1
            for r in log
            if r.actor == "worker" and r.event.type in ("hotw.EpochBegan", "hotw.EndgameBegan")
        }
    )
    assert len(starts) == 5
    first_of_each_worker_command = {
        min(r.version for r in log if r.command_id == command) - 1
        for command in {r.command_id for r in log if r.actor == "worker"}
    }
    wanted = {f"system-{game_id}-{v}" for v in first_of_each_worker_command}
    assert wanted <= finished, (wanted, finished)


def the_game_ends_with_the_seed_revealed_and_a_clean_audit(
    server: str, game_id: str, admin_token: str
) -> None:
    summary = requests.get(f"{server}/games/{game_id}", timeout=10).json()
    assert summary["seed_revealed"] is True
    audit = requests.get(f"{server}/games/{game_id}/audit", timeout=30)
    assert audit.status_code == 200, audit.text
    report = audit.json()
    assert report["clean"] and report["commitment_verified"] and report["counters_in_order"]
    assert report["mismatches"] == [] and report["outcomes_checked"] > 50
    assert hashlib.sha256(bytes.fromhex(report["seed"])).hexdigest() in report["seed_commitment"]


def finished_job(server: str, game_id: str, token: str, kind: str) -> dict[str, Any]:
    started = requests.post(
        f"{server}/games/{game_id}/replays",
        json={"kind": kind},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert started.status_code == 202, started.text
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = requests.get(f"{server}{started.json()['status_url']}", timeout=10).json()
        assert job["status"] != "failed", job
        if job["status"] == "finished":
            return dict(job)
        time.sleep(0.1)
    raise AssertionError(f"the {kind} job did not finish")


def the_game_verifies_and_its_html_replay_steps_through_in_chromium(
    server: str, game_id: str, token: str, log: list[Any]
) -> None:
    verified = finished_job(server, game_id, token, "verify")["result"]
    assert verified["ok"] is True and verified["events"] == len(log)
    assert verified["snapshots_checked"] >= 5, "a snapshot at every epoch close"
    exported = finished_job(server, game_id, token, "export")["result"]
    page = requests.get(f"{server}{exported['html_url']}", timeout=30)
    assert page.status_code == 200 and len(page.content) == exported["bytes"]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "replay.html"
        path.write_bytes(page.content)
        chromium = chromium_binary()
        for version in (1, len(log) // 2, len(log)):
            dom = dump_dom(chromium, f"{path.as_uri()}#v={version}")
            shown = re.search(r'<span id="version">(\d+)</span>', dom)
            assert shown is not None and int(shown.group(1)) == version
            assert log[version - 1].event.rule in dom
