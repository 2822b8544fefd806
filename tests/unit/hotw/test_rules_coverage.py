"""Every clause of the rules catalogue is cited by a test (by its id in a test file, or by an
event or refusal a test asserts on). The four optional rules (ids `hotw24.option…`, and play
example 10, which is Option 3's) come later and are left out."""

from __future__ import annotations

from pathlib import Path

from tests.support.hotw import PACK

HERE = Path(__file__).parent
OPTIONAL_PREFIXES = ("hotw24.option",)
OPTIONAL_IDS = {"hotw24.example.10"}


def cited_ids() -> set[str]:
    tests_root = HERE.parents[1]
    text = "\n".join(path.read_text() for path in tests_root.rglob("test_*.py"))
    return {rule.id for rule in PACK.rules if rule.id in text}


def test_every_rule_of_the_catalogue_is_cited_by_a_test():
    required = {
        rule.id
        for rule in PACK.rules
        if not rule.id.startswith(OPTIONAL_PREFIXES) and rule.id not in OPTIONAL_IDS
    }
    uncited = sorted(required - cited_ids())
    assert uncited == [], f"{len(uncited)} rule(s) no test cites: {uncited}"


def test_every_rule_id_the_engine_cites_is_in_the_catalogue():
    import re

    root = HERE.parents[2] / "domain" / "hotw"
    cited = set()
    for path in root.rglob("*.py"):
        cited |= set(re.findall(r'"(hotw24\.[a-z0-9.\-]+[a-z0-9])"', path.read_text()))
    missing = sorted(rule for rule in cited if PACK.rules.get(rule) is None)
    assert missing == []
