"""The greedy bot's Avalon Hill 2001 strategy: a move is worth the points it brings now, an
attack weighted by its odds; it plays on what its seat may see, in-process and over HTTP."""

from __future__ import annotations

from bots.greedy import GreedyBot
from domain.core.messages import Command
from domain.hotw.editions.ah2001.model import Cell
from domain.hotw.editions.ah2001.strategy import state_from_view, win_chance
from tests.unit.ah2001.test_engine import RULES, playing


def test_two_dice_against_one_win_a_little_over_half_the_time_and_a_bonus_helps() -> None:
    assert round(win_chance(2, 1), 4) == round(125 / 216, 4)
    assert win_chance(2, 2) < win_chance(2, 1) < win_chance(3, 1) < win_chance(2, 1, 1)


def test_the_greedy_bot_takes_an_empty_land_that_scores_rather_than_ending_its_expansion() -> None:
    state = playing("sumeria", 1, {"lower-tigris": Cell(0, 1, frozenset({"capital"}))}, pool=1)
    bot = GreedyBot(RULES, 0)
    actions = RULES.legal_actions(state, 0)
    assert Command.of("end_expansion") in actions
    chosen = bot.choose(state, actions, 0)
    assert chosen.type == "place_army"
    before = bot.strategy.value(bot.state_of(state, 0), 0)
    assert bot.expected_gold(state, 0, chosen) >= bot.expected_gold(
        state, 0, Command.of("end_expansion")
    )
    assert before > 0  # the capital and the land already score


def test_a_seats_view_rebuilds_the_position_the_bot_plays_on() -> None:
    state = playing("sumeria", 1, {"lower-tigris": Cell(0, 1, frozenset({"capital"}), 2)})
    rebuilt = state_from_view({"view": RULES.view(state, 1)})
    assert rebuilt.land("lower-tigris") == state.land("lower-tigris")
    assert rebuilt.turn is not None and rebuilt.turn.pool == state.turn.pool
    assert rebuilt.players[0].hand == ()  # another seat's hand stays unseen
