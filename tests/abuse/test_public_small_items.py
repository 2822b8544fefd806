"""The small findings of issue 50 (its Low items), each against a served stack: /healthz keeps
answering a monitor whose address is rate-limited for its other traffic; names that differ only
in what draws nothing are one name; a retry runs on time after the worker is killed; a restart
after kill -9 of `chronicle serve` succeeds, and none of its children outlive it."""

from __future__ import annotations

import http.server
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import redis
import requests
from rq.scheduler import RQScheduler

from bench.processes import descendants
from store.server import free_port
from tests.abuse.test_supervision import alive
from tests.conftest import REPO_ROOT
from tests.support.abuse import wait_until
from tests.support.public import request, served_in_public


def test_healthz_answers_a_monitor_whose_address_is_past_its_limit(redis_url: str) -> None:
    with served_in_public(redis_url) as base:
        source = "127.0.0.31"
        refused: list[int] = []
        stop = threading.Event()

        def flood() -> None:
            while not stop.is_set():
                status, _, _ = request(base, "GET", "/rulesets", source=source)
                if status == 429:
                    refused.append(status)

        crowd = [threading.Thread(target=flood) for _ in range(4)]
        for thread in crowd:
            thread.start()
        try:
            deadline = time.monotonic() + 20
            while not refused:
                assert time.monotonic() < deadline, "the flood never passed the address's limit"
                time.sleep(0.05)
            monitor = []
            for _ in range(10):
                monitor.append(request(base, "GET", "/healthz", source=source)[0])
                time.sleep(0.1)
            seen_refused = len(refused)
        finally:
            stop.set()
            for thread in crowd:
                thread.join(30)
        assert seen_refused > 0
        assert monitor == [200] * 10, monitor


LOOK_THE_SAME = (
    ("paul", "paul\ufe00"),  # a variation selector
    ("paul", "pa\u034ful"),  # a combining grapheme joiner
    ("ka", "k\u17b4a"),  # a Khmer inherent vowel
)
NO_BASE = ("\u0301", "\u0301Ann", " \u0308 ")


def test_names_that_differ_only_by_what_draws_nothing_are_refused(redis_url: str) -> None:
    with served_in_public(redis_url) as base:
        for first, second in LOOK_THE_SAME:
            game = {"ruleset": "toy-sealed-bids", "players": [first, second]}
            status, _, body = request(base, "POST", "/games", body=game, source="127.0.0.32")
            assert status == 422, (first, second, status, body)
            assert b"nobody sees" in body or b"looks the same" in body, body
        for name in NO_BASE:
            status, _, body = request(
                base, "POST", "/players", body={"name": name}, source="127.0.0.33"
            )
            assert status == 422, (name, status, body)
        emoji = request(
            base, "POST", "/players", body={"name": "\u2764\ufe0f"}, source="127.0.0.33"
        )
        assert emoji[0] == 201, "an emoji's picture form is a name"


def workers_of(queue: str) -> list[int]:
    """The `chronicle worker` processes serving `queue` (by their environment), without the
    scheduler each forks."""
    found = processes_of(queue)
    return [pid for pid in found if parent(pid) not in found]


def parent(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))


def processes_of(queue: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if b"cli.main\0worker" in command and f"CHRONICLE_QUEUE={queue}\0".encode() in environ:
            found.append(int(entry.name))
    return found


def test_a_retry_runs_on_time_after_the_worker_was_killed(redis_url: str) -> None:
    """kill -9 of the RQ worker left its scheduler's lock in Redis, and the worker started in
    its place did not try for it again for 10 minutes: webhook retries due after 2 s ran 4 and
    13 minutes late. And the scheduler, a fork of the worker, kept the killed worker's wait for
    jobs open: Redis handed it the invitation's webhook job, which was lost."""
    from tests.abuse.test_public_webhooks import invite, new_player

    queue = f"public-{uuid.uuid4().hex[:8]}"
    attempts: list[float] = []

    class FailsOnce(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            attempts.append(time.monotonic())
            self.send_response(500 if len(attempts) == 1 else 204)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return None

    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FailsOnce)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    client = redis.Redis.from_url(redis_url)
    lock = RQScheduler.get_locking_key(queue)
    try:
        with served_in_public(
            redis_url, CHRONICLE_QUEUE=queue, CHRONICLE_WEBHOOK_ALLOW_PRIVATE="on"
        ) as base:
            held_by_the_dead = wait_until(
                lambda: client.get(lock), 30, "the worker's scheduler holds its lock"
            )
            (first,) = workers_of(queue)
            os.kill(first, signal.SIGKILL)
            wait_until(lambda: set(workers_of(queue)) - {first}, 30, "a new worker")
            bob, bob_key = new_player(base, "Bob")
            _, ada_key = new_player(base, "Ada")
            hook = {"url": f"http://127.0.0.1:{receiver.server_address[1]}/hook"}
            status, _, body = request(
                base, "POST", "/players/me/webhooks", body=hook, headers=bob_key
            )
            assert status == 201, body
            invite(base, ada_key, bob)
            wait_until(lambda: len(attempts) >= 2, 40, "the retry")
            late = attempts[1] - attempts[0]
            assert late < 12, f"the retry due after 1-2 s ran {late:.1f} s later"
            wait_until(
                lambda: client.get(lock) not in (None, held_by_the_dead),
                15,
                "the new worker's scheduler took the queue's lock",
            )
    finally:
        receiver.shutdown()
        receiver.server_close()


def chronicle_serve(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        "CHRONICLE_DATA_DIR": str(data_dir),
        "CHRONICLE_QUEUE": f"restart-{port}",
    }
    env.pop("REDIS_URL", None)
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--web-workers", "1"],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def up(base: str) -> bool:
    try:
        answer = requests.get(f"{base}/healthz", timeout=2)
    except requests.RequestException:
        return False
    return answer.status_code == 200 and answer.json()["rq_workers"] >= 1


def test_a_restart_after_kill_9_of_chronicle_serve_succeeds_and_leaves_no_child(
    tmp_path: Path,
) -> None:
    """Its children (redis-server holding the data directory's lock among them) outlived a
    kill -9 of `chronicle serve`, and the restart a process manager made failed."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    first = chronicle_serve(tmp_path / "data", port)
    second = None
    children: list[int] = []
    try:
        wait_until(lambda: up(base), 90, "the first server")
        game = {"ruleset": "hotw-2024", "players": ["Ann", "Bob", "Cy"]}
        created = requests.post(f"{base}/games", json=game, timeout=30)
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        children = descendants(first.pid)
        assert len(children) >= 3, "redis-server, the worker and gunicorn"
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        second = chronicle_serve(tmp_path / "data", port)  # at once, as a process manager does
        wait_until(lambda: not [p for p in children if alive(p)], 30, "the old children gone")
        wait_until(lambda: up(base), 90, "the server started again on the same data")
        assert second.poll() is None, "the restart did not fail"
        assert requests.get(f"{base}/games/{game_id}", timeout=10).status_code == 200
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(40)
                except subprocess.TimeoutExpired:
                    process.kill()
        for pid in children:  # whatever outlived its server, when the test failed
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_patchistory_shows_other_players_goods_and_hands_as_hidden_not_as_none(
    redis_url: str,
) -> None:
    with served_in_public(redis_url) as base:
        counts = requests.get(f"{base}/rulesets/patchistory", timeout=30).json()["player_counts"]
        names = ["Ann", "Bob", "Cy", "Di", "Ed"][: min(counts)]
        game = requests.post(
            f"{base}/games", json={"ruleset": "patchistory", "players": names}, timeout=30
        ).json()
        token = game["seat_tokens"][0]
        view = requests.get(
            f"{base}/games/{game['game_id']}/state",
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        ).json()["view"]
        civs = view["position"]["civs"]
        for seat, civ in enumerate(civs):
            shown = view["players"][seat]
            assert civ["hand_count"] == shown["building_tile_count"]
            assert civ["prosperity_count"] == shown["prosperity_count"]
            for hidden in ("coin", "food", "resource", "culture", "votes", "hand", "prosperity"):
                if seat == 0:
                    assert civ[hidden] is not None, (hidden, civ)
                else:
                    assert civ[hidden] is None, f"seat {seat}'s {hidden} shows as {civ[hidden]}"
        spectator = requests.get(f"{base}/games/{game['game_id']}/state", timeout=30).json()
        assert all(civ["coin"] is None for civ in spectator["view"]["position"]["civs"])
