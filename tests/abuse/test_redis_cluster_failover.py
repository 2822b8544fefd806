"""Scale-out on a Redis Cluster, and a master killed in the middle of play.

A real cluster on loopback (Debian's redis-server: three masters, a replica each), three API
processes (`chronicle serve` with REDIS_URL set, so none starts a Redis of its own) and one RQ
worker, RQ on a plain Redis of its own (`CHRONICLE_QUEUE_REDIS_URL`), every append waiting for
one replica (`CHRONICLE_REDIS_WAIT_REPLICAS=1`). 200 games spread over the three masters; 16
clients post the commands of games decided beforehand, each with an Idempotency-Key. One master
is killed with SIGKILL a third of the way in: commands to its games are answered 503 (a JSON
body, Retry-After) until its replica is promoted and has a replica again (the killed node,
restarted, rejoins as one), then the same requests with the same keys succeed; afterwards every
acknowledged command is in its game's log exactly once, in order.

No timing is asserted: every wait is bounded but generous (the machine may be small and busy).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

from bench.measure import RULESET, Script, scripted_game
from service.games import GameService
from service.rulesets import ruleset
from store import keys
from store.connect import client_from_url
from store.credentials import SecretVault
from store.redis_store import EventStore
from store.server import RedisServer, free_port
from tests.support.cluster import Cluster, ClusterUnavailable, Node, cluster_binaries

REPO_ROOT = Path(__file__).resolve().parents[2]
GAMES = 200
CLIENTS = 16
API_PROCESSES = 3
COMMANDS_PER_GAME = 10
KILL_AFTER = GAMES * COMMANDS_PER_GAME // 3
"""Acknowledged commands before the master is killed."""
WAIT_TIMEOUT_MS = 1500


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    try:
        cluster_binaries()
    except ClusterUnavailable as exc:
        pytest.skip(f"no Redis Cluster here: {exc}")
    with tempfile.TemporaryDirectory(prefix="chronicle-cluster-") as tmp:
        started = Cluster(Path(tmp))
        try:
            yield started.start()
        finally:
            started.stop()


@dataclass
class Deployment:
    apis: list[str]
    processes: list[subprocess.Popen[bytes]]
    logs: list[Path]

    def log_tails(self) -> str:
        return "\n".join(
            f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}" for log in self.logs
        )


@pytest.fixture(scope="module")
def deployment(cluster: Cluster) -> Iterator[Deployment]:
    """Three `chronicle serve` processes on the cluster and one `chronicle worker`, with RQ on a
    plain Redis of its own."""
    with tempfile.TemporaryDirectory(prefix="chronicle-cluster-apis-") as tmp:
        root = Path(tmp)
        queue_redis = RedisServer(data_dir=root / "queue", unix_socket=root / "queue.sock")
        queue_redis.start()
        env = {
            **os.environ,
            "REDIS_URL": cluster.url,
            "CHRONICLE_QUEUE_REDIS_URL": queue_redis.url,
            "CHRONICLE_QUEUE": f"cluster-{uuid.uuid4().hex[:8]}",
            "CHRONICLE_REDIS_WAIT_REPLICAS": "1",
            "CHRONICLE_REDIS_WAIT_TIMEOUT_MS": str(WAIT_TIMEOUT_MS),
            "CHRONICLE_SNAPSHOT_EVERY": "4",
            "PYTHONPATH": str(REPO_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        }
        processes: list[subprocess.Popen[bytes]] = []
        logs: list[Path] = []
        apis = []

        def spawn(name: str, argv: list[str]) -> None:
            log = root / f"{name}.log"
            logs.append(log)
            with log.open("wb") as out:
                processes.append(
                    subprocess.Popen(
                        argv, env=env, cwd=REPO_ROOT, stdout=out, stderr=subprocess.STDOUT
                    )
                )

        try:
            for n in range(API_PROCESSES):
                port = free_port()
                apis.append(f"http://127.0.0.1:{port}")
                spawn(
                    f"api-{n}",
                    [
                        sys.executable,
                        "-m",
                        "cli.main",
                        "serve",
                        "--port",
                        str(port),
                        "--web-workers",
                        "1",
                        "--workers",
                        "0",
                    ],
                )
            spawn("worker", [sys.executable, "-m", "cli.main", "worker"])
            deployed = Deployment(apis, processes, logs)
            deadline = time.monotonic() + 180
            for api in apis:
                while not healthy(api, workers=True):
                    if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
                        pytest.fail(f"the deployment did not come up:\n{deployed.log_tails()}")
                    time.sleep(0.5)
            yield deployed
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            queue_redis.stop()


def healthy(api: str, workers: bool) -> bool:
    try:
        answer = requests.get(f"{api}/healthz", timeout=5)
        return answer.status_code == 200 and (not workers or answer.json()["rq_workers"] > 0)
    except requests.RequestException:
        return False


@dataclass
class Game:
    game_id: str
    seats: list[str]
    script: Script
    sent: int = 0


@dataclass
class Log:
    """What the clients saw: every answer to every command, by (game, key)."""

    answers: dict[tuple[str, str], list[tuple[float, int, str]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    acknowledged: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, game_id: str, key: str, status: int, code: str) -> None:
        with self.lock:
            self.answers[(game_id, key)].append((time.monotonic(), status, code))
            if status in (200, 201):
                self.acknowledged += 1


def play(api: str, games: list[Game], log: Log, stop: threading.Event) -> None:
    """One client: its games in turn, one command in flight. A game whose command was not
    acknowledged (503, busy) keeps that command and key for its next turn; the client meanwhile
    plays its other games."""
    http = requests.Session()
    while not stop.is_set():
        pending = [game for game in games if game.sent < COMMANDS_PER_GAME]
        if not pending:
            return
        progressed = False
        for game in pending:
            seat, body = game.script.commands[game.sent]
            key = f"cmd-{game.sent}"
            try:
                answer = http.post(
                    f"{api}/games/{game.game_id}/commands",
                    data=body,
                    headers={
                        "Authorization": f"Bearer {game.seats[seat]}",
                        "Content-Type": "application/json",
                        "Idempotency-Key": key,
                    },
                    timeout=90,
                )
            except requests.RequestException as exc:
                log.note(game.game_id, key, 0, type(exc).__name__)
                continue
            code = ""
            if answer.headers.get("Content-Type", "").startswith("application/json"):
                code = str(answer.json().get("code", ""))
            if answer.status_code == 503:
                code += f" retry-after={answer.headers.get('Retry-After')}"
            log.note(game.game_id, key, answer.status_code, code)
            if answer.status_code in (200, 201):
                game.sent += 1
                progressed = True
        if not progressed:
            time.sleep(0.3)


def test_games_spread_over_a_redis_cluster_survive_a_master_killed_mid_play(
    cluster: Cluster, deployment: Deployment
) -> None:
    rules = ruleset(RULESET)
    scripts = [scripted_game(rules, 4, 900 + n) for n in range(8)]
    events = client_from_url(cluster.url)
    store = EventStore(events, wait_replicas=1, wait_timeout_ms=10_000)
    service = GameService(store, SecretVault(events))
    games = []
    for n in range(GAMES):
        script = scripts[n % len(scripts)]
        created = service.create_game(RULESET, script.names, seed=script.secret)
        games.append(Game(created.game_id, list(created.tokens.seats), script))
    owner = {game.game_id: cluster.slot_owner(keys.meta(game.game_id)).address for game in games}
    per_master = Counter(owner.values())
    assert sorted(per_master) == sorted(m.address for m in cluster.masters())
    assert all(count > 0 for count in per_master.values()), per_master

    log = Log()
    stop = threading.Event()
    clients = [
        threading.Thread(
            target=play,
            args=(deployment.apis[n % API_PROCESSES], games[n::CLIENTS], log, stop),
            daemon=True,
        )
        for n in range(CLIENTS)
    ]
    for client in clients:
        client.start()
    try:
        deadline = time.monotonic() + 300
        while log.acknowledged < KILL_AFTER:
            assert time.monotonic() < deadline, f"no progress:\n{deployment.log_tails()}"
            assert any(c.is_alive() for c in clients)
            time.sleep(0.1)
        victim = cluster.node(max(per_master, key=lambda a: per_master[a]))
        role = victim.client().role()
        replica = cluster.node(f"{role[2][0][0]}:{role[2][0][1]}")
        victim.kill()
        killed_at = time.monotonic()
        victim_games = {g for g, address in owner.items() if address == victim.address}

        deadline = time.monotonic() + 120
        while not promoted(replica, cluster):
            assert time.monotonic() < deadline, (
                f"the replica was not promoted:\n{replica.log_tail()}"
            )
            time.sleep(0.3)
        promoted_at = time.monotonic()
        # the promoted master has no replica: with WAIT 1 its games answer 503 until the killed
        # node, restarted, rejoins the cluster as its replica
        victim.start()
        deadline = time.monotonic() + 180
        while not cluster_healthy(cluster):
            assert time.monotonic() < deadline, f"no replica came back:\n{victim.log_tail()}"
            time.sleep(0.5)
        for client in clients:
            client.join(timeout=max(1.0, 240 - (time.monotonic() - promoted_at)))
        assert not any(c.is_alive() for c in clients), (
            f"the clients did not finish:\n{deployment.log_tails()}"
        )
    finally:
        stop.set()

    answers = log.answers
    statuses = Counter(status for seen in answers.values() for _, status, _ in seen)
    unexpected = {
        (game_id, key): seen
        for (game_id, key), seen in answers.items()
        for _, status, code in seen
        if status not in (200, 201, 503) and not (status == 409 and code == "game_busy")
    }
    assert not unexpected, (statuses, list(unexpected.items())[:5])
    # every 503 came with the store's JSON error and a Retry-After
    assert all(
        code.startswith("store_unavailable retry-after=") and not code.endswith("None")
        for seen in answers.values()
        for _, status, code in seen
        if status == 503
    )
    # commands to the killed master's games: 503 after the kill, then the same request with the
    # same Idempotency-Key acknowledged once the replica had taken over
    recovered = [
        (game_id, key)
        for (game_id, key), seen in answers.items()
        if game_id in victim_games
        and any(status == 503 and at >= killed_at for at, status, _ in seen)
        and seen[-1][1] in (200, 201)
        and seen[-1][0] >= promoted_at
    ]
    assert recovered, statuses
    # every command acknowledged, and in its game's log exactly once, in order
    fresh = EventStore(client_from_url(cluster.url))
    for game in games:
        assert game.sent == COMMANDS_PER_GAME
        stored = fresh.read(game.game_id)
        assert [e.version for e in stored] == list(range(1, len(stored) + 1))
        seat_commands = [
            command_id
            for n, event in enumerate(stored)
            for command_id in [event.decoded().get("command_id")]
            if command_id
            and command_id.startswith("cmd-")
            and (n == 0 or stored[n - 1].decoded().get("command_id") != command_id)
        ]
        assert seat_commands == [f"cmd-{n}" for n in range(COMMANDS_PER_GAME)], game.game_id
    # and each game still folds from its events to the same course as its script
    for game in games[:: len(games) // 20]:
        _, folded = GameService(fresh, SecretVault(fresh.redis)).load(game.game_id)
        assert folded.version == fresh.version(game.game_id)


def promoted(replica: Node, cluster: Cluster) -> bool:
    try:
        return bool(
            replica.client().role()[0] == "master"
            and replica.client().cluster("info")["cluster_state"] == "ok"
        )
    except Exception:
        return False


def cluster_healthy(cluster: Cluster) -> bool:
    try:
        return cluster.healthy()
    except Exception:
        return False
