"""The service: the one place where a command meets the store (contracts §1).

load state (latest snapshot + events after it, cached in process by version) → decide →
append with the expected version → return the new events and version. The API and the
workers both call this; neither has its own copy of the rules.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import sys
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from domain.core.chance import Chance, ChanceScriptError, ScriptedChance, script_problems
from domain.core.errors import IllegalAction, RulesetRevisionUnavailable, RuleViolation
from domain.core.kernel import (
    Game,
    NeedsEarlierBase,
    SeedRevealed,
    creation_events,
    decision,
    fold_decided,
    is_over,
    position_events,
    replay,
)
from domain.core.messages import SYSTEM, WORKER, Actor, Command, Event, Recorded
from domain.core.ruleset import CommandSpec, Ruleset, Setup, command_misfits
from domain.core.seating import SEATING_COMMANDS, TableOpened, decoded_seating, encoded_seating
from domain.core.table import (
    ADMIN,
    ORDER_REWIND,
    PROPOSE_REWIND,
    TABLE_COMMAND_SPECS,
    Proposal,
    UndoStep,
)
from service import chance as chance_source
from service import tables
from service.auth import Credential, IssuedTokens
from service.clock import SystemTimepiece
from service.rulesets import import_rulesets_once, rule_entry
from service.rulesets import ruleset as bound_ruleset
from service.scheduler import NoScheduler, Scheduler, snapshot_due
from store.credentials import SecretVault
from store.errors import GameNotFound, IdempotencyKeyReused, VersionConflict
from store.records import AppendResult, Snapshot, StoredEvent
from store.redis_store import EventStore

MAX_RETRIES = 8
FINGERPRINT_CHARS = 32  # 128 bits of SHA-256 (keys stored with all 64 still compare)
# Fault injection, for crash tests only; unset (0) everywhere else, read once at import.
# Each pauses a process at a point where a test then kills it with SIGKILL:
# - before the append of a worker's step (a worker killed between decide and append);
# - before / after the append of every command (a web worker killed with the command decided but
#   not stored, or stored but not yet answered). These two print a `chronicle fault injection:`
#   line to stderr when they start pausing, so that the test knows where the process is.
FAULT_PAUSE_S = float(os.environ.get("CHRONICLE_FAULT_PAUSE_BEFORE_WORKER_APPEND_S", "0"))
FAULT_PAUSE_BEFORE_APPEND_S = float(os.environ.get("CHRONICLE_FAULT_PAUSE_BEFORE_APPEND_S", "0"))
FAULT_PAUSE_AFTER_APPEND_S = float(os.environ.get("CHRONICLE_FAULT_PAUSE_AFTER_APPEND_S", "0"))
REWIND_COMMANDS = frozenset({PROPOSE_REWIND, ORDER_REWIND})
MAX_SYSTEM_STEPS = 100
TAIL_CHEAPER_THAN_SNAPSHOT = 48
"""Events a process folds rather than load a newer snapshot: reading and folding one costs
about 16 µs, loading a mid-game snapshot about 0.7 ms."""
log = logging.getLogger("chronicle.service")


@dataclass(frozen=True)
class CreatedGame:
    game_id: str
    version: int
    seed_commitment: str
    tokens: IssuedTokens
    events: tuple[Recorded, ...]
    ruleset: str = ""
    players: tuple[str, ...] = ()


@dataclass(frozen=True)
class CommandOutcome:
    game_id: str
    events: tuple[Recorded, ...]
    version: int
    duplicate: bool = False
    system_step_due: bool | None = None
    """After a new command: whether the game now waits for a step no seat takes (None: unknown,
    ask the service)."""
    envelopes: tuple[dict[str, Any], ...] = ()
    """After a new command: each event's whole envelope (`Recorded.as_dict`), as stored."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(encoded_state: Any) -> str:
    return hashlib.sha256(canonical_json(encoded_state).encode()).hexdigest()


def recorded_from(stored: StoredEvent) -> Recorded:
    import_rulesets_once()  # the event types of every ruleset, before the first decode
    return Recorded.from_dict(stored.decoded())


def stored_payload(envelope: Mapping[str, Any]) -> str:
    """The stored JSON of one event: its whole envelope (`Recorded.as_dict`) but the version,
    which is the stream entry id."""
    return canonical_json({k: v for k, v in envelope.items() if k != "version"})


def envelope_payload(event: Event, actor: Actor, command_id: str, recorded_at: str) -> str:
    """The stored JSON of an event not yet recorded at a version."""
    return stored_payload(Recorded(0, event, actor, command_id, recorded_at).as_dict())


class StateCache:
    """The latest known game of each recently used game id, evicted least-recently-used."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._games: OrderedDict[str, Game[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Game[Any] | None:
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
            return game

    def clear(self) -> None:
        with self._lock:
            self._games.clear()

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)

    def put(self, game_id: str, game: Game[Any]) -> None:
        with self._lock:
            current = self._games.get(game_id)
            if current is not None and current.version > game.version:
                return
            self._games[game_id] = game
            self._games.move_to_end(game_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)


TABLE_SPECS: Mapping[str, CommandSpec] = {spec.type: spec for spec in TABLE_COMMAND_SPECS}
_POSTED: dict[int, tuple[Ruleset[Any], Mapping[str, CommandSpec] | None]] = {}


def posted_commands(rules: Ruleset[Any]) -> Mapping[str, CommandSpec] | None:
    """The command types a seat of `rules` may post, by type (the table procedures included),
    built once per bound ruleset; None when it describes none of its own."""
    known = _POSTED.get(id(rules))
    if known is None or known[0] is not rules:
        own = rules.command_schemas()
        specs = None if not own else {s.type: s for s in (*own, *TABLE_COMMAND_SPECS)}
        known = _POSTED[id(rules)] = (rules, specs)
    return known[1]


class GameService:
    def __init__(
        self,
        store: EventStore,
        vault: SecretVault,
        rulesets: Callable[[str], Ruleset[Any]] = bound_ruleset,
        cache: StateCache | None = None,
        scheduler: Scheduler | None = None,
        snapshot_every: int = 0,
        busy_hold_s: float = 0.0,
    ) -> None:
        self.store = store
        self.vault = vault
        self.rulesets = rulesets
        self.cache = cache or StateCache()
        self.scheduler: Scheduler = scheduler or NoScheduler()
        self.snapshot_every = snapshot_every
        self.busy_hold_s = busy_hold_s

    def scheduled(
        self, scheduler: Scheduler, snapshot_every: int, busy_hold_s: float = 0.0
    ) -> GameService:
        """This service (its store, vault, rulesets and cache) with what follows a command, due
        steps and snapshots, handed to `scheduler`; a command that finds a step due waits up to
        `busy_hold_s` for it to be taken before it is refused as busy."""
        return GameService(
            self.store,
            self.vault,
            self.rulesets,
            self.cache,
            scheduler,
            snapshot_every,
            busy_hold_s,
        )

    # --- creating -------------------------------------------------------------------------

    def create_game(
        self,
        ruleset_name: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        seed: bytes | None = None,
        game_id: str | None = None,
        revision: int | None = None,
        table: TableOpened | None = None,
    ) -> CreatedGame:
        """Create a game: GameCreated (with the seed's commitment, the ruleset's revision and
        its pack's digest) plus the setting up. New games get the newest revision; `revision`
        (recording golden games, tests) creates one under an earlier revision."""
        rules = self.rulesets(ruleset_name)
        if revision is not None:
            rules = rules.at_revision(revision)
        seed = seed or chance_source.new_seed()
        commitment = chance_source.commitment(seed)
        chance = Chance(chance_source.HmacSource(seed), 0)
        events = creation_events(rules, tuple(players), dict(options or {}), commitment, chance)
        if table is not None:
            events.append(replace(table, rule=rules.seat_rule or rules.turn_rule))
        return self._create(rules, events, players, seed, commitment, game_id or new_game_id())

    def create_sandbox(
        self,
        source_game_id: str,
        position: Mapping[str, Any],
        chance: Mapping[str, Any] | None = None,
    ) -> CreatedGame:
        """A new game, of the source game's ruleset, that starts from a position document
        (`setup` and the ruleset's encoded `state`) instead of being set up. `chance` (a
        what-if: `{"faces": [6, 2]}` or `{"draws": [[n, result], ...]}`) scripts its chance:
        draw k of the sandbox is entry k, recorded at its creation (`ChanceScripted`), instead
        of an outcome of its committed seed."""
        rules = self.ruleset_of(source_game_id)
        script = chance_script(rules, chance) if chance is not None else None
        setup = position["setup"]
        if setup["ruleset"] != rules.name:
            raise InvalidPosition(
                f"the position is of {setup['ruleset']!r}, the game of {rules.name!r}",
                {"ruleset": rules.name},
            )
        given = setup.get("revision")
        if given is not None and given != rules.revision:
            try:
                rules.at_revision(given)
            except RulesetRevisionUnavailable as unavailable:
                unavailable.in_request = True
                raise
            raise InvalidPosition(
                f"the position is of {rules.name} revision {given}, the game of revision "
                f"{rules.revision}: a sandbox keeps the revision of the game it comes from",
                {"revision": rules.revision},
            )
        players = tuple(setup["players"])
        seed = chance_source.new_seed()
        commitment = chance_source.commitment(seed)
        events = position_events(
            rules,
            players,
            dict(setup["options"]),
            commitment,
            position["state"],
            source_game_id,
            script,
        )
        check_position(rules, events)
        extra = {"sandbox_of": source_game_id}
        if self.store.meta(source_game_id).extra.get("listing") == "private":
            extra["listing"] = "private"  # a private table's what-ifs are not listed either
        return self._create(rules, events, players, seed, commitment, new_game_id(), extra)

    def _create(
        self,
        rules: Ruleset[Any],
        events: list[Event],
        players: Sequence[str],
        seed: bytes,
        commitment: str,
        game_id: str,
        extra: Mapping[str, Any] | None = None,
    ) -> CreatedGame:
        command_id = uuid.uuid4().hex
        at = now_iso()
        tokens = IssuedTokens.issue(len(players), game_id)
        recorded = tuple(
            Recorded(i, e, "system", command_id, at) for i, e in enumerate(events, start=1)
        )
        payloads = [stored_payload(r.as_dict()) for r in recorded]
        game = replay(rules, recorded)
        # a table's creation may notify: on the catch-up list first (its cursor starts at 0)
        mark = None if game.seating is None else tables.mark_unnotified(self, game_id, 0)
        version = self.store.create(
            game_id,
            ruleset=rules.name,
            players=list(players),
            status=self.status_of(rules, game),
            events=payloads,
            seed=seed,
            token_hashes=tokens.hashes(),
            extra={
                **self.meta_of(rules, game),
                "revision": str(rules.revision),
                # a private table is known private from its first write: never listed
                **(
                    {"listing": game.seating.listing, "notified": "0"}
                    if game.seating is not None
                    else {}
                ),
                **(extra or {}),
            },
        )
        self.cache.put(game_id, game)
        if game.seating is not None:
            tables.settle(self, rules, game_id, None, game, mark)
        created = CreatedGame(
            game_id, version, commitment, tokens, recorded, rules.name, tuple(players)
        )
        self._schedule_steps(game_id, version, None)
        return created

    @classmethod
    def status_of(cls, rules: Ruleset[Any], game: Game[Any]) -> str:
        """`finished`, `closing` while a step no seat takes is due (e.g. an epoch closing; seats
        get 409 game_busy meanwhile), else `active`."""
        if is_over(rules, game):
            return "finished"
        if game.seating is not None and not game.seating.started:
            return "open"
        return "closing" if cls._system_step(rules, game) is not None else "active"

    @staticmethod
    def meta_of(rules: Ruleset[Any], game: Game[Any]) -> dict[str, Any]:
        started = game.seating is None or game.seating.started
        return {
            "awaiting": sorted(rules.awaited_seats(game.state)) if started else [],
            "seed_revealed": game.seed_revealed is not None,
        }

    # --- loading --------------------------------------------------------------------------

    def ruleset_of(self, game_id: str) -> Ruleset[Any]:
        """The game's ruleset, bound to the revision the game was created under (a game from
        before revisions were recorded is of revision 1)."""
        meta = self.store.meta(game_id)
        revision = meta.extra.get("revision")
        if revision is None:  # not in the game's meta: its GameCreated says
            first = self.store.read(game_id, 1, 1)
            created = recorded_from(first[0]).event if first else None
            revision = getattr(created, "revision", 1)
        return self.rules_at(meta.ruleset, int(revision))

    def rules_at(self, name: str, revision: int) -> Ruleset[Any]:
        """Ruleset `name` at `revision` (RulesetRevisionUnavailable if this server lacks it)."""
        return self.rulesets(name).at_revision(revision)

    def rules_of(self, game: Game[Any]) -> Ruleset[Any]:
        return self.rules_at(game.setup.ruleset, game.setup.revision)

    def command_misfits(self, game_id: str, body: Mapping[str, Any]) -> dict[str, str]:
        """Why a seat's command body breaks the schema of its type for this game, by field
        (empty: it fits), decided before the rules are asked: its ruleset's command types at
        the game's revision and the table procedures, as the OpenAPI document and
        `GET /rulesets/{name}` describe them. A ruleset that describes no commands has only
        its table procedures checked."""
        cached = self.cache.get(game_id)
        rules = self.rules_of(cached) if cached is not None else self.ruleset_of(game_id)
        specs = posted_commands(rules)
        if specs is None:
            return {} if body.get("type") not in TABLE_SPECS else command_misfits(TABLE_SPECS, body)
        return command_misfits(specs, body)

    def load(self, game_id: str) -> tuple[Ruleset[Any], Game[Any]]:
        """The current game: cached or snapshot state, plus the events after it."""
        cached = self.cache.get(game_id)
        if cached is not None:
            rules = self.rules_of(cached)
            tail = [recorded_from(s) for s in self.store.read(game_id, cached.version + 1)]
            try:
                game = replay(rules, tail, cached) if tail else cached
            except NeedsEarlierBase:
                game = self._load_from_snapshot(rules, game_id, None)
        else:
            rules = self.ruleset_of(game_id)
            game = self._load_from_snapshot(rules, game_id, None)
        self.cache.put(game_id, game)
        return rules, game

    def load_at(self, game_id: str, version: int) -> tuple[Ruleset[Any], Game[Any]]:
        """The game as it stood after event `version`."""
        rules = self.ruleset_of(game_id)
        current = self.store.version(game_id)
        if version < 1 or version > current:
            raise VersionOutOfRange(version, current)
        return rules, self._load_from_snapshot(rules, game_id, version)

    def _load_from_snapshot(
        self,
        rules: Ruleset[Any],
        game_id: str,
        at: int | None,
        pending: tuple[Recorded, ...] = (),
        newest: tuple[int, set[int]] | None = None,
    ) -> Game[Any]:
        """The game after `at` (None: all stored events, then `pending` ones not yet stored),
        from the latest usable snapshot. A snapshot taken inside a range that a later undo or
        rewind took back cannot serve: the load then starts from an earlier one. `newest`: the
        newest snapshot's version and the untrusted versions, when the caller has read them."""
        bound = at
        first, untrusted = newest if newest is not None else (None, None)
        while True:
            if first is not None:
                snapshot, first = self.store.snapshot(game_id, first), None
            else:
                snapshot = self.store.latest_snapshot(game_id, bound)
            if snapshot is not None:
                untrusted = (
                    self.store.untrusted_snapshots(game_id) if untrusted is None else untrusted
                )
                if snapshot.version in untrusted:
                    bound = snapshot.version - 1
                    continue
            base = self._game_from_snapshot(rules, game_id, snapshot) if snapshot else None
            start = base.version + 1 if base else 1
            tail = [recorded_from(s) for s in self.store.read(game_id, start, at)]
            if base is None and not tail:
                raise GameNotFound(game_id)
            try:
                return replay(rules, [*tail, *pending], base)
            except NeedsEarlierBase as earlier:
                bound = earlier.version - 1

    def _game_from_snapshot(
        self, rules: Ruleset[Any], game_id: str, snapshot: Snapshot
    ) -> Game[Any] | None:
        """Snapshots are a cache: one whose hash does not match its own content is ignored."""
        body = json.loads(snapshot.state)
        if state_hash(body) != snapshot.state_hash:
            return None
        return decode_game(rules, body)

    def events(
        self,
        game_id: str,
        from_version: int = 1,
        to_version: int | None = None,
        limit: int | None = None,
    ) -> list[Recorded]:
        self.store.meta(game_id)
        return [recorded_from(s) for s in self.store.read(game_id, from_version, to_version, limit)]

    # --- acting ---------------------------------------------------------------------------

    def play(
        self,
        game_id: str,
        actor: Actor,
        command: Command | Mapping[str, Any],
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        credential: Credential | None = None,
        by_bot: bool = False,
    ) -> CommandOutcome:
        """A command from a seat (or the admin's rewind), as the API takes it: decided and
        appended (`handle`), then what it made due handed to the scheduler. A refusal by the
        rules is a `CommandRefused` carrying the rule's catalogue entry and the version it was
        judged at. While a step no seat takes is due, the step is asked for and the command
        waits up to `busy_hold_s` for it to be taken, then is decided again; `GameBusy` if the
        step is still due by then. `credential`: (role, token hash) the append must find still
        issued (`CredentialChanged` if not)."""
        if not isinstance(command, Command):
            command = Command.from_dict(command)
        if isinstance(actor, int) and not by_bot and command.type not in SEATING_COMMANDS:
            tables.require_person_seat(self, game_id, actor)
        held_until = time.monotonic() + self.busy_hold_s
        while True:
            try:
                outcome = self.handle(
                    game_id, actor, command, expected_version, idempotency_key, credential
                )
                break
            except RuleViolation as violation:
                entry = rule_entry(self.ruleset_of(game_id), violation.rule)
                raise CommandRefused(violation, entry, self.store.version(game_id)) from None
            except GameBusy as busy:
                version = self.store.version(game_id) if busy.version is None else busy.version
                self._schedule_steps(game_id, version, True)
                if not self._moved_on(game_id, version, held_until):
                    raise
        if not outcome.duplicate and outcome.events:
            if outcome.system_step_due and self.scheduler.steps_elsewhere:
                self._snapshot_for_the_step(game_id, outcome.version)
            self._schedule_steps(game_id, outcome.version, outcome.system_step_due)
            if not outcome.system_step_due and snapshot_due(
                self.snapshot_every, outcome.events[0].version, outcome.version
            ):  # one is written where the step became due, or after it
                self._schedule(self.scheduler.snapshot, game_id, outcome.version)
        return outcome

    def _snapshot_for_the_step(self, game_id: str, version: int) -> None:
        """Leave a snapshot of the state this process holds where a step became due, for the
        worker that takes the step: it loads that instead of folding every event since it last
        saw the game (a few hundred, between two epoch closes)."""
        game = self.cache.get(game_id)
        if game is None or game.version != version:
            return
        try:
            self._save_snapshot(self.rules_of(game), game_id, game)
        except Exception:  # the worker folds the events instead
            log.warning("could not snapshot game %s for its step", game_id, exc_info=True)

    def _moved_on(self, game_id: str, version: int, deadline: float) -> bool:
        """Whether the game moves past `version` (its due step appended) before `deadline`, a
        `time.monotonic()`: a blocking read of its stream until then."""
        left_ms = int(1000 * (deadline - time.monotonic()))
        return left_ms > 0 and bool(
            self.store.read_after(game_id, version, block_ms=left_ms, count=1)
        )

    def order_rewind(self, game_id: str, to_version: int) -> CommandOutcome:
        """The admin takes the game back to how it stood after `to_version`."""
        return self.play(game_id, ADMIN, Command.of(ORDER_REWIND, to_version=to_version))

    def _schedule_steps(self, game_id: str, version: int, due: bool | None) -> None:
        if isinstance(self.scheduler, NoScheduler):
            return
        try:
            if self.system_step_due(game_id) if due is None else due:
                self.scheduler.system_steps(game_id, version)
        except Exception:  # logged; asked for again by the next command and the sweeper
            log.warning("could not settle the system steps of game %s", game_id, exc_info=True)

    @staticmethod
    def _schedule(what: Callable[[str, int], None], game_id: str, version: int) -> None:
        try:
            what(game_id, version)
        except Exception:  # a missed snapshot only costs a longer load later
            log.warning("could not schedule work for game %s", game_id, exc_info=True)

    def handle(
        self,
        game_id: str,
        actor: Actor,
        command: Command,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        credential: Credential | None = None,
    ) -> CommandOutcome:
        """Decide a command against the current state and append its events."""
        # Only an idempotency key's record keeps the request's fingerprint.
        fingerprint = (
            hashlib.sha256(
                canonical_json([actor, command.as_dict(), expected_version]).encode()
            ).hexdigest()[:FINGERPRINT_CHARS]
            if idempotency_key
            else ""
        )
        record = idempotency_record(actor, idempotency_key) if idempotency_key else None
        if idempotency_key and record:
            prior = self._prior(game_id, actor, idempotency_key, record)
            if prior is not None:
                return self._replayed_outcome(game_id, idempotency_key, fingerprint, prior)
        try:
            return self._decide_and_append(
                game_id, actor, command, expected_version, idempotency_key, fingerprint, credential
            )
        except (VersionConflict, RuleViolation, GameBusy):
            # A concurrent request with the same key may have landed since the check above (the
            # game then moved on, so this one finds it stale or illegal): its answer stands.
            if idempotency_key and record:
                prior = self.store.idempotent_result(game_id, record)
                if prior is not None:
                    return self._replayed_outcome(game_id, idempotency_key, fingerprint, prior)
            raise

    def _prior(
        self, game_id: str, actor: Actor, key: str, record: str
    ) -> tuple[str, AppendResult] | None:
        """The recorded result of this actor's key: under its per-actor record, or under the
        bare key that logs recorded before keys were scoped per seat, if that was this actor's
        (its first event's actor); another seat's bare record is not this one's."""
        prior = self.store.idempotent_result(game_id, record)
        if prior is not None:
            return prior
        legacy = self.store.idempotent_result(game_id, key)
        if legacy is None:
            return None
        first = self.store.read(game_id, legacy[1].first_version, legacy[1].first_version)
        if first and recorded_from(first[0]).actor == actor:
            return legacy
        return None

    def _decide_and_append(
        self,
        game_id: str,
        actor: Actor,
        command: Command,
        expected_version: int | None,
        idempotency_key: str | None,
        fingerprint: str,
        credential: Credential | None = None,
    ) -> CommandOutcome:
        if command.type in REWIND_COMMANDS:
            self._require_command_boundary(game_id, command.arg("to_version"))
        use_cache = True
        for _ in range(MAX_RETRIES):
            rules, game, fresh = self._latest_known(game_id, use_cache)
            use_cache = False
            if expected_version is not None and expected_version != game.version:
                if fresh:
                    raise VersionConflict(expected_version, game.version)
                continue
            if actor not in (SYSTEM, WORKER) and self._system_step(rules, game) is not None:
                if fresh:
                    raise GameBusy(game_id, game.version)
                continue
            chance = (
                ScriptedChance(game.chance_script, game.draws)
                if game.chance_script is not None
                else Chance(
                    chance_source.LazyHmacSource(lambda: self.vault.seed(game_id)), game.draws
                )
            )
            try:
                decided = decision(rules, game, actor, command, chance, SystemTimepiece())
            except RuleViolation:
                if fresh:
                    raise
                continue
            except ChanceScriptError as unusable:
                if fresh:
                    raise ChanceScriptUnusable(unusable, game.version) from None
                continue
            try:
                return self._append(
                    rules,
                    game_id,
                    game,
                    actor,
                    decided.events,
                    idempotency_key,
                    fingerprint,
                    decided.state,
                    credential,
                )
            except VersionConflict as conflict:
                if expected_version is not None and conflict.current != expected_version:
                    raise VersionConflict(expected_version, conflict.current) from None
        raise GameBusy(game_id)

    def _latest_known(self, game_id: str, use_cache: bool) -> tuple[Ruleset[Any], Game[Any], bool]:
        """First the game as this process last saw it, with no read at all: the append's
        compare-and-set catches a game that moved on meanwhile. After that (a refusal, a
        conflict) the game as stored, which is what a refusal must be judged against."""
        cached = self.cache.get(game_id) if use_cache else None
        if cached is not None:
            return self.rules_of(cached), cached, False
        rules, game = self.load(game_id)
        return rules, game, True

    def _append(
        self,
        rules: Ruleset[Any],
        game_id: str,
        game: Game[Any],
        actor: Actor,
        events: list[Event],
        idempotency_key: str | None,
        fingerprint: str,
        state_after: Any = None,
        credential: Credential | None = None,
    ) -> CommandOutcome:
        """Append a command's events; `state_after`: the ruleset's state after them, when the
        decision has it (None: fold them); `credential`: checked by the append itself."""
        if actor == WORKER and FAULT_PAUSE_S:
            time.sleep(FAULT_PAUSE_S)  # fault injection: a worker killed between decide and append
        command_id = idempotency_key or secrets.token_hex(8)  # unique per actor in its game
        at = now_iso()
        recorded = tuple(
            Recorded(game.version + i, e, actor, command_id, at)
            for i, e in enumerate(events, start=1)
        )
        try:
            after = fold_decided(rules, game, recorded, state_after)
        except NeedsEarlierBase:
            after = self._load_from_snapshot(rules, game_id, game.version, recorded)
        if after.chance_script is not None and actor not in (SYSTEM, WORKER):
            script_covers_steps(rules, after, game.version)
        if FAULT_PAUSE_BEFORE_APPEND_S:
            fault_pause("before", FAULT_PAUSE_BEFORE_APPEND_S, game_id, command_id)
        envelopes = tuple(r.as_dict() for r in recorded)
        status = self.status_of(rules, after)
        status_was = self.status_of(rules, game)
        if status != status_was:
            self.store.index_status(game_id, rules.name, status)
        mark = None
        if after.seating is not None:  # its notifications survive a crash right after the append
            mark = tables.mark_unnotified(self, game_id, game.version)
        result = self.store.append(
            game_id,
            [stored_payload(envelope) for envelope in envelopes],
            expected_version=game.version,
            idempotency_key=idempotency_record(actor, idempotency_key) if idempotency_key else None,
            fingerprint=fingerprint,
            meta={"status": status, **self.meta_of(rules, after)},
            credential=credential,
        )
        if status != status_was and not result.duplicate:
            self.store.unindex_status(game_id, rules.name, status_was)
        if FAULT_PAUSE_AFTER_APPEND_S and not result.duplicate:
            fault_pause("after", FAULT_PAUSE_AFTER_APPEND_S, game_id, command_id)
        if result.duplicate:
            return self._replayed_outcome(
                game_id, idempotency_key or "", fingerprint, (fingerprint, result)
            )
        self.cache.put(game_id, after)
        if after.seating is not None:
            tables.settle(self, rules, game_id, game, after, mark)
        if is_over(rules, after) and after.seed_revealed is None:
            self.reveal_seed(game_id)
        due = self._system_step(rules, after) is not None
        return CommandOutcome(
            game_id, recorded, result.last_version, system_step_due=due, envelopes=envelopes
        )

    def expire_unstarted(self, ttl_s: float, now: float, limit: int = 500) -> list[str]:
        """Delete the games created more than `ttl_s` ago that no seat ever acted in (only the
        creation's events, and steps the system took, in their logs); returns their ids. A game
        a seat has acted in is never deleted: it leaves the list of candidates, and a command
        appended while this runs keeps its game (the delete checks the version it read)."""
        expired: list[str] = []
        started: list[str] = []
        self.store.ensure_indexed()  # games made before the unstarted list are put on it
        for game_id in self.store.unstarted_before(now - ttl_s, limit):
            try:
                version = self.store.version(game_id)
            except GameNotFound:
                started.append(game_id)  # gone already: nothing to keep on the list
                continue
            if self._a_seat_acted(game_id, version):
                started.append(game_id)
            elif self.store.expire_game(game_id, version):
                self.cache.drop(game_id)
                expired.append(game_id)
        self.store.forget_unstarted(*started)
        return expired

    def _a_seat_acted(self, game_id: str, version: int) -> bool:
        """Whether any event of the game was recorded for a seat's command (or its log is too
        long to tell cheaply, which counts as acted: never expire on a guess)."""
        if version > UNSTARTED_MAX_EVENTS:
            return True
        return any(
            isinstance(stored.decoded().get("actor"), int)
            for stored in self.store.read(game_id, 1, version)
        )

    def reveal_seed(self, game_id: str, early: bool = False) -> CommandOutcome | None:
        """Publish the game's secret seed in the log (contracts §4), once: at the end of the
        game, or earlier when the admin orders it. None if it was already revealed."""
        rules, game = self.load(game_id)
        if game.seed_revealed is not None:
            return None
        revealed = SeedRevealed(
            rule=rules.chance_rule or rules.end_rule,
            seed=self.vault.seed(game_id).hex(),
            early=early,
        )
        try:
            outcome = self._append(
                rules, game_id, game, SYSTEM, [revealed], "reveal-seed", "reveal-seed"
            )
        except VersionConflict:
            return self.reveal_seed(game_id, early)
        return None if outcome.duplicate else outcome

    def _replayed_outcome(
        self, game_id: str, key: str, fingerprint: str, prior: tuple[str, Any]
    ) -> CommandOutcome:
        stored_fingerprint, result = prior
        if stored_fingerprint[:FINGERPRINT_CHARS] != fingerprint:
            raise IdempotencyKeyReused(key, self.store.version(game_id))
        events = tuple(self.events(game_id, result.first_version, result.last_version))
        return CommandOutcome(game_id, events, result.last_version, duplicate=True)

    def _require_command_boundary(self, game_id: str, version: Any) -> None:
        """A rewind goes back to the end of a command, never into the middle of one."""
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            return  # the kernel refuses it with the rule
        if version >= self.store.version(game_id):
            return  # not a version of the game (beyond any stream id too): the kernel refuses it
        pair = self.store.read(game_id, version, version + 1)
        ends = [recorded_from(stored) for stored in pair]
        if len(ends) == 2 and (ends[0].actor, ends[0].command_id) == (
            ends[1].actor,
            ends[1].command_id,
        ):
            rules = self.ruleset_of(game_id)
            raise IllegalAction(
                f"version {version} is in the middle of a command: rewind to the end of one",
                rules.undo_rule or rules.turn_rule,
                {"to_version": version},
            )

    # --- system steps ---------------------------------------------------------------------

    @staticmethod
    def _system_step(rules: Ruleset[Any], game: Game[Any]) -> Command | None:
        return None if is_over(rules, game) else rules.system_action(game.state)

    def system_step_due(self, game_id: str) -> bool:
        """Whether the game waits for a step no seat takes (e.g. closing an epoch)."""
        rules, game = self.load(game_id)
        return self._system_step(rules, game) is not None

    def run_system_steps(self, game_id: str, max_steps: int = MAX_SYSTEM_STEPS) -> int:
        """Run every system step that is due, one command each, until a seat is awaited or the
        game ends. Safe to run twice at once: each step is appended only at the version it was
        decided at, so a step another runner took first is not taken again. The game is then
        snapshotted, unless the seat that made the steps due left a usable snapshot there."""
        taken = 0
        rules, game, newest = self._load_newest(game_id)
        due_at, settled = game.version, True
        for _ in range(max_steps * 2):
            due = self._system_step(rules, game)
            if due is None:
                break
            if taken >= max_steps:
                settled = False
                break
            try:
                outcome = self.handle(game_id, WORKER, due, expected_version=game.version)
            except VersionConflict:
                rules, game = self.load(game_id)
                settled = False
                continue
            taken += 1
            game = self._state_after(game_id, outcome.version)
        if taken and not (settled and newest == due_at):
            self._save_snapshot(rules, game_id, game)
        return taken

    def _load_newest(self, game_id: str) -> tuple[Ruleset[Any], Game[Any], int | None]:
        """The current game, from its newest snapshot when that is further ahead of the state
        this process holds than folding the events between is cheap; and the version of that
        snapshot, None if it is marked untrusted."""
        newest = self.store.newest_snapshot_version(game_id)
        untrusted = self.store.untrusted_snapshots(game_id) if newest is not None else set()
        usable = None if newest is None or newest in untrusted else newest
        cached = self.cache.get(game_id)
        if (
            usable is None
            or cached is None
            or usable - cached.version <= TAIL_CHEAPER_THAN_SNAPSHOT
        ):
            return *self.load(game_id), usable
        rules = self.rules_of(cached)
        game = self._load_from_snapshot(rules, game_id, None, newest=(usable, untrusted))
        self.cache.put(game_id, game)
        return rules, game, usable

    def _state_after(self, game_id: str, version: int) -> Game[Any]:
        """The game as this process's own append left it at `version` (read again only if the
        cache has let it go since)."""
        cached = self.cache.get(game_id)
        if cached is not None and cached.version == version:
            return cached
        return self.load_at(game_id, version)[1]

    # --- snapshots ------------------------------------------------------------------------

    def write_snapshot(self, game_id: str, version: int | None = None) -> int:
        rules, game = self.load(game_id) if version is None else self.load_at(game_id, version)
        return self._save_snapshot(rules, game_id, game)

    def _save_snapshot(self, rules: Ruleset[Any], game_id: str, game: Game[Any]) -> int:
        body = encode_game(rules, game)
        self.store.save_snapshot(game_id, game.version, canonical_json(body), state_hash(body))
        return game.version


def fault_pause(where: str, seconds: float, game_id: str, command_id: str) -> None:
    """Fault injection (see FAULT_PAUSE_BEFORE_APPEND_S): say where this process stops, then
    stop there long enough for a crash test to kill it."""
    print(
        f"chronicle fault injection: pid {os.getpid()} pausing {seconds}s {where} appending "
        f"command {command_id} to game {game_id}",
        file=sys.stderr,
        flush=True,
    )
    time.sleep(seconds)


def idempotency_record(actor: Actor, key: str) -> str:
    """The field under which the store records an idempotency key: keys are scoped per actor
    (seat 2 may use a key seat 0 used, and gets its own result). Neither an actor nor a key
    holds a space, so the pair is unambiguous."""
    return f"{actor} {key}"


def new_game_id() -> str:
    return uuid.uuid4().hex


def check_position(rules: Ruleset[Any], events: list[Event]) -> None:
    """A sandbox's position must load and answer every question the service will ask of it:
    a position the ruleset cannot read is refused here, not by a failure on a later request."""
    try:
        game = replay(rules, [Recorded(i, e, "system") for i, e in enumerate(events, start=1)])
        state = game.state
        seats = list(game.setup.seats)
        rules.awaited_seats(state)
        for seat in seats:
            list(rules.legal_actions(state, seat))
        for viewer in [*seats, None]:
            json.dumps(rules.view(state, viewer))
        json.dumps(rules.summary(state))
        rules.is_over(state)
        rules.system_action(state)
        broken = rules.invariant_failures(state)
        if broken:
            raise InvalidPosition(
                f"the position breaks the ruleset's invariants: {'; '.join(broken)}"[:500],
                {"reason": "invariant", "invariants": broken[:20]},
            )
        try_first_moves(rules, state, seats)
        if state_hash(rules.encode_state(state)) != state_hash(
            rules.encode_state(rules.decode_state(rules.encode_state(state)))
        ):
            raise ValueError("the position does not survive encoding")
    except InvalidPosition:
        raise
    except Exception as exc:  # any failure of the ruleset on this input means "not a position"
        raise InvalidPosition(
            f"the ruleset cannot use this position: {type(exc).__name__}: {exc}"[:500],
            {"reason": type(exc).__name__},
        ) from None


UNSTARTED_MAX_EVENTS = 200
"""A game with more events than this is taken as started without reading them."""

TRIAL_MOVES = 3
"""How many of each awaited seat's legal actions a new sandbox decides on trial."""


def try_first_moves(rules: Ruleset[Any], state: Any, seats: Sequence[int]) -> None:
    """Decide, on a throwaway chance source, the step the system must take now and the first
    few legal actions of each awaited seat: a position the rules refuse to play from is
    refused when it is loaded, not by a 500 on the next command. A refusal by the rules
    (a RuleViolation) is an answer, not a failure."""
    trial = chance_source.HmacSource(bytes(chance_source.SEED_BYTES))
    due = rules.system_action(state)
    if due is not None:
        rules.decide_system(state, due, Chance(trial, 0))
    awaited = set(rules.awaited_seats(state))
    if due is None and not awaited and not rules.is_over(state):
        raise InvalidPosition(
            "nobody can move from this position: it awaits no seat, the system has no step to "
            "take, and the game is not over",
            {"reason": "stuck"},
        )
    for seat in (s for s in seats if s in awaited):
        for n, command in enumerate(rules.legal_actions(state, seat)):
            if n == TRIAL_MOVES:
                break
            try:
                rules.decide(state, seat, command, Chance(trial, 0))
            except RuleViolation:
                continue


class InvalidPosition(Exception):
    """A position document the ruleset cannot start a game from."""

    def __init__(self, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = dict(details or {})


MAX_SCRIPT = 1000
"""The most entries a sandbox's chance script may hold."""


def chance_script(rules: Ruleset[Any], chance: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    """A sandbox's chance script from the request's `chance`: `faces` (die faces, each a draw
    of [0, die_sides), face f read as f - 1) or `draws` (`[n, result]` pairs, a whole number in
    [0, n) each), not both; refused as `InvalidChanceScript` when it cannot be used."""
    faces, draws = chance.get("faces"), chance.get("draws")
    if (faces is None) == (draws is None):
        raise InvalidChanceScript(
            "a chance script gives either `faces` (die faces) or `draws` ([n, result] pairs), "
            "exactly one of them; a die face f of a d6 among other draws is the draw [6, f-1]",
            {"given": sorted(chance)},
        )
    sides = rules.die_sides
    if faces is not None:
        wrong = [i for i, face in enumerate(faces) if not 1 <= face <= sides]
        if wrong:
            raise InvalidChanceScript(
                f"{rules.name} rolls a d{sides}: every face is 1 to {sides}; face {wrong[0]} "
                f"is {faces[wrong[0]]}",
                {"faces": wrong[:20], "sides": sides},
            )
        script = tuple((sides, int(face) - 1) for face in faces)
    else:
        script = tuple((int(n), int(result)) for n, result in draws)
        wrong_draws = script_problems(script)
        if wrong_draws:
            raise InvalidChanceScript(
                f"every draw is [n, result] with 0 <= result < n: {wrong_draws[0]}",
                {"draws": wrong_draws[:20]},
            )
    if not 1 <= len(script) <= MAX_SCRIPT:
        raise InvalidChanceScript(
            f"a chance script holds 1 to {MAX_SCRIPT} entries, this one {len(script)}",
            {"entries": len(script)},
        )
    return script


def script_covers_steps(rules: Ruleset[Any], game: Game[Any], version: int) -> None:
    """In a scripted sandbox, a seat's command is refused (`ChanceScriptUnusable`, judged at
    `version`) when the steps no seat takes that it makes due (an epoch closing) would need
    draws the script cannot give: the sandbox is never left closing on a step it cannot take."""
    script = game.chance_script
    if script is None:
        return
    for _ in range(MAX_SYSTEM_STEPS):
        due = GameService._system_step(rules, game)
        if due is None:
            return
        try:
            decided = decision(rules, game, WORKER, due, ScriptedChance(script, game.draws))
        except ChanceScriptError as unusable:
            raise ChanceScriptUnusable(unusable, version) from None
        steps = tuple(
            Recorded(game.version + i, e, WORKER, "script-check")
            for i, e in enumerate(decided.events, start=1)
        )
        try:
            game = fold_decided(rules, game, steps, decided.state)
        except NeedsEarlierBase:
            return  # a step that takes something back: nothing more to foresee here


class InvalidChanceScript(Exception):
    """A sandbox's chance script that cannot be used (a face off the die, a draw outside its
    range, both or neither of faces and draws)."""

    def __init__(self, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = dict(details or {})


class ChanceScriptUnusable(Exception):
    """A command of a scripted sandbox needs a draw its script cannot give: the script has run
    out (`exhausted`) or its next entry is of another range. Nothing is recorded; a script never
    falls back to the seed. Make a new sandbox with a longer (or fitting) script."""

    def __init__(self, error: ChanceScriptError, current_version: int) -> None:
        super().__init__(error.message)
        self.message = error.message
        self.exhausted = error.exhausted
        self.current_version = current_version
        self.details: dict[str, Any] = {"k": error.k, "n": error.n, "script_entries": error.given}
        if error.scripted is not None:
            self.details["scripted"] = list(error.scripted)


class CommandRefused(Exception):
    """A command the rules refuse, with the catalogue entry of the rule it breaks (None: the
    ruleset has no catalogue) and the version it was judged at."""

    def __init__(
        self, violation: RuleViolation, entry: dict[str, Any] | None, current_version: int
    ) -> None:
        super().__init__(violation.message)
        self.violation = violation
        self.entry = entry
        self.current_version = current_version


class GameBusy(Exception):
    """The game cannot take a seat's command now: it is contended, or a system step (such as
    closing an epoch) must run first."""

    def __init__(self, game_id: str, version: int | None = None) -> None:
        super().__init__(f"game {game_id} is busy; retry shortly")
        self.game_id = game_id
        self.version = version  # where a due step was found (None: contended, not read)


class VersionOutOfRange(Exception):
    def __init__(self, version: int, current: int) -> None:
        super().__init__(f"version {version} is outside 1..{current}")
        self.version = version
        self.current = current


def encode_game(rules: Ruleset[Any], game: Game[Any]) -> dict[str, Any]:
    return {
        "setup": {
            "ruleset": game.setup.ruleset,
            "players": list(game.setup.players),
            "options": dict(game.setup.options),
            "seed_commitment": game.setup.seed_commitment,
            "revision": game.setup.revision,
            "pack_digest": game.setup.pack_digest,
        },
        "version": game.version,
        "draws": game.draws,
        "seed_revealed": game.seed_revealed,
        "undoable": [
            [u.seat, u.command_id, u.from_version, u.to_version, u.scope] for u in game.undoable
        ],
        "barrier_command": game.barrier_command,
        "proposal": None
        if game.proposal is None
        else [game.proposal.seat, game.proposal.to_version, sorted(game.proposal.accepted)],
        "last_commands": list(game.last_commands),
        "created_through": game.created_through,
        "creation_command": game.creation_command,
        "state": rules.encode_state(game.state),
        # only where a seating event happened: other games' snapshots keep their shape
        **({} if game.seating is None else {"seating": encoded_seating(game.seating)}),
    } | ({} if game.chance_script is None else {"chance_script": game.chance_script})


def decode_game(rules: Ruleset[Any], body: Mapping[str, Any]) -> Game[Any]:
    setup = body["setup"]
    return Game(
        Setup(
            setup["ruleset"],
            tuple(setup["players"]),
            setup["options"],
            setup["seed_commitment"],
            int(setup.get("revision", 1)),
            setup.get("pack_digest", ""),
        ),
        int(body["version"]),
        int(body["draws"]),
        rules.decode_state(body["state"]),
        body.get("seed_revealed"),
        tuple(UndoStep(*step) for step in body.get("undoable", ())),
        body.get("barrier_command", ""),
        None
        if body.get("proposal") is None
        else Proposal(body["proposal"][0], body["proposal"][1], frozenset(body["proposal"][2])),
        tuple(body.get("last_commands", ())),
        int(body.get("created_through", 0)),
        body.get("creation_command", ""),
        None
        if body.get("chance_script") is None
        else tuple((int(n), int(result)) for n, result in body["chance_script"]),
        None if body.get("seating") is None else decoded_seating(body["seating"]),
    )
