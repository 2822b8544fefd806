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

NOT_SENTENCES = [
    (re.compile(r"\b[a-z]+ (yes|no|true|false)(?=[,.;)]|$)", re.I), "a bare yes or no"),
    (
        re.compile(r"\b(seat|colour|player|defender|enemy|owner|slot|giver)s? \d", re.I),
        "a seat or slot number",
    ),
    (re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{8,}\b"), "a hex id"),
    (re.compile(r",\s*and\s*[,.;]|\band\s*([,.;]|$)|,\s*,"), "an empty list item"),
    (re.compile(r"\.(txt|ya?ml|json|ndjson|py)\b"), "a file name"),
    (re.compile(r"\b(from|to) seat\b|\bfigure \d"), "a field's name with its value"),
]
"""What a sentence of the log (and a value Explain shows) must not hold beside `NOT_WORDS`
(issue 48, point 4): a flag as yes or no, a seat's or slot's number ("Defender 2"), a hex id, an
empty item of a list (", and ,"), a file's name, a field's name read out before its value."""


def key_value_dump(words: str, event_type: str) -> bool:
    """Whether an event's words are the generic form (its type in words, then its fields) rather
    than a sentence of its own: `Battle fought: Bot 1, land Lower Indus, ...`."""
    head = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", event_type.rsplit(".", 1)[-1])
    text = " ".join(w.lower() for w in head)
    return words.lower().startswith((text + ":", text + "."))
