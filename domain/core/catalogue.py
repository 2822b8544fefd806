"""The rules catalogue: every rule clause of a ruleset, by id.

Events and rule violations cite these ids; the API's explain endpoint shows the entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RuleEntry:
    """One clause of a rulebook: where it stands and what it says, in our own words."""

    id: str
    page: str
    section: str
    text: str
    reading: str = ""
    """How we read the clause where the rulebook leaves it open (empty when it does not)."""
    departs_from: str = ""
    """The rulebook's words, quoted, that the reading departs from (empty when it does not
    depart: the text is silent or open, or the reading follows it)."""
    module: str = ""
    """The module of domain/ that implements the clause (one hop from a rule to its code)."""

    @property
    def heading(self) -> str:
        """The section as people read it: without the name of the file its text comes from
        ("Simultaneous Empires variant, rules 3-5", not "... (hotw-variant-....txt), ...")."""
        return re.sub(r"\s*\([\w.-]+\.(?:txt|ya?ml|md)\)", "", self.section)

    @property
    def citation(self) -> str:
        """Where the rulebook says it, for people: its page ("p. 5", with the section when
        there is one), or its section heading where the text prints no page; never a
        placeholder."""
        page = "" if self.page in ("", "?") else f"p. {self.page}"
        if page and self.heading:
            return f"{page}, {self.heading}"
        return page or self.heading


@dataclass(frozen=True)
class RulesCatalogue:
    ruleset: str
    entries: Mapping[str, RuleEntry] = field(default_factory=dict)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self.entries

    def __iter__(self) -> Iterator[RuleEntry]:
        return iter(self.entries.values())

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, rule_id: str) -> RuleEntry | None:
        return self.entries.get(rule_id)
