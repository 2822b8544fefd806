"""The command handler: the one place where a command meets the store (contracts §1).

load the game (`service.loading`) → decide → append with the expected version → publish what
follows to the subscribers (`service.bus`, wired in `service.subscribers`) → return the new
events and version. The API and the workers both call this; neither has its own copy of the
rules.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from domain.core.chance import Chance, ChanceScriptError, ScriptedChance
from domain.core.errors import IllegalAction, RuleViolation
from domain.core.kernel import (
    Game,
    NeedsEarlierBase,
    SeedRevealed,
    creation_events,
    decision,
    fold_decided,
    replay,
)
from domain.core.messages import SYSTEM, WORKER, Actor, Command, Event, Recorded
from domain.core.ruleset import CommandSpec, Ruleset, command_misfits
from domain.core.seating import SEATING_COMMANDS, TableOpened
from domain.core.table import ADMIN, ORDER_REWIND, PROPOSE_REWIND, TABLE_COMMAND_SPECS
from service import chance as chance_source
from service import faults, subscribers
from service.auth import Credential, IssuedTokens
from service.bus import Change, CommandPlayed, GameCreated, Subscribers
from service.clock import SystemTimepiece
from service.codec import canonical_json, now_iso, recorded_from, stored_payload
from service.errors import CommandRefused, GameBusy, SeatNotPlayable
from service.loading import MAX_SYSTEM_STEPS, GameLoader, StateCache
from service.rulesets import rule_entry
from service.rulesets import ruleset as bound_ruleset
from service.sandboxes import ChanceScriptUnusable, sandbox_start, script_covers_steps
from service.scheduler import NoScheduler, Scheduler
from store.credentials import SecretVault
from store.errors import IdempotencyKeyReused, VersionConflict
from store.records import AppendResult
from store.redis_store import EventStore

MAX_RETRIES = 8
FINGERPRINT_CHARS = 32  # 128 bits of SHA-256 (keys stored with all 64 still compare)
REWIND_COMMANDS = frozenset({PROPOSE_REWIND, ORDER_REWIND})


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


class GameService(GameLoader):
    """Games, from their creation on: each command loaded, decided, appended and published to
    the service's subscribers (by default `service.subscribers.SUBSCRIBERS`)."""

    def __init__(
        self,
        store: EventStore,
        vault: SecretVault,
        rulesets: Callable[[str], Ruleset[Any]] = bound_ruleset,
        cache: StateCache | None = None,
        scheduler: Scheduler | None = None,
        snapshot_every: int = 0,
        busy_hold_s: float = 0.0,
        subscribers: Subscribers = subscribers.SUBSCRIBERS,
    ) -> None:
        super().__init__(store, rulesets, cache)
        self.vault = vault
        self.scheduler: Scheduler = scheduler or NoScheduler()
        self.snapshot_every = snapshot_every
        self.busy_hold_s = busy_hold_s
        self.subscribers = subscribers

    def scheduled(
        self, scheduler: Scheduler, snapshot_every: int, busy_hold_s: float = 0.0
    ) -> GameService:
        """This service (its store, vault, rulesets, cache and subscribers) with what follows a
        command, due steps and snapshots, handed to `scheduler`; a command that finds a step due
        waits up to `busy_hold_s` for it to be taken before it is refused as busy."""
        return GameService(
            self.store,
            self.vault,
            self.rulesets,
            self.cache,
            scheduler,
            snapshot_every,
            busy_hold_s,
            self.subscribers,
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
        events, players, seed, commitment = sandbox_start(rules, source_game_id, position, chance)
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
        follows = self.subscribers.appending(self, Change(rules, game_id, None, game))
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
        self.subscribers.appended(follows)
        self.subscribers.publish(self, GameCreated(game_id, version))
        return CreatedGame(
            game_id, version, commitment, tokens, recorded, rules.name, tuple(players)
        )

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
            require_person_seat(self, game_id, actor)
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
                subscribers.schedule_steps(self, game_id, version, True)
                if not self._moved_on(game_id, version, held_until):
                    raise
        if not outcome.duplicate and outcome.events:
            first = outcome.events[0].version
            played = CommandPlayed(game_id, first, outcome.version, outcome.system_step_due)
            self.subscribers.publish(self, played)
        return outcome

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
        command_id = idempotency_key or secrets.token_hex(8)  # unique per actor in its game
        if actor == WORKER:
            faults.reached(faults.BEFORE_WORKER_APPEND, game_id, command_id)
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
        faults.reached(faults.BEFORE_APPEND, game_id, command_id)
        envelopes = tuple(r.as_dict() for r in recorded)
        change = Change(rules, game_id, game, after)
        follows = self.subscribers.appending(self, change)
        result = self.store.append(
            game_id,
            [stored_payload(envelope) for envelope in envelopes],
            expected_version=game.version,
            idempotency_key=idempotency_record(actor, idempotency_key) if idempotency_key else None,
            fingerprint=fingerprint,
            meta={"status": change.status, **self.meta_of(rules, after)},
            credential=credential,
        )
        if result.duplicate:
            return self._replayed_outcome(
                game_id, idempotency_key or "", fingerprint, (fingerprint, result)
            )
        faults.reached(faults.AFTER_APPEND, game_id, command_id)
        self.cache.put(game_id, after)
        self.subscribers.appended(follows)
        due = self._system_step(rules, after) is not None
        return CommandOutcome(
            game_id, recorded, result.last_version, system_step_due=due, envelopes=envelopes
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

    # --- system steps ---------------------------------------------------------------------

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
            self.save_snapshot(rules, game_id, game)
        return taken


def idempotency_record(actor: Actor, key: str) -> str:
    """The field under which the store records an idempotency key: keys are scoped per actor
    (seat 2 may use a key seat 0 used, and gets its own result). Neither an actor nor a key
    holds a space, so the pair is unambiguous."""
    return f"{actor} {key}"


def new_game_id() -> str:
    return uuid.uuid4().hex


def require_person_seat(service: GameLoader, game_id: str, seat: int) -> None:
    cached = service.cache.get(game_id)
    if cached is not None and cached.seating is None:
        return
    _, game = service.load(game_id) if cached is None else (None, cached)
    seating = game.seating
    if seating is not None and 0 <= seat < len(seating.left) and seating.left[seat]:
        raise SeatNotPlayable(seat, seating.left[seat])
