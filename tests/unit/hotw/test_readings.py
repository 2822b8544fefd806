"""Readings that depart from the rulebook (issue 17, point 6).

An entry of the hotw-2024 rules catalogue whose `reading` plays something other than what the
rulebook literally says quotes, in `departs_from`, the rulebook's own words it departs from.
Readings that only fill a silence of the text or pick one meaning of an open clause carry no
quote. These tests hold the quotes to the rulebook text and the list of departing entries to
the one decided when the readings were reviewed against the text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.core.catalogue import RuleEntry, RulesCatalogue
from packs.hotw import load_pack

RULEBOOK = Path("shared") / "rules" / "hotw-2024-rio-grande.txt"

DEPARTING = frozenset(
    {
        # The players draw their Epoch I Area tokens before "One further token is then drawn";
        # Chronicle draws the Endgame space's token first (exchangeable draws, same play).
        "hotw24.organization.area-tokens.epoch-one",
    }
)
"""The entries whose reading departs from the text. A change to the catalogue that adds or
drops a `departs_from` must update this set knowingly."""


def collapsed(text: str) -> str:
    """The text with every run of whitespace made one space, so line breaks and doubled
    spaces of the extracted rulebook do not matter."""
    return re.sub(r"\s+", " ", text).strip()


def find_rulebook(start: Path) -> Path | None:
    """The 2024 rulebook text in a `shared/rules` folder beside the repository or above it
    (the main checkout and every worktree see the same /work/shared)."""
    for folder in (start, *start.parents):
        candidate = folder / RULEBOOK
        if candidate.is_file():
            return candidate
    return None


@pytest.fixture(scope="module")
def catalogue() -> RulesCatalogue:
    return load_pack("hotw-2024").rules


@pytest.fixture(scope="module")
def departing(catalogue: RulesCatalogue) -> list[RuleEntry]:
    return [entry for entry in catalogue if entry.departs_from]


@pytest.fixture(scope="module")
def rulebook() -> str:
    path = find_rulebook(Path(__file__).resolve().parent)
    if path is None:
        pytest.skip(f"the rulebook text {RULEBOOK} is not beside this checkout")
    return collapsed(path.read_text(encoding="utf-8"))


def test_the_rulebook_is_found_from_this_checkout() -> None:
    path = find_rulebook(Path(__file__).resolve().parent)
    if path is None:
        pytest.skip(f"the rulebook text {RULEBOOK} is not beside this checkout")
    assert "History of the World" in path.read_text(encoding="utf-8")


def test_the_departing_entries_are_the_decided_ones(departing: list[RuleEntry]) -> None:
    assert {entry.id for entry in departing} == DEPARTING


def test_the_decided_entries_exist_and_have_readings(catalogue: RulesCatalogue) -> None:
    for rule_id in DEPARTING:
        entry = catalogue.get(rule_id)
        assert entry is not None, rule_id
        assert entry.reading.strip(), rule_id


def test_every_quote_occurs_verbatim_and_once_in_the_rulebook(
    departing: list[RuleEntry], rulebook: str
) -> None:
    for entry in departing:
        quote = collapsed(entry.departs_from)
        assert quote, entry.id
        assert quote in rulebook, f"{entry.id}: {quote!r} is not in the rulebook text"
        assert rulebook.count(quote) == 1, f"{entry.id}: {quote!r} is ambiguous in the rulebook"


def test_every_departing_reading_says_what_chronicle_does(departing: list[RuleEntry]) -> None:
    for entry in departing:
        reading = collapsed(entry.reading)
        quote = collapsed(entry.departs_from)
        assert reading, entry.id
        rest = collapsed(reading.replace(quote, " ")).strip(" .,;:-'\"")
        assert rest and rest.casefold() != quote.casefold(), entry.id
        assert len(rest.split()) >= 8, f"{entry.id}: the reading only repeats the quote"


def test_silent_text_and_table_procedures_do_not_depart(catalogue: RulesCatalogue) -> None:
    """A reading that fills a silence is no departure: the player count the 2024 text never
    states, and Chronicle's table procedures, which are not in the rulebook at all."""
    for entry in catalogue:
        if entry.id == "hotw24.setup.player-count" or entry.id.startswith("hotw24.table."):
            assert not entry.departs_from, entry.id
