"""Kernel additions for the API: sandbox positions, results, and commands read from JSON."""

from __future__ import annotations

import pytest

from domain.core.chance import Chance
from domain.core.kernel import PositionLoaded, creation_events, position_events, replay
from domain.core.messages import Command, Recorded
from service.chance import HmacSource, commitment
from tests.support.toy import SealedBids

SEED = bytes(range(32))
STATE = {
    "players": 2,
    "rounds": 1,
    "sides": 6,
    "round": 1,
    "phase": "bid",
    "order": [1, 0],
    "chips": [5, 2],
    "sealed": {"1": 2},
    "scores": [3, 0],
    "roller": None,
}


def stored_and_read_back(events):
    return [Recorded.from_dict(Recorded(i, e, "system").as_dict()) for i, e in enumerate(events, 1)]


def test_a_loaded_position_becomes_the_games_state_after_a_round_trip_through_storage():
    rules = SealedBids()
    events = position_events(rules, ("a", "b"), {"rounds": 1}, commitment(SEED), STATE, "g1")
    assert [e.type for e in events] == ["GameCreated", "PositionLoaded"]
    in_memory = replay(rules, [Recorded(i, e, "system") for i, e in enumerate(events, 1)])
    from_storage = replay(rules, stored_and_read_back(events))
    assert from_storage == in_memory
    assert rules.encode_state(from_storage.state) == STATE
    assert rules.awaited_seats(from_storage.state) == {0}


def test_a_loaded_position_is_private_to_every_seat():
    rules = SealedBids()
    loaded = position_events(rules, ("a", "b"), {}, "c", STATE, "g1")[1]
    assert isinstance(loaded, PositionLoaded)
    recorded = Recorded(2, loaded, "system")
    for viewer in (None, 0, 1):
        seen = recorded.seen_by(viewer)
        assert seen["redacted"] is True and seen["data"] == {"source_game": "g1"}


def test_a_position_is_refused_for_a_player_count_the_ruleset_does_not_allow():
    from domain.core.errors import InvalidPlayerCount

    with pytest.raises(InvalidPlayerCount):
        position_events(SealedBids(), ("solo",), {}, "c", STATE, "g1")


def test_the_toy_ranks_by_score_then_by_chips_left_and_ties_share_a_place():
    rules = SealedBids()
    chance = Chance(HmacSource(SEED), 0)
    events = creation_events(rules, ("a", "b", "c"), {}, "c", chance)
    game = replay(rules, [Recorded(i, e, "system") for i, e in enumerate(events, 1)])
    from dataclasses import replace

    state = replace(game.state, scores=(4, 4, 6), chips=(1, 3, 0), phase="over")
    result = rules.result(state)
    assert result["scores"] == [4, 4, 6]
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(2, 1), (1, 2), (0, 3)]
    tied = rules.result(replace(state, chips=(3, 3, 0)))
    assert [(r["seat"], r["place"]) for r in tied["ranking"]] == [(2, 1), (0, 2), (1, 2)]


def test_a_ruleset_without_results_says_so():
    from domain.core.ruleset import Ruleset

    class NoResults(SealedBids):
        result = Ruleset.result

    with pytest.raises(NotImplementedError):
        NoResults().result(None)


def test_a_command_read_from_json_takes_any_argument_name_as_data():
    command = Command.from_dict({"type": "bid", "cls": 1, "type_": [2, 3]})
    assert command.arg("cls") == 1
    assert command.as_dict() == {"type": "bid", "cls": 1, "type_": [2, 3]}
    assert Command.from_dict({"type": "bid", "chips": 2}) == Command.of("bid", chips=2)
