"""`chronicle selfplay`: whole games in-process, a seeded random bot choosing from
`legal_actions`, with the ruleset's invariants checked after every event.

    chronicle selfplay --ruleset hotw-2024 --players 6 --games 50 --seed 1 \
        [--option dice=false] [--json]

Game g of seed S uses the chance seed SHA-256("S:g") and a bot seeded with "S:g", so any game
can be replayed alone. After each game: replaying its events gives the same state, the state
survives its JSON form, and every bot action was one that `legal_actions` listed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.core.chance import Chance
from domain.core.kernel import Game, creation_events, decide, fold, replay
from domain.core.messages import SYSTEM, Actor, Command, Recorded
from domain.core.ruleset import Ruleset
from service.chance import HmacSource, commitment

MAX_COMMANDS = 20_000

Checker = Callable[[Any], list[str]]


@dataclass
class GameReport:
    index: int
    completed: bool = False
    events: int = 0
    commands: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    error: str | None = None


def invariant_checker(rules: Ruleset[Any]) -> Checker | None:
    """The ruleset's invariants, where it has some (History of the World does)."""
    from domain.hotw.pack import HotwPack

    if isinstance(rules.pack, HotwPack):
        from domain.hotw.invariants import invariant_failures

        pack = rules.pack
        return lambda state: invariant_failures(pack, state)
    return None


def game_seed(seed: int | str, index: int) -> bytes:
    return hashlib.sha256(f"{seed}:{index}".encode()).digest()


def play_game(
    rules: Ruleset[Any],
    players: int,
    options: dict[str, Any],
    seed: int | str,
    index: int,
    check: bool = True,
) -> GameReport:
    """Play one game to its end with a random bot; never raises for a rules failure."""
    report = GameReport(index)
    secret = game_seed(seed, index)
    rng = random.Random(f"{seed}:{index}")
    checker = invariant_checker(rules) if check else None
    started = time.perf_counter()
    log: list[Recorded] = []
    try:
        chance = Chance(HmacSource(secret), 0)
        names = tuple(f"player-{n + 1}" for n in range(players))
        created = creation_events(rules, names, options, commitment(secret), chance)
        game: Game[Any] | None = None
        for number, ev in enumerate(created, start=1):
            log.append(Recorded(number, ev, SYSTEM))
            game = fold(rules, game, log[-1])
            _check(checker, game.state, report, ev)
        assert game is not None
        while not rules.is_over(game.state) and report.commands < MAX_COMMANDS:
            actor, command = _next_command(rules, game, rng, report)
            if command is None:
                break
            report.commands += 1
            chance = Chance(HmacSource(secret), game.draws)
            for ev in decide(rules, game, actor, command, chance):
                log.append(Recorded(game.version + 1, ev, actor))
                game = fold(rules, game, log[-1])
                _check(checker, game.state, report, ev)
        report.completed = rules.is_over(game.state)
        if not report.completed:
            report.failures.append(f"game {index} did not finish ({rules.summary(game.state)})")
        if check:
            if replay(rules, log).state != game.state:
                report.failures.append(f"game {index}: replay differs from the incremental state")
            encoded = json.loads(json.dumps(rules.encode_state(game.state)))
            if rules.decode_state(encoded) != game.state:
                report.failures.append(f"game {index}: the state does not survive its JSON form")
        if report.completed:
            result = rules.result(game.state)
            report.winners = list(result.get("details", {}).get("winners", []))
    except Exception as exc:  # a crash is a finding, reported with the game that caused it
        report.error = f"{type(exc).__name__}: {exc}"
        report.failures.append(f"game {index}: {report.error}")
    report.events = len(log)
    report.seconds = time.perf_counter() - started
    return report


def _next_command(
    rules: Ruleset[Any], game: Game[Any], rng: random.Random, report: GameReport
) -> tuple[Actor, Command | None]:
    due = rules.system_action(game.state)
    if due is not None:
        return SYSTEM, due
    awaited = sorted(rules.awaited_seats(game.state))
    if not awaited:
        report.failures.append(f"game {report.index}: nobody to act ({rules.summary(game.state)})")
        return SYSTEM, None
    seat = awaited[0] if len(awaited) == 1 else rng.choice(awaited)
    legal = list(rules.legal_actions(game.state, seat))
    if not legal:
        report.failures.append(f"game {report.index}: seat {seat} has no legal action")
        return seat, None
    command = rng.choice(legal)
    if command not in legal:  # pragma: no cover - the bot only picks listed actions
        report.failures.append(f"game {report.index}: unlisted action {command}")
    return seat, command


def _check(checker: Checker | None, state: Any, report: GameReport, ev: Any) -> None:
    if checker is None:
        return
    for failure in checker(state):
        report.failures.append(f"game {report.index} after {type(ev).__name__}: {failure}")


def parse_option(text: str) -> tuple[str, Any]:
    name, _, raw = text.partition("=")
    lowered = raw.strip().lower()
    value: Any = raw
    if lowered in ("true", "false"):
        value = lowered == "true"
    elif lowered.lstrip("-").isdigit():
        value = int(lowered)
    return name.strip(), value


def run(args: argparse.Namespace) -> int:
    from service.rulesets import ruleset

    rules = ruleset(args.ruleset)
    options = dict(parse_option(o) for o in args.option or [])
    reports: list[GameReport] = []
    started = time.perf_counter()
    for index in range(args.games):
        reports.append(play_game(rules, args.players, options, args.seed, index, not args.no_check))
        if not args.quiet:
            done = index + 1
            bar = "#" * (30 * done // args.games)
            print(f"\r[{bar:<30}] {done}/{args.games} games", end="", file=sys.stderr, flush=True)
    if not args.quiet:
        print(file=sys.stderr)
    elapsed = time.perf_counter() - started
    failures = [f for r in reports for f in r.failures]
    completed = sum(r.completed for r in reports)
    events = sum(r.events for r in reports)
    summary = {
        "ruleset": rules.name,
        "players": args.players,
        "options": options,
        "seed": args.seed,
        "games": len(reports),
        "completed": completed,
        "invariant_failures": len(failures),
        "failures": failures[:20],
        "mean_events_per_game": round(events / len(reports), 1) if reports else 0,
        "mean_commands_per_game": round(sum(r.commands for r in reports) / len(reports), 1)
        if reports
        else 0,
        "mean_seconds_per_game": round(elapsed / len(reports), 4) if reports else 0,
        "seconds": round(elapsed, 3),
        "winners": [r.winners for r in reports],
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{summary['completed']}/{summary['games']} games completed, "
            f"{summary['invariant_failures']} invariant failures, "
            f"{summary['mean_events_per_game']} events/game, {summary['seconds']} s"
        )
        for failure in summary["failures"]:
            print(f"  {failure}")
    return 0 if completed == len(reports) and not failures else 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "selfplay", help="play whole games with a random bot, checking invariants after every event"
    )
    parser.add_argument("--ruleset", default="hotw-2024")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", default="0", help="games' seeds derive from it")
    parser.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="a game option, e.g. dice=false"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)
