"""The general vocabulary (p1-p2): the board, people pieces and the four kinds of land."""

from __future__ import annotations

import pytest

from domain.core.errors import RuleViolation
from domain.hotw.editions.hotw_2024.cards import Phase
from domain.hotw.editions.hotw_2024.model import Control
from tests.support.hotw import BLUE, PACK, RED, RULES, act, army, garrison, position


def test_the_board_has_sixty_two_lands_four_oceans_seven_seas_and_eight_wastelands():
    """hotw24.components.board."""
    board = PACK.board
    assert (len(board.lands), len(board.oceans), len(board.seas_only), len(board.wastelands)) == (
        62, 4, 7, 8,
    )  # fmt: skip


def test_empire_friendly_enemy_and_uncontrolled_lands_are_seen_from_the_current_player():
    """hotw24.general.land.empire, hotw24.general.land.friendly, hotw24.general.land.enemy,
    hotw24.general.land.uncontrolled; hotw24.turn.terms."""
    state = position({"tigris": army(RED), "euphrates": garrison(RED), "zagros": garrison(BLUE)})
    assert state.control_of("tigris", RED) is Control.EMPIRE
    assert state.control_of("euphrates", RED) is Control.FRIENDLY
    assert state.control_of("zagros", RED) is Control.ENEMY
    assert state.control_of("persia", RED) is Control.UNCONTROLLED
    assert state.control_of("tigris", BLUE) is Control.ENEMY


def test_a_people_piece_from_the_pool_stands_as_an_army_and_is_laid_down_as_a_garrison():
    """hotw24.general.people.army-from-pool, hotw24.general.people.army-or-garrison."""
    state = position({"tigris": army(RED)}, people=1)
    _, state = act(state, "place_army", land="persia")
    assert state.turn is not None and state.turn.pool.people == 0
    assert state.land("persia").standing
    state = position({"tigris": army(RED)}, phase=Phase.REVENUE)
    _, state = act(state, "end_phase")
    assert not state.land("tigris").standing


def test_every_player_uses_the_same_dice_system():
    """hotw24.intro.one-system: with dice the Leader takes no 'ignore' declaration."""
    state = position({"tigris": army(RED)}, people=1, dice=True)
    with pytest.raises(RuleViolation) as refused:
        act(state, "use_leader", ignore="fort")
    assert refused.value.rule == "hotw24.intro.one-system"
    state = position({"tigris": army(RED)}, people=1, dice=False)
    assert {c.arg("ignore") for c in RULES.legal_actions(state, RED) if c.type == "use_leader"} == {
        "difficult",
        "fort",
    }
