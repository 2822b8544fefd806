"""What A Brief History of the World's manual states about its components holds in
data/brief-2009/ (facts.yaml): a pack that breaks one of those facts is refused naming the
clause."""

from __future__ import annotations

from pathlib import Path

import pytest

from packs.brief import load_tables
from tests.support import packs
from tests.support.packs import Mutation, entry


def refusal_of(tmp_path: Path, file: str, mutate: Mutation) -> str:
    return packs.refusal_of(tmp_path, "brief-2009", file, mutate, load_tables)


BREAKS: list[tuple[str, str, Mutation]] = [
    (
        "brief.components.barren",
        "board.yaml",
        lambda d: entry(d, "lands", "sahara").update(terrain="clear"),
    ),
    ("brief.components.pieces", "pieces.yaml", lambda d: d["dice"].update(count=5)),
    ("brief.setup.player-count", "pieces.yaml", lambda d: d["players"].update(min=2)),
    ("brief.invasion.dice", "pieces.yaml", lambda d: d["dice"].update(fort=3)),
    ("brief.invasion.points", "pieces.yaml", lambda d: d["invasion"].update(difficult=3)),
    ("brief.gold.buildings", "pieces.yaml", lambda d: d["gold"].update(capital=3)),
    (
        "brief.gold.spiral",
        "areas.yaml",
        lambda d: entry(d, "areas", "northern-europe").update(spiral=15),
    ),
    (
        "brief.organisation.area-values",
        "areas.yaml",
        lambda d: entry(d, "areas", "middle-east")["values"].pop(),
    ),
    (
        "brief.turns.order",
        "empires.yaml",
        lambda d: entry(d, "empires", "sumerians").update(order=2),
    ),
    (
        "brief.features.atlantic-crossing",
        "empires.yaml",
        lambda d: entry(d, "features", "atlantic-crossing")["effect"].update(crossings=2),
    ),
    (
        "brief.features.france",
        "empires.yaml",
        lambda d: entry(d, "features", "preserve-monuments")["effect"].update(land="italia"),
    ),
    (
        "brief.features.united-states",
        "empires.yaml",
        lambda d: entry(d, "empires", "united-states").update(feature=None),
    ),
    (
        "brief.setup.leader-weaponry",
        "events.yaml",
        lambda d: entry(d, "cards", "leader").update(count=5),
    ),
    (
        "brief.organisation.set-out",
        "events.yaml",
        lambda d: d.update(
            cards=[c for c in d["cards"] if c["epoch"] != 3 or c["kind"] in ("leader", "weaponry")]
        ),
    ),
    (
        "brief.events.astronomy",
        "events.yaml",
        lambda d: d.update(cards=[c for c in d["cards"] if c["kind"] != "astronomy"]),
    ),
    ("brief.setup.bonus-tokens", "bonus_tokens.yaml", lambda d: d["tokens"].pop()),
]


@pytest.mark.parametrize(("rule", "file", "mutate"), BREAKS, ids=[b[0] for b in BREAKS])
def test_a_pack_that_breaks_what_the_manual_states_is_refused_naming_the_clause(
    tmp_path: Path, rule: str, file: str, mutate: Mutation
) -> None:
    assert rule in refusal_of(tmp_path, file, mutate)
