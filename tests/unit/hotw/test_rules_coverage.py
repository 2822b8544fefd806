"""Every clause of the rules catalogue is *asserted* by some test: an emitted event's or
refusal's rule is compared with it, a fact or reading citing it is checked, or (for a play
example) a test reproducing it asserts the outcome. Mentions in docstrings and comments do not
count (see tests/support/rule_coverage.py for what does)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.support.hotw import PACK
from tests.support.rule_coverage import Catalogue, asserted_ids

TESTS = Path(__file__).parents[2]
DOMAIN = TESTS.parent / "domain" / "hotw" / "editions" / "hotw_2024"


def catalogue() -> Catalogue:
    return Catalogue(
        ids=frozenset(rule.id for rule in PACK.rules),
        keys={},
    )


def test_every_rule_of_the_catalogue_is_asserted_by_a_test():
    asserted = asserted_ids(sorted(TESTS.rglob("test_*.py")), catalogue())
    unasserted = sorted({rule.id for rule in PACK.rules} - asserted)
    assert unasserted == [], f"{len(unasserted)} rule(s) no test asserts: {unasserted}"


CITING_CALLS = {
    "cited",
    "refused",
    "collect_gold",
    "award_honor",
    "reduce_buildings",
    "place_building",
    "plunder",
    "lay_down_and_remove_fleets",
}
RULE_KEY = re.compile(r"^[a-z0-9\-]+(\.[a-z0-9\-]+)+$")


def rule_keys_in_calls(root: Path) -> dict[str, str]:
    """Every rule id written as an argument of a citing call, or as an event's or a refusal's
    `rule` or `cites`, in the edition's modules (an id in a constant tuple counts as well), with
    where it is written."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            values: list[ast.AST] = []
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                if name in CITING_CALLS:
                    values = [*node.args, *(k.value for k in node.keywords)]
                else:
                    values = [k.value for k in node.keywords if k.arg in ("rule", "cites")]
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
                values = [node.value]
            for value in values:
                for leaf in ast.walk(value):
                    text = leaf.value if isinstance(leaf, ast.Constant) else None
                    if isinstance(text, str) and RULE_KEY.match(text):
                        found[text] = f"{path.name}:{leaf.lineno}"
    return found


def test_every_rule_id_the_chapters_cite_is_in_the_editions_catalogue():
    keys = rule_keys_in_calls(DOMAIN)
    assert len(keys) > 100  # the scan sees the chapters' citations
    unknown = sorted(
        f"{key} ({where})" for key, where in keys.items() if key not in {r.id for r in PACK.rules}
    )
    assert unknown == []


SAMPLE = '''
"""hotw24.docstring.only is named here and nowhere checked."""
import pytest

RULE = "hotw24.by.constant"


def test_one(event):
    """hotw24.docstring.only"""
    x = 1  # hotw24.comment.only
    assert event.rule == "hotw24.by.literal"
    assert event.rule == RULE
    assert event.rule == PACK.edition.cite("by.key")
    expect_refusal(event, rule="hotw24.by.helper")


@pytest.mark.parametrize("rule", ["hotw24.by.parameter"])
def test_two(event, rule):
    assert event.rule == rule


@pytest.mark.parametrize("unchecked", ["hotw24.parameter.unchecked"])
def test_three(event, unchecked):
    assert event


@pytest.mark.rulebook_example("hotw24.example.asserted")
def test_four(event):
    assert event


@pytest.mark.rulebook_example("hotw24.example.unasserted")
def test_five(event):
    print(event)
'''


def test_the_coverage_check_counts_assertions_not_mentions(tmp_path):
    sample = tmp_path / "test_sample.py"
    sample.write_text(SAMPLE, encoding="utf-8")
    named = {
        "hotw24.docstring.only",
        "hotw24.comment.only",
        "hotw24.by.constant",
        "hotw24.by.literal",
        "hotw24.by.key",
        "hotw24.by.helper",
        "hotw24.by.parameter",
        "hotw24.parameter.unchecked",
        "hotw24.example.asserted",
        "hotw24.example.unasserted",
    }
    known = Catalogue(ids=frozenset(named), keys={"by.key": "hotw24.by.key"})
    assert asserted_ids([sample], known) == {
        "hotw24.by.constant",
        "hotw24.by.literal",
        "hotw24.by.key",
        "hotw24.by.helper",
        "hotw24.by.parameter",
        "hotw24.example.asserted",
    }
