"""`chronicle selfplay`: whole games played by bots, in-process with the ruleset's invariants
checked after every event, or through a running server.

    chronicle selfplay --ruleset hotw-2024 --players 6 --games 50 --seed 1 \
        [--option dice=false] [--bot greedy --bot random ...] [--via-api URL] [--json]

Game g of seed S uses the chance seed SHA-256("S:g") and a bot seeded with "S:g", so any game
can be replayed alone. After each game: replaying its events gives the same state, the state
survives its JSON form, and every bot action was one that `legal_actions` listed.

`--bot random|greedy` is given once (every seat) or once per seat; random seats draw from the
game's generator as before, a greedy seat from its own ("S:g:greedy:seat"). `--via-api URL`
plays each game over HTTP instead (POST /games, then every seat with its own token; 409
game_busy while the worker closes an epoch is waited out), and the summary lists the games'
ids (and, with --json, their admin tokens, which `chronicle replay --url --token` takes); the
server's chance seeds are its own, so those games are not reproducible by seed.
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
from typing import Any, Protocol

from bots.base import BOT_NAMES, Bot, make_bot
from cli.http import ApiClient, ApiError
from domain.core.chance import Chance
from domain.core.errors import RuleViolation, UnknownRuleset
from domain.core.kernel import Game, creation_events, decide, fold, replay
from domain.core.messages import SYSTEM, Actor, Command, Recorded
from domain.core.ruleset import Ruleset
from service.chance import HmacSource, commitment

MAX_COMMANDS = 20_000
API_TIMEOUT_S = 30
BUSY_WAIT_S = 0.05

Checker = Callable[[Any], list[str]]


class Observer(Protocol):
    """Sees every event of a game with the states before and after it; answers problems."""

    def observe(self, before: Any, event: Any, after: Any) -> list[str]: ...

    def finish(self) -> list[str]: ...


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
    game_id: str | None = None
    admin_token: str | None = None


def invariant_checker(rules: Ruleset[Any]) -> Checker:
    """The ruleset's invariants (its `invariant_failures` hook; none by default)."""
    return rules.invariant_failures


def game_seed(seed: int | str, index: int) -> bytes:
    return hashlib.sha256(f"{seed}:{index}".encode()).digest()


def play_game(
    rules: Ruleset[Any],
    players: int,
    options: dict[str, Any],
    seed: int | str,
    index: int,
    check: bool = True,
    bots: list[str] | None = None,
    observer: Observer | None = None,
) -> GameReport:
    """Play one game to its end with bots (`random` by default, or one name per seat); never
    raises for a rules failure. `observer` sees every event with the states around it and
    answers what it finds wrong (an independent oracle, in the tests)."""
    report = GameReport(index)
    secret = game_seed(seed, index)
    rng = random.Random(f"{seed}:{index}")
    seat_bots = bots_for_seats(rules, bots or ["random"] * players, rng, seed, index)
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
            actor, command = _next_command(rules, game, rng, report, seat_bots)
            if command is None:
                break
            report.commands += 1
            chance = Chance(HmacSource(secret), game.draws)
            for ev in decide(rules, game, actor, command, chance):
                log.append(Recorded(game.version + 1, ev, actor))
                before = game.state
                game = fold(rules, game, log[-1])
                _check(checker, game.state, report, ev)
                if observer is not None:
                    found = observer.observe(before, ev, game.state)
                    report.failures += [f"game {index} {problem}" for problem in found]
        if observer is not None:
            report.failures += [f"game {index} {problem}" for problem in observer.finish()]
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


def bots_for_seats(
    rules: Ruleset[Any] | None, names: list[str], rng: random.Random, seed: int | str, index: int
) -> list[Bot]:
    """Random seats share the game's generator (so all-random games are what they always
    were); each greedy seat gets its own, seeded "S:g:greedy:seat"."""
    return [
        make_bot(
            name, rules, rng if name == "random" else random.Random(f"{seed}:{index}:{name}:{n}")
        )
        for n, name in enumerate(names)
    ]


def _next_command(
    rules: Ruleset[Any],
    game: Game[Any],
    rng: random.Random,
    report: GameReport,
    seat_bots: list[Bot],
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
    command = seat_bots[seat].choose(game.state, legal, seat)
    if command not in legal:  # pragma: no cover - the bots only pick listed actions
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


def play_game_via_api(
    api: ApiClient,
    ruleset_name: str,
    players: int,
    options: dict[str, Any],
    seed: int | str,
    index: int,
    bots: list[str],
    rules: Ruleset[Any] | None = None,
) -> GameReport:
    """Play one game through a running server: create it, then let each awaited seat's bot
    choose among the legal actions its own token gets, until the game is finished. A 409 (the
    worker is closing an epoch, or the game moved on) is retried; a 429 or 503 is waited out
    under every request (cli.http's polite session); anything else is a failure."""
    report = GameReport(index)
    started = time.perf_counter()
    rng = random.Random(f"{seed}:{index}")
    seat_bots = bots_for_seats(rules, bots, rng, seed, index)
    names = [f"player-{n + 1}" for n in range(players)]
    try:
        created = api.post(
            "/games", {"ruleset": ruleset_name, "players": names, "options": options}
        )
        game_id = report.game_id = created["game_id"]
        report.admin_token = created["admin_token"]
        tokens = created["seat_tokens"]
        progress = time.monotonic()
        status = "active"
        while report.commands < MAX_COMMANDS:
            summary = api.get(f"/games/{game_id}")
            status = summary["status"]
            if status == "finished":
                break
            awaited = summary["awaiting"]
            if not awaited or status != "active":
                if time.monotonic() - progress > API_TIMEOUT_S:
                    report.failures.append(f"game {index} ({game_id}): stuck {status}")
                    break
                time.sleep(BUSY_WAIT_S)
                continue
            seat = awaited[0] if len(awaited) == 1 else rng.choice(awaited)
            legal = api.get(f"/games/{game_id}/legal-actions", tokens[seat])
            if not legal["your_turn"] or not legal["actions"]:
                time.sleep(BUSY_WAIT_S)
                continue
            bot = seat_bots[seat]
            # the random bot needs no position; the others see their seat's view
            view = None
            if bot.name != "random":
                view = api.get(f"/games/{game_id}/state", tokens[seat])
            command = bot.choose(view, legal["actions"], seat)
            entry = next(
                (a for a in legal["actions"] if Command.from_dict(a["command"]) == command), None
            )
            if entry is None:  # pragma: no cover - the bots only pick listed actions
                report.failures.append(f"game {index} ({game_id}): unlisted action {command}")
                break
            try:
                api.post(f"/games/{game_id}/commands", entry, tokens[seat])
            except ApiError as exc:
                if exc.status != 409:
                    raise
                time.sleep(BUSY_WAIT_S)
                continue
            report.commands += 1
            progress = time.monotonic()
        report.completed = status == "finished"
        if not report.completed and not report.failures:
            report.failures.append(f"game {index} ({game_id}) did not finish")
        if report.completed:
            result = api.get(f"/games/{game_id}/result")
            report.events = int(result["version"])
            report.winners = [row["seat"] for row in result["ranking"] if row["place"] == 1]
    except Exception as exc:  # an HTTP failure is a finding, reported with its game
        report.error = f"{type(exc).__name__}: {exc}"
        report.failures.append(f"game {index} ({report.game_id}): {report.error}")
    report.seconds = time.perf_counter() - started
    return report


def seat_bot_names(given: list[str] | None, players: int) -> list[str]:
    names = given or ["random"]
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"give --bot once, or once per seat ({players}), not {len(names)} times")
    return names


def greedy_standing(reports: list[GameReport], bots: list[str]) -> dict[str, Any]:
    """How often a greedy seat won (shared first place counts), against the share of games it
    would win if every seat played alike: greedy seats / players."""
    greedy = [seat for seat, name in enumerate(bots) if name == "greedy"]
    if not greedy or len(greedy) == len(bots):
        return {}
    finished = [r for r in reports if r.completed]
    wins = sum(1 for r in finished if any(seat in r.winners for seat in greedy))
    return {
        "greedy_wins": wins,
        "greedy_win_rate": round(wins / len(finished), 4) if finished else None,
        "greedy_baseline": round(len(greedy) / len(bots), 4),
    }


def run(args: argparse.Namespace) -> int:
    from service.rulesets import ruleset

    try:
        bots = seat_bot_names(args.bot, args.players)
    except ValueError as exc:
        print(f"chronicle selfplay: {exc}", file=sys.stderr)
        return 2
    options = dict(parse_option(o) for o in args.option or [])
    needs_rules = args.via_api is None or "greedy" in bots
    try:
        rules: Ruleset[Any] | None = ruleset(args.ruleset)
    except UnknownRuleset as exc:
        if needs_rules:  # over the API the server may know rulesets this process does not
            print(f"chronicle selfplay: {exc}", file=sys.stderr)
            return 2
        rules = None
    if rules is not None:
        try:
            rules.check_players([f"player-{n + 1}" for n in range(args.players)])
        except RuleViolation as exc:  # a usage error, not a failure of any game
            print(f"chronicle selfplay: --players {args.players}: {exc}", file=sys.stderr)
            return 2
    if not needs_rules:
        rules = None
    if rules is not None:
        try:
            rules.check_options(options)
        except RuleViolation as exc:  # refused before any game is played
            print(f"chronicle selfplay: {exc} ({exc.rule})", file=sys.stderr)
            return 2
    if "greedy" in bots and rules is not None:
        try:
            make_bot("greedy", rules, random.Random(0))
        except TypeError as exc:
            print(f"chronicle selfplay: {exc}", file=sys.stderr)
            return 2
    api = ApiClient(args.via_api) if args.via_api else None
    reports: list[GameReport] = []
    started = time.perf_counter()
    for index in range(args.games):
        if api is not None:
            report = play_game_via_api(
                api, args.ruleset, args.players, options, args.seed, index, bots, rules
            )
        else:
            assert rules is not None
            report = play_game(
                rules, args.players, options, args.seed, index, not args.no_check, bots
            )
        reports.append(report)
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
        "ruleset": args.ruleset,
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
        "bots": bots,
        **greedy_standing(reports, bots),
    }
    if api is not None:
        summary["via_api"] = args.via_api
        summary["game_ids"] = [r.game_id for r in reports]
        summary["waited_out"] = {str(status): n for status, n in sorted(api.refused.items())}
        if args.json:  # the games' own admin tokens, for `chronicle replay --url --token`
            summary["admin_tokens"] = [r.admin_token for r in reports]
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{summary['completed']}/{summary['games']} games completed, "
            f"{summary['invariant_failures']} invariant failures, "
            f"{summary['mean_events_per_game']} events/game, {summary['seconds']} s"
        )
        if "greedy_win_rate" in summary:
            print(
                f"greedy won {summary['greedy_wins']}/{completed} games "
                f"({summary['greedy_win_rate']}; even odds {summary['greedy_baseline']})"
            )
        for game_id in summary.get("game_ids", []):
            print(f"  game {game_id}")
        for failure in summary["failures"]:
            print(f"  {failure}")
    return 0 if completed == len(reports) and not failures else 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "selfplay", help="play whole games with bots, checking invariants after every event"
    )
    parser.add_argument("--ruleset", default="hotw-2024")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", default="0", help="games' seeds derive from it")
    parser.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="a game option, e.g. dice=false"
    )
    parser.add_argument(
        "--bot",
        action="append",
        choices=BOT_NAMES,
        help="the bot of every seat (given once) or of each seat in order (given once per seat); "
        "default random",
    )
    parser.add_argument(
        "--via-api",
        metavar="URL",
        help="play through a running server at URL instead of in-process (no invariant checks)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)
