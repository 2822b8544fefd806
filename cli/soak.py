"""`chronicle soak --minutes N`: serve the stack as `chronicle serve` does (its default settings,
rate limits on, an embedded Redis in a temporary data directory) and run a realistic mix
against it over loopback for N minutes:

- bots that follow their player stream (`/players/me/stream`, NDJSON) at tables against the
  server's bots, and leave it idle for long gaps (N x 6 s, up to 3 minutes) before some moves;
- people playing games at a human pace (seconds between moves), each seat with its token;
- spectators following those games' streams (SSE), dropping the connection now and then and
  coming back with `Last-Event-ID`;
- webhooks (the bots' and the games') delivered to a receiver of the soak's own on loopback.

It reports stream cuts (a stream that ended or fell silent past two heartbeats, not by the
soak's choice), 5xx answers, commands acknowledged (201) but lost from the game's log or in it
twice, stream events lost or sent twice across reconnects, webhook notifications never
delivered, p50/p99 latency of the requests, and the memory (RSS) of each served process at the
start and at the end; as JSON (`--json`) or a summary. Exits 1 when anything was cut, lost or
answered 5xx. Every client is polite (cli.http): a 429 or 503 is waited out, not a finding."""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import requests

from bench.processes import descendants
from cli.http import polite_session
from store.server import free_port

MINUTES_MAX = 120.0
HEARTBEAT_S = 15.0
"""The heartbeat the spec states for every stream; a stream silent for two is cut."""
SILENT_AFTER_S = 2 * HEARTBEAT_S + 5
SEATS = {"hotw-2024": 3, "hotw-ah2001": 3, "brief-2009": 2, "patchistory": 2}
BOTS = 3
PEOPLE_TABLES = 2
SPECTATORS_PER_TABLE = 2
REQUEST_TIMEOUT_S = 30
WEBHOOK_DRAIN_S = 60.0


@dataclass
class Tally:
    """What every actor of the soak saw, under one lock."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies_ms: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)
    cuts: list[str] = field(default_factory=list)
    reconnects: int = 0
    heartbeats: int = 0
    acknowledged: dict[str, tuple[str, list[int]]] = field(default_factory=dict)
    """Idempotency-Key (the command id) -> (game, versions of its events) of each 201."""
    readers: dict[str, str] = field(default_factory=dict)
    """Game -> a token that reads its whole log (its admin's, or a bot's player key)."""
    stream_events_lost: list[str] = field(default_factory=list)
    stream_events_twice: list[str] = field(default_factory=list)
    notifications: dict[str, list[str]] = field(default_factory=dict)
    """Player id -> every notification id its stream brought, in order."""
    delivered: dict[str, list[str]] = field(default_factory=dict)
    """Player id -> every notification id its webhook received."""
    bad_signatures: int = 0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)

    def answered(
        self, method: str, path: str, response: requests.Response, ms: float | None
    ) -> None:
        """One answer (and the 429s and 503s waited out before it); `ms` None for a stream."""
        retried = getattr(getattr(response.raw, "retries", None), "history", ()) or ()
        statuses = [step.status for step in retried if step.status] + [response.status_code]
        with self.lock:
            if ms is not None:
                self.latencies_ms.append(ms)
            for status in statuses:
                self.statuses[status] += 1
                if status >= 500:
                    self.server_errors.append(f"{method} {path}: {status}")

    def cut(self, what: str) -> None:
        with self.lock:
            self.cuts.append(what)

    def failed(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


class Client:
    """One actor's polite session against the served stack, every answer tallied."""

    def __init__(self, base: str, tally: Tally, token: str | None = None) -> None:
        self.base, self.tally, self.token = base, tally, token
        self.session = polite_session()

    def headers(self, token: str | None = None, **more: str) -> dict[str, str]:
        given = token or self.token
        return {**({"Authorization": f"Bearer {given}"} if given else {}), **more}

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> requests.Response:
        headers = self.headers(token)
        if method == "POST":
            headers["Idempotency-Key"] = uuid.uuid4().hex
        began = time.perf_counter()
        response = self.session.request(
            method, self.base + path, json=body, headers=headers, timeout=REQUEST_TIMEOUT_S
        )
        self.tally.answered(method, path, response, (time.perf_counter() - began) * 1000)
        return response

    def command(self, game_id: str, action: Any, token: str | None = None) -> bool:
        """Post one legal action; a 201 is acknowledged and remembered by its command id."""
        key = uuid.uuid4().hex
        began = time.perf_counter()
        response = self.session.post(
            f"{self.base}/games/{game_id}/commands",
            json=action,
            headers=self.headers(token, **{"Idempotency-Key": key}),
            timeout=REQUEST_TIMEOUT_S,
        )
        ms = (time.perf_counter() - began) * 1000
        self.tally.answered("POST", "/games/{id}/commands", response, ms)
        if response.status_code != 201:
            return False
        versions = [int(e["version"]) for e in response.json().get("events", [])]
        with self.tally.lock:
            self.tally.acknowledged[key] = (game_id, versions)
            self.tally.readers.setdefault(game_id, token or self.token or "")
        return True

    def play_a_turn(self, game_id: str, rng: random.Random, token: str | None = None) -> bool:
        listed = self.call("GET", f"/games/{game_id}/legal-actions", token=token)
        if listed.status_code != 200 or not listed.json().get("actions"):
            return False
        return self.command(game_id, rng.choice(listed.json()["actions"]), token)


def pause(stop: threading.Event, seconds: float) -> bool:
    """Wait `seconds` (or until the soak stops); True while the soak goes on."""
    return not stop.wait(max(0.0, seconds))


class Follower(threading.Thread):
    """Follows one stream, reconnecting with `Last-Event-ID`: after a cut (counted) and, when
    `drop_every_s` is given, by choice now and then. `on_item(id, kind, data)` gets each item;
    `ended()` says whether an end of the body is the stream's own (a finished game's)."""

    def __init__(
        self,
        client: Client,
        path: str,
        parse: Callable[[Iterator[str]], Iterator[tuple[str, str, Any] | None]],
        on_item: Callable[[str, str, Any], None],
        stop: threading.Event,
        name: str,
        ended: Callable[[], bool] = lambda: False,
        drop_every_s: float | None = None,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(daemon=True, name=name)
        self.client, self.path, self.parse, self.on_item = client, path, parse, on_item
        self.stop, self.ended, self.drop_every_s = stop, ended, drop_every_s
        self.rng = rng or random.Random(name)
        self.last: str | None = None
        self.response: requests.Response | None = None

    def run(self) -> None:
        while not self.stop.is_set():
            finished = self.follow_once()
            if finished or self.stop.is_set():
                return
            with self.client.tally.lock:
                self.client.tally.reconnects += 1

    def follow_once(self) -> bool:
        """One connection; True once the stream ended as it should (nothing to resume)."""
        headers = self.client.headers()
        if self.last is not None:
            headers["Last-Event-ID"] = self.last
        drop_at = (
            time.monotonic() + self.rng.uniform(0.5, 1.0) * self.drop_every_s
            if self.drop_every_s
            else None
        )
        try:
            response = self.client.session.get(
                self.client.base + self.path,
                headers=headers,
                stream=True,
                timeout=(10, SILENT_AFTER_S),
            )
        except requests.RequestException as exc:
            self.client.tally.cut(f"{self.name}: opening failed ({type(exc).__name__})")
            return not pause(self.stop, 1.0)
        self.client.tally.answered("GET", self.path.split("?")[0], response, 0.0)
        if response.status_code != 200:
            self.client.tally.cut(f"{self.name}: opened as {response.status_code}")
            response.close()
            return not pause(self.stop, 1.0)
        self.response = response
        try:
            lines = response.iter_lines(chunk_size=1, decode_unicode=True)
            for item in self.parse(lines):
                if self.stop.is_set():
                    return True
                if item is None:
                    with self.client.tally.lock:
                        self.client.tally.heartbeats += 1
                else:
                    self.last = item[0]
                    self.on_item(*item)
                if drop_at is not None and time.monotonic() > drop_at:
                    return False  # dropped by choice: back with Last-Event-ID
        except Exception as exc:  # a cut, or the soak closing the stream from its thread
            if self.stop.is_set():
                return True
            if not isinstance(exc, requests.RequestException | ValueError):
                raise
            self.client.tally.cut(f"{self.name}: {type(exc).__name__} after {self.last}")
            return False
        finally:
            response.close()
        if self.ended() or self.stop.is_set():
            return True
        self.client.tally.cut(f"{self.name}: the body ended after {self.last}")
        return False

    def close(self) -> None:
        if self.response is not None:
            self.response.close()


class StreamError(ValueError):
    """The stream told of an error in its own words (an `error` frame or line): a cut."""


def ndjson_items(lines: Iterator[str]) -> Iterator[tuple[str, str, Any] | None]:
    """A player stream's NDJSON lines, typed by `kind`: a `heartbeat` (or an empty line, as
    older servers sent) is a keep-alive, the `opening` line says where it starts, an `error`
    line ends it."""
    for line in lines:
        if not line.strip():
            yield None
            continue
        note = json.loads(line)
        kind = str(note.get("kind"))
        if kind == "heartbeat":
            yield None
        elif kind == "error":
            raise StreamError(line)
        elif kind != "opening":
            yield str(note["id"]), kind, note


def sse_items(lines: Iterator[str]) -> Iterator[tuple[str, str, Any] | None]:
    """A game stream's Server-Sent Events: a comment frame is a heartbeat (the opening one
    carries the version the stream starts after, as its id)."""
    frame: dict[str, str] = {}
    comment = False
    for line in lines:
        if line == "":
            if frame.get("event") == "error":
                raise StreamError(frame.get("data", ""))
            if "data" in frame:
                yield frame.get("id", ""), frame.get("event", "message"), frame["data"]
            elif comment:
                yield None
            frame, comment = {}, False
            continue
        if line.startswith(":"):
            comment = True
            continue
        name, _, value = line.partition(":")
        frame[name] = value[1:] if value.startswith(" ") else value


class Receiver:
    """The webhooks' receiver on loopback: checks each delivery's signature and records its
    notification id by webhook."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self.secrets: dict[str, tuple[str, str]] = {}  # webhook id -> (owner label, secret)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                receiver.received(self.headers, body)
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True, name="webhooks").start()

    def received(self, headers: Any, body: bytes) -> None:
        hook = self.secrets.get(headers.get("X-Chronicle-Webhook", ""))
        with self.tally.lock:
            if hook is None:
                self.tally.bad_signatures += 1
                return
            owner, secret = hook
            wanted = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
            if not hmac.compare_digest(wanted, headers.get("X-Chronicle-Signature", "")):
                self.tally.bad_signatures += 1
                return
            note = json.loads(body)
            self.tally.delivered.setdefault(owner, []).append(str(note.get("id", "")))

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Bot(threading.Thread):
    """A player whose program follows its notification stream: it opens a private table
    against the server's random bots, plays its seat when told `your_turn`, sometimes only
    after a long idle gap (the stream held open, silent but for heartbeats), and opens a new
    table when the game ends."""

    def __init__(
        self,
        n: int,
        base: str,
        tally: Tally,
        stop: threading.Event,
        gap_s: float,
        receiver: Receiver,
    ) -> None:
        super().__init__(daemon=True, name=f"bot-{n}")
        self.n, self.base, self.tally, self.stop, self.gap_s = n, base, tally, stop, gap_s
        self.receiver = receiver
        self.drop_s = 3 * gap_s
        """Now and then a bot reconnects by choice too (with Last-Event-ID)."""
        self.rng = random.Random(f"soak-bot-{n}")
        self.turns: list[str] = []
        self.ready = threading.Condition()
        self.follower: Follower | None = None

    def run(self) -> None:
        try:
            self.live()
        except Exception as exc:
            self.tally.failed(f"{self.name}: {type(exc).__name__}: {exc}")

    def live(self) -> None:
        client = Client(self.base, self.tally)
        name = f"Soak bot {self.n}"
        made = client.call("POST", "/players", {"name": name}).json()
        client.token, player = made["player_key"], made["player_id"]
        hook = client.call("POST", "/players/me/webhooks", {"url": self.receiver.url}).json()
        self.receiver.secrets[hook["webhook_id"]] = (player, hook["secret"])
        self.tally.notifications[player] = []

        def noted(note_id: str, kind: str, note: Any) -> None:
            seen = self.tally.notifications[player]
            with self.tally.lock:
                if seen and note_id in seen:
                    self.tally.stream_events_twice.append(f"{self.name}: notification {note_id}")
                seen.append(note_id)
            with self.ready:
                self.turns.append(kind if kind != "your_turn" else str(note["game_id"]))
                self.ready.notify()

        stream = "/players/me/stream?format=ndjson"
        self.follower = Follower(
            client, stream, ndjson_items, noted, self.stop, self.name, drop_every_s=self.drop_s
        )
        self.follower.start()
        while not self.stop.is_set():
            game_id = self.open_table(client, name)
            while not self.stop.is_set():
                got = self.next_notice()
                if got is None:
                    continue
                if got == "game_finished":
                    with self.tally.lock:
                        self.tally.games_finished += 1
                    break
                if got != game_id:
                    continue
                if self.rng.random() < 0.35 and not pause(self.stop, self.gap_s):
                    return  # an idle gap: the stream is held open, silent but for heartbeats
                while not self.stop.is_set() and client.play_a_turn(game_id, self.rng):
                    pause(self.stop, self.rng.uniform(0.2, 1.0))

    def next_notice(self) -> str | None:
        with self.ready:
            if not self.turns:
                self.ready.wait(1.0)
            return self.turns.pop(0) if self.turns else None

    def open_table(self, client: Client, name: str) -> str:
        ruleset = self.rng.choice(sorted(SEATS))
        players = [name, *(f"Server bot {n}" for n in range(1, SEATS[ruleset]))]
        body = {"ruleset": ruleset, "players": players, "listing": "private", "bots": "random"}
        return str(client.call("POST", "/tables", body).json()["game_id"])


class People(threading.Thread):
    """A game played by people at a human pace (2 to 6 s between moves), each awaited seat with
    its own token, a game webhook registered with its admin token, and spectators following
    it; a new game when it ends."""

    def __init__(
        self,
        n: int,
        base: str,
        tally: Tally,
        stop: threading.Event,
        drop_s: float,
        receiver: Receiver,
    ) -> None:
        super().__init__(daemon=True, name=f"people-{n}")
        self.n, self.base, self.tally, self.stop, self.drop_s = n, base, tally, stop, drop_s
        self.receiver = receiver
        self.rng = random.Random(f"soak-people-{n}")
        self.games: list[tuple[str, str]] = []  # (game id, admin token)
        self.spectators: list[Spectator] = []

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.play_one()
        except Exception as exc:
            self.tally.failed(f"{self.name}: {type(exc).__name__}: {exc}")

    def play_one(self) -> None:
        client = Client(self.base, self.tally)
        ruleset = self.rng.choice(sorted(SEATS))
        names = ["Ann", "Bob", "Cy", "Di"][: SEATS[ruleset]]
        made = client.call("POST", "/games", {"ruleset": ruleset, "players": names}).json()
        game_id, admin, tokens = made["game_id"], made["admin_token"], made["seat_tokens"]
        self.games.append((game_id, admin))
        with self.tally.lock:
            self.tally.readers[game_id] = admin
        hook = client.call(
            "POST", f"/games/{game_id}/webhooks", {"url": self.receiver.url}, token=admin
        ).json()
        self.receiver.secrets[hook["webhook_id"]] = (f"game {game_id}", hook["secret"])
        for k in range(SPECTATORS_PER_TABLE):
            spectator = Spectator(
                f"{self.name}-spectator-{len(self.spectators)}",
                self.base,
                self.tally,
                self.stop,
                game_id,
                self.drop_s,
                k,
            )
            spectator.start()
            self.spectators.append(spectator)
        while pause(self.stop, self.rng.uniform(2.0, 6.0)):
            summary = client.call("GET", f"/games/{game_id}").json()
            if summary["status"] == "finished":
                with self.tally.lock:
                    self.tally.games_finished += 1
                return
            awaited = summary.get("awaiting") or []
            if awaited:
                seat = self.rng.choice(awaited)
                client.play_a_turn(game_id, self.rng, tokens[seat])


class Spectator:
    """Follows a game's stream without a token, dropping it now and then and coming back with
    `Last-Event-ID`; every version it was sent, once each and in order, is checked at the end
    against the game's own version."""

    def __init__(
        self,
        name: str,
        base: str,
        tally: Tally,
        stop: threading.Event,
        game_id: str,
        drop_s: float,
        k: int,
    ) -> None:
        self.name, self.tally, self.game_id = name, tally, game_id
        self.client = Client(base, tally)
        self.versions: list[int] = []
        self.finished = False

        def seen(item_id: str, kind: str, data: Any) -> None:
            if kind == "error":
                tally.cut(f"{name}: an error event {data[:200]}")
                return
            self.versions.append(int(item_id))

        self.follower = Follower(
            self.client,
            f"/games/{game_id}/stream",
            sse_items,
            seen,
            stop,
            name,
            ended=self.game_over,
            drop_every_s=drop_s,
            rng=random.Random(f"{name}-{k}"),
        )

    def game_over(self) -> bool:
        summary = self.client.call("GET", f"/games/{self.game_id}").json()
        self.finished = summary["status"] == "finished"
        return self.finished and bool(self.versions) and self.versions[-1] >= summary["version"]

    def start(self) -> None:
        self.follower.start()

    def check(self) -> None:
        """Versions 1..n each once, n the last it was sent (or the game's, once finished)."""
        versions = self.versions
        twice = [v for v, n in Counter(versions).items() if n > 1]
        if twice:
            self.tally.stream_events_twice.append(f"{self.name}: versions {twice[:5]}")
        if versions and sorted(set(versions)) != list(range(1, max(versions) + 1)):
            missing = sorted(set(range(1, max(versions) + 1)) - set(versions))
            self.tally.stream_events_lost.append(f"{self.name}: versions {missing[:5]}")
        if self.finished:
            final = self.client.call("GET", f"/games/{self.game_id}").json()["version"]
            if not versions or max(versions) != final:
                self.tally.stream_events_lost.append(f"{self.name}: ended before {final}")


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def process_name(pid: int) -> str:
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "gone"
    words = [a.decode(errors="replace") for a in argv if a]
    text = " ".join(words)
    if "redis-server" in text:
        return "redis-server"
    if "gunicorn" in text:
        return "gunicorn"
    if "cli.main worker" in text or text.endswith(" worker"):
        return "rq-worker"
    if "cli.main serve" in text:
        return "serve"
    return Path(words[0]).name if words else "?"


def served_memory(root: int) -> dict[str, dict[str, Any]]:
    """RSS (KiB) of the serving process and each of its descendants, by pid."""
    pids = {root, *descendants(root)}
    return {str(pid): {"name": process_name(pid), "rss_kb": rss_kb(pid)} for pid in sorted(pids)}


def memory_growth(start: dict[str, dict[str, Any]], end: dict[str, dict[str, Any]]) -> list[dict]:
    rows = []
    for pid, first in start.items():
        last = end.get(pid)
        rows.append(
            {
                "pid": int(pid),
                "process": first["name"],
                "rss_start_kb": first["rss_kb"],
                "rss_end_kb": last["rss_kb"] if last else None,
                "growth_kb": (last["rss_kb"] - first["rss_kb"]) if last else None,
            }
        )
    for pid, last in end.items():
        if pid not in start:  # a child (re)started during the soak
            rows.append(
                {
                    "pid": int(pid),
                    "process": last["name"],
                    "rss_start_kb": None,
                    "rss_end_kb": last["rss_kb"],
                    "growth_kb": None,
                }
            )
    return rows


def serve(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    """`chronicle serve` with its defaults: the environment's CHRONICLE_* settings and
    REDIS_URL are left out (the test suite switches rate limits off), but for delivering
    webhooks to a loopback receiver."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("CHRONICLE_") and k != "REDIS_URL"
    }
    env["CHRONICLE_WEBHOOK_ALLOW_PRIVATE"] = "on"
    root = Path(__file__).resolve().parents[1]
    env["PYTHONPATH"] = str(root) + os.pathsep + env.get("PYTHONPATH", "")
    argv = [sys.executable, "-m", "cli.main", "serve", "--port", str(port)]
    argv += ["--data-dir", str(data_dir)]
    return subprocess.Popen(
        argv,
        env=env,
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def wait_until_up(base: str, process: subprocess.Popen[bytes], within_s: float = 60) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"chronicle serve exited with {process.returncode}")
        try:
            if requests.get(base + "/healthz", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise RuntimeError("chronicle serve did not come up")


def log_of(client: Client, game_id: str, token: str | None) -> list[dict[str, Any]]:
    events, start = [], 1
    while True:
        page = client.call(
            "GET", f"/games/{game_id}/events?from={start}&limit=500", token=token
        ).json()
        events += page["events"]
        if not page.get("next"):
            return events
        start = page["next"]


def lost_or_twice(tally: Tally, client: Client) -> tuple[list[str], list[str]]:
    """Each acknowledged command's events are in its game's log, under its command id, once."""
    by_game: dict[str, list[tuple[str, list[int]]]] = {}
    for key, (game_id, versions) in tally.acknowledged.items():
        by_game.setdefault(game_id, []).append((key, versions))
    lost, twice = [], []
    for game_id, commands in by_game.items():
        stored: dict[str, list[int]] = {}
        for event in log_of(client, game_id, tally.readers.get(game_id) or None):
            stored.setdefault(str(event.get("command_id", "")), []).append(int(event["version"]))
        for key, versions in commands:
            found = stored.get(key, [])
            if not found:
                lost.append(f"{game_id}: command {key}")
            elif found != versions:
                twice.append(f"{game_id}: command {key} at {found}, answered {versions}")
    return lost, twice


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def soak(minutes: float, say: Callable[[str], None]) -> dict[str, Any]:
    tally, stop = Tally(), threading.Event()
    gap_s = min(180.0, minutes * 6.0)
    drop_s = min(120.0, max(20.0, minutes * 4.0))
    with tempfile.TemporaryDirectory(prefix="chronicle-soak-") as tmp:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        process = serve(Path(tmp) / "data", port)
        receiver = Receiver(tally)
        try:
            wait_until_up(base, process)
            time.sleep(2.0)  # the worker and gunicorn's workers up and settled
            memory_start = served_memory(process.pid)
            say(
                f"soak: serving at {base}; {BOTS} bots, {PEOPLE_TABLES} tables of people, "
                f"{SPECTATORS_PER_TABLE} spectators a game, for {minutes:g} min"
            )
            began = time.monotonic()
            bots = [Bot(n + 1, base, tally, stop, gap_s, receiver) for n in range(BOTS)]
            people = [
                People(n + 1, base, tally, stop, drop_s, receiver) for n in range(PEOPLE_TABLES)
            ]
            for actor in [*bots, *people]:
                actor.start()
            stop.wait(minutes * 60)
            stop.set()
            for bot in bots:
                if bot.follower is not None:
                    bot.follower.close()
            for person in people:
                for spectator in person.spectators:
                    spectator.follower.close()
            for actor in [*bots, *people]:
                actor.join(REQUEST_TIMEOUT_S + 10)
            elapsed = time.monotonic() - began
            memory_end = served_memory(process.pid)
            checker = Client(base, tally)
            for person in people:
                for spectator in person.spectators:
                    spectator.check()
            lost, twice = lost_or_twice(tally, checker)
            undelivered = webhooks_missing(tally)
        finally:
            stop.set()
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            receiver.close()
    latencies = tally.latencies_ms
    report = {
        "minutes": minutes,
        "seconds": round(elapsed, 1),
        "idle_gap_s": gap_s,
        "spectator_drop_s": drop_s,
        "requests": len(latencies),
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
        "p50_ms": round(statistics.median(latencies), 2) if latencies else 0.0,
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "stream_cuts": len(tally.cuts),
        "cuts": tally.cuts[:30],
        "server_errors": len(tally.server_errors),
        "server_error_samples": tally.server_errors[:30],
        "reconnects": tally.reconnects,
        "heartbeats": tally.heartbeats,
        "commands_acknowledged": len(tally.acknowledged),
        "commands_lost": len(lost),
        "commands_twice": len(twice),
        "lost_samples": (lost + twice)[:20],
        "stream_events_lost": tally.stream_events_lost[:20],
        "stream_events_twice": tally.stream_events_twice[:20],
        "webhooks_delivered": sum(len(v) for v in tally.delivered.values()),
        "webhooks_missing": len(undelivered),
        "webhooks_missing_samples": undelivered[:20],
        "webhook_bad_signatures": tally.bad_signatures,
        "games_finished": tally.games_finished,
        "actor_errors": tally.errors[:20],
        "memory": memory_growth(memory_start, memory_end),
    }
    report["ok"] = not (
        report["stream_cuts"]
        or report["server_errors"]
        or report["commands_lost"]
        or report["commands_twice"]
        or report["stream_events_lost"]
        or report["stream_events_twice"]
        or report["webhooks_missing"]
        or report["webhook_bad_signatures"]
        or report["actor_errors"]
    )
    return report


def webhooks_missing(tally: Tally) -> list[str]:
    """Each notification a bot's stream brought, delivered to its webhook too (waiting up to
    WEBHOOK_DRAIN_S for the queue to catch up)."""
    deadline = time.monotonic() + WEBHOOK_DRAIN_S
    while True:
        with tally.lock:
            missing = [
                f"{player}: {note}"
                for player, notes in tally.notifications.items()
                for note in notes
                if note not in set(tally.delivered.get(player, []))
            ]
        if not missing or time.monotonic() > deadline:
            return missing
        time.sleep(1.0)


def summary_lines(report: dict[str, Any]) -> list[str]:
    lines = [
        f"soak of {report['minutes']:g} min ({report['seconds']} s): "
        + ("clean" if report["ok"] else "FAILED"),
        f"  {report['requests']} requests, p50 {report['p50_ms']} ms, p99 {report['p99_ms']} ms;"
        f" statuses {report['statuses']}",
        f"  streams: {report['stream_cuts']} cut, {report['reconnects']} reconnects with "
        f"Last-Event-ID, {report['heartbeats']} heartbeats; bots idle up to "
        f"{report['idle_gap_s']:g} s",
        f"  commands: {report['commands_acknowledged']} acknowledged, {report['commands_lost']} "
        f"lost, {report['commands_twice']} twice; {report['games_finished']} games finished",
        f"  stream events lost {len(report['stream_events_lost'])}, twice "
        f"{len(report['stream_events_twice'])}; webhooks {report['webhooks_delivered']} "
        f"delivered, {report['webhooks_missing']} missing, "
        f"{report['webhook_bad_signatures']} badly signed",
        f"  5xx: {report['server_errors']}",
    ]
    for row in report["memory"]:
        grown = row["growth_kb"]
        lines.append(
            f"  memory {row['process']} (pid {row['pid']}): {row['rss_start_kb']} -> "
            f"{row['rss_end_kb']} KiB" + (f" ({grown:+d} KiB)" if grown is not None else "")
        )
    for cut in report["cuts"][:10]:
        lines.append(f"  cut: {cut}")
    for error in [
        *report["server_error_samples"][:5],
        *report["lost_samples"][:5],
        *report["actor_errors"][:5],
    ]:
        lines.append(f"  {error}")
    return lines


def minutes_arg(text: str) -> float:
    value = float(text)
    if not 0 < value <= MINUTES_MAX:
        raise argparse.ArgumentTypeError(f"between 0 and {MINUTES_MAX:g} minutes")
    return value


def run(args: argparse.Namespace) -> int:
    say = (lambda message: None) if args.json else (lambda m: print(m, file=sys.stderr))
    report = soak(args.minutes, say)
    if args.json:
        print(json.dumps(report))
    else:
        print("\n".join(summary_lines(report)))
    return 0 if report["ok"] else 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "soak",
        help="serve the stack and run bots, people, spectators and webhooks against it",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    parser.add_argument(
        "--minutes",
        type=minutes_arg,
        default=3.0,
        help=f"how long (default 3, at most {MINUTES_MAX:g})",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(func=run)
