"""A sandbox's scripted chance in the domain: draw k is entry k, in order, marked scripted; a
script never falls back to a seed; it is recorded in the log and folded into the game."""

from __future__ import annotations

import pytest

from domain.core.chance import ChanceScriptError, Draw, ScriptedChance, script_problems
from domain.core.game import ChanceScripted
from domain.core.kernel import position_events, replay
from domain.core.messages import Recorded, event_from_record, event_record
from domain.core.ruleset import Setup
from tests.support.toy import SealedBids, ToyDieRolled


def test_draw_k_is_entry_k_marked_scripted_and_counted_from_the_games_cursor() -> None:
    chance = ScriptedChance(((6, 5), (6, 1), (4, 3)), 1)
    assert chance.die() == 2  # entry 1, the cursor's
    assert chance.below(4) == 3
    assert chance.take_draws() == (Draw(1, 6, 1, True), Draw(2, 4, 3, True))
    again = ScriptedChance(((6, 5), (6, 1), (4, 3)), 1)  # an undo or rewind replayed
    assert again.die() == 2


def test_a_script_that_runs_out_or_does_not_fit_raises_and_never_draws_a_seed() -> None:
    chance = ScriptedChance(((6, 5),), 0)
    assert chance.die() == 6
    with pytest.raises(ChanceScriptError) as ran_out:
        chance.die()
    assert ran_out.value.exhausted and "run out" in ran_out.value.message
    with pytest.raises(ChanceScriptError) as misfit:
        ScriptedChance(((6, 5),), 0).below(3)
    assert not misfit.value.exhausted and misfit.value.scripted == (6, 5)
    assert "[3, result]" in misfit.value.message


def test_script_problems_name_each_entry_outside_its_range() -> None:
    assert script_problems(((6, 0), (6, 5), (1, 0))) == []
    assert script_problems(((6, 6), (0, 0), (3, -1))) == [
        "entry 0: [6, 6] is not a whole number in [0, 6)",
        "entry 1: [0, 0] draws from an empty range",
        "entry 2: [3, -1] is not a whole number in [0, 3)",
    ]


def test_scripted_draws_are_stored_marked_and_read_back_marked() -> None:
    rolled = ToyDieRolled(rule="toy.roll", seat=0, face=6, draws=(Draw(0, 6, 5, True),))
    record = event_record(rolled)
    assert record["draws"] == [[0, 6, 5]] and record["scripted"] is True
    assert event_from_record(record).draws == (Draw(0, 6, 5, True),)
    committed = event_record(ToyDieRolled(rule="toy.roll", seat=0, face=6, draws=(Draw(0, 6, 5),)))
    assert "scripted" not in committed  # what real games record is unchanged


def test_a_sandboxs_script_is_in_its_log_and_folded_into_the_game() -> None:
    rules = SealedBids()
    setup = Setup(rules.name, ("a", "b", "c"), rules.check_options({}), "")
    state = rules.encode_state(rules.initial_state(setup))
    events = position_events(rules, ("a", "b", "c"), {}, "", state, "source", ((6, 5), (6, 0)))
    assert isinstance(events[-1], ChanceScripted)
    game = replay(rules, [Recorded(i, e, "system") for i, e in enumerate(events, start=1)])
    assert game.chance_script == ((6, 5), (6, 0))
    plain = position_events(rules, ("a", "b", "c"), {}, "", state, "source")
    assert not any(isinstance(e, ChanceScripted) for e in plain)
    with pytest.raises(ValueError, match="not a chance script"):
        position_events(rules, ("a", "b", "c"), {}, "", state, "source", ((6, 6),))
