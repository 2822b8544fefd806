"""One hop from a rule to its code: every entry of every shipped ruleset's rules catalogue names
the module of domain/ that implements it, and that module cites the rule (its id, or the key an
edition resolves to it, appears in the module's source)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from service.rulesets import built_in, ruleset

RULESETS_WITH_MODULES = ("brief-2009", "hotw-2024", "hotw-ah2001", "patchistory")
"""Every shipped ruleset (a test below holds the two lists equal)."""


def keys_of(rules: object) -> dict[str, set[str]]:
    """Rule id -> the shared keys an edition resolves to it (hotw-2024's edition.yaml)."""
    edition = getattr(getattr(rules, "pack", None), "edition", None)
    found: dict[str, set[str]] = {}
    for key, rule_id in dict(getattr(edition, "rule_ids", {}) or {}).items():
        found.setdefault(rule_id, set()).add(key)
    return found


@pytest.mark.parametrize("name", RULESETS_WITH_MODULES)
def test_every_rule_names_the_module_that_implements_it_and_that_module_cites_it(
    name: str,
) -> None:
    rules = ruleset(name)
    catalogue = rules.pack.rules
    keys = keys_of(rules)
    prefix = next(iter(catalogue)).id.split(".")[0] + "."
    missing, absent, uncited = [], [], []
    for entry in catalogue:
        if not entry.module:
            missing.append(entry.id)
            continue
        spec = importlib.util.find_spec(entry.module)
        if spec is None or spec.origin is None:
            absent.append((entry.id, entry.module))
            continue
        source = Path(spec.origin).read_text(encoding="utf-8")
        names = {entry.id, entry.id.removeprefix(prefix), *keys.get(entry.id, ())}
        if not any(n in source for n in names):
            uncited.append((entry.id, entry.module))
    assert missing == [], f"{len(missing)} rule(s) name no module: {missing[:10]}"
    assert absent == [], f"modules that do not exist: {absent[:10]}"
    assert uncited == [], f"modules that do not cite their rule: {uncited[:10]}"


def test_every_shipped_ruleset_names_its_modules() -> None:
    assert set(RULESETS_WITH_MODULES) == set(built_in())
