"""Every clause of Patchistory's rules catalogue is *asserted* by some test (an emitted event's
or refusal's rule compared with it, a fact citing it checked, or a play example reproduced):
tests/support/rule_coverage.py says what counts.

A few clauses state a fact of the components or of the commands' shape, or a principle, that
no event or refusal carries; each is named here with the test that checks it, and the list may
only shrink."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.rule_coverage import catalogue_ids, unasserted_ids

HERE = Path(__file__).parent

CHECKED_WITHOUT_A_CITATION = {
    "patchistory.auction.committed": (
        "test_coin_once_committed_stays_and_a_moved_bid_must_be_highest_where_it_lands"
    ),
    "patchistory.components.finite": "test_the_pack_holds_the_printed_counts_and_numbers",
    "patchistory.components.goods": "test_the_pack_holds_the_printed_counts_and_numbers",
    "patchistory.hidden.screen": (
        "test_a_seat_sees_its_own_goods_and_hands_and_only_counts_of_the_others"
    ),
    "patchistory.patch.facing": "test_tiles_always_face_their_player_so_a_patch_names_no_rotation",
    "patchistory.setup.status": (
        "test_the_equality_capital_sets_two_coin_one_politics_one_transport_two_food_and_nothing_else"
    ),
    "patchistory.tiles.precedence": (
        "test_the_statue_of_liberty_lifts_the_patching_limit_once_patched"
    ),
}


def test_every_rule_of_the_catalogue_is_asserted_by_a_test():
    unasserted = unasserted_ids(catalogue_ids("patchistory"), leave_out=[Path(__file__)])
    assert unasserted == sorted(CHECKED_WITHOUT_A_CITATION), (
        f"{len(unasserted)} rule(s) no test asserts: {unasserted}"
    )


def test_each_clause_checked_without_a_citation_names_a_test_that_exists():
    tests = {
        node.name
        for path in HERE.glob("test_*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef)
    }
    ids = catalogue_ids("patchistory")
    for clause, test in CHECKED_WITHOUT_A_CITATION.items():
        assert clause in ids and test in tests, (clause, test)
