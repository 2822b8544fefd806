"""Setting up (p3) and Epoch organization (p4), played through the kernel from creation."""

from __future__ import annotations

import pytest

from domain.core.chance import Chance
from domain.core.errors import InvalidOptions, InvalidPlayerCount
from domain.core.kernel import GameCreated, creation_events, decide, fold, replay
from domain.core.messages import Command, Recorded
from domain.hotw.editions.hotw_2024.events import (
    AreasActivated,
    AreaTokenChosen,
    AreaTokenDrawn,
    AreaTokensDrawn,
    AreaTokensPassed,
    CardsCountedOut,
    EmpireCardChosen,
    EmpireCardsDisplayed,
    EndgameTokenPlaced,
    EpochBegan,
    EpochEnded,
    EventCardDealt,
    GoldChestsPlaced,
    HonorStackShuffled,
    HonorTurnedUp,
    TurnBegan,
)
from domain.hotw.editions.hotw_2024.model import Stage
from service.chance import HmacSource, commitment
from service.rulesets import ruleset
from tests.support.hotw import PACK, RULES, of_type

SEED = bytes(range(32))


def new_game(players=4, seed=SEED, **options):
    chance = Chance(HmacSource(seed), 0)
    events = creation_events(
        RULES, tuple(f"p{n}" for n in range(players)), options, commitment(seed), chance
    )
    log = [Recorded(i, e, "system") for i, e in enumerate(events, 1)]
    return replay(RULES, log), log


def play(game, log, actor, command, seed=SEED):
    events = decide(RULES, game, actor, command, Chance(HmacSource(seed), game.draws))
    for ev in events:
        log.append(Recorded(game.version + 1, ev, actor))
        game = fold(RULES, game, log[-1])
    return game, events


def test_the_ruleset_is_registered_and_bound_to_its_pack():
    rules = ruleset("hotw-2024")
    assert rules.name == "hotw-2024" and rules.pack.ruleset == "hotw-2024"
    assert rules.player_counts == (3, 4, 5, 6)  # hotw24.setup.player-count
    assert (
        rules.describe()["options"][0]["name"] == "dice"
    )  # hotw24.setup.dice, hotw24.setup.options


def test_two_players_are_refused_by_the_player_count_rule():
    with pytest.raises(InvalidPlayerCount) as refused:
        new_game(players=2)
    assert refused.value.rule == "hotw24.setup.player-count"


def test_an_option_the_edition_does_not_have_is_refused_by_the_optional_rules_rule():
    with pytest.raises(InvalidOptions) as refused:
        RULES.check_options({"fog_of_war": True})
    assert refused.value.rule == "hotw24.options"
    with pytest.raises(InvalidOptions) as refused:
        RULES.check_options({"event_card_selection": "yes"})
    assert refused.value.rule == "hotw24.options"


def test_dice_maybe_is_refused_by_the_rule_that_has_players_choose_dice_or_no_dice():
    with pytest.raises(InvalidOptions) as refused:
        RULES.check_options({"dice": "maybe"})
    assert refused.value.rule == "hotw24.setup.dice"


def test_the_seed_is_revealed_citing_the_chance_procedure_not_the_winner():
    assert RULES.chance_rule == "hotw24.table.chance"
    assert RULES.chance_rule != RULES.end_rule


def test_chests_go_on_spaces_one_to_n_in_random_order():
    game, log = new_game()
    (placed,) = of_type([r.event for r in log], GoldChestsPlaced)
    assert placed.rule == "hotw24.setup.gold-order"
    assert sorted(placed.order) == [0, 1, 2, 3]
    assert [game.state.players[seat].gold for seat in placed.order] == [1, 2, 3, 4]


def test_each_honor_stack_is_shuffled_secretly_with_its_top_honor_face_up():
    game, log = new_game()
    events = [r.event for r in log]
    for _seat, player in enumerate(game.state.players):
        assert (
            len(player.honor_track) == 1 and len(player.honor_stack) == 9
        )  # hotw24.setup.player-set
        assert player.leader and player.supply == 30  # hotw24.setup.leader
    (created,) = of_type(events, GameCreated)
    assert set(created.cites) == {
        "hotw24.setup.player-set",
        "hotw24.setup.leader",
        "hotw24.setup.arctic",
        "hotw24.setup.area-tokens",
        "hotw24.setup.dice",
        "hotw24.setup.options",
    }  # the rules that fix the state the game starts in
    shuffled = of_type(events, HonorStackShuffled)
    assert all(e.visibility.seats == frozenset() for e in shuffled)  # nobody sees the order
    assert all(e.rule == "hotw24.setup.honor-stack" for e in of_type(events, HonorTurnedUp))


def test_as_many_cards_as_players_are_counted_out_per_epoch_unseen():
    game, log = new_game(players=5)
    counted = of_type([r.event for r in log], CardsCountedOut)
    assert [c.epoch for c in counted] == [1, 2, 3, 4, 5]  # hotw24.setup.cards
    assert all(len(c.empire_cards) == 5 and len(c.event_cards) == 5 for c in counted)
    assert all(c.cites == ("hotw24.setup.cards",) for c in counted)
    assert all(
        c.rule == "hotw24.setup.cards.unseen" and c.visibility.seats == frozenset() for c in counted
    )
    assert game.state.supply["capital"] == PACK.cards.pieces.shared.capitals  # hotw24.setup.arctic


def test_epoch_one_activates_five_areas_and_deals_tokens_secretly():
    game, log = new_game()
    events = [r.event for r in log]
    (activated,) = of_type(events, AreasActivated)
    assert activated.rule == "hotw24.organization.activate-areas"
    assert activated.cites == ("hotw24.general.area-tokens.active",)
    assert game.state.active_areas == frozenset(activated.areas)
    assert set(activated.areas) == PACK.board.areas_activated_in(1)  # hotw24.setup.area-tokens
    drawn = of_type(events, AreaTokenDrawn)
    assert [d.seat for d in drawn] == [0, 1, 2, 3]
    assert all(d.visibility.seats == frozenset({d.seat}) for d in drawn)
    assert all(
        d.cites
        == ("hotw24.general.area-tokens.selection", "hotw24.organization.area-tokens.secret")
        for d in drawn
    )
    (endgame,) = of_type(events, EndgameTokenPlaced)
    assert endgame.face_up and endgame.rule == "hotw24.organization.area-tokens.epoch-one"
    assert len(game.state.bag) == 15 - 5  # hotw24.general.area-tokens.active


def test_event_cards_are_dealt_secretly_and_empire_cards_displayed_for_the_poorest_first():
    game, log = new_game()
    events = [r.event for r in log]
    dealt = of_type(events, EventCardDealt)
    assert all(e.visibility.seats == frozenset({e.seat}) for e in dealt)
    assert {e.rule for e in dealt} == {"hotw24.organization.event-cards"}
    (shown,) = of_type(events, EmpireCardsDisplayed)
    assert shown.rule == "hotw24.organization.empire-cards.display"
    poorest = min(range(4), key=lambda s: game.state.players[s].gold)
    assert RULES.awaited_seats(game.state) == {poorest}
    game, chosen = play(game, log, poorest, RULES.legal_actions(game.state, poorest)[0])
    (choice,) = of_type(chosen, EmpireCardChosen)
    assert (choice.seat, choice.rule) == (poorest, "hotw24.organization.empire-cards.choice")
    numbers = [PACK.cards.empire(c).number for c in shown.cards]
    assert numbers == sorted(numbers)


def test_turns_follow_the_chronological_card_numbers():
    """hotw24.turn.order: choose cards, then the lowest number plays first."""
    game, log = new_game()
    while game.state.stage is Stage.ORGANIZATION:
        (seat,) = RULES.awaited_seats(game.state)
        actions = list(RULES.legal_actions(game.state, seat))
        game, _ = play(game, log, seat, actions[-1])
    order = game.state.turn_order
    assert [PACK.cards.empire(c).number for c in order] == sorted(
        PACK.cards.empire(c).number for c in order
    )
    assert game.state.turn.card == order[0]
    (began,) = [r.event for r in log if isinstance(r.event, TurnBegan)]
    assert (began.card, began.rule) == (order[0], "hotw24.turn.order")
    assert began.cites == ("hotw24.turn.terms",)  # the Empire now in play, all others Enemy


def play_epoch(game, log, choose=lambda actions: actions[0]):
    while game.state.stage not in (Stage.EPOCH_CLOSING, Stage.OVER):
        (seat,) = RULES.awaited_seats(game.state)
        game, _ = play(game, log, seat, choose(list(RULES.legal_actions(game.state, seat))))
    return game


def test_from_epoch_two_the_richest_draws_players_plus_one_and_passes_down_the_gold_order():
    game, log = new_game()
    game = play_epoch(game, log)
    assert game.state.stage is Stage.EPOCH_CLOSING
    close = RULES.system_action(game.state)
    assert close == Command.of("close_epoch", epoch=1)
    ended = [r.event for r in log if isinstance(r.event, EpochEnded)]
    assert [(e.epoch, e.rule) for e in ended] == [(1, "hotw24.turn.epoch-end")]
    order = game.state.gold_order()
    game, events = play(game, log, "system", close)
    (drawn,) = of_type(events, AreaTokensDrawn)
    assert drawn.seat == order[0] and len(drawn.tokens) == 5
    assert drawn.rule == "hotw24.organization.area-tokens.later"
    assert drawn.draws  # drawn from the bag through chance
    assert "hotw24.general.area-tokens.selection" in drawn.cites
    (began,) = of_type(events, EpochBegan)
    assert (began.epoch, began.rule) == (2, "hotw24.epoch.structure")
    assert drawn.visibility.seats == frozenset({order[0]})
    for position, seat in enumerate(order):
        assert RULES.awaited_seats(game.state) == {seat}
        offered = [c.arg("token") for c in RULES.legal_actions(game.state, seat)]
        assert len(offered) == 5 - position
        game, events = play(game, log, seat, Command.of("choose_area_token", token=offered[0]))
        assert of_type(events, AreaTokenChosen)[0].visibility.seats == frozenset({seat})
        passed = of_type(events, AreaTokensPassed)
        if position < 3:
            assert passed[0].visibility.seats == frozenset({seat, order[position + 1]})
    leftover = of_type(events, EndgameTokenPlaced)[0]
    assert not leftover.face_up and leftover.known_by == (order[-1],)  # area-tokens.leftover
    assert leftover.rule == "hotw24.organization.area-tokens.leftover"
