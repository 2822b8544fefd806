"""Every clause of the hotw-ah2001 rules catalogue (data/hotw-ah2001/rules.yaml) is *asserted*
by some test: an emitted event's or refusal's rule is compared with it, a fact citing it is
checked, or (for a play example) a test reproducing it asserts the outcome. Mentions in
docstrings and comments do not count (see tests/support/rule_coverage.py for what does)."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.support.rule_coverage import Catalogue, asserted_ids

TESTS = Path(__file__).parents[2]
RULES = TESTS.parent / "data" / "hotw-ah2001" / "rules.yaml"


def rule_ids() -> frozenset[str]:
    return frozenset(entry["id"] for entry in yaml.safe_load(RULES.read_text())["rules"])


def test_the_catalogue_is_read_whole():
    ids = rule_ids()
    assert len(ids) > 100
    assert all(rule.startswith("ah2001.") for rule in ids)


def test_every_rule_of_the_catalogue_is_asserted_by_a_test():
    ids = rule_ids()
    asserted = asserted_ids(sorted(TESTS.rglob("test_*.py")), Catalogue(ids=ids, keys={}))
    unasserted = sorted(ids - asserted)
    assert unasserted == [], f"{len(unasserted)} rule(s) no test asserts: {unasserted}"
