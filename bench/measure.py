"""The measurements of `chronicle bench`: each one a function, all run side by side on this
machine against one redis-server and one gunicorn-served API."""

from __future__ import annotations

import hashlib
import heapq
import json
import os
import random
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests

from bench import scale, streams
from bench.processes import cpu_seconds, descendants
from cli.http import polite_session, retry_wait
from domain.core.chance import Chance
from domain.core.kernel import creation_events, decide, fold, replay
from domain.core.messages import SYSTEM, Actor, Recorded
from domain.core.ruleset import Ruleset
from service.auth import IssuedTokens
from service.chance import HmacSource, commitment
from service.games import GameService
from service.jobs import queue, urgent_queue
from service.rulesets import ruleset
from store.credentials import SecretVault
from store.redis_store import EventStore
from store.server import RedisServer, free_port

RULESET = "hotw-2024"
WEB_WORKERS = int(os.environ.get("CHRONICLE_BENCH_WEB_WORKERS", "2"))
WEB_THREADS = int(os.environ.get("CHRONICLE_BENCH_WEB_THREADS", "8"))
WEB_WORKER_CLASS = os.environ.get("CHRONICLE_BENCH_WORKER_CLASS", "gthread")
"""gthread (keep-alive, WEB_THREADS threads per process) or sync (one request per process at a
time, a connection per request)."""
Progress = Callable[[str], None]
TURNS = 4
"""The saturated API and the floor app each run in this many alternating turns."""
ANSWER_WITHIN_S = 30
"""How long after a run's end its clients wait for the answers still due."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


# --- in-process: the domain alone --------------------------------------------------------


def recorded_game(
    rules: Ruleset[Any],
    players: int,
    seed: int,
    secret: bytes | None = None,
    commands: list[tuple[int, dict[str, Any]]] | None = None,
    options: dict[str, Any] | None = None,
) -> list[Recorded]:
    """A whole random game, played in-process (with the ruleset's `options`); its recorded
    events (and, into `commands`, the seats' commands in order)."""
    secret = secret or f"bench-{seed}".encode().ljust(32, b".")
    rng = random.Random(seed)
    chance = Chance(HmacSource(secret), 0)
    names = tuple(f"p{n}" for n in range(players))
    log = [
        Recorded(n, e, SYSTEM)
        for n, e in enumerate(
            creation_events(rules, names, options or {}, commitment(secret), chance), 1
        )
    ]
    game = replay(rules, log)
    while not rules.is_over(game.state):
        actor: Actor
        due = rules.system_action(game.state)
        if due is not None:
            actor, command = SYSTEM, due
        else:
            actor = min(rules.awaited_seats(game.state))
            command = rng.choice(list(rules.legal_actions(game.state, actor)))
            if commands is not None:
                commands.append((actor, command.as_dict()))
        command_id = f"c{len(log)}"
        for ev in decide(rules, game, actor, command, Chance(HmacSource(secret), game.draws)):
            log.append(Recorded(game.version + 1, ev, actor, command_id))
            game = fold(rules, game, log[-1])
    return log


def fold_rate(
    rules: Ruleset[Any],
    games: list[list[Recorded]],
    rounds: int = 3,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Events folded per second of `clock` (wall time unless told) when replaying recorded
    games from their events: the best of `rounds`."""
    events = sum(len(g) for g in games)
    best = float("inf")
    for _ in range(rounds):
        started = clock()
        for log in games:
            replay(rules, log)
        best = min(best, clock() - started)
    return events / best


def selfplay_seconds(rules: Ruleset[Any], players: int, games: int) -> float:
    times = []
    for seed in range(games):
        started = time.perf_counter()
        recorded_game(rules, players, 10_000 + seed)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


# --- the store ---------------------------------------------------------------------------


def append_rate(store: EventStore, appends: int = 3000) -> float:
    """Raw single-client Lua compare-and-set appends per second (the store's floor)."""
    game_id = f"bench-{uuid.uuid4().hex}"
    payload = json.dumps(
        {
            "type": "hotw.ArmyPlaced",
            "schema_version": 1,
            "data": {"seat": 2, "land": "tigris", "pool": "empire"},
            "rule": "hotw24.expand.outcome.uncontrolled",
            "visibility": {"scope": "public"},
            "actor": 2,
            "command_id": uuid.uuid4().hex,
            "recorded_at": "2026-01-01T00:00:00Z",
        }
    )
    store.create(
        game_id, ruleset="bench", players=["a"], status="active", events=[payload], seed=b"s" * 32
    )
    started = time.perf_counter()
    for i in range(appends):
        store.append(
            game_id, [payload], expected_version=1 + i, idempotency_key=f"k{i}", fingerprint="f"
        )
    return appends / (time.perf_counter() - started)


def game_bytes(store: EventStore, game_id: str) -> int:
    """Redis memory of every key of one game (stream, meta, idempotency, snapshots, secrets)."""
    keys = store.redis.keys(f"chronicle:game:{{{game_id}}}:*")
    return sum(int(store.redis.memory_usage(key, samples=0) or 0) for key in keys)


# --- the API -----------------------------------------------------------------------------


@dataclass
class Served:
    """The API's URL and the processes around it, for their CPU time."""

    url: str
    web: int
    worker: int | None = None
    redis: int | None = None
    redis_url: str | None = None

    def settle(self, within_s: float = 5.0) -> None:
        """Wait until the worker has run the jobs the clients left it (its queues empty, none
        running), at most `within_s`: what it does for one server's turn is not done in the
        next server's."""
        if self.worker is None or self.redis_url is None:
            return
        queues = [urgent_queue(self.redis_url), queue(self.redis_url)]
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline:
            if all(q.count == 0 and q.started_job_registry.count == 0 for q in queues):
                return
            time.sleep(0.01)

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far: the web server (master and workers), the RQ worker, Redis and
        this process (the load generator)."""
        spent = {"web": sum(cpu_seconds(p) for p in (self.web, *descendants(self.web)))}
        if self.worker is not None:
            spent["worker"] = cpu_seconds(self.worker)
        if self.redis is not None:
            spent["redis"] = cpu_seconds(self.redis)
        spent["clients"] = time.process_time()
        return spent


def server_cpu(spent: dict[str, float]) -> float:
    """CPU milliseconds a command in the serving processes (web, worker, Redis), leaving out
    the load generator's."""
    return sum(spent.get(k, 0.0) for k in ("web", "worker", "redis"))


@contextmanager
def api_server(
    redis_url: str,
    web_workers: int,
    threads: int,
    app: str = "api.wsgi:app",
    worker: bool = True,
    redis_pid: int | None = None,
) -> Iterator[Served]:
    """gunicorn (gthread) serving `app`, and one RQ worker, on `redis_url`."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "CHRONICLE_RATE_LIMITS": "off"}
    web = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(web_workers),
            "--worker-class",
            WEB_WORKER_CLASS,
            *(("--threads", str(threads)) if WEB_WORKER_CLASS != "sync" else ()),
            # the clients hold their connections for a whole run: on a starved machine
            # gunicorn's main loop can fall more than its default 2 s behind, and would then
            # close a connection whose next request has already arrived
            "--keep-alive",
            "30",
            "--log-level",
            "warning",
            app,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    rq = (
        subprocess.Popen(
            [sys.executable, "-m", "cli.main", "worker"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if worker
        else None
    )
    processes = [web] if rq is None else [web, rq]
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while not up(url, worker):
            if time.monotonic() > deadline:
                raise RuntimeError("the API did not come up")
            time.sleep(0.1)
        yield Served(url, web.pid, rq.pid if rq else None, redis_pid, redis_url)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()


def up(url: str, worker: bool) -> bool:
    """Whether the server answers (and, with `worker`, the RQ worker is up too, so that its
    start-up does not share the measurement)."""
    try:
        if not worker:
            return requests.get(f"{url}/", timeout=1).status_code > 0
        health = requests.get(f"{url}/healthz", timeout=1)
        return health.status_code == 200 and health.json()["rq_workers"] > 0
    except requests.RequestException:  # not listening yet, or still loading
        return False


@dataclass(frozen=True)
class Script:
    """A whole game decided in process beforehand: its ruleset, seed, players and each seat's
    commands in order. Created in the store with the same seed, the served game takes the same
    course, so a client needs no reading between commands: it only posts them."""

    secret: bytes
    names: tuple[str, ...]
    commands: tuple[tuple[int, bytes], ...]
    ruleset: str = RULESET


def scripted_game(rules: Ruleset[Any], players: int, seed: int) -> Script:
    secret = hashlib.sha256(f"bench-script-{players}-{seed}".encode()).digest()
    commands: list[tuple[int, dict[str, Any]]] = []
    recorded_game(rules, players, seed, secret, commands)
    names = tuple(f"p{n}" for n in range(players))
    bodies = tuple((seat, json.dumps({"command": c}).encode()) for seat, c in commands)
    return Script(secret, names, bodies, rules.name)


def players_for(rules: Ruleset[Any], wanted: int) -> int:
    """`wanted` players if the ruleset plays with that many, else its nearest player count."""
    return min(rules.player_counts, key=lambda count: (abs(count - wanted), -count))


@dataclass
class Seat:
    """One client of the crowd: its own keep-alive connection and its own games, played in
    order, one command in flight at a time."""

    games: list[tuple[str, IssuedTokens, Script]]
    connection: socket.socket
    game: int = 0
    command: int = 0
    next_at: float = 0.0
    due: float = 0.0
    sent_at: float = 0.0
    answer: bytearray = field(default_factory=bytearray)
    latencies: list[float] = field(default_factory=list)
    refusals: int = 0
    """429s and 503s in a row for the command in hand."""
    done: bool = False

    def request(self) -> bytes:
        game_id, tokens, script = self.games[self.game]
        seat, body = script.commands[self.command]
        return (
            f"POST /games/{game_id}/commands HTTP/1.1\r\nHost: bench\r\n"
            f"Authorization: Bearer {tokens.seats[seat]}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode() + body

    def advance(self) -> None:
        """On to the next command, or the next game's first, or done."""
        self.command += 1
        if self.command == len(self.games[self.game][2].commands):
            self.game, self.command = self.game + 1, 0
            self.done = self.game == len(self.games)


def connect(host: str, port: int) -> socket.socket:
    connection = socket.create_connection((host, port), timeout=30)
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    connection.setblocking(False)
    return connection


def whole_answer(buffer: bytearray) -> tuple[int, dict[str, str], bytes] | None:
    """The status, headers (names in lower case) and body of the HTTP/1.1 answer at the start
    of `buffer`, once all of it has arrived (the API always sends Content-Length); None while
    more is to come."""
    head_end = buffer.find(b"\r\n\r\n")
    if head_end < 0:
        return None
    head = bytes(buffer[:head_end]).decode("latin-1").split("\r\n")
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    if len(buffer) < head_end + 4 + length:
        return None
    body = bytes(buffer[head_end + 4 : head_end + 4 + length])
    del buffer[: head_end + 4 + length]
    return int(head[0].split(" ", 2)[1]), headers, body


class Crowd:
    """Clients posting the commands of scripted games, all driven by one thread and one
    selector: no thread of the load generator waits for another's turn on the GIL, so a
    latency is the server's, and the generator spends as little of the shared CPUs as it can.

    Every game is created in the store before the clock starts. Paced, each client sends a
    command every `interval_s` and its latency runs from when the command was due (open loop:
    a server that falls behind is charged for the wait it causes); unpaced, each sends the next
    command when the last is answered. A command that finds its game's epoch closing waits for
    the close in the server, and the wait is in its latency; a `game_busy` refusal (a close still
    running after that wait) is retried after 2 ms and starts that client's schedule again; only
    accepted commands count. A 429 or 503 is sent again once its `Retry-After` has passed (or
    after a backoff: cli.http's policy, `retry_wait`), its latency running on from when it was
    first due."""

    def __init__(self, url: str, store: EventStore, scripts: list[list[Script]]) -> None:
        parsed = urlsplit(url)
        service = game_service_for(store)
        games = [
            [
                (created.game_id, created.tokens, script)
                for script in mine
                for created in [
                    service.create_game(script.ruleset, script.names, seed=script.secret)
                ]
            ]
            for mine in scripts
        ]
        # connected only once every game exists: a connection left idle longer than the
        # server's keep-alive timeout would be closed before its first request
        self.seats = [
            Seat(mine, connect(parsed.hostname or "", parsed.port or 80)) for mine in games
        ]

    @property
    def game_ids(self) -> list[str]:
        return [game_id for seat in self.seats for game_id, _, _ in seat.games]

    def close(self) -> None:
        for seat in self.seats:
            seat.connection.close()

    def play(self, seconds: float | None = None, rate: float | None = None) -> dict[str, Any]:
        """Until every game ends or `seconds` pass; `rate`: commands a second offered in all.
        Nothing is sent after `seconds`, and the answers still due are awaited (and counted),
        so that `play` may be called again to go on with the same games."""
        interval = len(self.seats) / rate if rate else 0.0
        selector = selectors.DefaultSelector()
        waiting: list[tuple[float, int]] = []
        started = time.perf_counter()
        for n, seat in enumerate(self.seats):
            selector.register(seat.connection, selectors.EVENT_READ, n)
            if not seat.done:
                seat.next_at = started + (n * interval / len(self.seats))
                heapq.heappush(waiting, (seat.next_at, n))
        deadline = started + seconds if seconds else float("inf")
        in_flight = 0
        latencies: list[float] = []
        busy = waited = 0
        while in_flight or (waiting and time.perf_counter() < deadline):
            now = time.perf_counter()
            while waiting and waiting[0][0] <= now < deadline:
                _, n = heapq.heappop(waiting)
                seat = self.seats[n]
                seat.sent_at = time.perf_counter()
                if not seat.refusals:  # a command sent again is still due when it was first
                    seat.due = min(seat.next_at, seat.sent_at) if interval else seat.sent_at
                seat.connection.sendall(seat.request())
                in_flight += 1
            now = time.perf_counter()
            if now > deadline + ANSWER_WITHIN_S:
                raise RuntimeError(f"{in_flight} command(s) unanswered {ANSWER_WITHIN_S} s on")
            timeout = 1.0  # past the deadline, or nothing to send: only answers to wait for
            if waiting and now < deadline:
                timeout = min(max(0.0, waiting[0][0] - now), deadline - now)
            for key, _ in selector.select(timeout):
                seat = self.seats[key.data]
                chunk = seat.connection.recv(65536)
                if not chunk:
                    raise RuntimeError("the API closed a keep-alive connection")
                seat.answer += chunk
                answer = whole_answer(seat.answer)
                if answer is None:
                    continue
                in_flight -= 1
                at = time.perf_counter()
                status, headers, body = answer
                if status == 201:
                    latencies.append(at - seat.due)
                    seat.latencies.append(at - seat.due)
                    seat.next_at = seat.next_at + interval if interval else at
                    seat.refusals = 0
                    seat.advance()
                elif status == 409 and b"game_busy" in body:
                    busy += 1  # the rules pause this game: its schedule starts again
                    seat.next_at = at + 0.002
                elif (wait := retry_wait(status, headers, seat.refusals)) is not None:
                    waited += 1  # a 429 or 503: sent again once its Retry-After has passed
                    seat.refusals += 1
                    seat.next_at = at + wait
                else:
                    raise RuntimeError(f"command refused: {status} {body[:300]!r}")
                if not seat.done:
                    heapq.heappush(waiting, (seat.next_at, key.data))
        elapsed = time.perf_counter() - started
        selector.close()
        return {**summary(latencies, elapsed), "busy_retries": busy, "waited_out": waited}


def summary(latencies: list[float], elapsed: float) -> dict[str, Any]:
    """Commands a second, p50 and p99 (ms) of the accepted commands' latencies, over `elapsed`
    seconds; the latencies and the time are kept for `combined`."""
    return {
        "cmds_per_s": len(latencies) / elapsed,
        "p50_ms": 1000 * percentile(latencies, 0.5),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "commands": len(latencies),
        "elapsed_s": elapsed,
        "latencies": latencies,
    }


def combined(turns: list[dict[str, Any]]) -> dict[str, Any]:
    """Several runs of the same clients as one: their commands over their summed time."""
    latencies = [lat for turn in turns for lat in turn["latencies"]]
    return summary(latencies, sum(turn["elapsed_s"] for turn in turns))


def game_service_for(store: EventStore) -> GameService:
    return GameService(store, SecretVault(store.redis))


def scripts_for(rules: Ruleset[Any], players: int, count: int, first_seed: int) -> list[Script]:
    return [scripted_game(rules, players, first_seed + n) for n in range(count)]


def one_client_in_turn(
    url: str, store: EventStore, scripts: list[Script], appends: int
) -> dict[str, float]:
    """One API client's games and raw Lua appends, in turn: a game, then `appends /
    len(scripts)` appends, and so on, so that a spell in which the host takes CPU falls on
    both alike. The client's rate is its commands over the sum of their latencies."""
    latencies: list[float] = []
    appended_in = 0.0
    share = max(1, appends // len(scripts))
    for script in scripts:
        crowd = Crowd(url, store, [[script]])
        try:
            crowd.play()
        finally:
            crowd.close()
        latencies += crowd.seats[0].latencies
        appended_in += share / append_rate(store, share)
    return {
        "api_single_client_cmds_per_s": len(latencies) / sum(latencies),
        "api_p50_ms": 1000 * statistics.median(latencies),
        "api_p99_ms": 1000 * percentile(latencies, 0.99),
        "api_single_client_commands": len(latencies),
        "redis_append_per_s": round(share * len(scripts) / appended_in),
    }


def concurrent_clients(
    url: str, store: EventStore, scripts: list[list[Script]], seconds: float, rate: float | None
) -> dict[str, float]:
    """`len(scripts)` clients at once, each on its own games, for `seconds`: paced so that
    together they offer `rate` commands a second (None: each as fast as it is answered)."""
    crowd = Crowd(url, store, scripts)
    try:
        return crowd.play(seconds, rate)
    finally:
        crowd.close()


def saturated_in_turn(
    servers: dict[str, Served],
    store: EventStore,
    crowd: list[list[Script]],
    seconds: float,
    turns: int,
) -> dict[str, tuple[dict[str, Any], dict[str, float]]]:
    """Each server driven flat out by the same clients for `seconds` in all, in `turns`
    alternating turns, so that a spell in which the host takes CPU falls on each alike rather
    than on whichever ran then. For each: the combined run (with `cpus_busy`, the CPUs its
    processes and the clients kept busy while it ran: well under the machine's count means
    they waited, on each other or on a host that took the CPUs) and its CPU a command. A server's
    own processes (web, worker) are counted from its first turn to its last; Redis, which they
    share, and the load generator turn by turn, each turn ending once the server's worker has
    run what the turn left it (a close, a snapshot)."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in servers}
    shared = {name: {"redis": 0.0, "clients": 0.0} for name in servers}
    busy = dict.fromkeys(servers, 0.0)
    crowds = {name: Crowd(served.url, store, crowd) for name, served in servers.items()}
    try:
        first = {name: served.cpu() for name, served in servers.items()}
        for _ in range(turns):
            for name, served in servers.items():
                before = served.cpu()
                runs[name].append(crowds[name].play(seconds / turns))  # the same games go on
                served.settle()
                after = served.cpu()
                for key in shared[name]:
                    shared[name][key] += after.get(key, 0.0) - before.get(key, 0.0)
                busy[name] += sum(after[key] - before[key] for key in after)
    finally:
        for clients in crowds.values():
            clients.close()
    measured = {}
    for name, served in servers.items():
        last = served.cpu()
        whole = combined(runs[name])
        whole["cpus_busy"] = busy[name] / max(whole["elapsed_s"], 1e-9)
        spent = {k: v - first[name][k] for k, v in last.items() if k not in shared[name]}
        spent.update({k: v for k, v in shared[name].items() if k in last})
        commands = max(int(whole["commands"]), 1)
        per = {k: round(1000 * v / commands, 3) for k, v in spent.items()}
        measured[name] = (whole, {**per, "total": round(sum(per.values()), 3)})
    return measured


def long_game(url: str, store: EventStore, script: Script) -> str:
    """A whole game played through the API (the worker closes its epochs and snapshots it)."""
    crowd = Crowd(url, store, [[script]])
    try:
        crowd.play()
    finally:
        crowd.close()
    return crowd.game_ids[0]


def state_at_version(url: str, game_id: str, samples: int = 200) -> float:
    version = requests.get(f"{url}/games/{game_id}").json()["version"]
    rng = random.Random(7)
    http = polite_session()
    times = []
    for _ in range(samples):
        at = rng.randint(1, version)
        started = time.perf_counter()
        response = http.get(f"{url}/games/{game_id}/state", params={"at": at})
        times.append(time.perf_counter() - started)
        response.raise_for_status()
    return 1000 * statistics.median(times)


def machine() -> dict[str, Any]:
    import platform

    memory = ""
    with suppress(OSError):
        memory = Path("/proc/meminfo").read_text().splitlines()[0].split(":")[1].strip()
    return {
        "python": platform.python_version(),
        "python_executable": os.path.realpath(sys.executable),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "memory": memory,
    }


def run(
    redis_url: str | None = None,
    quick: bool = False,
    progress: Progress | None = None,
    ruleset_name: str = RULESET,
    shared: bool = True,
) -> dict[str, Any]:
    """Every measurement, side by side, for the games of `ruleset_name`; returns the JSON
    object `chronicle bench` prints. `shared=False` leaves out the measurements that do not
    depend on the ruleset (listing and sweeping many games, idle streams)."""
    say = progress or (lambda message: None)
    results: dict[str, Any] = {"machine": machine(), "ruleset": ruleset_name}
    rules = ruleset(ruleset_name)
    long_players = players_for(rules, 6)
    crowd_players = players_for(rules, 4)
    say(f"recording {long_players}-player games of {ruleset_name}")
    games = [recorded_game(rules, long_players, seed) for seed in range(2 if quick else 5)]
    say("folding")
    results["fold_events_per_s"] = round(fold_rate(rules, games))
    results["fold_events"] = sum(len(g) for g in games)
    say(f"self-play, {crowd_players} players")
    results["selfplay_players"] = crowd_players
    results["selfplay_4p_game_s"] = round(
        selfplay_seconds(rules, crowd_players, 3 if quick else 10), 4
    )
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-") as tmp:
        server = None
        if redis_url is None:
            server = RedisServer(data_dir=Path(tmp), unix_socket=Path(tmp) / "redis.sock").start()
            redis_url = server.url
        try:
            store = EventStore.from_url(redis_url)
            results["redis_fsync"] = store.redis.config_get("appendfsync").get("appendfsync")
            say("scripting games for the API clients")
            scripts = scripts_for(rules, crowd_players, 8 if quick else 16, 500)
            long_script = scripted_game(rules, long_players, 3)
            rounds = 2 if quick else 4
            crowd = [[scripts[(n + k) % len(scripts)] for k in range(rounds)] for n in range(32)]
            redis_pid = server.process.pid if server and server.process else None
            with (
                api_server(
                    redis_url, web_workers=WEB_WORKERS, threads=WEB_THREADS, redis_pid=redis_pid
                ) as served,
                api_server(
                    redis_url,
                    web_workers=WEB_WORKERS,
                    threads=WEB_THREADS,
                    app="bench.floor_app:app",
                    worker=False,
                    redis_pid=redis_pid,
                ) as floor,
            ):
                url = served.url
                say("warming up the API and the floor (a bare Flask app, one Lua append a command)")
                concurrent_clients(url, store, crowd, 2, None)
                concurrent_clients(floor.url, store, crowd, 1, None)
                say("one API client and raw Lua CAS appends, in turn")
                alone = scripts[: 2 if quick else 4]
                results.update(one_client_in_turn(url, store, alone, 500 if quick else 3000))
                say("32 clients as fast as answered, the API and the floor in turn")
                measured = saturated_in_turn(
                    {"api": served, "floor": floor}, store, crowd, 5 if quick else 10, TURNS
                )
                flat_out, results["api_saturated_cpu_ms_per_cmd"] = measured["api"]
                bare, results["api_floor_cpu_ms_per_cmd"] = measured["floor"]
                results["api_saturated_cmds_per_s"] = flat_out["cmds_per_s"]
                results["api_saturated_p99_ms"] = flat_out["p99_ms"]
                results["api_floor_cmds_per_s"] = round(bare["cmds_per_s"], 3)
                results["saturated_turns"] = TURNS
                results["api_saturated_cpus_busy"] = round(flat_out["cpus_busy"], 2)
                results["api_floor_cpus_busy"] = round(bare["cpus_busy"], 2)
                half = flat_out["cmds_per_s"] / 2
                say(f"32 API clients, open loop at half that: {half:.0f} commands/s offered")
                paced = concurrent_clients(url, store, crowd, 5 if quick else 15, half)
                results["api_half_load_offered_cmds_per_s"] = half
                results["api_half_load_cmds_per_s"] = paced["cmds_per_s"]
                results["api_half_load_p50_ms"] = paced["p50_ms"]
                results["api_half_load_p99_ms"] = paced["p99_ms"]
                results["api_half_load_busy_retries"] = paced["busy_retries"]
                say(f"a long {long_players}-player game through the API")
                game_id = long_game(url, store, long_script)
                time.sleep(1.0)  # let the worker's snapshot jobs land
                results["state_at_version_ms"] = round(state_at_version(url, game_id), 3)
                results["redis_bytes_per_game"] = game_bytes(store, game_id)
                results["long_game_players"] = long_players
                results["long_game_events"] = store.version(game_id)
                results["long_game_snapshots"] = len(store.snapshot_versions(game_id))
        finally:
            if server is not None:
                server.stop()
    results["single_client_vs_append"] = round(
        results["api_single_client_cmds_per_s"] / results["redis_append_per_s"], 3
    )
    results["api_saturated_vs_floor"] = round(
        results["api_saturated_cmds_per_s"] / results["api_floor_cmds_per_s"], 3
    )
    results["api_cpu_vs_floor"] = round(
        server_cpu(results["api_saturated_cpu_ms_per_cmd"])
        / server_cpu(results["api_floor_cpu_ms_per_cmd"]),
        3,
    )
    for key in (
        "api_single_client_cmds_per_s",
        "api_p50_ms",
        "api_p99_ms",
        "api_saturated_cmds_per_s",
        "api_saturated_p99_ms",
        "api_half_load_offered_cmds_per_s",
        "api_half_load_cmds_per_s",
        "api_half_load_p50_ms",
        "api_half_load_p99_ms",
    ):
        results[key] = round(results[key], 3)
    if shared:
        results.update(shared_measurements(quick, say))
    results["targets"] = targets(results)
    results["target_lines"] = target_lines(results)
    return results


TARGETS = {
    "api_cpu_vs_floor": ("<=", 1.4),
    "api_saturated_vs_floor": (">=", 0.65),
    "api_half_load_p99_ms": ("<=", 20),
    "fold_events_per_s": (">=", 150_000),
    "state_at_version_ms": ("<=", 20),
    "redis_bytes_per_game": ("<=", 300_000),
    "single_client_vs_append": (">=", 0.25),
    "selfplay_4p_game_s": ("<=", 0.1),
    "scale_list_active_ms_ratio": ("<=", 1.5),
    "scale_list_ruleset_active_ms_ratio": ("<=", 1.5),
    "scale_sweep_ms_ratio": ("<=", 1.5),
    "streams_cmd_p50_ratio": ("<=", 2.0),
}
"""Each target: the field, and the bound it must meet. The API's are ratios taken in the same
run (against the floor app's rate; at half the API's own saturated rate), so that they mean the
same on a slow hour as on a fast one."""

TARGET_NOTES = {
    "api_cpu_vs_floor": "CPU a command (web + worker + Redis) over the floor app's",
    "api_saturated_vs_floor": "saturated API cmds/s over the floor app's",
    "api_half_load_p99_ms": "p99 from each due time, open loop at half the saturated rate",
    "fold_events_per_s": "events folded a second, domain only",
    "state_at_version_ms": "GET /state?at=V of a long game, median",
    "redis_bytes_per_game": "Redis memory of one finished long game",
    "single_client_vs_append": "one API client's cmds/s over raw Lua appends a second",
    "selfplay_4p_game_s": "one in-process self-play game, median",
    "scale_list_active_ms_ratio": "GET /games?status=active, 100,000 games over 1,000",
    "scale_list_ruleset_active_ms_ratio": "the same filtered by ruleset too",
    "scale_sweep_ms_ratio": "the worker's sweep, 100,000 games over 1,000 (10 closing)",
    "streams_cmd_p50_ratio": "command p50 with 1,000 idle streams open over none",
}


SHARED_MEASUREMENTS = (
    "scale_list_active_ms_ratio",
    "scale_list_ruleset_active_ms_ratio",
    "scale_sweep_ms_ratio",
    "streams_cmd_p50_ratio",
)
"""Targets that do not depend on the ruleset played: `--ruleset all` measures them once."""


def targets(results: dict[str, Any]) -> dict[str, bool]:
    """Met or not, for each target whose measurement `results` holds."""
    met = {}
    for key, (op, bound) in TARGETS.items():
        if key not in results:
            continue
        value = results[key]
        met[key] = value >= bound if op == ">=" else value <= bound
    return met


def score(value: float, op: str, bound: float) -> float:
    """How far a value is from its bound, as a ratio: 1 or more is met (value / bound for a
    floor, bound / value for a ceiling)."""
    if op == ">=":
        return value / bound
    return bound / value if value > 0 else float("inf")


def target_lines(results: dict[str, Any]) -> list[str]:
    """One line per target: met or missed, the value, the bound, and the value's ratio to it."""
    lines = []
    for key, (op, bound) in TARGETS.items():
        if key not in results:
            continue
        value = results[key]
        verdict = "met   " if results["targets"][key] else "MISSED"
        extra = ""
        if key == "api_saturated_vs_floor":
            extra = (
                f" ({results['api_saturated_cmds_per_s']:.0f} / "
                f"{results['api_floor_cmds_per_s']:.0f} cmds/s"
            )
            if "api_saturated_cpus_busy" in results:
                extra += (
                    f"; {results['api_saturated_cpus_busy']:.2f} / "
                    f"{results['api_floor_cpus_busy']:.2f} CPUs busy"
                )
            extra += ")"
        elif key == "api_half_load_p99_ms":
            extra = f" (at {results['api_half_load_offered_cmds_per_s']:.0f} cmds/s offered)"
        elif key == "api_cpu_vs_floor":
            extra = (
                f" ({server_cpu(results['api_saturated_cpu_ms_per_cmd']):.2f} / "
                f"{server_cpu(results['api_floor_cpu_ms_per_cmd']):.2f} ms)"
            )
        elif key == "single_client_vs_append":
            extra = (
                f" ({results['api_single_client_cmds_per_s']:.0f} / "
                f"{results['redis_append_per_s']:.0f} a second)"
            )
        lines.append(
            f"{verdict} {key:26} {value:>12,.3f}{extra} target {op} {bound:,} "
            f"(x{score(value, op, bound):.2f} of it; {TARGET_NOTES[key]})"
        )
    return lines


def shared_measurements(quick: bool, say: Progress) -> dict[str, Any]:
    """The measurements no ruleset changes: listing and sweeping many games, idle streams."""
    say("listing and sweeping with many games stored")
    found = dict(scale.run(quick=quick, progress=say))
    say("commands with idle event streams open")
    found.update(streams.run(quick=quick, progress=say))
    return found


def run_all(
    names: list[str],
    redis_url: str | None = None,
    quick: bool = False,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Every ruleset's measurements one after another in one run, the shared ones once; each
    ruleset is judged against every target (the shared ones with the shared figures)."""
    say = progress or (lambda message: None)
    shared = shared_measurements(quick, say)
    rulesets = {}
    for name in names:
        say(f"=== {name}")
        results = run(redis_url, quick=quick, progress=say, ruleset_name=name, shared=False)
        results.update(shared)
        results["targets"] = targets(results)
        results["target_lines"] = target_lines(results)
        rulesets[name] = results
    met = all(all(r["targets"].values()) for r in rulesets.values())
    return {"machine": machine(), "rulesets": rulesets, "shared": shared, "all_met": met}
