"""Glyphs that render with Debian's default fonts (issue 34, point 5): every character beyond
ASCII that the web table, the HTML replay or a drawing may print has a glyph in DejaVu Sans
(fonts-dejavu-core, which Debian's Chromium falls back to), so none renders as an empty box.
The table's clock was "⏱" (U+23F1), which no font of a plain Debian install draws."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    *sorted((ROOT / "api" / "web").glob("*.js")),
    *sorted((ROOT / "api" / "web").glob("*.html")),
    *sorted((ROOT / "api" / "web").glob("*.css")),
    *sorted((ROOT / "service" / "replay_assets").glob("*")),
]


def covered(char: str) -> bool:
    found = subprocess.run(
        ["fc-list", f"DejaVu Sans:charset={ord(char):x}", "family"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return "DejaVu Sans" in found.stdout


def drawn_text() -> str:
    from cli.data import bare_setup
    from service.rulesets import ruleset

    texts = []
    for name in ("hotw-2024", "hotw-ah2001", "brief-2009", "patchistory"):
        rules = ruleset(name)
        svg = rules.draw_board(rules.initial_state(bare_setup(rules)), None) or ""
        texts += ["".join(t.itertext()) for t in ET.fromstring(svg).iter()]
    return "".join(texts)


def test_every_character_the_pages_and_drawings_print_has_a_glyph_in_debian_default_font():
    if shutil.which("fc-list") is None or not covered("A"):
        pytest.skip("fontconfig and fonts-dejavu-core are needed to read the fonts' coverage")
    text = "".join(p.read_text(encoding="utf-8") for p in PAGES) + drawn_text()
    beyond = sorted({c for c in text if ord(c) > 127})
    assert len(beyond) > 3, "the pages print some typography (— … “ ”)"
    missing = [f"U+{ord(c):04X} {c}" for c in beyond if not covered(c)]
    assert missing == [], f"no glyph in DejaVu Sans: {missing}"
