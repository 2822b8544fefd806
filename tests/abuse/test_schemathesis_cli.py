"""schemathesis's own runner, every phase (examples, coverage, fuzzing, stateful on the
document's links) and every check, against `chronicle serve` and its published /openapi.yaml:
no failure and no error.

Configuration (tests/support/schemathesis.toml) says one thing: a schema-valid command may be
refused by the rules (422, with the rule id), because a legal shape is not always a legal move.
Hooks (tests/support/schemathesis_hooks.py) teach it the document's `player-name` format, so
the games it creates are accepted, and tell it that a token the server issued, which the links
from a created game carry into `Authorization`, is a real credential: `ignored_auth` then
probes every operation that succeeded with one, without the token and with a wrong one. The
hooks also record every answer on a game the run created, so the test can tell that the
stateful phase created games and played commands on them with their seats' tokens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.http import REPO_ROOT, serving

CONFIG = REPO_ROOT / "tests" / "support" / "schemathesis.toml"
HOOKS = REPO_ROOT / "tests" / "support" / "schemathesis_hooks.py"
EXAMPLES_PER_OPERATION = 5  # bounds the run time (~1-2 min on a quiet machine)


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    # a keep-alive every second: a stream schemathesis let go is noticed and closed at once
    with serving(
        redis_url, CHRONICLE_QUEUE=f"st-cli-{uuid.uuid4().hex[:8]}", CHRONICLE_SSE_HEARTBEAT_S="1"
    ) as base:
        yield base


def test_schemathesis_every_phase_every_check_finds_nothing(server, tmp_path: Path):
    record = tmp_path / "answers.jsonl"
    run = subprocess.run(
        [
            str(Path(sys.executable).with_name("schemathesis")),
            "--config-file",
            str(CONFIG),
            "--no-color",
            "run",
            f"{server}/openapi.yaml",
            "--phases",
            "examples,coverage,fuzzing,stateful",
            "--checks",
            "all",
            "--workers",
            "1",  # Python 3.11's ast is not thread-safe under Hypothesis's lambda descriptions
            "--max-examples",
            str(EXAMPLES_PER_OPERATION),
            "--seed",
            os.environ.get("CHRONICLE_ST_SEED", "36"),  # another seed explores elsewhere
            "--request-timeout",
            "30",
        ],
        cwd=tmp_path,
        env={
            **os.environ,
            "SCHEMATHESIS_HOOKS": str(HOOKS),
            "PYTHONPATH": str(REPO_ROOT),
            "CHRONICLE_ST_RECORD": str(record),
        },
        capture_output=True,
        text=True,
        timeout=1200,
    )
    summary = run.stdout[run.stdout.find("SUMMARY") :] if "SUMMARY" in run.stdout else run.stdout
    print(summary[-3000:])
    failures = (
        run.stdout[run.stdout.find("= FAILURES =") :][:6000] if "= FAILURES =" in run.stdout else ""
    )
    errors = (
        run.stdout[run.stdout.find("= ERRORS =") :][:3000] if "= ERRORS =" in run.stdout else ""
    )
    assert run.returncode == 0, failures + errors + summary[-2000:] + run.stderr[-2000:]
    for phase in ("Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in summary, summary[-3000:]
    assert "API Links:" in run.stdout and " 0 covered" not in run.stdout

    answers = [json.loads(line) for line in record.read_text().splitlines()]
    stateful = [a for a in answers if a["phase"] == "stateful"]
    played = [
        a["status"]
        for a in stateful
        if a["method"] == "POST" and a["path"] == "/games/{game_id}/commands" and a["issued_token"]
    ]
    print(f"on games the run created: {len(answers)} answers, {len(stateful)} stateful")
    print(f"stateful commands with a seat's token, by status: {sorted(played)}")
    # the stateful phase created games and played commands on them as their seats, past the
    # token check: accepted (201), refused by a rule (422) or for a stale expected_version (409)
    assert {201, 409, 422} & set(played), played
    # and `ignored_auth` had successes to probe: operations that need a token, answered 2xx
    # with one the server issued
    assert any(
        a["issued_token"] and 200 <= a["status"] < 300 and a["method"] == "POST" for a in stateful
    )
