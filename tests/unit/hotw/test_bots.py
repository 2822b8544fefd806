"""The bots of `bots/`: they choose only listed legal actions, in-process and from the API's
shapes; the greedy bot takes the move worth most gold now (checked against the gold each move
really brings, every dice outcome enumerated); it values moves alike from the seat's view and
from the state; and it beats random bots clearly in a seeded tournament."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from bots import GreedyBot, RandomBot
from cli.main import main
from cli.selfplay import game_seed, play_game
from domain.core.chance import Chance
from domain.core.kernel import Game, creation_events, decide, fold
from domain.core.messages import SYSTEM, Command, Recorded
from domain.hotw.editions.hotw_2024.cards import Phase
from domain.hotw.editions.hotw_2024.model import Control, HotwState
from domain.hotw.editions.hotw_2024.strategy import invasion_success_chance
from service.chance import HmacSource, commitment
from tests.support.hotw import BLUE, RED, RULES, act, army, garrison, position

# --- a recorded game: every decision a seat faced -------------------------------------------


def decisions(seed: str, bots: list[str]) -> list[tuple[HotwState, int, list[Command]]]:
    """Play one seeded 4-player game with the given bots; every (state, seat, legal actions)
    a seat faced, and the bots' choices checked to be listed ones as the game goes."""
    secret = game_seed(seed, 0)
    names = ("a", "b", "c", "d")
    game: Game[Any] | None = None
    chance = Chance(HmacSource(secret), 0)
    for number, ev in enumerate(
        creation_events(RULES, names, {}, commitment(secret), chance), start=1
    ):
        game = fold(RULES, game, Recorded(number, ev, SYSTEM))
    assert game is not None
    rng = random.Random(seed)
    players = [GreedyBot(RULES, rng) if name == "greedy" else RandomBot(rng) for name in bots]
    faced = []
    while not RULES.is_over(game.state):
        actor: int | str = SYSTEM
        command = RULES.system_action(game.state)
        if command is None:
            actor = min(RULES.awaited_seats(game.state))
            legal = list(RULES.legal_actions(game.state, actor))
            faced.append((game.state, actor, legal))
            command = players[actor].choose(game.state, legal, actor)
            assert command in legal
        for ev in decide(RULES, game, actor, command, Chance(HmacSource(secret), game.draws)):
            game = fold(RULES, game, Recorded(game.version + 1, ev, actor))
    return faced


@pytest.fixture(scope="module")
def faced() -> list[tuple[HotwState, int, list[Command]]]:
    return decisions("bots", ["greedy", "random", "greedy", "random"])


def test_bots_choose_only_listed_legal_actions_given_the_state_or_the_apis_shapes(faced):
    greedy, randomly = GreedyBot(RULES, 1), RandomBot(2)
    asked = 0
    for state, seat, legal in faced[::7]:
        # over HTTP: the /state answer and the legal-actions entries, as JSON
        answer = json.loads(json.dumps({"view": RULES.view(state, seat)}))
        entries = [{"command": c.as_dict(), "expected_version": 9} for c in legal]
        assert greedy.choose(answer, entries, seat) in legal
        assert randomly.choose(answer, entries, seat) in legal
        assert greedy.choose(state, [c.as_dict() for c in legal], seat) in legal
        asked += 1
    assert asked > 30


def test_the_greedy_bot_values_moves_alike_from_the_seats_view_and_from_the_state(faced):
    """Over HTTP the bot rebuilds a state from the seat's view; in-process it cuts the state
    down to that view too, so both play on the same facts. Only pending choices differ (the
    view summarises the agenda), and those are rare."""
    bot = GreedyBot(RULES, 0)
    compared = differ = 0
    for state, seat, legal in faced:
        if len(legal) < 2:
            continue
        view = json.loads(json.dumps(RULES.view(state, seat)))
        from_state = bot.scores(bot.state_of(state, seat), legal, seat)
        from_view = bot.scores(bot.state_of(view, seat), legal, seat)
        compared += 1
        if from_state != from_view:
            assert state.agenda, (legal, from_state, from_view)
            differ += 1
    assert compared > 100 and differ <= compared // 20


# --- constructed positions: the gold each move really brings ----------------------------------


def gold_brought(state: HotwState, command: Command) -> float:
    """RED's gold once the move is made and its Empire has raised revenue, on average over every
    dice outcome when the move invades with dice."""
    land = command.arg("land")
    if command.type == "place_army" and state.control_of(land, RED) is Control.ENEMY:
        rolls = list(itertools.product(range(1, 7), repeat=3))  # two Empire dice, one Enemy die
        return sum(after_revenue(state, command, roll) for roll in rolls) / len(rolls)
    return after_revenue(state, command, ())


def after_revenue(state: HotwState, command: Command, dice: tuple[int, ...]) -> int:
    _, state = act(state, command, dice=dice)
    turn = state.turn
    if turn is not None and turn.phase is Phase.EXPAND and not turn.pool.people:
        _, state = act(state, "end_phase")  # monuments (none for barbarians), then revenue
    return state.players[RED].gold


def greedy_choices(state: HotwState) -> set[Command]:
    legal = list(RULES.legal_actions(state, RED))
    return {GreedyBot(RULES, seed).choose(state, legal, RED) for seed in range(8)}


def test_the_greedy_bot_places_its_army_where_it_raises_most_revenue_invasions_at_their_odds():
    # the Aryans (barbarians: no monuments) in Persia with one piece left; Blue holds Tigris
    # (clear) and Zagros (difficult). Indus opens India (+2 for sure); invading Tigris or Zagros
    # would give dominance of the Middle East (+2) only if the dice allow.
    state = position(
        {"persia": army(RED), "tigris": garrison(BLUE), "zagros": garrison(BLUE)},
        card="aryans",
        people=1,
    )
    placements = [c for c in RULES.legal_actions(state, RED) if c.type == "place_army"]
    start = state.players[RED].gold
    brought = {c.arg("land"): gold_brought(state, c) - start for c in placements}
    held = 2  # presence in the Middle East, which Persia raises whatever the move
    assert brought == pytest.approx(
        {
            "arabia": held,
            "indus": held + 2,
            "khorasan": held,  # Central Asia is not active in Epoch I
            "tigris": held + 2 * 161 / 216,  # a tie goes to the invader on clear terrain
            "zagros": held + 2 * 125 / 216,
        }
    )
    bot = GreedyBot(RULES, 0)
    for command in placements:
        # the bot counts the revenue the Empire already has in hand as held
        assert bot.expected_gold(state, RED, command) == pytest.approx(
            brought[command.arg("land")] - held
        )
    assert greedy_choices(state) == {Command.of("place_army", land="indus")}


def test_the_greedy_bot_plays_the_area_token_worth_most_gold():
    # Friendly lands: three in the Middle East (mastery, 6) and one in India (presence, 2)
    state = position(
        {
            "tigris": garrison(RED),
            "euphrates": garrison(RED),
            "persia": garrison(RED),
            "indus": garrison(RED),
        },
        phase=Phase.CONCLUDE,
        area_tokens={RED: ("india-1", "middle-east-1")},
    )
    legal = list(RULES.legal_actions(state, RED))
    start = state.players[RED].gold
    brought = {c: gold_brought(state, c) - start for c in legal}
    assert sorted(brought.values()) == [0, 2, 6]
    assert greedy_choices(state) == {max(brought, key=brought.__getitem__)}
    assert greedy_choices(state) == {Command.of("play_area_token", token="middle-east-1")}


def test_the_greedy_bot_never_takes_less_gold_than_another_revenue_move_offers():
    # Raise revenue with two coin Honors and the Lands bonus on the track: whichever pays most
    state = position(
        {"tigris": army(RED), "euphrates": army(RED), "indus": army(RED)},
        phase=Phase.REVENUE,
        honor_track={RED: ("recruit-1", "recruit-3", "lands-bonus")},
    )
    legal = list(RULES.legal_actions(state, RED))
    start = state.players[RED].gold
    brought = {c: gold_brought(state, c) - start for c in legal}
    assert len(set(brought.values())) >= 3
    best = max(brought.values())
    assert {brought[c] for c in greedy_choices(state)} == {best}


def test_invasion_odds_are_those_of_the_highest_die_with_ties_to_the_terrain():
    assert invasion_success_chance(2, 1, clear=True) == pytest.approx(161 / 216)
    assert invasion_success_chance(2, 1, clear=False) == pytest.approx(125 / 216)
    assert invasion_success_chance(3, 1, clear=False) > invasion_success_chance(2, 1, False)
    assert invasion_success_chance(2, 2, clear=False) < invasion_success_chance(2, 1, False)


# --- a seeded tournament ----------------------------------------------------------------------

TOURNAMENT_GAMES = 20


def test_a_greedy_bot_wins_clearly_more_than_its_share_against_three_random_bots():
    """20 seeded 4-player games, the greedy seat moving round the table: even odds would be
    25%. Measured when written: 20/20 here, and 200/200 over 200 such games."""
    wins = 0
    for index in range(TOURNAMENT_GAMES):
        bots = ["random"] * 4
        bots[index % 4] = "greedy"
        report = play_game(RULES, 4, {}, "tournament", index, check=False, bots=bots)
        assert report.completed and not report.failures, report.failures
        wins += (index % 4) in report.winners
    assert wins / TOURNAMENT_GAMES > 0.6


# --- the command line -------------------------------------------------------------------------


def test_selfplay_with_greedy_and_random_seats_reports_the_greedy_win_rate(capsys):
    bots = ["--bot", "greedy", "--bot", "random", "--bot", "random"]
    code = main(["selfplay", "--players", "3", "--games", "2", "--seed", "cli", *bots, "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    assert summary["bots"] == ["greedy", "random", "random"]
    assert summary["completed"] == 2 and summary["invariant_failures"] == 0
    assert summary["greedy_baseline"] == pytest.approx(1 / 3, abs=1e-3)
    won = sum(0 in winners for winners in summary["winners"])
    assert summary["greedy_wins"] == won and summary["greedy_win_rate"] == won / 2
    assert {"mean_events_per_game", "mean_seconds_per_game", "seconds", "winners"} <= set(summary)
    assert "game_ids" not in summary


def test_selfplay_takes_one_bot_for_every_seat_or_one_per_seat(capsys):
    assert main(["selfplay", "--players", "3", "--games", "1", "--bot", "greedy", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["bots"] == ["greedy"] * 3 and "greedy_win_rate" not in summary
    assert main(["selfplay", "--players", "3", "--bot", "greedy", "--bot", "random"]) == 2
    assert "once per seat" in capsys.readouterr().err
