"""The golden game corpus (tests/golden/): whole games recorded through the service, kept with
their NDJSON export, the commands that made them, the digest of their final state and their
result, so that CI can show every one still replays, and is still decided, exactly as it was
played, under the revision of the rules it was created with.

Record (never by hand; see tests/golden/README.md):

    python -m tests.support.golden record            # every game of CORPUS not yet recorded
    python -m tests.support.golden record --only NAME

A golden game is two files under tests/golden/<ruleset>/: `<name>.ndjson`, the game's export
(every event, read after the end when nothing is hidden: `GET /games/{id}/export`), and
`<name>.json`: its setup, its commands in order, `final_hash` (`state_hash` of the encoded game
after its last event) and `result` (`GET /games/{id}/result` without the game's id).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bots.base import make_bot
from domain.core.errors import RuleViolation
from domain.core.messages import WORKER, Command
from service.codec import canonical_json
from service.games import GameService
from service.queries import GameQueries
from store.credentials import SecretVault
from store.redis_store import EventStore

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
UNDO_CHANCE = 0.04
"""How often a seat that has just acted asks to undo it (when the rules let it, the undo is
recorded as a command like any other: golden games exercise the undo fold too)."""
MAX_COMMANDS = 6000
VOLATILE = ("recorded_at", "command_id")
"""What differs between two games decided alike: when each event was stored, and the random id
the service gives a command sent without an idempotency key."""


@dataclass(frozen=True)
class GoldenSpec:
    """One game of the corpus: what to create, under which revision, played by which bots."""

    ruleset: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    revision: int | None = None
    """None: the ruleset's newest revision when it is recorded (the file keeps the number)."""
    bots: tuple[str, ...] = ("random",)
    label: str = "defaults"

    def name(self, revision: int) -> str:
        return f"r{revision}-{self.players}p-{self.label}"

    @property
    def seed(self) -> bytes:
        """The game's secret seed: fixed per spec, so a re-recording decides the same game."""
        text = f"{self.ruleset}:{self.revision}:{self.players}:{self.label}"
        return hashlib.sha256(text.encode()).digest()


HOTW24_ALL = {
    "dice": True,
    "event_card_selection": True,
    "hidden_empire_cards": True,
    "invasion_and_conquest": True,
    "paired_area_tokens": True,
}
AH2001_ALL = {
    "no_pre_eminence": True,
    "minor_empires": True,
    "multiple_armies": True,
    "naval_control": True,
    "simultaneous_empires": True,
}
CORPUS: tuple[GoldenSpec, ...] = (
    GoldenSpec("hotw-2024", 3),
    GoldenSpec("hotw-2024", 4, {"dice": False}, label="no-dice", bots=("greedy", "random")),
    GoldenSpec(
        "hotw-2024",
        5,
        {"event_card_selection": True, "hidden_empire_cards": True},
        label="selection-hidden",
    ),
    GoldenSpec(
        "hotw-2024",
        6,
        {"invasion_and_conquest": True, "paired_area_tokens": True},
        label="conquest-paired",
        bots=("greedy",),
    ),
    GoldenSpec("hotw-2024", 4, HOTW24_ALL, label="all-options"),
    GoldenSpec("hotw-ah2001", 3, revision=1),
    GoldenSpec("hotw-ah2001", 4, AH2001_ALL, revision=1, label="all-options"),
    GoldenSpec("hotw-ah2001", 3, bots=("greedy", "random")),
    GoldenSpec(
        "hotw-ah2001", 4, {"no_pre_eminence": True, "minor_empires": True}, label="no-pe-minors"
    ),
    GoldenSpec(
        "hotw-ah2001",
        5,
        {"multiple_armies": True, "naval_control": True},
        label="armies-naval",
        bots=("greedy",),
    ),
    GoldenSpec("hotw-ah2001", 6, {"simultaneous_empires": True}, label="simultaneous"),
    GoldenSpec("hotw-ah2001", 4, AH2001_ALL, label="all-options"),
    # one game under each revision that came and went in one change (issue 32's rulings)
    *(
        GoldenSpec("hotw-ah2001", 4, AH2001_ALL, revision=revision, label="all-options")
        for revision in range(3, 10)
    ),
    GoldenSpec("brief-2009", 2, bots=("greedy", "random")),
    *(
        GoldenSpec("brief-2009", 2, revision=revision, label="two-players")
        for revision in range(1, 5)
    ),
    GoldenSpec("brief-2009", 3),
    GoldenSpec("brief-2009", 4, bots=("greedy",)),
    GoldenSpec("brief-2009", 5),
    GoldenSpec("brief-2009", 6),
    GoldenSpec("patchistory", 2),
    GoldenSpec("patchistory", 3, {"capital_side": "liberty"}, label="liberty"),
    GoldenSpec("patchistory", 4, bots=("greedy", "random")),
    GoldenSpec("patchistory", 2, {"capital_side": "liberty"}, label="liberty", bots=("greedy",)),
    GoldenSpec("patchistory", 3),
)


@dataclass(frozen=True)
class GoldenGame:
    """A recorded golden game, as read from its two files."""

    path: Path
    record: dict[str, Any]
    lines: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.record['ruleset']}/{self.path.stem}"

    @property
    def envelopes(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.lines]

    @property
    def seed(self) -> bytes:
        revealed = [e for e in self.envelopes if e["type"] == "SeedRevealed"]
        return bytes.fromhex(revealed[-1]["data"]["seed"])


def golden_games(root: Path = GOLDEN) -> list[GoldenGame]:
    """Every golden game recorded under `root`, in name order."""
    games = []
    for path in sorted(root.glob("*/*.json")):
        lines = path.with_suffix(".ndjson").read_text(encoding="utf-8").splitlines()
        games.append(GoldenGame(path, json.loads(path.read_text(encoding="utf-8")), tuple(lines)))
    return games


def settled(line: str | dict[str, Any]) -> str:
    """An exported event without what differs between two games decided alike: when it was
    stored, a random command id, and (in GameCreated) the digest of the data pack, which an
    edit that changes no decision (a comment, a catalogue's wording) changes too. Whether an
    edit changes a decision is what the other events show."""
    envelope = json.loads(line) if isinstance(line, str) else line
    kept = {k: v for k, v in envelope.items() if k not in VOLATILE}
    if kept.get("type") == "GameCreated":
        kept["data"] = {k: v for k, v in kept["data"].items() if k != "pack_digest"}
    return canonical_json(kept)


def exported(queries: GameQueries, game_id: str) -> list[str]:
    """The game's NDJSON export (the `GET /games/{id}/export` body), one line per event."""
    return [line.rstrip("\n") for line in queries.export(game_id, None)]


def final_result(queries: GameQueries, game_id: str) -> dict[str, Any]:
    result = dict(queries.result(game_id))
    result.pop("game_id", None)
    return json.loads(canonical_json(result))


# --- playing a game through the service ---------------------------------------------------------


def play(service: GameService, spec: GoldenSpec) -> tuple[str, list[dict[str, Any]]]:
    """Create the spec's game and let its bots play it to the end through the service, as the
    API and the worker would: seats' commands by `handle`, due system steps by
    `run_system_steps`, now and then a seat's undo. Returns the game's id and every command
    that was accepted, in order (system steps as actor `worker`)."""
    names = [f"player-{n + 1}" for n in range(spec.players)]
    created = service.create_game(
        spec.ruleset, names, spec.options, seed=spec.seed, revision=spec.revision
    )
    game_id = created.game_id
    rng = random.Random(spec.name(spec.revision or 0))
    rules = service.ruleset_of(game_id)
    bots = [make_bot(spec.bots[n % len(spec.bots)], rules, rng) for n in range(spec.players)]
    commands: list[dict[str, Any]] = []
    for _ in range(MAX_COMMANDS):
        rules, game = service.load(game_id)
        if rules.is_over(game.state):
            return game_id, commands
        if service.system_step_due(game_id):
            commands += run_steps(service, game_id)
            continue
        seat = rng.choice(sorted(rules.awaited_seats(game.state)))
        legal = list(rules.legal_actions(game.state, seat))
        command = bots[seat].choose(game.state, legal, seat)
        service.handle(game_id, seat, command)
        commands.append({"actor": seat, "command": command.as_dict()})
        if rng.random() < UNDO_CHANCE and not service.system_step_due(game_id):
            commands += try_undo(service, game_id, seat)
    raise RuntimeError(f"{spec} did not finish in {MAX_COMMANDS} commands")


def run_steps(service: GameService, game_id: str) -> list[dict[str, Any]]:
    """The due system steps, run as the worker runs them, one recorded command each."""
    steps = []
    while True:
        rules, game = service.load(game_id)
        due = None if rules.is_over(game.state) else rules.system_action(game.state)
        if due is None:
            return steps
        service.handle(game_id, WORKER, due, expected_version=game.version)
        steps.append({"actor": WORKER, "command": due.as_dict()})


def try_undo(service: GameService, game_id: str, seat: int) -> list[dict[str, Any]]:
    undo = Command.of("undo")
    try:
        service.handle(game_id, seat, undo)
    except RuleViolation:
        return []
    return [{"actor": seat, "command": undo.as_dict()}]


def replay_commands(
    service: GameService, record: dict[str, Any], seed: bytes, game_id: str | None = None
) -> str:
    """A new game with a golden game's setup and seed, under its revision, given its commands
    again through the service in their order (system steps as the worker runs them). Returns
    its id."""
    created = service.create_game(
        record["ruleset"],
        record["players"],
        record["options"],
        seed=seed,
        revision=record["revision"],
        game_id=game_id,
    )
    for step in record["commands"]:
        actor = step["actor"]
        service.handle(created.game_id, actor, Command.from_dict(step["command"]))
    return created.game_id


# --- recording ----------------------------------------------------------------------------------


def record_game(service: GameService, spec: GoldenSpec, root: Path = GOLDEN) -> Path:
    """Play the spec's game and write its two files; returns the path of its record."""
    queries = GameQueries(service)
    game_id, commands = play(service, spec)
    rules, game = service.load(game_id)
    from service.codec import encode_game, state_hash

    revision = game.setup.revision
    record = {
        "ruleset": spec.ruleset,
        "revision": revision,
        "pack_digest": game.setup.pack_digest,
        "players": list(game.setup.players),
        "options": dict(game.setup.options),
        "bots": list(spec.bots),
        "events": game.version,
        "final_hash": state_hash(encode_game(rules, game)),
        "result": final_result(queries, game_id),
        "commands": commands,
    }
    folder = root / spec.ruleset
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{spec.name(revision)}.json"
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    path.with_suffix(".ndjson").write_text(
        "".join(line + "\n" for line in exported(queries, game_id)), encoding="utf-8"
    )
    return path


def recorded_names(root: Path = GOLDEN) -> set[str]:
    return {f"{g.record['ruleset']}/{g.path.stem}" for g in golden_games(root)}


def specs_to_record(only: str | None, root: Path = GOLDEN) -> Iterator[GoldenSpec]:
    """The corpus's games not recorded yet (a spec of no fixed revision is recorded under the
    newest revision of its ruleset: one more game when a revision is added)."""
    from service.rulesets import ruleset

    have = recorded_names(root)
    for spec in CORPUS:
        revision = spec.revision or ruleset(spec.ruleset).newest_revision()
        name = f"{spec.ruleset}/{spec.name(revision)}"
        if (only is None or only == name) and name not in have:
            yield spec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.golden")
    sub = parser.add_subparsers(dest="action", required=True)
    record = sub.add_parser("record", help="record the corpus's games not recorded yet")
    record.add_argument("--only", help="one game, as <ruleset>/<name>")
    record.add_argument("--redis-url", help="a Redis to play on (default: a new one)")
    args = parser.parse_args(argv)
    from store.server import RedisServer

    with tempfile.TemporaryDirectory(prefix="chronicle-golden-") as tmp:
        server = None
        url = args.redis_url
        if url is None:
            server = RedisServer(data_dir=Path(tmp), unix_socket=Path(tmp) / "redis.sock").start()
            url = server.url
        try:
            import redis

            client = redis.Redis.from_url(url, decode_responses=True)
            service = GameService(EventStore(client), SecretVault(client))
            for spec in specs_to_record(args.only):
                path = record_game(service, spec)
                print(f"recorded {path.relative_to(GOLDEN)}", file=sys.stderr)
        finally:
            if server is not None:
                server.stop()
    return 0


def import_game(store: EventStore, game: GoldenGame, game_id: str | None = None) -> str:
    """Store a golden game's exported events as a game of its own (every event as exported,
    its revealed seed as its secret, tokens nobody holds), read back as any stored game is."""
    from service.auth import IssuedTokens
    from service.codec import stored_payload

    game_id = game_id or uuid.uuid4().hex
    record = game.record
    store.create(
        game_id,
        ruleset=record["ruleset"],
        players=record["players"],
        status="finished",
        events=[stored_payload(envelope) for envelope in game.envelopes],
        seed=game.seed,
        token_hashes=IssuedTokens.issue(len(record["players"]), game_id).hashes(),
        extra={"revision": str(record["revision"]), "seed_revealed": "true", "awaiting": "[]"},
    )
    return game_id


if __name__ == "__main__":
    raise SystemExit(main())
