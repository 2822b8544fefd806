"""What the Avalon Hill 2001 rulebook states about its components holds in data/hotw-ah2001/:
the pieces, the board, the decks and the scoring table; a pack that breaks one of those facts
is refused naming the clause."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.packs import Mutation, entry
from tests.unit.ah2001.test_tables import broken

BREAKS: list[tuple[str, str, Mutation]] = [
    ("ah2001.components.pieces", "pieces.yaml", lambda d: d.update(forts=31)),
    (
        "ah2001.components.pieces",
        "pieces.yaml",
        lambda d: d["armies_per_colour_by_epoch"].update({3: 19}),
    ),
    ("ah2001.setup.pre-eminence", "pieces.yaml", lambda d: d["pre_eminence_markers"].pop()),
    (
        "ah2001.setup.event-cards",
        "pieces.yaml",
        lambda d: d["dealt_per_player"].update(lesser=6),
    ),
    ("ah2001.setup.board", "victory_points.yaml", lambda d: d["areas"].pop()),
    (
        "ah2001.expand.barren",
        "board.yaml",
        lambda d: entry(d, "lands", "gobi").update(terrain="clear", area="china"),
    ),
    (
        "ah2001.monuments.count",
        "board.yaml",
        lambda d: entry(d, "lands", "lower-tigris").update(resource=False),
    ),
    (
        "ah2001.epoch.call-order",
        "empires.yaml",
        lambda d: entry(d, "empires", "sumeria").update(epoch=2, number=8),
    ),
]


@pytest.mark.parametrize(("rule", "file", "mutate"), BREAKS, ids=[b[0] for b in BREAKS])
def test_a_pack_that_breaks_what_the_rulebook_states_is_refused_naming_the_clause(
    tmp_path: Path, rule: str, file: str, mutate: Mutation
) -> None:
    assert rule in broken(tmp_path, file, mutate)
