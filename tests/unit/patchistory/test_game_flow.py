"""The shape of a whole game, read from the events of seeded games played to their end at 2, 3
and 4 players: the setting up, the Eras and their Rounds, each Round's phases in order, the
Start Player, the Auction's sides, Voting and the end - each event citing its clause."""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

import pytest

from domain.core.errors import RuleViolation
from domain.core.ruleset import Setup
from domain.patchistory.auction import TilesDrawn, TileWon
from domain.patchistory.construction import BuildingTilesDrawn
from domain.patchistory.eras import EraTilesShuffled, GameFinished, RoundBegan
from domain.patchistory.patching import TileForfeited, TilePatched
from domain.patchistory.rounds import PhaseBegan
from domain.patchistory.setup import CapitalsDealt, ProsperityDealt, SuppliesTaken
from domain.patchistory.trade_routes import TradeRouteOpened
from service.rulesets import ruleset
from tests.support.table import Table

RULES: Any = ruleset("patchistory")
PACK = RULES.pack
NAMES = ("gandhi", "alexander", "yi-sun-sin", "bismarck")
PHASE_ORDER = ("vasco", "auction", "auction-sealed", "patching", "first-workers")
PHASE_ORDER += ("diplomacy", "management", "movement", "conflicts", "negotiation", "war")
PHASE_ORDER += ("chichen", "vote-card", "vote")


@functools.cache
def whole_game(players: int, side: str = "equality") -> Table:
    table = Table(
        RULES,
        NAMES[:players],
        f"flow-{players}-{side}".encode().ljust(32, b"\0"),
        capital_side=side,
    )
    rng = random.Random(f"flow-{players}")
    while not RULES.is_over(table.state):
        if RULES.system_action(table.state) is not None:
            table.resolve()
            continue
        seat = rng.choice(sorted(table.awaited()))
        table.play(seat, rng.choice(list(RULES.legal_actions(table.state, seat))))
    return table


def events_of(table: Table, kind: type) -> list[Any]:
    return [r.event for r in table.log if isinstance(r.event, kind)]


PLAYERS = pytest.mark.parametrize("players", [2, 3, 4])


@pytest.mark.parametrize("players", [1, 5])
def test_the_game_is_for_two_to_four_players(players):
    names = tuple(f"p{n}" for n in range(players))
    with pytest.raises(RuleViolation) as refused:
        RULES.check_players(names)
    assert refused.value.rule == "patchistory.setup.players"


@PLAYERS
def test_each_player_takes_four_food_three_coin_four_building_tiles_and_twenty_culture(players):
    game = whole_game(players)
    (taken,) = events_of(game, SuppliesTaken)
    assert (taken.rule, taken.food, taken.coin, taken.culture) == (
        "patchistory.setup.supply",
        4,
        3,
        20,
    )
    drawn = [e for e in events_of(game, BuildingTilesDrawn) if e.rule == taken.rule]
    assert sorted(e.seat for e in drawn) == list(range(players))
    assert all(len(e.drawn) == 4 for e in drawn)
    assert len({t for e in drawn for t in e.drawn}) == 4 * players, "from one shuffled supply"


@PLAYERS
def test_the_prosperity_cards_are_shuffled_and_three_dealt_to_each_player(players):
    dealt = events_of(whole_game(players), ProsperityDealt)
    assert [e.rule for e in dealt] == ["patchistory.setup.prosperity"] * players
    cards = [card for e in dealt for card in e.hand]
    assert all(len(e.hand) == 3 for e in dealt) and len(set(cards)) == 3 * players
    assert set(cards) <= set(PACK.prosperity)


@PLAYERS
def test_with_three_or_four_players_a_general_route_runs_from_each_player_to_the_next(players):
    opened = [
        e
        for e in events_of(whole_game(players), TradeRouteOpened)
        if e.rule == "patchistory.setup.trade-routes"
    ]
    expected = [] if players == 2 else [(s, (s + 1) % players) for s in range(players)]
    assert [(e.a, e.b) for e in opened] == expected
    assert all(e.kind == "general" for e in opened)


@pytest.mark.parametrize("side", ["equality", "liberty"])
def test_every_player_is_dealt_a_capital_of_the_side_the_group_agreed(side):
    (dealt,) = events_of(whole_game(3, side), CapitalsDealt)
    assert dealt.rule == "patchistory.setup.capital-side"
    if side == "equality":
        assert dealt.capitals == (PACK.equality.id,) * 3
    else:
        assert len(set(dealt.capitals)) == 3
        assert set(dealt.capitals) <= {c.id for c in PACK.liberty}


@PLAYERS
def test_three_eras_of_five_rounds_and_the_player_with_most_culture_wins(players):
    game = whole_game(players)
    rounds = events_of(game, RoundBegan)
    assert [(r.era, r.round) for r in rounds] == [(e, n) for e in (1, 2, 3) for n in range(1, 6)]
    eras = events_of(game, EraTilesShuffled)
    assert [(e.era, e.rule) for e in eras] == [
        (1, "patchistory.objective.eras"),
        (2, "patchistory.era.end"),
        (3, "patchistory.era.end"),
    ]
    assert all(set(e.tiles) == set(PACK.era_tiles(e.era)) for e in eras)
    (finished,) = events_of(game, GameFinished)
    best = max(finished.culture)
    assert set(finished.winners) <= {s for s, c in enumerate(finished.culture) if c == best}
    assert finished.culture == tuple(c.culture for c in game.state.civs)


@PLAYERS
def test_the_first_player_starts_and_the_start_player_marker_moves_left_each_round(players):
    rounds = events_of(whole_game(players), RoundBegan)
    assert rounds[0].start == 0 and rounds[0].cites == ("patchistory.setup.start-player",)
    for before, after in itertools.pairwise(rounds):
        assert after.start == (before.start + 1) % players
        assert after.cites == ("patchistory.round.start-player",)
    assert {r.rule for r in rounds} == {"patchistory.round.phases"}


@PLAYERS
def test_each_round_takes_its_phases_in_the_rulebooks_order(players):
    game = whole_game(players)
    rounds: list[list[str]] = []
    for record in game.log:
        if isinstance(record.event, RoundBegan):
            rounds.append([])
        elif isinstance(record.event, PhaseBegan) and rounds:
            rounds[-1].append(record.event.phase)
    for n, phases in enumerate(rounds, 1):
        ranks = [PHASE_ORDER.index(p) for p in phases]
        assert ranks == sorted(ranks), f"round {n}: {phases}"
        assert {"diplomacy", "management", "movement"} <= set(phases)
        assert ("vote" in phases) == (n % 5 == 0), "Voting only in a 5th Round"


@PLAYERS
def test_diplomacy_and_management_are_taken_in_turn_order_from_the_start_player(players):
    game = whole_game(players)
    start = 0
    for record in game.log:
        e = record.event
        if isinstance(e, RoundBegan):
            start = e.start
            continue
        if isinstance(e, PhaseBegan) and e.phase == "diplomacy":
            assert e.rule == "patchistory.diplomacy.order"
            assert e.seats == tuple((start + i) % players for i in range(players))
        if isinstance(e, PhaseBegan) and e.phase == "management":
            assert e.rule == "patchistory.management.order"
            assert e.seats == tuple((start + i) % players for i in range(players))


@pytest.mark.parametrize("players", [3, 4])
def test_after_the_first_round_the_auction_starts_with_the_start_player(players):
    game = whole_game(players)
    start, serial, auctions = 0, 0, 0
    for record in game.log:
        e = record.event
        if isinstance(e, RoundBegan):
            start, serial = e.start, e.serial
        if isinstance(e, PhaseBegan) and e.phase == "auction":
            if serial == 1:
                assert e.rule == "patchistory.auction.first"
                continue
            assert e.rule == "patchistory.auction.order"
            clockwise = tuple((start + i) % players for i in range(players))
            assert e.seats == tuple(s for s in clockwise if s in e.seats)
            auctions += 1
    assert auctions >= 14


@pytest.mark.parametrize("players", [3, 4])
def test_with_three_or_four_players_a_tile_is_won_with_the_side_it_was_placed_showing(players):
    game = whole_game(players)
    offered: dict[str, str] = {}
    for record in game.log:
        e = record.event
        if isinstance(e, TilesDrawn):
            offered |= dict(zip(e.tiles, e.sides, strict=True))
        if isinstance(e, TileWon):
            assert e.side == offered[e.tile]
            assert e.cites == ("patchistory.auction.side",)


def test_with_two_players_the_tiles_are_patched_in_turn_order():
    game = whole_game(2)
    won_then_patched: list[tuple[int, ...]] = []
    for record in game.log:
        e = record.event
        if isinstance(e, RoundBegan):
            won_then_patched.append(())
        if isinstance(e, TilePatched | TileForfeited):
            won_then_patched[-1] += (e.seat,)
        if isinstance(e, TilePatched):
            assert "patchistory.auction.two-player-patching" in e.cites
    rounds = events_of(game, RoundBegan)
    for begun, patchers in zip(rounds, won_then_patched, strict=True):
        order = [(begun.start + i) % 2 for i in range(2)]
        assert list(patchers) == [s for s in order if s in patchers], (
            "patchistory.auction.two-player-patching"
        )


def test_a_game_needs_a_capital_side_the_rules_know():
    with pytest.raises(RuleViolation) as refused:
        RULES.check_options({"capital_side": "fraternity"})
    assert refused.value.rule.startswith("patchistory.")
    setup = Setup("patchistory", NAMES[:3], RULES.check_options({}), "0" * 64)
    assert RULES.initial_state(setup).capital_side == "equality"
