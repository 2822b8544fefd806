"""The rules catalogue: every rule clause of a ruleset, by id.

Events and rule violations cite these ids; the API's explain endpoint shows the entry.
"""

from __future__ import annotations

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
    def citation(self) -> str:
        """Where the rulebook says it, for people: its page ("p. 5", with the section when
        there is one), or its section heading where the text prints no page; never a
        placeholder."""
        page = "" if self.page in ("", "?") else f"p. {self.page}"
        if page and self.section:
            return f"{page}, {self.section}"
        return page or self.section


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
