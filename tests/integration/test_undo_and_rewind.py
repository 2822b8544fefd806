"""Undo and rewind (contracts §7), on the History of the World 2024 ruleset and real Redis; undo
per seat under sealed, simultaneous play on the toy, through the service and the HTTP API."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import pairwise

import pytest

import tests.support.toy  # noqa: F401  (registers the toy rulesets)
from api.app import create_app
from domain.core.errors import IllegalAction
from domain.core.kernel import Game, replay
from domain.core.messages import Command
from domain.core.table import ActionsUndone, GameRewound
from domain.core.undo import table_actions
from service.games import GameService
from service.loading import StateCache
from service.rulesets import ruleset
from tests.support.api import bearer, create_toy

RULE = "hotw24.table.undo-and-rewind"
UNDO = Command.of("undo")


@pytest.fixture()
def service(store, vault) -> GameService:
    return GameService(store, vault)


def fresh(service: GameService) -> GameService:
    return GameService(service.store, service.vault, cache=StateCache())


def ruleset_actions(game: Game, seat: int) -> list[Command]:
    return list(ruleset("hotw-2024").legal_actions(game.state, seat))


def play_until(
    service: GameService,
    game_id: str,
    rng: random.Random,
    stop: Callable[[Game, int, Command, list], bool],
    limit: int = 3000,
):
    """Random legal play; before each command ask `stop(game, seat, command, events_after)`
    with the events the command produced — returns (game_before, seat, command, outcome)."""
    rules = ruleset("hotw-2024")
    for _ in range(limit):
        service.run_system_steps(game_id)
        _, game = service.load(game_id)
        assert not rules.is_over(game.state), "the game ended before the situation arose"
        seat = min(rules.awaited_seats(game.state))
        command = rng.choice(ruleset_actions(game, seat))
        outcome = service.handle(game_id, seat, command)
        if stop(game, seat, command, outcome.events):
            return game, seat, command, outcome
    raise AssertionError("the situation never arose")


def placed_in_uncontrolled_land(game, seat, command, events) -> bool:
    return (
        command.type == "place_army"
        and all(not r.event.draws for r in events)
        and all(r.event.visibility.is_public and not r.event.REVEALS_HIDDEN for r in events)
    )


def test_a_seat_undoes_its_own_last_placement_and_the_log_keeps_it(service):
    created = service.create_game("hotw-2024", ["ann", "bob", "cy", "dee"], seed=b"1" * 32)
    before, seat, _, outcome = play_until(
        service, created.game_id, random.Random(1), placed_in_uncontrolled_land
    )
    rules, game = service.load(created.game_id)
    assert UNDO in table_actions(rules, game, seat)
    undone = service.handle(created.game_id, seat, UNDO)
    event = undone.events[0].event
    assert isinstance(event, ActionsUndone)
    assert (event.undone_from, event.undone_through) == (before.version + 1, outcome.version)
    assert event.rule == RULE
    _, after = service.load(created.game_id)
    assert after.state == before.state
    assert after.draws == before.draws
    log = service.events(created.game_id)
    assert [r.version for r in log] == list(range(1, undone.version + 1)), "nothing deleted"
    assert replay(rules, log) == after
    _, reloaded = fresh(service).load(created.game_id)
    assert reloaded == after


def test_no_seat_may_undo_past_a_dice_roll_or_another_seats_actions(service):
    created = service.create_game("hotw-2024", ["ann", "bob", "cy"], seed=b"2" * 32)
    _, seat, _, _ = play_until(
        service,
        created.game_id,
        random.Random(2),
        lambda g, s, c, events: any(r.event.draws for r in events),
    )
    rules, game = service.load(created.game_id)
    if seat in rules.awaited_seats(game.state):
        assert UNDO not in table_actions(rules, game, seat)
        with pytest.raises(IllegalAction) as refused:
            service.handle(created.game_id, seat, UNDO)
        assert refused.value.rule == RULE
    for other in set(range(3)) - {seat}:
        assert UNDO not in table_actions(rules, game, other)


def test_repeating_an_invasion_after_a_rewind_rolls_the_same_dice(service):
    """Counter-based chance: a player cannot re-roll an invasion by taking it back."""
    created = service.create_game("hotw-2024", ["ann", "bob", "cy"], seed=b"3" * 32)
    before, seat, command, outcome = play_until(
        service,
        created.game_id,
        random.Random(3),
        lambda g, s, c, events: any(type(r.event).__name__.startswith("Invasion") for r in events),
    )
    first_draws = [d for r in outcome.events for d in r.event.draws]
    assert first_draws
    proposal = Command.of("propose_rewind", to_version=before.version)
    service.handle(created.game_id, seat, proposal)
    others = [s for s in range(3) if s != seat]
    for other in others[:-1]:
        service.handle(created.game_id, other, Command.of("accept_rewind"))
    last = service.handle(created.game_id, others[-1], Command.of("accept_rewind"))
    rewound = last.events[-1].event
    assert isinstance(rewound, GameRewound) and rewound.ordered_by == "table"
    assert rewound.to_version == before.version, "to_version is the version returned to"
    _, now = service.load(created.game_id)
    assert now.state == before.state and now.draws == before.draws
    again = service.handle(created.game_id, seat, command)
    assert [d for r in again.events for d in r.event.draws] == first_draws
    assert [r.event.type for r in again.events] == [r.event.type for r in outcome.events]


def test_one_refusal_drops_a_rewind_proposal(service):
    created = service.create_game("hotw-2024", ["ann", "bob", "cy"], seed=b"4" * 32)
    play_until(service, created.game_id, random.Random(4), lambda g, s, c, e: g.version > 40)
    rules, game = service.load(created.game_id)
    proposer = 0
    target = game.last_commands[proposer] - 1
    assert target >= game.first_playable
    service.handle(created.game_id, proposer, Command.of("propose_rewind", to_version=target))
    _, game = service.load(created.game_id)
    assert Command.of("accept_rewind") in table_actions(rules, game, 1)
    refused = service.handle(created.game_id, 1, Command.of("refuse_rewind"))
    _, after = service.load(created.game_id)
    assert after.proposal is None
    assert after.state == game.state
    assert Command.of("accept_rewind") not in table_actions(rules, after, 2)
    assert refused.version == game.version + 1


def test_the_admin_may_order_a_rewind_and_snapshots_inside_it_are_not_used(service):
    created = service.create_game("hotw-2024", ["ann", "bob", "cy"], seed=b"5" * 32)
    play_until(service, created.game_id, random.Random(5), lambda g, s, c, e: g.version > 60)
    log = service.events(created.game_id)
    target = next(r.version for r, nxt in pairwise(log[29:]) if r.command_id != nxt.command_id)
    middle = next(r.version for r, nxt in pairwise(log[20:]) if r.command_id == nxt.command_id)
    with pytest.raises(IllegalAction):
        service.handle(created.game_id, "admin", Command.of("order_rewind", to_version=middle))
    _, target_game = service.load_at(created.game_id, target)
    service.write_snapshot(created.game_id)
    with pytest.raises(IllegalAction):
        service.handle(created.game_id, 0, Command.of("order_rewind", to_version=target))
    with pytest.raises(IllegalAction):
        service.handle(created.game_id, "admin", Command.of("order_rewind", to_version=1))
    ordered = service.handle(
        created.game_id, "admin", Command.of("order_rewind", to_version=target)
    )
    assert ordered.events[0].event.ordered_by == "admin"
    rules, game = fresh(service).load(created.game_id)
    assert game.state == target_game.state
    assert replay(rules, service.events(created.game_id)) == game
    play_until(service, created.game_id, random.Random(6), lambda g, s, c, e: True)


# --- per-seat undo under sealed, simultaneous play (the toy; service and HTTP API) -----------


def bid(chips: int) -> Command:
    return Command.of("bid", chips=chips)


def test_under_simultaneous_play_a_seat_undoes_its_sealed_bid_and_a_later_seats_stays(service):
    created = service.create_game("toy-sealed-bids", ["ann", "bob", "cy"], seed=b"6" * 32)
    game_id = created.game_id
    first = service.handle(game_id, 0, bid(3))
    service.handle(game_id, 1, bid(1))
    service.write_snapshot(game_id)  # inside the range the undo takes back: it cannot serve
    with pytest.raises(IllegalAction):
        service.handle(game_id, 2, UNDO)
    undone = service.handle(game_id, 0, UNDO).events[0].event
    assert isinstance(undone, ActionsUndone)
    assert (undone.undone_from, undone.undone_through) == (first.version, first.version)
    rules, game = service.load(game_id)
    assert game.state.sealed == {1: 1}
    assert rules.awaited_seats(game.state) == {0, 2}
    assert UNDO in table_actions(rules, game, 1) and UNDO not in table_actions(rules, game, 0)
    _, reloaded = fresh(service).load(game_id)
    assert reloaded == game == replay(rules, service.events(game_id))
    service.handle(game_id, 0, bid(5))
    last = service.handle(game_id, 2, bid(2)).events[-1].event
    assert (last.type, last.bids, last.winner) == ("ToyBidsRevealed", (5, 1, 2), 0)


@pytest.fixture()
def api(redis_url: str):
    app = create_app(redis_url, SSE_HEARTBEAT_S=0.05, SYSTEM_STEPS="inline", CORS_ORIGINS=())
    with app.test_client() as client:
        yield client


def test_over_http_each_seat_may_undo_its_own_sealed_bid_and_no_other_seats(api):
    game = create_toy(api, players=3)
    game_id, tokens = game["game_id"], game["seat_tokens"]

    def post(seat: int, command: dict) -> tuple[int, dict]:
        response = api.post(
            f"/games/{game_id}/commands", json={"command": command}, headers=bearer(tokens[seat])
        )
        return response.status_code, response.get_json()

    def table_commands(seat: int) -> list[dict]:
        body = api.get(f"/games/{game_id}/legal-actions", headers=bearer(tokens[seat])).get_json()
        return [entry["command"] for entry in body["table_actions"]]

    status, first = post(0, {"type": "bid", "chips": 3})
    assert status == 201
    assert post(1, {"type": "bid", "chips": 1})[0] == 201
    assert {"type": "undo"} in table_commands(0)
    assert {"type": "undo"} in table_commands(1)
    assert {"type": "undo"} not in table_commands(2)
    status, refused = post(2, {"type": "undo"})
    assert status == 422 and refused["rule"] == "toy.table"
    status, undone = post(0, {"type": "undo"})
    assert status == 201
    (event,) = undone["events"]
    assert event["type"] == "ActionsUndone"
    assert event["data"]["undone_from"] == event["data"]["undone_through"] == first["version"]
    assert api.get(f"/games/{game_id}").get_json()["awaiting"] == [0, 2]
    seen_by_1 = api.get(f"/games/{game_id}/state", headers=bearer(tokens[1])).get_json()
    seen_by_0 = api.get(f"/games/{game_id}/state", headers=bearer(tokens[0])).get_json()
    assert seen_by_1["view"]["sealed"] == {"1": 1} and seen_by_1["view"]["sealed_by"] == [1]
    assert seen_by_0["view"]["sealed"] == {}
    assert {"type": "undo"} not in table_commands(0)
    assert {"type": "undo"} in table_commands(1)
    assert post(0, {"type": "bid", "chips": 5})[0] == 201
    status, last = post(2, {"type": "bid", "chips": 2})
    assert status == 201
    assert last["events"][-1]["type"] == "ToyBidsRevealed"
    assert last["events"][-1]["data"]["bids"] == [5, 1, 2]
