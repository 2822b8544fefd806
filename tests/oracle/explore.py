"""Random games for the oracles, explored as the conformance kit explores them
(tests/support/conformance.py): game `i` of a ruleset takes its player count and options from
`configuration` (every count, each boolean option on and off, all on, all off, each listed
value in turn), and in odd games the bot picks a command type before an action of that type
(the kit's `_random_command`, on the legal actions in a canonical order: `choose`),
so that rare commands (wars, negotiations, Minor Empires, Treachery) are played as often as
common ones. Game `i` is played from the chance seed SHA-256("oracle:R:i"), so any game can be
played again alone (`play_with_oracle(name, i, oracle)`)."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from domain.core.chance import Chance
from domain.core.kernel import Game, creation_events, decide, fold
from domain.core.messages import SYSTEM, Recorded
from service.chance import HmacSource
from tests.support import conformance as kit

MAX_COMMANDS = 20_000


@dataclass
class OracleRun:
    """What the oracle said about a batch of games."""

    games: int = 0
    events: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    checked: Counter[str] = field(default_factory=Counter)
    configurations: Counter[str] = field(default_factory=Counter)


def oracle_for(name: str) -> Callable[[Any], Any]:
    """A fresh oracle for one game of the ruleset `name`, given its ruleset."""
    if name == "hotw-ah2001":
        from tests.oracle.ah2001 import Ah2001Oracle

        return lambda rules: Ah2001Oracle(rules.pack.tables)
    if name == "brief-2009":
        from tests.oracle.brief import BriefOracle

        return lambda rules: BriefOracle(rules.pack)
    if name == "patchistory":
        from tests.oracle.patchistory import PatchistoryOracle

        return lambda rules: PatchistoryOracle(rules.pack)
    raise KeyError(f"no oracle for {name}")


def play_with_oracle(name: str, index: int, oracle: Any, run: OracleRun) -> None:
    """Play game `index` of ruleset `name` to its end, showing the oracle every event."""
    subject = kit.subject(name)
    rules = subject.rules
    players_count, options = kit.configuration(rules, index)
    players = tuple(f"player-{n + 1}" for n in range(players_count))
    secret = hashlib.sha256(f"oracle:{name}:{index}".encode()).digest()
    run.configurations[f"{players_count}p {sorted(options.items())}"] += 1
    where = f"{name} game {index} ({players_count} players, options {options})"
    explorer = kit.Playthrough(subject, index, players, options, secret)
    rng = random.Random(f"oracle:{name}:{index}")
    game: Game[Any] | None = None
    log: list[Recorded] = []
    for ev in creation_events(
        rules, players, options, kit.COMMITMENT, Chance(HmacSource(secret), 0)
    ):
        log.append(Recorded(len(log) + 1, ev, SYSTEM))
        game = fold(rules, game, log[-1])
    assert game is not None
    if hasattr(oracle, "version"):
        oracle.version = len(log)  # so that "vN" is the event's version in the game's log
    commands = 0
    while not rules.is_over(game.state) and commands < MAX_COMMANDS:
        chosen = choose(explorer, game, rng)
        if chosen is None:
            break
        actor, command = chosen
        commands += 1
        for ev in decide(rules, game, actor, command, Chance(HmacSource(secret), game.draws)):
            log.append(Recorded(game.version + 1, ev, actor))
            before = game.state
            game = fold(rules, game, log[-1])
            run.problems += [f"{where} {p}" for p in oracle.observe(before, ev, game.state)]
    run.problems += [f"{where} {p}" for p in oracle.finish()]
    run.problems += explorer.failures
    if not rules.is_over(game.state):
        run.problems.append(f"{where} did not finish")
    run.games += 1
    run.events += len(log)
    run.checked += oracle.checked


def choose(explorer: Any, game: Game[Any], rng: random.Random) -> tuple[Any, Any] | None:
    """The conformance kit's choice (`kit._random_command`: a random awaited seat; in odd games
    a command type first), made on the legal actions in a canonical order: a ruleset may list
    them in an order that depends on string hashing (hotw-ah2001 lists its multiple-armies
    reinforcements in a set's order), and game i must be the same game in every process."""
    rules = explorer.rules
    due = rules.system_action(game.state)
    if due is not None:
        return SYSTEM, due
    awaited = sorted(rules.awaited_seats(game.state))
    if not awaited:
        explorer.failures.append(f"{explorer.where()}: at version {game.version} nobody may act")
        return None
    seat = rng.choice(awaited)
    legal = sorted(
        rules.legal_actions(game.state, seat),
        key=lambda c: json.dumps(c.as_dict(), sort_keys=True, default=str),
    )
    if not legal:
        explorer.failures.append(f"{explorer.where()}: seat {seat} is awaited with no action")
        return None
    if explorer.index % 2:
        kind = rng.choice(sorted({command.type for command in legal}))
        return seat, rng.choice([command for command in legal if command.type == kind])
    return seat, rng.choice(legal)


def run_oracle(name: str, indices: Iterable[int]) -> OracleRun:
    rules = kit.subject(name).rules
    make = oracle_for(name)
    run = OracleRun()
    started = time.perf_counter()
    for index in indices:
        play_with_oracle(name, index, make(rules), run)
    run.seconds = time.perf_counter() - started
    return run


def tag_of(problem: str) -> str | None:
    """The issue-32 item a problem is tagged with (`[issue32.N]`), or None."""
    start = problem.find("[issue32.")
    return None if start < 0 else problem[start + 1 : problem.index("]", start)]


class _Recorder:
    """An observer that keeps every (state before, event, state after) of a game."""

    def __init__(self) -> None:
        self.steps: list[tuple[Any, Any, Any]] = []
        self.checked: Counter[str] = Counter()

    def observe(self, before: Any, event: Any, after: Any) -> list[str]:
        self.steps.append((before, event, after))
        return []

    def finish(self) -> list[str]:
        return []


def recorded_steps(name: str, index: int) -> list[tuple[Any, Any, Any]]:
    """(state before, event, state after) for every event after the setting up of game
    `index` of ruleset `name`, explored as `play_with_oracle` explores it."""
    recorder = _Recorder()
    play_with_oracle(name, index, recorder, OracleRun())
    return recorder.steps


def oracle_problems(name: str, steps: Iterable[tuple[Any, Any, Any]]) -> list[str]:
    """What a fresh oracle of ruleset `name` says about these steps."""
    oracle = oracle_for(name)(kit.subject(name).rules)
    found: list[str] = []
    for before, event, after in steps:
        found += oracle.observe(before, event, after)
    return found + oracle.finish()
