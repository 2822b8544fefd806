"""What a text shown to a person must not print where it should use words: a placeholder, an
empty field, -1, a missing value, a bare seat or colour number, an id. One list, read by the
unit test of every label and sentence (`tests/unit/test_words_not_ids.py`) and by the browser
games, which read the page itself (`tests/support/table_page.py`)."""

from __future__ import annotations

import re

SLUG = "an id (a slug)"
"""A slug the page may show as part of a word ("face-down"): the page is checked against its
pack's own ids instead."""

NOT_WORDS = [
    (re.compile(r"p\. \?"), "a page placeholder"),
    (re.compile(r",\s*[,.;:)]|,\s*$|:\s*[,.;]|\(\s*\)|\s[,.;:](?!\d)"), "an empty field"),
    (re.compile(r"(?<![\w.])-1\b"), "-1"),
    (re.compile(r"\b(None|null|undefined|NaN|nan)\b"), "a missing value"),
    (re.compile(r"\b(seat|colour|player) \d"), "a bare seat or colour number"),
    (re.compile(r"\b[a-z][a-z0-9]*(-[a-z0-9]+)+\b"), SLUG),
    (re.compile(r"\b[a-z]\d+ \d+\b"), "an id (e1 18)"),
    (re.compile(r"[A-Za-z] and -?\d+(?=[,.;]|$| and )"), "a name paired with its number by 'and'"),
]
