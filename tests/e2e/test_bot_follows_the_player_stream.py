"""A bot written against the spec with stock generators (examples/python/table_bot.py: the
operations from openapi-python-client's package, the stream's lines from datamodel-code-
generator's pydantic models) follows `/players/me/stream` through a whole game of every
configuration on `chronicle serve` with its default settings (two gunicorn gevent workers, one
RQ worker, the rate limits on), all five games at once: server-side bots or other instances of
the bot in the other seats, one of which sits on its first turn for half a minute, so that its
opponents' streams stay idle past a keep-alive. Every bot ends with the game finished on the
one stream it opened (no reconnect), no 5xx answer, and every line read as a typed object.

The bot's code is type-checked (`mypy --strict`, against the same stock packages, judged whole)
in tests/e2e/test_generated_client.py, in the one run that analyses the stock package: this
test plays it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.http import REPO_ROOT, serving_logged

pytestmark = pytest.mark.slow

TABLE_BOT = REPO_ROOT / "examples" / "python" / "table_bot.py"
THINK_S = 28.0
GAMES: dict[str, list[float]] = {
    "hotw-2024": [],
    "hotw-ah2001": [0.0, THINK_S],
    "hotw-ah2001+simultaneous": [],
    "brief-2009": [0.0],
    "patchistory": [],
}
"""Each configuration, with the think times of the other instances of the bot at its table
(none: server-side bots take the other seats)."""
SEATS = {"hotw-2024": 3, "hotw-ah2001": 3, "brief-2009": 2, "patchistory": 2}
DEADLINE_S = 600


@pytest.fixture(scope="module")
def generated(stock_generators: Path) -> Path:
    """Both packages as the stock generators make them (`chronicle_client`, `chronicle_models`):
    the session's (tests/e2e/conftest.py), which test_generated_client.py type-checks."""
    return stock_generators


def bot(package_root: Path, server: str, *arguments: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(TABLE_BOT), server, *arguments],
        env={**os.environ, "PYTHONPATH": str(package_root)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def seated(package_root: Path, server: str, game: str, thinks: list[float]) -> list[Any]:
    """The host of a table of `game` and the instances that joined it."""
    if not thinks:
        return [bot(package_root, server, game)]
    host = bot(package_root, server, game, "--open-seats")
    assert host.stdout is not None
    table = json.loads(host.stdout.readline())
    joined = [
        bot(
            package_root,
            server,
            "--join",
            table["game_id"],
            table["invitation"],
            "--think-s",
            str(think),
            "--name",
            f"Bot {n}",
            "--seed",
            str(n),
        )
        for n, think in enumerate(thinks, start=1)
    ]
    return [host, *joined]


def reports(processes: dict[str, list[subprocess.Popen[str]]]) -> Iterator[tuple[str, dict]]:
    deadline = time.monotonic() + DEADLINE_S
    for game, bots in processes.items():
        for process in bots:
            out, err = process.communicate(timeout=max(1.0, deadline - time.monotonic()))
            assert process.returncode == 0, f"{game}: {out[-2000:]}{err[-3000:]}"
            yield game, json.loads(out.splitlines()[-1])


def test_a_bot_follows_its_player_stream_through_a_whole_game_of_every_ruleset_unbroken(
    generated: Path, redis_url: str
) -> None:
    began = time.monotonic()
    queue = f"bots-{uuid.uuid4().hex[:8]}"
    served = {"web_workers": 2, "CHRONICLE_QUEUE": queue, "CHRONICLE_RATE_LIMITS": "on"}
    with serving_logged(redis_url, **served) as (server, said):  # limits on, as served by default
        processes = {
            game: seated(generated, server, game, thinks) for game, thinks in GAMES.items()
        }
        finished = list(reports(processes))
        logged = b"".join(said).decode(errors="replace")
    print(f"\n{len(finished)} bots in {time.monotonic() - began:.0f} s")
    for game, report in finished:
        print(game, {k: report[k] for k in ("moves", "reconnects", "lines", "longest_idle_s")})
        assert report["finished"], (game, report)
        assert report["reconnects"] == 0, (game, report["cuts"])
        assert report["lines"]["StreamOpening"] == 1, (game, report)  # one stream, held
        assert [s for s in report["statuses"] if int(s) >= 500] == [], (game, report)
        assert report["untyped"] == [], (game, report["untyped"])
        assert report["notifications"]["game_finished"] >= 1, (game, report)
        assert report["moves"] >= 1 and report["notifications"]["your_turn"] >= 1, (game, report)
        assert sorted(report["ranking"]) == list(range(SEATS[game.split("+")[0]])), report
        assert report["my_games"] == [report["game_id"]], (game, report)
    idle = [r for g, r in finished if g == "hotw-ah2001" and r["longest_idle_s"] > 20]
    assert idle, [r["longest_idle_s"] for _, r in finished]
    assert all(r["lines"].get("StreamHeartbeat", 0) >= 1 for r in idle), idle
    assert "Traceback" not in logged, logged[-3000:]
