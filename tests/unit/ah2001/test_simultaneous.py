"""The simultaneous-empires variant (option `simultaneous_empires`), rule by rule of
shared/rules/hotw-variant-simultaneous-empires.txt, on Epoch I: Sumeria (seat 0), Egypt
(seat 1) and the Minoans (seat 2); the other Empire cards of the epoch are not held."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from domain.core.chance import Chance, ScriptedFaces
from domain.core.messages import Command, Event
from domain.core.ruleset import Setup
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.context import Ctx
from domain.hotw.editions.ah2001.model import Ah2001State, Cell, Stage
from tests.unit.ah2001.test_engine import RULES, act, of

OPTIONS = {"simultaneous_empires": True}
SETUP = Setup("hotw-ah2001", ("a", "b", "c"), OPTIONS, "")
HOLDERS = {"sumeria": 0, "egypt": 1, "minoans": 2}


def settle(state: Ah2001State, dice: Iterable[int] = ()) -> tuple[list[Event], Ah2001State]:
    """Let the rules run on by themselves from `state` (calling, skipping, activating)."""
    ctx = Ctx(RULES.tables, state, Chance(ScriptedFaces(dice), 0))
    RULES.proceed(ctx)
    return ctx.events, ctx.state


def epoch_one(
    lands: dict[str, Cell] | None = None, hands: dict[int, tuple[str, ...]] | None = None
) -> Any:
    if hands is None:
        hands = {}
    state = RULES.initial_state(SETUP)
    players = tuple(replace(p, hand=hands.get(i, ())) for i, p in enumerate(state.players))
    state = replace(
        state, epoch=1, stage=Stage.TURNS, holders=HOLDERS, lands=lands or {}, players=players
    )
    return settle(state)


def types(state: Ah2001State) -> list[str]:
    return sorted({c.type for c in RULES.legal_actions(state, min(RULES.awaited_seats(state)))})


def start_everyone(state: Ah2001State) -> tuple[list[Event], Ah2001State]:
    """Each Empire in turn begins its expansion (its start) and ends it."""
    events: list[Event] = []
    for _ in HOLDERS:
        more, state = act(state, Command.of("begin_expansion"))
        events += more
        more, state = act(state, Command.of("end_round"))
        events += more
    return events, state


def test_rules_1_and_2_each_empire_places_its_start_then_the_next_one_starts() -> None:
    _, state = epoch_one()
    assert state.turn is not None and (state.turn.seat, state.turn.empire) == (0, "sumeria")
    events, state = act(state, Command.of("begin_expansion"))
    assert state.land("lower-tigris") == Cell(0, 1, frozenset({"capital"}))
    # before its rounds the start may only be fortified (or reinforced): no attempt yet
    assert types(state) == ["build_fort", "end_round"]
    _, state = act(state, Command.of("build_fort", land="lower-tigris"))
    events, state = act(state, Command.of("end_round"))
    (parked,) = of(events, ev.EmpireParked)
    assert parked.rule == "ah2001.variant.start"
    assert state.turn is not None and (state.turn.seat, state.turn.empire) == (1, "egypt")
    assert [t.empire for t in state.parked] == ["sumeria"]
    assert {land for land, c in state.lands.items() if c.owner == 0} == {"lower-tigris"}


def test_rule_3_the_active_empire_attempts_one_expansion_per_round() -> None:
    _, state = epoch_one()
    events, state = start_everyone(state)
    (activated,) = of(events, ev.EmpireActivated)
    assert (activated.empire, activated.slot, activated.rule) == (
        "sumeria",
        0,
        "ah2001.variant.rounds",
    )
    assert "terminate_empire" in types(state) and "place_army" in types(state)
    events, state = act(state, Command.of("place_army", land="middle-tigris", via="land"))
    assert of(events, ev.ExpansionAttempted)[0].rule == "ah2001.variant.one-attempt"
    assert "place_army" not in types(state)  # one attempt, whatever its outcome
    assert "build_fort" in types(state)  # it may still fortify what it holds
    events, state = act(state, Command.of("end_round"))
    assert state.turn is not None and state.turn.empire == "egypt"
    assert state.parked[0].pool == 2 and not state.parked[0].attempted


def test_rule_4_rounds_go_on_in_calling_order_until_every_empire_has_ended() -> None:
    _, state = epoch_one()
    _, state = start_everyone(state)
    seen = []
    for land in ("middle-tigris", "libya", "morea"):
        assert state.turn is not None
        seen.append(state.turn.empire)
        _, state = act(state, Command.of("place_army", land=land, via="land"))
        _, state = act(state, Command.of("end_round"))
    assert seen == ["sumeria", "egypt", "minoans"]
    assert state.turn is not None and state.turn.empire == "sumeria"  # a new round
    for _ in range(3):
        events, state = act(state, Command.of("terminate_empire"))
    assert len([e for e in events if isinstance(e, ev.EpochBegan)]) == 1
    assert state.epoch == 2 and state.stage is Stage.DRAWING and state.parked == ()


def test_rule_5_an_empire_without_strength_or_terminated_is_skipped() -> None:
    _, state = epoch_one()
    _, state = start_everyone(state)
    assert state.turn is not None and state.turn.empire == "sumeria"
    _, state = act(state, Command.of("terminate_empire"))
    assert state.turn is not None and state.turn.empire == "egypt"
    spent = list(state.parked)
    spent[2] = replace(spent[2], pool=0)
    state = replace(state, parked=tuple(spent))
    _, state = act(state, Command.of("place_army", land="libya", via="land"))
    events, state = act(state, Command.of("end_round"))
    ended = of(events, ev.EmpireTerminated)
    assert [(e.empire, e.rule) for e in ended] == [("minoans", "ah2001.variant.terminate")]
    assert state.turn is not None and state.turn.empire == "egypt"  # Sumeria skipped too


def test_rule_6_an_empire_with_navigation_has_its_fleets_for_every_round() -> None:
    """The 2001 fleets come with the card (ah2001.variant.simultaneous reading): Egypt's stay
    with it through its rounds and go back to the supply when it ends."""
    _, state = epoch_one()
    _, state = act(state, Command.of("begin_expansion"))
    _, state = act(state, Command.of("end_round"))
    assert state.turn is not None and state.turn.fleets == ("eastern-mediterranean", "red-sea")
    _, state = act(state, Command.of("begin_expansion"))
    _, state = act(state, Command.of("end_round"))
    assert state.parked[1].fleets == ("eastern-mediterranean", "red-sea")
    _, state = act(state, Command.of("begin_expansion"))
    _, state = act(state, Command.of("end_round"))
    _, state = act(state, Command.of("end_round"))  # Sumeria
    assert ("crete", "sea") in {
        (c.arg("land"), c.arg("via"))
        for c in RULES.legal_actions(state, 1)
        if c.type == "place_army"
    }
    counters = state.supply["counters"]
    _, state = act(state, Command.of("terminate_empire"))  # Egypt
    assert state.supply["counters"] == counters + 2


def test_rule_7_a_monument_is_built_as_soon_as_a_new_pair_of_resource_lands_is_complete() -> None:
    _, state = epoch_one()
    _, state = start_everyone(state)
    events, state = act(state, Command.of("place_army", land="arabian-peninsula", via="land"))
    (earned,) = of(events, ev.MonumentsEarned)
    assert (earned.count, earned.rule) == (1, "ah2001.variant.monuments-at-once")
    assert of(events, ev.MonumentBuilt)[0].land == "lower-tigris"  # the capital first
    assert state.stage is Stage.TURNS and state.turn is not None
    assert state.turn.empire == "sumeria" and state.turn.monuments_built == 1
    assert not of(events, ev.TurnScored)  # no scoring until the Empire terminates


def test_rule_8_an_empire_without_lands_may_only_attack_back_into_its_start_land() -> None:
    """No Difficult Terrain for the defender (Zagros-like mountains do not count), the fort
    does; no capital comes back."""
    _, state = epoch_one(hands={0: ("hittites",)})
    _, state = act(state, Command.of("play_event", card="hittites"))
    assert state.turn is not None and state.turn.card == "hittites"
    _, state = act(state, Command.of("end_round"))  # the Hittites wait; Sumeria's start goes on
    _, state = act(state, Command.of("begin_expansion"))
    _, state = act(state, Command.of("end_round"))
    for _ in range(2):
        _, state = act(state, Command.of("begin_expansion"))
        _, state = act(state, Command.of("end_round"))
    assert state.turn is not None and state.turn.card == "hittites"
    lands = dict(state.lands)
    lands["eastern-anatolia"] = Cell(2, 1, frozenset({"fort", "capital"}))
    state = replace(state, lands=lands)
    legal = [c for c in RULES.legal_actions(state, 0) if c.type == "place_army"]
    assert legal == [Command.of("place_army", land="eastern-anatolia", via="land")]
    events, state = act(state, legal[0], dice=[6, 2, 4])
    battle = of(events, ev.BattleFought)[0]
    assert (battle.defence_dice, battle.defence) == ((4,), 5)  # one die in the mountains; +1 fort
    assert "ah2001.combat.difficult-terrain" not in battle.cites
    assert "ah2001.variant.no-lands-left" in battle.cites
    assert battle.result == "fort_lost"


def test_rule_9_terminating_counts_the_points_once_and_a_spent_empire_must_terminate() -> None:
    _, state = epoch_one()
    _, state = start_everyone(state)
    events, state = act(state, Command.of("terminate_empire"))
    (ended,) = of(events, ev.EmpireTerminated)
    assert ended.seat == 0 and ended.total == sum(ended.points.values()) > 0
    assert state.players[0].points == ended.total
    assert state.parked[0].terminated
    _, state = act(state, Command.of("place_army", land="libya", via="land"))  # Egypt
    _, state = act(state, Command.of("end_round"))
    assert state.turn is not None and state.turn.empire == "minoans"
    spent = replace(state.turn, pool=1)
    state = replace(state, turn=spent)
    events, state = act(state, Command.of("place_army", land="morea", via="land"))
    (ended,) = of(events, ev.EmpireTerminated)  # its last army placed: it must count now
    assert (ended.seat, ended.empire) == (2, "minoans")
    assert state.turn is not None and state.turn.empire == "egypt"  # Sumeria is not called again


def test_rule_10_a_minor_empire_acts_beside_its_main_empire_and_ends_with_it() -> None:
    _, state = epoch_one(hands={0: ("hittites",)})
    events, state = act(state, Command.of("play_event", card="hittites"))
    assert state.land("eastern-anatolia").owner == 0
    _, state = act(state, Command.of("end_round"))
    assert state.turn is not None and state.turn.empire == "sumeria" and not state.turn.expanding
    _, state = act(state, Command.of("begin_expansion"))
    _, state = act(state, Command.of("end_round"))
    for _ in range(2):
        _, state = act(state, Command.of("begin_expansion"))
        _, state = act(state, Command.of("end_round"))
    assert [(t.empire, t.card) for t in state.parked][:2] == [
        ("sumeria", "hittites"),
        ("sumeria", None),
    ]
    assert state.turn is not None and state.turn.card == "hittites"  # its own attempt
    _, state = act(state, Command.of("place_army", land="levant", via="land"))
    _, state = act(state, Command.of("end_round"))
    assert state.turn is not None and state.turn.card is None and state.turn.seat == 0
    events, state = act(state, Command.of("terminate_empire"))
    ended = of(events, ev.EmpireTerminated)
    assert [(e.card, e.total > 0) for e in ended] == [("hittites", False), (None, True)]
    assert ended[0].rule == "ah2001.variant.minor-empire"
    assert all(t.terminated for t in state.parked[:2])


def test_a_seat_undoes_its_own_move_of_this_round_but_never_another_empires() -> None:
    """Undo stays within the active Empire's move of the round (ah2001.turn.parts): the seat
    takes back what it did since its Empire became active; once the round passes on, it
    cannot, and no other seat can undo it."""
    from domain.core.kernel import Recorded, creation_events, decide, fold, replay
    from domain.core.undo import decide_table, undo_step

    _, start = epoch_one()
    _, state = start_everyone(start)
    source = ScriptedFaces([6, 5, 4])  # the drawing order's dice: no tie
    created = creation_events(RULES, ("a", "b", "c"), OPTIONS, "0" * 64, Chance(source, 0))
    game = replay(RULES, [Recorded(n, e, "system") for n, e in enumerate(created, 1)])
    game = replace(game, state=state, undoable=())
    log: list[Recorded] = []

    def play(game: Any, seat: int, command: Command) -> Any:
        chance = Chance(ScriptedFaces(()), game.draws)
        for event in decide(RULES, game, seat, command, chance):
            log.append(Recorded(game.version + 1, event, seat, f"c{len(log)}"))
            game = fold(RULES, game, log[-1])
        return game

    before = game.state
    game = play(game, 0, Command.of("place_army", land="middle-tigris", via="land"))
    game = play(game, 0, Command.of("build_fort", land="middle-tigris"))
    assert undo_step(RULES, game, 1) is None  # not Egypt's to undo
    step = undo_step(RULES, game, 0)
    assert step is not None
    (undone,) = decide_table(RULES, game, 0, Command.of("undo"))
    assert undone.undone_through == game.version
    game = play(game, 0, Command.of("end_round"))
    assert game.state.turn is not None and game.state.turn.empire == "egypt"
    assert undo_step(RULES, game, 0) is None  # the round has passed on to Egypt
    assert before.turn is not None and before.turn.empire == "sumeria"
