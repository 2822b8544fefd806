"""Fault injection for the crash tests: a served process (gunicorn, `chronicle worker`) run with
pauses installed at named points of the command path (`service.faults`), which production
code only passes through:

    python -m tests.support.faults before_append=60 -- -m gunicorn --bind ... api.wsgi:app

Each pause says on stderr where the process stops (`chronicle fault injection: pid N pausing
60.0s before appending command C to game G`), then sleeps there, long enough for the test to
kill the process (gunicorn's workers and RQ's jobs inherit the pauses of the process that
started them)."""

from __future__ import annotations

import os
import runpy
import sys
import time
from collections.abc import Mapping, Sequence

from service import faults

WHERE = {
    faults.BEFORE_WORKER_APPEND: "in a worker before appending",
    faults.BEFORE_APPEND: "before appending",
    faults.AFTER_APPEND: "after appending",
}


def pause(seconds: float) -> faults.Hook:
    def stop_here(point: str, game_id: str, command_id: str) -> None:
        print(
            f"chronicle fault injection: pid {os.getpid()} pausing {seconds}s {WHERE[point]} "
            f"command {command_id} to game {game_id}",
            file=sys.stderr,
            flush=True,
        )
        time.sleep(seconds)

    return stop_here


def command(pauses: Mapping[str, float], module: str, *args: str) -> list[str]:
    """The command line that runs `python -m module args` with `pauses` (point: seconds)."""
    if not pauses:
        return [sys.executable, "-m", module, *args]
    specs = [f"{point}={seconds}" for point, seconds in pauses.items()]
    return [sys.executable, "-m", "tests.support.faults", *specs, "--", "-m", module, *args]


def main(argv: Sequence[str]) -> None:
    split = list(argv).index("--")
    for spec in argv[:split]:
        point, _, seconds = spec.partition("=")
        faults.install(point, pause(float(seconds)))
    flag, module, *args = argv[split + 1 :]
    if flag != "-m":
        raise SystemExit("usage: python -m tests.support.faults POINT=SECONDS... -- -m MODULE ...")
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
