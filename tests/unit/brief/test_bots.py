"""Bots play A Brief History of the World: the greedy bot's strategy sees only its seat's view
(in-process as over HTTP), values invasions at their exact odds, and beats random bots."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bots import GreedyBot, RandomBot
from cli.selfplay import game_seed, play_game
from domain.core.chance import Chance
from domain.core.kernel import Game, creation_events, decide, fold
from domain.core.messages import SYSTEM, Command, Recorded
from domain.hotw.editions.brief2009.strategy import state_from_view, success_chance
from service.chance import HmacSource, commitment
from tests.unit.brief.helpers import RULES, TABLES, expand, playing, resigned, standing, table


def faced(seed: str, players: int = 3) -> list[tuple[Any, int, list[Command]]]:
    """Every (state, seat, legal actions) of one seeded game, seat 0 greedy, the rest random."""
    secret = game_seed(seed, 0)
    names = tuple("abcdef"[:players])
    game: Game[Any] | None = None
    chance = Chance(HmacSource(secret), 0)
    for number, ev in enumerate(
        creation_events(RULES, names, {}, commitment(secret), chance), start=1
    ):
        game = fold(RULES, game, Recorded(number, ev, SYSTEM))
    assert game is not None
    rng = random.Random(seed)
    bots = [GreedyBot(RULES, rng)] + [RandomBot(rng) for _ in range(players - 1)]
    seen = []
    while not RULES.is_over(game.state):
        seat = min(RULES.awaited_seats(game.state))
        legal = list(RULES.legal_actions(game.state, seat))
        seen.append((game.state, seat, legal))
        command = bots[seat].choose(game.state, legal, seat)
        assert command in legal
        for ev in decide(RULES, game, seat, command, Chance(HmacSource(secret), game.draws)):
            game = fold(RULES, game, Recorded(game.version + 1, ev, seat))
    return seen


def test_a_seats_view_rebuilt_into_a_state_shows_the_same_view():
    checked = 0
    for state, seat, _ in faced("views", 2)[::5]:
        for viewer in (seat, None):
            view = json.loads(json.dumps(RULES.view(state, viewer)))
            rebuilt = state_from_view(TABLES, view)
            assert RULES.view(rebuilt, viewer) == view
            checked += 1
    assert checked > 50


def test_the_greedy_bot_values_moves_alike_from_the_view_and_from_the_state():
    bot = GreedyBot(RULES, 0)
    compared = 0
    for state, seat, legal in faced("alike")[::2]:
        if seat != 0 or len(legal) < 2:
            continue
        view = json.loads(json.dumps({"view": RULES.view(state, seat)}))
        assert bot.scores(bot.state_of(state, seat), legal, seat) == bot.scores(
            bot.state_of(view, seat), legal, seat
        )
        compared += 1
    assert compared > 20


def test_invasion_odds_are_those_of_the_highest_dice_with_the_points_needed():
    assert (
        success_chance(2, 1, 0, 1, False)
        == sum(max(a, b) > c for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)) / 216
    )
    assert success_chance(1, 1, 3, 2, False) > success_chance(1, 1, 0, 2, False)
    assert success_chance(1, 2, 0, 1, True) > success_chance(1, 2, 0, 1, False)


def test_the_greedy_bot_invades_for_mastery_at_its_odds():
    """Two armies in the Middle East against one: taking Persia (a 58% invasion) would make
    mastery (9 gold, not 6); no empty land pays as much."""
    lands = {"tigris": standing(0), "euphrates": standing(0), "persia": resigned(1)}
    state = playing(table(lands), 0, "sumerians", array=1)
    legal = list(RULES.legal_actions(state, 0))
    choices = {GreedyBot(RULES, seed).choose(state, legal, 0) for seed in range(6)}
    assert choices == {expand("persia")}
    assert GreedyBot(RULES, 0).expected_gold(state, 0, expand("persia")) == pytest.approx(
        3 * success_chance(2, 1, 0, 1, False), abs=1e-3
    )


def test_a_greedy_bot_wins_clearly_more_than_its_share_against_three_random_bots():
    """12 seeded 4-player games, the greedy seat moving round the table: even odds are 25%."""
    wins = 0
    games = 12
    for index in range(games):
        bots = ["random"] * 4
        bots[index % 4] = "greedy"
        report = play_game(RULES, 4, {}, "brief-tournament", index, check=False, bots=bots)
        assert report.completed and not report.failures, report.failures
        wins += (index % 4) in report.winners
    assert wins / games > 0.6
