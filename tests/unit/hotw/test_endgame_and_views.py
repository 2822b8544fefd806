"""The Endgame and winning (p9); what each seat may see; snapshots; the system's epoch close."""

from __future__ import annotations

import json

from domain.core.frozen import evolved
from domain.core.messages import Command
from domain.hotw.editions.hotw_2024.cards import Phase
from domain.hotw.editions.hotw_2024.endgame import final_standing, tie_breaks
from domain.hotw.editions.hotw_2024.events import (
    EndgameBegan,
    EndgameTokenRevealed,
    GameEnded,
    GoldCollected,
    HonorPlayed,
)
from domain.hotw.editions.hotw_2024.gold import circuits, most_gold, track_space
from domain.hotw.editions.hotw_2024.model import EndgameToken, GameResult, HotwState, Stage
from tests.support.hotw import (
    BLUE,
    GREEN,
    PACK,
    RED,
    RULES,
    act,
    army,
    garrison,
    of_type,
    position,
)


def closing_epoch_five(**kwargs) -> HotwState:
    state = position(epoch=5, card="mughals", stage=Stage.TURNS, phase=Phase.CONCLUDE, **kwargs)
    return state


def test_the_endgame_pays_leftovers_honors_and_endgame_tokens_then_names_the_winner():
    """hotw24.endgame.when, .leftovers, .honors, .area-tokens; hotw24.honors.play.endgame;
    hotw24.winning.most-gold; hotw24.intro.goal."""
    state = closing_epoch_five(
        lands={
            "tigris": garrison(RED, "capital"),
            "zagros": garrison(RED),
            "persia": garrison(BLUE),
        },
        gold=[20, 30, 10],
        area_tokens={RED: ("india-1",)},
        honor_track={RED: ("recruit-2", "lands-bonus", "buildings-bonus"), BLUE: ("recruit-1",)},
    )
    state = evolved(
        state,
        endgame_tokens=(
            EndgameToken(1, "middle-east-1", True),
            EndgameToken(2, "china-2", False, (BLUE,)),
        ),
    )
    events, state = act(state, "end_phase")  # conclude: turn and epoch end
    assert state.stage is Stage.EPOCH_CLOSING
    close = RULES.system_action(state)
    from domain.core.chance import Chance
    from domain.core.kernel import Game, decide
    from domain.core.ruleset import Setup

    events = decide(
        RULES,
        Game(Setup("hotw-2024", (), {}, ""), 1, 0, state),
        "system",
        close,
        Chance.forbidden(),
    )
    for ev in events:
        state = RULES.evolve(state, ev)
    assert of_type(events, EndgameBegan)[0].rule == "hotw24.endgame.when"
    leftovers = [g for g in of_type(events, GoldCollected) if g.rule == "hotw24.endgame.leftovers"]
    assert {(g.seat, g.amount) for g in leftovers} == {(RED, 2), (BLUE, 1), (GREEN, 1)}
    coin = [h for h in of_type(events, HonorPlayed) if not h.for_effect]
    assert {h.honor for h in coin} == {"recruit-2", "recruit-1"}
    assert all(h.cites == ("hotw24.honors.play.endgame",) for h in coin)
    assert RULES.awaited_seats(state) == {RED}  # two coinless Honors still to play
    assert [c.arg("honor") for c in RULES.legal_actions(state, RED)] == [
        "lands-bonus",
        "buildings-bonus",
    ]
    events, state = act(state, "play_honor", honor="lands-bonus")
    lands = [g for g in of_type(events, GoldCollected) if g.rule == "hotw24.endgame.honors"]
    # two Friendly lands in the area, then (played at once, the only Honor left) the capital
    assert [(g.seat, g.amount) for g in lands] == [(RED, 2), (RED, 2)]
    revealed = of_type(events, EndgameTokenRevealed)
    assert [(t.epoch, t.rule) for t in revealed] == [
        (1, "hotw24.endgame.area-tokens"),
        (2, "hotw24.endgame.area-tokens"),
    ]
    (ended,) = of_type(events, GameEnded)
    assert ended.rule == "hotw24.winning.most-gold"
    assert RULES.is_over(state)
    result = RULES.result(state)
    assert result["details"]["final"] and result["ranking"][0]["place"] == 1


def test_chests_on_one_space_tie_and_fewest_people_shown_then_honor_icons_break_it():
    """hotw24.winning.tie.people, hotw24.winning.tie.honor-icons, hotw24.winning.tie.shared."""
    state = position({}, gold=[40, 40, 40])
    players = list(state.players)
    players[RED] = evolved(
        players[RED], empire_cards=("sumeria",), event_cards=("writing-1",)
    )  # 4 people
    players[BLUE] = evolved(players[BLUE], empire_cards=("egypt",), event_cards=())  # 5 people
    players[GREEN] = evolved(
        players[GREEN], empire_cards=("indus-valley",), event_cards=()
    )  # 4 people
    state = evolved(state, players=tuple(players))
    _, ranking, _people, _icons = final_standing(PACK, state)
    assert ranking == ((RED,), (GREEN,), (BLUE,))
    players[RED] = evolved(players[RED], event_cards=())
    _, ranking, _, _ = final_standing(PACK, evolved(state, players=tuple(players)))
    assert ranking == ((RED, GREEN), (BLUE,))
    assert cited_ties((40, 40, 40), (4, 5, 4), (1, 0, 0)) == (
        "hotw24.winning.tie.people",
        "hotw24.winning.tie.honor-icons",
    )
    assert cited_ties((40, 40, 40), (4, 5, 4), (0, 0, 0)) == (
        "hotw24.winning.tie.people",
        "hotw24.winning.tie.honor-icons",
        "hotw24.winning.tie.shared",
    )
    assert cited_ties((40, 41, 39), (4, 4, 4), (0, 0, 0)) == ()


def cited_ties(*standing: tuple[int, ...]) -> tuple[str, ...]:
    """The ids GameEnded cites for the tie-breaks a final standing needed."""
    return tuple(tie_breaks(*standing))


def test_the_topmost_chest_has_most_gold_and_the_track_wraps_past_one_hundred():
    """hotw24.general.gold.track, hotw24.general.gold.stacking, hotw24.general.gold.wrap."""
    state = position({}, gold=[30, 30, 5])
    assert most_gold(state) == BLUE  # arrived later, so on top
    _events, after = act(
        position(
            {"tigris": army(RED)},
            phase=Phase.REVENUE,
            gold=[29, 30, 5],
            honor_track={RED: ("recruit-1", "recruit-2")},
        ),
        "play_honor",
        honor="recruit-1",
    )
    assert most_gold(after) == RED
    assert (track_space(101, 100), circuits(101, 100)) == (1, 1)
    (paid,) = of_type(_events, GoldCollected)
    assert paid.cites == ("hotw24.general.gold.track",)
    wrapping = position(
        {"tigris": army(RED)},
        phase=Phase.REVENUE,
        gold=[99, 30, 5],
        honor_track={RED: ("recruit-3",)},
    )
    events, after = act(wrapping, "play_honor", honor="recruit-3")
    (paid,) = of_type(events, GoldCollected)
    assert paid.cites == ("hotw24.general.gold.track", "hotw24.general.gold.wrap")
    assert circuits(after.players[RED].gold, 100) == 1


def test_a_spectator_sees_no_secret_and_a_seat_sees_only_its_own():
    """contracts §5; hotw24.organization.area-tokens.secret."""
    state = position(
        {"tigris": army(RED)},
        area_tokens={RED: ("india-1",), BLUE: ("china-1",)},
    )
    state = evolved(
        state, endgame_tokens=(EndgameToken(2, "china-2", False, (BLUE,)),), bag=("india-2",)
    )
    players = list(state.players)
    players[BLUE] = evolved(players[BLUE], event_card="trade-1")
    state = evolved(state, players=tuple(players))
    spectator = json.dumps(RULES.view(state, None))
    for secret in ("india-1", "china-1", "china-2", "trade-1", "india-2"):
        assert secret not in spectator
    blue = RULES.view(state, BLUE)
    assert (
        blue["players"][BLUE]["area_tokens"] == ["china-1"]
        and blue["players"][RED]["area_tokens"] is None
    )
    assert blue["endgame_tokens"][0]["token"] == "china-2"
    assert blue["players"][BLUE]["event_card"] == "trade-1"
    assert blue["players"][RED]["honor_stack"] == 10 - 0  # a count, never the order
    assert RULES.summary(state)["phase"] == "expand"


def test_the_state_survives_its_json_form_exactly():
    state = position({"tigris": army(RED, "capital", "fort"), "indus": garrison(BLUE)}, people=2)
    state = evolved(state, result=GameResult((1, 2, 3), ((2,), (1,), (0,)), (4, 5, 6), (0, 1, 0)))
    encoded = json.loads(json.dumps(RULES.encode_state(state)))
    assert RULES.decode_state(encoded) == state


def test_the_system_closes_an_epoch_and_nobody_else_can():
    state = position({"tigris": army(RED)}, phase=Phase.CONCLUDE)
    _, state = act(state, "end_phase")
    assert RULES.awaited_seats(state) == frozenset()
    assert RULES.system_action(state) == Command.of("close_epoch", epoch=1)  # hotw24.turn.epoch-end
