"""The conformance kit: what every ruleset must do, checked by random play (tests/conformance).

Every registered ruleset (`service.rulesets.available()`, which includes the toys of
tests/support/toy.py once that module is imported) is played by a seeded random bot, game `i`
of ruleset `R` from the chance seed SHA-256("conformance:R:i") and a bot seeded with the same
text, so any failing game can be played again alone (`play(subject, i)`). In even games the
bot picks uniformly among the legal actions; in odd games it first picks a command type, then
one action of that type, so that a type listed once (a trade, a declaration) is played as
often as one listed a hundred times (a placement). Game `i` takes its
player count and its options from `configuration`: every supported player count, and each
declared boolean option on and off, all on together and all off together, where
`check_options` allows the combination (options with a list of allowed values take them in
turn). `CHRONICLE_CONFORMANCE_GAMES` sets the number of games per ruleset (default
`DEFAULT_GAMES`); they are split into batches of `BATCH` games, one test per batch and check.

The checks (each a function returning what it found wrong, in words that name the game):

- `play`: the ruleset's `invariant_failures` after every event; every event cites a rule of
  the catalogue; somebody can always act (a seat the game waits for with a legal action, or a
  due system step) and the game ends within `MAX_COMMANDS` commands.
- `replay_failures`: `replay` of the log (in memory, and read back from its stored form) gives
  the state reached while playing, also at sampled versions in the middle; the state a
  ruleset's `decision` hands back equals the fold of its events.
- `codec_failures`: at every command boundary `decode_state(encode_state(s))` (through JSON)
  equals `s` and encodes to the same JSON again.
- `legal_action_failures`: at sampled boundaries, `legal_actions` lists the same actions in the
  same order twice, lists nothing for a seat the game does not wait for and something for one
  it does; every listed action (a sample when the list is long) is accepted by `is_legal` and
  by the kernel's `decide`.
- `refusal_failures`: unknown command types, listed types with unknown, missing or extra
  arguments, a listed action sent by a seat the game does not wait for, an undue system step,
  an undo with nothing to undo, anything after the game ended, and refused player counts and
  options: each is refused with a `RuleViolation` whose rule id is in the ruleset's rules
  catalogue (and `is_legal` agrees that the command is not legal).
- `indistinguishable_failures` and `hidden_word_failures`: views leak nothing (below).
- `position_failures`: a sandbox game made with `position_events` from the JSON of a mid-game
  state, stored and read back (`Recorded.as_dict` / `Recorded.from_dict`), has that state, the
  same awaited seats and the same legal actions.

Views leak nothing. Two checks, both generic (no knowledge of any ruleset's secrets):

1. `indistinguishable_failures`, noninterference. What a viewer (a seat, or None for a
   spectator) may know is its projection of the log: each event as `Recorded.seen_by(viewer)`
   serves it (in full when `visibility.shows_to(viewer)`, else the public redacted form without
   chance draws). Two histories with the same projection must tell the viewer the same: the same
   `view`, `summary`, awaited seats, and (for a seat) legal actions. The kit makes such pairs
   from the game played: at sampled command boundaries it decides, from the same position,
   (a) other legal actions of the same seat (a different sealed bid, another card kept), and
   (b) the same command with the chance outcomes that only went into events hidden from the
   viewer drawn again from another seed (a different token drawn, another shuffle); the same
   for the game's setting up. Whenever the viewer's projection of the alternative's events
   equals that of the events played, both are folded and what the viewer is told must be
   equal; the game's next commands are then played on both (while legal on both and while the
   viewer still cannot tell the two apart), comparing after each. This is sound for any secret,
   numbers included (a toy's sealed bid of 3 chips is a 3 like any other), because both states
   are real states the rules reach. It only finds a leak that the alternatives reach: a secret
   the sampled branches never vary (or a leak that shows only after a command that is not
   legal on the alternative branch) goes unseen. It assumes that what the viewer may know is
   in its projection of the log: a ruleset whose rules make a hidden item observable through
   the flow of play alone (whose turn it is, what a seat may do) must say so with an event, or
   this check reports it.

2. `hidden_word_failures`, a text search. At every version of a game, every string that a
   data value of an event hidden from the viewer holds (ids of cards, tokens, lands; keys and
   values, at any depth) must not appear in the viewer's `view` (keys or values) unless the
   viewer learned it: from the events it could see in full, the redacted forms of the others,
   up to the end of the command that made the version (a command's events are appended
   together, so no answer is about a version inside a command before the command is done), or
   the view of the game before anything was set up (the printed board, the names of things).
   This finds leaks at any later version, where the first check needs an alternative. It is
   limited to strings: numbers are not searched, because a hidden number (a bid of 3 chips, a
   die face) is always somewhere in a view for some other reason (a count, a score, a round),
   so a search for it would report leaks that are none; the first check covers numbers. It
   cannot see an order as a secret (a shuffled stack whose items are public but whose order is
   not): the items are learned, so the text search says nothing; the first check covers it when
   a reshuffle is drawn again. And a string cannot tell which thing it names: a card named like
   a land (hotw-2024's `persia`, `britain`) shows in every view as the land. So a word that the
   game's public events name under a data field that its hidden events never use it in (`land`
   public, `card` hidden) is not searched (`homonyms`); nor is anything the view of the blank
   state names. A leak of such a card is left to the first check.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain.core.catalogue import RulesCatalogue
from domain.core.chance import Chance
from domain.core.errors import RuleViolation
from domain.core.kernel import Game, creation_events, decision, fold, position_events, replay
from domain.core.messages import SYSTEM, Actor, Command, Event, Recorded, plain_value
from domain.core.ruleset import CommandSpec, Ruleset, Setup, command_misfits
from domain.core.table import TABLE_COMMAND_SPECS, UNDO
from domain.core.undo import table_actions
from service.chance import HmacSource

GAMES_ENV = "CHRONICLE_CONFORMANCE_GAMES"
DEFAULT_GAMES = 24
BATCH = 12
"""Games per test: the default run is two batches per ruleset, which xdist spreads."""
MAX_COMMANDS = 20_000
COMMITMENT = "0" * 64
"""The seed commitment of every kit game: the same for every seed, so that two games of
different chance seeds can look alike to a viewer."""

LEGAL_STATES = 8
"""Command boundaries per game at which every seat's legal actions are checked."""
LEGAL_SAMPLE = 12
"""Listed actions per seat and state that are decided (all of them when fewer)."""
REFUSAL_STATES = 4
POSITION_STATES = 3
REPLAY_STATES = 3
LEAK_STEPS = 6
"""Command boundaries per game (besides the setting up) where alternatives are decided."""
LEAK_ALTERNATIVES = 3
"""Other legal actions of the acting seat tried at such a boundary."""
LEAK_HORIZON = 8
"""Commands of the game played on after an alternative, while the viewer cannot tell."""
WORD_GAMES = 2
CODEC_STATES = 30
"""Command boundaries per game whose state goes through its JSON form, besides the first
`WORD_GAMES` games of each batch, where every boundary does (encoding a whole hotw-2024 state
costs a third of a millisecond, and a game has hundreds of boundaries)."""
"""Games of each batch whose every version is searched for hidden words (the search costs a
view per viewer and version)."""

UNKNOWN_TYPE = "conformance_no_such_command"
UNKNOWN_TEXT = "conformance-no-such-value"
EXTRA_ARGUMENT = "conformance_extra"

SUPPORT = Path(__file__).resolve().parent
CATALOGUE_FILES: dict[str, Path] = {
    "toy-sealed-bids": SUPPORT / "toy_rules.yaml",
    "toy-sealed-bids-closing": SUPPORT / "toy_rules.yaml",
    "toy-sealed-bids-resolved": SUPPORT / "toy_rules.yaml",
}
"""Catalogues of rulesets whose data pack has none (the toys have no data pack)."""


def games_per_ruleset() -> int:
    return int(os.environ.get(GAMES_ENV, DEFAULT_GAMES))


def batches() -> list[range]:
    total = games_per_ruleset()
    return [range(start, min(start + BATCH, total)) for start in range(0, total, BATCH)]


# --- the rulesets under test ------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Subject:
    """A ruleset under test, bound to its pack, with its rules catalogue."""

    rules: Ruleset[Any]
    catalogue: RulesCatalogue | None

    @property
    def name(self) -> str:
        return self.rules.name


def ruleset_names() -> list[str]:
    """Every registered ruleset: the built-in ones, those named in $CHRONICLE_RULESET_MODULES,
    and the toys (registered by importing their module)."""
    import tests.support.toy  # noqa: F401  (registers the toy rulesets)
    from service.rulesets import available

    return available()


@functools.cache
def subject(name: str) -> Subject:
    from service.rulesets import ruleset

    rules = ruleset(name)
    return Subject(rules, catalogue_of(rules))


def catalogue_of(rules: Ruleset[Any]) -> RulesCatalogue | None:
    """The ruleset's rules catalogue: its data pack's (as the explain endpoint finds it), else
    one kept for it under tests/support."""
    packed = getattr(rules.pack, "rules", None)
    if isinstance(packed, RulesCatalogue):
        return packed
    path = CATALOGUE_FILES.get(rules.name)
    return load_catalogue(path) if path is not None else None


@functools.cache
def load_catalogue(path: Path) -> RulesCatalogue:
    from packs.base import load_rules_catalogue

    return load_rules_catalogue(path)


def cites_catalogue(subject: Subject, rule: str) -> bool:
    return subject.catalogue is not None and rule in subject.catalogue


# --- configurations ---------------------------------------------------------------------------


def option_sets(rules: Ruleset[Any]) -> list[dict[str, Any]]:
    """The declared defaults; each boolean option on and off; all on; all off: those that
    `check_options` allows, each distinct set of resolved options once."""
    bools = [spec.name for spec in rules.options if spec.kind is bool]
    candidates: list[dict[str, Any]] = [{}]
    for name in bools:
        candidates += [{name: True}, {name: False}]
    candidates += [dict.fromkeys(bools, True), dict.fromkeys(bools, False)]
    chosen: list[dict[str, Any]] = []
    seen: set[str] = set()
    for given in candidates:
        try:
            resolved = rules.check_options(given)
        except RuleViolation:
            continue
        key = json.dumps(resolved, sort_keys=True)
        if key not in seen:
            seen.add(key)
            chosen.append(given)
    return chosen


def refused_option_sets(rules: Ruleset[Any]) -> list[dict[str, Any]]:
    bools = [spec.name for spec in rules.options if spec.kind is bool]
    candidates = [{name: value} for name in bools for value in (True, False)]
    candidates += [dict.fromkeys(bools, True), dict.fromkeys(bools, False)]
    candidates += [{a: True, b: False} for a in bools for b in bools if a != b]
    refused = []
    for given in candidates:
        try:
            rules.check_options(given)
        except RuleViolation:
            refused.append(given)
    return refused


def configuration(rules: Ruleset[Any], index: int) -> tuple[int, dict[str, Any]]:
    """Player count and options of game `index`: every count and every option set come round
    within the first max(counts, sets) games, and every pair of them in the end."""
    counts = sorted(rules.player_counts)
    sets = option_sets(rules)
    cycle = math.lcm(len(counts), len(sets))
    options = dict(sets[(index + index // cycle) % len(sets)])
    for spec in rules.options:
        if spec.kind is not bool and spec.allowed and spec.name not in options:
            candidate = {**options, spec.name: spec.allowed[index % len(spec.allowed)]}
            try:
                rules.check_options(candidate)
            except RuleViolation:
                continue
            options = candidate
    return counts[index % len(counts)], options


# --- playing ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One command of a game: decided on the game at version `before`; its events are the
    versions `before + 1` .. `after`."""

    before: int
    after: int
    actor: Actor
    command: Command
    command_id: str


@dataclass
class Playthrough:
    subject: Subject
    index: int
    players: tuple[str, ...]
    options: dict[str, Any]
    secret: bytes
    log: list[Recorded] = field(default_factory=list)
    games: list[Game[Any]] = field(default_factory=list)
    """games[v - 1]: the game after version v."""
    steps: list[Step] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    decision_mismatches: list[str] = field(default_factory=list)

    @property
    def rules(self) -> Ruleset[Any]:
        return self.subject.rules

    @property
    def created_through(self) -> int:
        return self.steps[0].before if self.steps else len(self.log)

    @property
    def final(self) -> Game[Any]:
        return self.games[-1]

    def at(self, version: int) -> Game[Any]:
        return self.games[version - 1]

    def events_of(self, step: Step) -> list[Recorded]:
        return self.log[step.before : step.after]

    def where(self) -> str:
        return (
            f"{self.subject.name} game {self.index} ({len(self.players)} players, "
            f"options {self.options})"
        )

    def source(self) -> HmacSource:
        return HmacSource(self.secret)

    def rng(self, purpose: str) -> random.Random:
        return random.Random(f"conformance:{purpose}:{self.subject.name}:{self.index}")

    def boundaries(self) -> list[int]:
        """Every version between two commands, and the last."""
        return [self.created_through, *(step.after for step in self.steps)]

    def sample(self, purpose: str, count: int) -> list[Step]:
        steps = self.steps
        if len(steps) <= count:
            return list(steps)
        return sorted(self.rng(purpose).sample(steps, count), key=lambda s: s.before)


def game_secret(name: str, index: int) -> bytes:
    return hashlib.sha256(f"conformance:{name}:{index}".encode()).digest()


def play(subject: Subject, index: int) -> Playthrough:
    """Game `index` of the subject, played to its end by a seeded random bot (cached)."""
    return _played(subject, index)


@functools.lru_cache(maxsize=2 * BATCH)
def _played(subject: Subject, index: int) -> Playthrough:
    rules = subject.rules
    count, options = configuration(rules, index)
    players = tuple(f"player-{n + 1}" for n in range(count))
    run = Playthrough(subject, index, players, options, game_secret(subject.name, index))
    rng = random.Random(f"conformance:{subject.name}:{index}")
    created = creation_events(rules, players, options, COMMITMENT, Chance(run.source(), 0))
    game: Game[Any] | None = None
    for ev in created:
        game = _record(run, game, ev, SYSTEM, "setup")
    assert game is not None
    while not rules.is_over(game.state):
        if len(run.steps) >= MAX_COMMANDS:
            run.failures.append(f"{run.where()}: not over after {MAX_COMMANDS} commands")
            break
        chosen = _random_command(run, game, rng)
        if chosen is None:
            break
        actor, command = chosen
        command_id, before = f"c{len(run.steps) + 1}", game.version
        try:
            decided = decision(rules, game, actor, command, Chance(run.source(), game.draws))
        except Exception as exc:
            run.failures.append(
                f"{run.where()}: at version {before} the listed {command} by {actor} was "
                f"refused: {exc!r}"
            )
            break
        for ev in decided.events:
            game = _record(run, game, ev, actor, command_id)
        if decided.state is not None and decided.state != game.state:
            run.decision_mismatches.append(
                f"{run.where()}: the state `decision` handed back for {command} by {actor} at "
                f"version {before} is not the fold of its events"
            )
        run.steps.append(Step(before, game.version, actor, command, command_id))
    return run


def _random_command(
    run: Playthrough, game: Game[Any], rng: random.Random
) -> tuple[Actor, Command] | None:
    rules = run.rules
    due = rules.system_action(game.state)
    if due is not None:
        return SYSTEM, due
    awaited = sorted(rules.awaited_seats(game.state))
    if not awaited:
        run.failures.append(
            f"{run.where()}: at version {game.version} nobody may act and no system step is "
            f"due ({rules.summary(game.state)})"
        )
        return None
    seat = rng.choice(awaited)
    legal = list(rules.legal_actions(game.state, seat))
    if not legal:
        run.failures.append(
            f"{run.where()}: at version {game.version} seat {seat} is awaited but has no legal "
            "action"
        )
        return None
    if run.index % 2:  # every other game explores by command type first (see the docstring)
        kind = rng.choice(sorted({command.type for command in legal}))
        return seat, rng.choice([command for command in legal if command.type == kind])
    return seat, rng.choice(legal)


def _record(
    run: Playthrough, game: Game[Any] | None, ev: Event, actor: Actor, command_id: str
) -> Game[Any]:
    version = len(run.log) + 1
    recorded = Recorded(version, ev, actor, command_id)
    run.log.append(recorded)
    game = fold(run.rules, game, recorded)
    run.games.append(game)
    where = f"{run.where()} after version {version} {ev.type}"
    for rule in (ev.rule, *ev.cites):
        if not cites_catalogue(run.subject, rule):
            run.failures.append(f"{where}: the event cites {rule!r}, not in the rules catalogue")
    try:
        found = run.rules.invariant_failures(game.state)
    except Exception as exc:
        found = [f"invariant_failures raised {type(exc).__name__}: {exc}"]
    run.failures += [f"{where}: {failure}" for failure in found]
    return game


def playthroughs(subject: Subject, games: Iterable[int]) -> Iterator[Playthrough]:
    for index in games:
        yield play(subject, index)


# --- replay equals fold, and the state's JSON form --------------------------------------------


def stored(records: Sequence[Recorded]) -> list[Recorded]:
    """The records as the store keeps them: through `as_dict`, JSON and `from_dict`."""
    return [Recorded.from_dict(json.loads(json.dumps(r.as_dict()))) for r in records]


def replay_failures(run: Playthrough) -> list[str]:
    rules, failures = run.rules, list(run.decision_mismatches)
    final = run.final
    for label, log in (("the log", run.log), ("the stored log", stored(run.log))):
        replayed = replay(rules, log)
        if replayed.state != final.state:
            failures.append(f"{run.where()}: replay of {label} differs from the state played to")
        elif replayed.version != final.version or replayed.draws != final.draws:
            failures.append(f"{run.where()}: replay of {label} ends at another version or draw")
    for step in run.sample("replay", REPLAY_STATES):
        if replay(rules, run.log[: step.after]).state != run.at(step.after).state:
            failures.append(
                f"{run.where()}: replay up to version {step.after} differs from the state played to"
            )
    return failures


def codec_failures(run: Playthrough, every: bool = True) -> list[str]:
    """`every`: at every command boundary; else at `CODEC_STATES` sampled ones and the end."""
    rules, failures = run.rules, []
    versions = run.boundaries()
    if not every and len(versions) > CODEC_STATES:
        versions = [*sorted(run.rng("codec").sample(versions, CODEC_STATES)), versions[-1]]
    for version in versions:
        state = run.at(version).state
        text = json.dumps(rules.encode_state(state), sort_keys=True)
        decoded = rules.decode_state(json.loads(text))
        if decoded != state:
            failures.append(
                f"{run.where()}: the state at version {version} does not survive "
                "decode_state(encode_state(s)) through JSON"
            )
        elif json.dumps(rules.encode_state(decoded), sort_keys=True) != text:
            failures.append(
                f"{run.where()}: the state at version {version} encodes differently once decoded"
            )
    return failures


# --- legal actions ----------------------------------------------------------------------------


def legal_action_failures(run: Playthrough) -> tuple[list[str], int]:
    """What is wrong with the legal actions at sampled boundaries, and how many listed actions
    were decided."""
    rules, failures, decided = run.rules, [], 0
    rng = run.rng("legal")
    versions = [step.before for step in run.sample("legal", LEGAL_STATES)] + [run.final.version]
    for version in versions:
        game = run.at(version)
        awaited = rules.awaited_seats(game.state)
        for seat in range(len(run.players)):
            where = f"{run.where()} at version {version}, seat {seat}"
            first = list(rules.legal_actions(game.state, seat))
            if list(rules.legal_actions(game.state, seat)) != first:
                failures.append(f"{where}: legal_actions lists another order the second time")
            if seat not in awaited:
                if first:
                    failures.append(
                        f"{where}: legal_actions lists {first[0]} for a seat the game does not "
                        "wait for (the kernel refuses it)"
                    )
                continue
            if not first and rules.system_action(game.state) is None:
                failures.append(f"{where}: the seat is awaited but has no legal action")
            chosen = first if len(first) <= LEGAL_SAMPLE else rng.sample(first, LEGAL_SAMPLE)
            for command in chosen:
                decided += 1
                if not rules.is_legal(game.state, seat, command):
                    failures.append(f"{where}: is_legal refuses the listed {command}")
                    continue
                try:
                    decision(rules, game, seat, command, Chance(run.source(), game.draws))
                except Exception as exc:
                    failures.append(f"{where}: decide refuses the listed {command}: {exc!r}")
    return failures, decided


# --- commands as documented (Ruleset.command_schemas) -----------------------------------------


def command_misfit(specs: Sequence[CommandSpec], command: Command) -> str | None:
    """Why `command` does not fit the command types `specs` describe (None: it fits): the
    checks the OpenAPI document's schema of that command type makes, and the API before it
    asks the rules (`domain.core.ruleset.command_misfits`)."""
    found = command_misfits({s.type: s for s in specs}, command.as_dict())
    return "; ".join(f"{name}: {why}" for name, why in found.items()) or None


def command_schema_failures(run: Playthrough) -> tuple[list[str], int]:
    """Every command the ruleset lists for the acting seat before each command of the game,
    and the table procedures open to it, against their described schemas; and how many were
    checked. A ruleset that describes no commands is not checked (the API documents its
    commands as any `type` with any arguments)."""
    specs = run.rules.command_schemas()
    if not specs:
        return [], 0
    failures, checked = [], 0
    for step in run.steps:
        if not isinstance(step.actor, int):
            continue
        game = run.at(step.before)
        listed = [
            *((command, specs) for command in run.rules.legal_actions(game.state, step.actor)),
            *(
                (command, TABLE_COMMAND_SPECS)
                for command in table_actions(run.rules, game, step.actor)
            ),
        ]
        for command, described in listed:
            checked += 1
            misfit = command_misfit(described, command)
            if misfit is not None:
                failures.append(
                    f"{run.where()} at version {step.before}, seat {step.actor}: the listed "
                    f"{command.as_dict()} does not fit its documented schema: {misfit}"
                )
    return failures, checked


# --- refusals ---------------------------------------------------------------------------------


def wrong_arguments(command: Command) -> list[Command]:
    """The command with each argument given an unknown value, left out, and with one more."""
    variants = []
    args = dict(command.args)
    for name, value in args.items():
        rest = {k: v for k, v in args.items() if k != name}
        variants.append(Command.of(command.type, **rest))
        for wrong in _wrong_values(value):
            variants.append(Command.of(command.type, **rest, **{name: wrong}))
    variants.append(Command.of(command.type, **args, **{EXTRA_ARGUMENT: 1}))
    return variants


def _wrong_values(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [UNKNOWN_TEXT]
    if isinstance(value, int):
        return [-1, 10**6, UNKNOWN_TEXT]
    if isinstance(value, tuple):
        return [(UNKNOWN_TEXT,), UNKNOWN_TEXT]
    return [UNKNOWN_TEXT, -1]


@dataclass
class Refusals:
    failures: list[str] = field(default_factory=list)
    refused: int = 0


def expect_refusal(
    run: Playthrough,
    found: Refusals,
    game: Game[Any],
    actor: Actor,
    command: Command,
    what: str,
) -> None:
    where = f"{run.where()} at version {game.version}: {what} ({actor}: {command.as_dict()})"
    rules = run.rules
    if isinstance(actor, int) and actor in rules.awaited_seats(game.state):
        try:
            if rules.is_legal(game.state, actor, command):
                found.failures.append(f"{where}: is_legal accepts it")
        except Exception as exc:
            found.failures.append(f"{where}: is_legal raised {exc!r}")
    try:
        decision(rules, game, actor, command, Chance(run.source(), game.draws))
    except RuleViolation as exc:
        found.refused += 1
        if not cites_catalogue(run.subject, exc.rule):
            found.failures.append(f"{where}: refused citing {exc.rule!r}, not in the catalogue")
    except Exception as exc:
        found.failures.append(f"{where}: raised {exc!r} instead of a rule violation")
    else:
        found.failures.append(f"{where}: accepted")


def refusal_failures(run: Playthrough) -> Refusals:
    rules, found = run.rules, Refusals()
    rng = run.rng("refusal")
    seats = range(len(run.players))
    for step in run.sample("refusal", REFUSAL_STATES):
        game = run.at(step.before)
        awaited = sorted(rules.awaited_seats(game.state))
        expect_refusal(run, found, game, SYSTEM, Command.of(UNKNOWN_TYPE), "an undue system step")
        for seat in awaited:
            expect_refusal(run, found, game, seat, Command.of(UNKNOWN_TYPE), "an unknown type")
            listed = list(rules.legal_actions(game.state, seat))
            listed_set = set(listed)
            for command in rng.sample(listed, min(3, len(listed))):
                for wrong in wrong_arguments(command):
                    if wrong not in listed_set:
                        expect_refusal(run, found, game, seat, wrong, "a wrong argument")
            if listed:
                for other in seats:
                    if other not in awaited:
                        expect_refusal(run, found, game, other, listed[0], "another seat's action")
        if not game.undoable:
            for seat in seats:
                expect_refusal(run, found, game, seat, Command.of(UNDO), "nothing to undo")
    end = run.final
    if rules.is_over(end.state):
        played = run.steps[-1].command if run.steps else Command.of(UNKNOWN_TYPE)
        for actor in (*seats, SYSTEM):
            for command in (played, Command.of(UNKNOWN_TYPE)):
                expect_refusal(run, found, end, actor, command, "after the end")
    return found


def setup_refusal_failures(subject: Subject) -> Refusals:
    """Refused player counts and options cite the catalogue too."""
    rules, found = subject.rules, Refusals()
    counts = sorted(rules.player_counts)
    wrong_counts = sorted({counts[0] - 1, counts[-1] + 1} - set(counts) - {-1})
    attempts: list[tuple[int, dict[str, Any], str]] = [
        (n, {}, f"{n} players") for n in wrong_counts
    ]
    attempts.append((counts[0], {"conformance_no_such_option": True}, "an unknown option"))
    for spec in rules.options:
        wrong = UNKNOWN_TEXT if spec.kind is not str else 1
        attempts.append((counts[0], {spec.name: wrong}, f"option {spec.name} = {wrong!r}"))
    for given in refused_option_sets(rules):
        attempts.append((counts[0], given, f"options {given}"))
    for count, options, what in attempts:
        players = tuple(f"p{n}" for n in range(count))
        try:
            creation_events(rules, players, options, COMMITMENT, Chance(HmacSource(b"s"), 0))
        except RuleViolation as exc:
            found.refused += 1
            if not cites_catalogue(subject, exc.rule):
                found.failures.append(
                    f"{subject.name}: {what} refused citing {exc.rule!r}, not in the catalogue"
                )
        except Exception as exc:
            found.failures.append(f"{subject.name}: {what} raised {exc!r}")
        else:
            found.failures.append(f"{subject.name}: a game was created with {what}")
    return found


# --- views leak nothing: noninterference ------------------------------------------------------


Viewer = int | None


def viewers(run: Playthrough) -> list[Viewer]:
    return [*range(len(run.players)), None]


def projection(viewer: Viewer, records: Sequence[Recorded]) -> list[dict[str, Any]]:
    """The events as `viewer` is served them."""
    seen = []
    for record in records:
        body = dict(record.seen_by(viewer))
        body.pop("recorded_at", None)
        seen.append(body)
    return seen


def told(rules: Ruleset[Any], state: Any, viewer: Viewer) -> dict[str, Any]:
    """Everything a viewer is told about a state: its view, the public summary, the seats
    awaited and (for a seat) its legal actions."""
    said: dict[str, Any] = {
        "view": plain_value(rules.view(state, viewer)),
        "summary": plain_value(rules.summary(state)),
        "awaited": sorted(rules.awaited_seats(state)),
    }
    if viewer is not None:
        said["legal_actions"] = [c.as_dict() for c in rules.legal_actions(state, viewer)]
    return said


def first_difference(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}/{key}: only in {'one' if key in a else 'the other'}"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}/{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for n, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}/{n}")
    return f"{path or '/'}: {json.dumps(a)[:120]} vs {json.dumps(b)[:120]}"


class Reroll:
    """Chance outcomes as `kept` gives them for the draws numbered in `keep`, and from
    `other` for every other draw."""

    def __init__(self, kept: HmacSource, other: HmacSource, keep: frozenset[int]) -> None:
        self.kept, self.other, self.keep = kept, other, keep

    def value(self, k: int) -> int:
        return (self.kept if k in self.keep else self.other).value(k)


def shown_draws(viewer: Viewer, records: Iterable[Recorded]) -> frozenset[int]:
    return frozenset(
        d.k for r in records if r.event.visibility.shows_to(viewer) for d in r.event.draws
    )


def hides_draws(viewer: Viewer, records: Iterable[Recorded]) -> bool:
    return any(r.event.draws and not r.event.visibility.shows_to(viewer) for r in records)


@dataclass
class Branch:
    """An alternative history from a command boundary: its first command's events, then the
    game's next commands played on it; `games[i]` after `records[i]` (one command each)."""

    label: str
    records: list[list[Recorded]] = field(default_factory=list)
    games: list[Game[Any]] = field(default_factory=list)


@dataclass
class Leaks:
    failures: list[str] = field(default_factory=list)
    compared: int = 0


def indistinguishable_failures(run: Playthrough) -> Leaks:
    found = Leaks()
    _compare_setup(run, found)
    rng = run.rng("leaks")
    private = [s for s in run.steps if _has_private(run.events_of(s))]
    picked = rng.sample(private, min(LEAK_STEPS - 1, len(private)))
    if run.steps:
        picked.append(rng.choice(run.steps))
    for step in sorted(set(picked), key=lambda s: s.before):
        _compare_step(run, run.steps.index(step), rng, found)
    return found


def _has_private(records: Iterable[Recorded]) -> bool:
    return any(not r.event.visibility.is_public for r in records)


def _compare_setup(run: Playthrough, found: Leaks) -> None:
    rules, created = run.rules, run.log[: run.created_through]
    other = HmacSource(hashlib.sha256(run.secret + b"alternative").digest())
    for viewer in viewers(run):
        if not hides_draws(viewer, created):
            continue
        source = Reroll(run.source(), other, shown_draws(viewer, created))
        events = creation_events(rules, run.players, run.options, COMMITMENT, Chance(source, 0))
        records = [Recorded(n, ev, SYSTEM, "setup") for n, ev in enumerate(events, 1)]
        if len(records) != len(created):
            continue
        game = replay(rules, records)
        branch = Branch(f"the setting up drawn again for viewer {viewer}", [records], [game])
        _extend(run, branch, 0)
        _compare(run, branch, (created, run.created_through), 0, viewer, found)


def _compare_step(run: Playthrough, at: int, rng: random.Random, found: Leaks) -> None:
    rules, step = run.rules, run.steps[at]
    game = run.at(step.before)
    played = run.events_of(step)
    alternatives: list[tuple[str, Command, Any, Viewer | str]] = []
    if isinstance(step.actor, int):
        others = [c for c in rules.legal_actions(game.state, step.actor) if c != step.command]
        for command in rng.sample(others, min(LEAK_ALTERNATIVES, len(others))):
            alternatives.append((f"{command.as_dict()} instead", command, run.source(), "all"))
    other = HmacSource(hashlib.sha256(run.secret + f"alternative {at}".encode()).digest())
    for viewer in viewers(run):
        if hides_draws(viewer, played):
            source = Reroll(run.source(), other, shown_draws(viewer, played))
            alternatives.append(("its hidden draws drawn again", step.command, source, viewer))
    for label, command, source, only in alternatives:
        try:
            decided = decision(rules, game, step.actor, command, Chance(source, game.draws))
        except Exception as exc:
            found.failures.append(
                f"{run.where()} at version {step.before}: deciding {label} raised {exc!r}"
            )
            continue
        records = [
            Recorded(step.before + n, ev, step.actor, step.command_id)
            for n, ev in enumerate(decided.events, 1)
        ]
        branch = Branch(f"{label} (command by {step.actor} at version {step.before})")
        branch.records.append(records)
        branch.games.append(replay(rules, records, game))
        _extend(run, branch, at + 1)
        for viewer in viewers(run) if only == "all" else [only]:
            _compare(run, branch, (played, step.after), at + 1, viewer, found)  # type: ignore[arg-type]


def _extend(run: Playthrough, branch: Branch, start: int) -> None:
    """Play the game's next commands on the branch while they are legal on it."""
    rules = run.rules
    for step in run.steps[start : start + LEAK_HORIZON]:
        game = branch.games[-1]
        if rules.is_over(game.state):
            return
        if isinstance(step.actor, int):
            if step.actor not in rules.awaited_seats(game.state):
                return
            if not rules.is_legal(game.state, step.actor, step.command):
                return
        elif rules.system_action(game.state) != step.command:
            return
        chance = Chance(run.source(), game.draws)
        try:
            events = decision(rules, game, step.actor, step.command, chance).events
        except RuleViolation:
            return
        records = [
            Recorded(game.version + n, ev, step.actor, step.command_id)
            for n, ev in enumerate(events, 1)
        ]
        branch.records.append(records)
        branch.games.append(replay(rules, records, game))


def _compare(
    run: Playthrough,
    branch: Branch,
    first: tuple[list[Recorded], int],
    next_step: int,
    viewer: Viewer,
    found: Leaks,
) -> None:
    """Walk the branch beside the game while the viewer cannot tell them apart: the branch's
    first command beside `first` (the events played and the version they end at), then each
    later command beside the game's own."""
    rules = run.rules
    later = run.steps[next_step : next_step + LEAK_HORIZON]
    played = [first, *((run.events_of(s), s.after) for s in later)]
    for (records, game), (originals, end) in zip(
        zip(branch.records, branch.games, strict=True), played, strict=False
    ):
        if projection(viewer, records) != projection(viewer, originals):
            return
        found.compared += 1
        mine = told(rules, game.state, viewer)
        theirs = told(rules, run.at(end).state, viewer)
        if mine != theirs:
            who = "the spectator" if viewer is None else f"seat {viewer}"
            found.failures.append(
                f"{run.where()}: {who} is served the same events up to version {end} with "
                f"{branch.label}, yet is told something else: {first_difference(theirs, mine)}"
            )
            return


# --- views leak nothing: hidden words ---------------------------------------------------------


def words(value: Any) -> set[str]:
    """Every string of a JSON-like value, keys included, at any depth."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, Mapping):
            found.update(str(k) for k in item)
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
    return found


def fields_of_words(events: Iterable[Event]) -> dict[str, set[str]]:
    """For each word of the events' data, the names of the data fields it stands under."""
    found: dict[str, set[str]] = {}
    for ev in events:
        for name, value in ev.data().items():
            for word in words(value):
                found.setdefault(word, set()).add(name)
    return found


def homonyms(log: Sequence[Recorded]) -> set[str]:
    """Words that the game's public events name under a field their hidden events never use
    them in (a card named like a land: `card` hidden, `land` public): not searched."""
    public = fields_of_words(r.event for r in log if r.event.visibility.is_public)
    hidden = fields_of_words(r.event for r in log if not r.event.visibility.is_public)
    return {word for word, names in hidden.items() if public.get(word, set()) - names}


def hidden_word_failures(run: Playthrough) -> Leaks:
    rules, found = run.rules, Leaks()
    setup = Setup(rules.name, run.players, rules.check_options(run.options), COMMITMENT)
    blank = rules.initial_state(setup)
    ambiguous = homonyms(run.log)
    groups: list[list[Recorded]] = []
    for record in run.log:
        if groups and groups[-1][-1].command_id == record.command_id:
            groups[-1].append(record)
        else:
            groups.append([record])
    for viewer in viewers(run):
        learned = words(plain_value(rules.view(blank, viewer))) | ambiguous
        hidden: set[str] = set()
        reported: set[str] = set()
        for group in groups:
            for body in projection(viewer, group):
                learned |= words(body.get("data"))
            for record in group:
                if not record.event.visibility.shows_to(viewer):
                    hidden |= words(record.event.data())
                secret = hidden - learned
                if not secret:
                    continue
                found.compared += 1
                shown = words(plain_value(rules.view(run.at(record.version).state, viewer)))
                leaked = (shown & secret) - reported
                if leaked:
                    reported |= leaked
                    who = "the spectator" if viewer is None else f"seat {viewer}"
                    found.failures.append(
                        f"{run.where()}: the view of {who} at version {record.version} names "
                        f"{sorted(leaked)}, from events hidden from it"
                    )
    return found


# --- positions --------------------------------------------------------------------------------


def position_failures(run: Playthrough) -> list[str]:
    rules, failures = run.rules, []
    for step in run.sample("position", POSITION_STATES):
        state = run.at(step.after).state
        encoded = json.loads(json.dumps(rules.encode_state(state)))
        events = position_events(
            rules, run.players, run.options, COMMITMENT, encoded, f"game-{run.index}"
        )
        records = stored([Recorded(n, ev, SYSTEM, "sandbox") for n, ev in enumerate(events, 1)])
        sandbox = replay(rules, records).state
        where = f"{run.where()}: the sandbox from version {step.after}"
        if sandbox != state:
            failures.append(f"{where} has another state")
            continue
        if rules.awaited_seats(sandbox) != rules.awaited_seats(state):
            failures.append(f"{where} awaits other seats")
        for seat in range(len(run.players)):
            if list(rules.legal_actions(sandbox, seat)) != list(rules.legal_actions(state, seat)):
                failures.append(f"{where} gives seat {seat} other legal actions")
    return failures
