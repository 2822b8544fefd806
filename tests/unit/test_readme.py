"""The README's Quick start gives the two commands, and CI runs the second one verbatim."""

from __future__ import annotations

import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def quick_start_commands() -> list[str]:
    text = (REPO_ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_quick_start_gives_a_run_command_then_a_test_command():
    run, test = quick_start_commands()[:2]
    assert "chronicle serve" in run
    assert "pytest" in test


def test_ci_runs_exactly_the_readme_test_command():
    test = quick_start_commands()[1]
    ci_lines = (REPO_ROOT / ".ci" / "run").read_text().splitlines()
    assert test in ci_lines
