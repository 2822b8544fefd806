"""The domain's speed in CPU time, not wall time: one in-process self-play game (median) and
the fold rate (best of `--rounds`), per ruleset, as `chronicle bench` measures them but timed
with `time.process_time`, so that a machine shared with other work inflates them less. To set
two builds side by side, run this file by its path with the other checkout first on
PYTHONPATH (it imports `bench.measure` from whichever checkout comes first, so that
checkout's `fold_rate` must accept a `clock`; older checkouts' does not), turn about:

    PYTHONPATH=/path/to/old python bench/domain_cpu.py --ruleset all
    python bench/domain_cpu.py --ruleset all
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bench.measure import fold_rate, players_for, recorded_game
from service.rulesets import ruleset, served_rulesets


def selfplay_cpu_s(name: str, games: int = 10) -> float:
    rules = ruleset(name)
    times = []
    for seed in range(games):
        started = time.process_time()
        recorded_game(rules, players_for(rules, 4), 10_000 + seed)
        times.append(time.process_time() - started)
    return statistics.median(times)


def fold_per_cpu_s(name: str, rounds: int = 5) -> float:
    rules = ruleset(name)
    games = [recorded_game(rules, players_for(rules, 6), seed) for seed in range(5)]
    return fold_rate(rules, games, rounds, clock=time.process_time)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="all", help="a ruleset, or all")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    names = list(served_rulesets()) if args.ruleset == "all" else [args.ruleset]
    print(
        json.dumps(
            {
                name: {
                    "selfplay_4p_game_cpu_s": round(selfplay_cpu_s(name), 4),
                    "fold_events_per_cpu_s": round(fold_per_cpu_s(name, args.rounds)),
                }
                for name in names
            }
        )
    )


if __name__ == "__main__":
    main()
