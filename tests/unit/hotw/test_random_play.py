"""Seeded random play (OpenSpiel style): 500 whole games over 3-6 players, with and without
dice, each checked after every event (pieces conserved, supplies never exceeded, one army or
garrison per land, no army in a wasteland, gold never negative), replayed from its events and
round-tripped through JSON; every bot action is one `legal_actions` listed (the kernel refuses
anything else). 20 chunks of 25 games so that pytest-xdist can spread them."""

from __future__ import annotations

import pytest

from cli.selfplay import play_game
from tests.support.hotw import RULES

CHUNKS = 20
GAMES_PER_CHUNK = 25


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_finish_with_every_invariant_kept(chunk):
    failures = []
    for offset in range(GAMES_PER_CHUNK):
        index = chunk * GAMES_PER_CHUNK + offset
        players = 3 + index % 4
        dice = (index // 4) % 2 == 0
        report = play_game(RULES, players, {"dice": dice}, "suite", index)
        assert report.completed, report.failures
        assert report.winners
        failures += report.failures
    assert failures == []


def test_every_players_count_and_dice_setting_is_covered():
    covered = {(3 + i % 4, (i // 4) % 2 == 0) for i in range(CHUNKS * GAMES_PER_CHUNK)}
    assert covered == {(n, d) for n in (3, 4, 5, 6) for d in (True, False)}
