"""The Avalon Hill 2001 printed tables and catalogue, loaded and checked once per worker for the
tests that read them (not at import: collecting a file pays nothing)."""

from __future__ import annotations

import pytest

from domain.core.catalogue import RulesCatalogue
from domain.hotw.editions.ah2001.tables import Ah2001Tables
from packs.ah2001 import load_tables


@pytest.fixture(scope="session")
def printed() -> tuple[Ah2001Tables, RulesCatalogue]:
    return load_tables()


@pytest.fixture(scope="session")
def tables(printed: tuple[Ah2001Tables, RulesCatalogue]) -> Ah2001Tables:
    return printed[0]


@pytest.fixture(scope="session")
def catalogue(printed: tuple[Ah2001Tables, RulesCatalogue]) -> RulesCatalogue:
    return printed[1]
