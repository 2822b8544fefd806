"""schemathesis's own runner, every phase (examples, coverage, fuzzing, stateful on the
document's links) and every check, against `chronicle serve` and its published /openapi.yaml:
no failure and no error.

Configuration (tests/support/schemathesis.toml) says one thing: a schema-valid command may be
refused by the rules (422, with the rule id), because a legal shape is not always a legal move.
One check is left out, `ignored_auth`: its tokens come from the document's links (a created
game's seat and admin tokens), which schemathesis takes for tokens it generated, so every
authenticated success would count against it; tests/abuse/test_security.py and test_fuzz.py
hold the server to refusing missing, wrong and other games' tokens."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.http import REPO_ROOT, serving

CONFIG = REPO_ROOT / "tests" / "support" / "schemathesis.toml"
EXAMPLES_PER_OPERATION = 5  # bounds the run time (~1-2 min on a quiet machine)


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(redis_url, CHRONICLE_QUEUE=f"st-cli-{uuid.uuid4().hex[:8]}") as base:
        yield base


def test_schemathesis_every_phase_every_check_finds_nothing(server, tmp_path: Path):
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
            "--exclude-checks",
            "ignored_auth",
            "--workers",
            "1",  # Python 3.11's ast is not thread-safe under Hypothesis's lambda descriptions
            "--max-examples",
            str(EXAMPLES_PER_OPERATION),
            "--seed",
            "36",
            "--request-timeout",
            "30",
        ],
        cwd=tmp_path,
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
