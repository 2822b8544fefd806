"""Every rules catalogue (data/<ruleset>/rules.yaml) is laid out alike (issue 51): a header that
describes the fields in the same words, then `ruleset`, `source` and `rules`, whose entries sit
under section rulers, one field a line, in one order, never single-quoted; read line by line, a
catalogue is exactly what YAML loads from it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("brief-2009", "hotw-2024", "hotw-ah2001", "patchistory")
FIELDS = ("id", "module", "page", "section", "text", "reading", "departs_from")
REQUIRED = FIELDS[:5]
RULER = re.compile(r"  # --- \S.* -+")
ENTRY = re.compile(r"  - id: (?P<value>\S+)")
FIELD = re.compile(rf"    (?P<key>{'|'.join(FIELDS[1:])}): (?P<value>\S.*)")


def lines_of(ruleset: str) -> list[str]:
    path = REPO_ROOT / "data" / ruleset / "rules.yaml"
    return path.read_text(encoding="utf-8").splitlines()


def fields_paragraph(lines: list[str]) -> list[str]:
    """The header's paragraph that describes the fields (up to the next empty comment line)."""
    start = next(n for n, line in enumerate(lines) if line.startswith("# One entry per rule"))
    end = next(n for n in range(start, len(lines)) if lines[n] == "#")
    return lines[start:end]


def entries_read_line_by_line(lines: list[str]) -> list[dict[str, Any]]:
    """The entries, each field line read on its own; a line of another shape fails."""
    body = lines[lines.index("rules:") + 1 :]
    entries: list[dict[str, Any]] = []
    for line in body:
        if not line or RULER.fullmatch(line):
            continue
        match = ENTRY.fullmatch(line) or FIELD.fullmatch(line)
        assert match, f"not one field on one line: {line!r}"
        assert not match["value"].startswith("'"), f"single-quoted: {line!r}"
        if match.re is ENTRY:
            entries.append({})
        ((key, value),) = yaml.safe_load(line.strip().removeprefix("- ")).items()
        assert key not in entries[-1], f"{key} twice: {line!r}"
        entries[-1][key] = value
    return entries


def test_every_catalogue_describes_its_fields_in_the_same_words() -> None:
    paragraphs = {ruleset: fields_paragraph(lines_of(ruleset)) for ruleset in RULESETS}
    first = paragraphs[RULESETS[0]]
    assert all(paragraph == first for paragraph in paragraphs.values()), paragraphs
    words = " ".join(first)
    assert [words.index(f"`{field}`") for field in FIELDS] == sorted(
        words.index(f"`{field}`") for field in FIELDS
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_catalogue_opens_with_its_ruleset_source_and_rules_under_rulers(ruleset: str) -> None:
    lines = lines_of(ruleset)
    top = [line.split(":")[0] for line in lines if line and line[0] not in "# "]
    assert top == ["ruleset", "source", "rules"]
    assert lines[lines.index("rules:") + 1].startswith("  # --- ")
    assert all(len(line) <= 100 for line in lines if RULER.fullmatch(line))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_entry_has_its_fields_one_a_line_in_the_one_order(ruleset: str) -> None:
    lines = lines_of(ruleset)
    entries = entries_read_line_by_line(lines)
    misordered = [e["id"] for e in entries if list(e) != [f for f in FIELDS if f in e]]
    lacking = [e["id"] for e in entries if not set(REQUIRED) <= set(e)]
    pages = [line for line in lines if line.startswith("    page: ")]
    assert misordered == [] and lacking == []
    assert all(re.fullmatch(r'    page: "[^"]+"', line) for line in pages), "pages in double quotes"
    assert entries == yaml.safe_load("\n".join(lines))["rules"]
