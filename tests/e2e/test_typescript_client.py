"""A TypeScript client generated from the served OpenAPI document (openapi-typescript for the
types, openapi-fetch for the calls, pinned in examples/typescript/package-lock.json) is
type-checked with `tsc --strict` and plays a whole game of every ruleset, and of the Avalon
Hill edition's simultaneous-empires variant, on Node against `chronicle serve`, reading each
game's stream live while it is played.

The test runs the published example's one command, examples/typescript/run.sh, which installs
the npm packages there the first time (idempotent afterwards), generates the types from the
server's /openapi.yaml, compiles with tsc (strict, `tsc -b`: a second run with the same sources
finds the build up to date, so the two tests here compile once) and plays. Neither example
(TypeScript nor Python) holds a cast, a conversion or a hand-written model: a second test reads
them for one."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator

import pytest

from tests.support.http import REPO_ROOT, serving

EXAMPLE = REPO_ROOT / "examples" / "typescript"
GAMES = ["hotw-2024", "hotw-ah2001", "hotw-ah2001+simultaneous", "brief-2009", "patchistory"]


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    queue = f"ts-client-{uuid.uuid4().hex[:8]}"  # with the limits it ships with: the client waits
    with serving(redis_url, CHRONICLE_QUEUE=queue, CHRONICLE_RATE_LIMITS="on") as base:
        yield base


def test_the_typescript_client_plays_a_whole_game_of_every_ruleset_reading_the_stream(server):
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.fail("Node 20 and npm are needed for the TypeScript client (examples/typescript)")
    run = subprocess.run(
        ["sh", str(EXAMPLE / "run.sh"), server, *GAMES],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    reports = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert [r["game"] for r in reports] == GAMES
    for report in reports:
        print(f"\n{report['game']}: {report['commands']} commands, {report['version']} events")
        assert report["commands"] > 10, report
        assert report["streamed"] == report["version"] and report["streamed_in_order"], report
        assert report["exported"] == report["version"], report
        assert sorted(report["ranking"]) == list(range(report["players"])), report
        assert report["audit_clean"], report
        assert report["board"] == "svg"  # every ruleset draws its table
        assert report["event_types"] > 10, report
    by_game = {r["game"]: r for r in reports}
    assert by_game["hotw-2024"]["armies_placed"] > 0  # typed event data, picked by `type`
    assert by_game["brief-2009"]["gold_collected"] > 0  # brief.GoldCollected's pairs


TYPESCRIPT_CASTS = [r"\bas\s+(?!const\b)[A-Za-z{\[(]", r"<[A-Z]\w*>\s*\w", r"\w!\.", r"\bany\b"]
CASTS = {
    "typescript/src/play.ts": TYPESCRIPT_CASTS,
    "typescript/src/table_bot.ts": TYPESCRIPT_CASTS,
    "python/play.py": [
        r"\bcast\(",
        r"\bAny\b",
        r"type:\s*ignore",
        r"from_dict\(",
        r"\.to_dict\(\)\)",
    ],
    "python/table_bot.py": [
        r"\bcast\(",
        r"\bAny\b",
        r"type:\s*ignore",
        r"json\.loads",
        r"\[\"kind\"\]",
    ],
}


def test_the_examples_hold_no_cast_no_conversion_and_no_hand_written_model():
    for name, patterns in CASTS.items():
        code = (REPO_ROOT / "examples" / name).read_text()
        comment = ("#", "//", "/*", "*")
        lines = [line for line in code.splitlines() if not line.lstrip().startswith(comment)]
        for pattern in patterns:
            found = [line for line in lines if re.search(pattern, line)]
            assert not found, f"{name}: {pattern!r} in {found}"
    assert "interface " not in (EXAMPLE / "src" / "play.ts").read_text()
    assert "interface " not in (EXAMPLE / "src" / "table_bot.ts").read_text()


def test_the_typescript_table_bot_follows_its_player_stream_through_a_game_of_every_ruleset(
    redis_url,
):
    """examples/typescript/src/table_bot.ts on `chronicle serve` with its default settings (two
    gunicorn gevent workers, the rate limits on): the five games at once, server-side bots in
    the other seats, each line of the one stream it holds typed as `NotificationStreamLine` by
    tsc (strict) and told apart by `kind` alone; none cut, no 5xx."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.fail("Node 20 and npm are needed for the TypeScript client (examples/typescript)")
    queue = f"ts-bot-{uuid.uuid4().hex[:8]}"
    limits = {"CHRONICLE_RATE_LIMITS": "on"}  # the default the suite's own setting turns off
    with serving(redis_url, web_workers=2, CHRONICLE_QUEUE=queue, **limits) as base:
        run = subprocess.run(
            ["sh", str(EXAMPLE / "run.sh"), base, *GAMES],
            env={**os.environ, "SCRIPT": "table_bot"},
            capture_output=True,
            text=True,
            timeout=900,
        )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    reports = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert sorted(r["game"] for r in reports) == sorted(GAMES)
    for report in reports:
        print(f"\n{report['game']}: {report['moves']} moves, lines {report['lines']}")
        assert report["finished"], report
        assert report["reconnects"] == 0, report["cuts"]
        assert report["lines"]["opening"] == 1, report  # one stream, held through the game
        assert [s for s in report["statuses"] if int(s) >= 500] == [], report
        assert report["moves"] >= 1 and report["notifications"]["your_turn"] >= 1, report
        assert report["notifications"]["game_finished"] >= 1, report
        seats = 2 if report["game"] in ("brief-2009", "patchistory") else 3
        assert sorted(report["ranking"]) == list(range(seats)), report
