"""House style holds: ruff on the whole tree, mypy --strict on domain/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600
    )


def test_ruff_finds_nothing():
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean_on_the_domain():
    result = run("mypy", "--strict", "domain")
    assert result.returncode == 0, result.stdout + result.stderr
