"""A redacted event's `data` is typed in the document (`RedactedData`), so that a generated
client reads its `seat` and `count`: every redacted form the golden games recorded uses only
fields the schema lists, each of the type it says."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from schemas.event_data import REDACTED_DATA_SCHEMA, REDACTED_FIELDS

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_every_redacted_form_of_the_golden_games_fits_the_documented_redacted_data():
    validator = jsonschema.Draft202012Validator(REDACTED_DATA_SCHEMA)
    forms = 0
    unlisted: set[str] = set()
    for export in sorted(GOLDEN.glob("*/*.ndjson")):
        for line in export.read_text().splitlines():
            if '"redacted"' not in line:
                continue
            redacted = json.loads(line).get("visibility", {}).get("redacted")
            if redacted is None:
                continue
            forms += 1
            unlisted |= set(redacted) - set(REDACTED_FIELDS)
            validator.validate(redacted)
    assert forms > 100
    assert not unlisted, f"redacted fields the document does not type: {sorted(unlisted)}"
