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


def test_both_quick_start_commands_install_the_locked_versions():
    for command in quick_start_commands()[:2]:
        assert "pip install -q -c constraints.txt -e " in command
    assert (REPO_ROOT / "constraints.txt").is_file()


def test_ci_runs_exactly_the_readme_test_command():
    test = quick_start_commands()[1]
    ci_lines = (REPO_ROOT / ".ci" / "run").read_text().splitlines()
    assert test in ci_lines


def readme_settings() -> list[str]:
    """The environment variables of the README's settings table (first column), in order."""
    text = (REPO_ROOT / "README.md").read_text()
    section = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [name for row in rows for name in re.findall(r"`([A-Z_]+)`", row.split("|")[1])]


def serve_help() -> str:
    from cli.main import build_parser

    parser = build_parser("serve")
    serve = parser._subparsers._group_actions[0].choices["serve"]  # type: ignore[union-attr]
    return " ".join(serve.format_help().split())


def test_the_readme_settings_table_lists_the_settings_it_documents():
    names = readme_settings()
    assert len(names) >= 14 and len(set(names)) == len(names)
    assert {"REDIS_URL", "CHRONICLE_DATA_DIR", "CHRONICLE_CORS_ORIGINS"} <= set(names)


def test_serve_help_lists_every_setting_of_the_readme_table_with_its_flag():
    from cli.serve import SETTINGS

    text = serve_help()
    flags = {setting.env: setting.flag for setting in SETTINGS}
    for name in readme_settings():
        assert f"[env {name}]" in text, f"chronicle serve --help does not mention {name}"
        assert name in flags and f"{flags[name]} " in text, f"no flag for {name}"


def test_serve_help_lists_no_setting_the_readme_table_leaves_out():
    in_help = re.findall(r"\[env ([A-Z_]+)\]", serve_help())
    assert sorted(in_help) == sorted(readme_settings())
