"""The service: load (snapshot + tail), decide, append — on a real redis-server."""

from __future__ import annotations

import threading

import pytest

from domain.core.errors import IllegalAction, NotYourTurn
from domain.core.kernel import replay
from domain.core.messages import Command, Recorded
from service.auth import role_of
from service.chance import verify_commitment, verify_draw
from service.games import GameService
from service.loading import StateCache, VersionOutOfRange
from store import keys
from store.credentials import TokenHashes
from store.errors import GameNotFound, IdempotencyKeyReused, VersionConflict
from tests.support.toy import SealedBids

PLAYERS = ["ann", "bob", "cy"]


@pytest.fixture()
def service(store, vault) -> GameService:
    return GameService(store, vault, rulesets=lambda name: SealedBids())


def bid(chips: int) -> Command:
    return Command.of("bid", chips=chips)


def test_creating_a_game_stores_its_creation_events_and_issues_tokens(service, client):
    created = service.create_game("toy-sealed-bids", PLAYERS, {"rounds": 2})
    assert created.version == 2
    assert [r.event.type for r in created.events] == ["GameCreated", "ToySeatingDrawn"]
    meta = service.store.meta(created.game_id)
    assert (meta.ruleset, meta.status, meta.players) == (
        "toy-sealed-bids",
        "active",
        tuple(PLAYERS),
    )
    hashes = TokenHashes(client).of(created.game_id)
    assert role_of(created.tokens.admin, hashes) == "admin"
    assert role_of(created.tokens.seats[2], hashes) == "seat:2"
    assert role_of("not-a-token", hashes) is None
    assert all(t not in str(hashes) for t in created.tokens.seats)
    assert len(created.tokens.admin) >= 32


def test_the_seed_commitment_matches_the_stored_seed(service, vault):
    created = service.create_game("toy-sealed-bids", PLAYERS)
    assert verify_commitment(vault.seed(created.game_id), created.seed_commitment)


def test_a_command_returns_its_new_events_and_version(service):
    created = service.create_game("toy-sealed-bids", PLAYERS)
    outcome = service.handle(created.game_id, 1, bid(2))
    assert outcome.version == 3
    assert [(r.version, r.event.type, r.actor) for r in outcome.events] == [(3, "ToyBidSealed", 1)]
    assert outcome.events[0].recorded_at.endswith("Z")


def test_refusals_append_nothing(service):
    created = service.create_game("toy-sealed-bids", PLAYERS)
    with pytest.raises(IllegalAction):
        service.handle(created.game_id, 0, bid(99))
    service.handle(created.game_id, 0, bid(1))
    with pytest.raises(NotYourTurn):
        service.handle(created.game_id, 0, bid(1))
    assert service.store.version(created.game_id) == 3


def test_an_unknown_game_is_not_found(service):
    with pytest.raises(GameNotFound):
        service.handle("nope", 0, bid(1))


def test_a_stale_expected_version_is_refused_with_the_current_version(service):
    created = service.create_game("toy-sealed-bids", PLAYERS)
    service.handle(created.game_id, 0, bid(1), expected_version=2)
    with pytest.raises(VersionConflict) as refused:
        service.handle(created.game_id, 1, bid(1), expected_version=2)
    assert refused.value.current == 3


def test_the_same_idempotency_key_gives_the_same_result_even_after_other_commands(service):
    created = service.create_game("toy-sealed-bids", PLAYERS)
    first = service.handle(created.game_id, 0, bid(1), idempotency_key="k-1")
    service.handle(created.game_id, 1, bid(2))
    again = service.handle(created.game_id, 0, bid(1), idempotency_key="k-1")
    assert again.duplicate
    assert [r.as_dict() for r in again.events] == [r.as_dict() for r in first.events]
    assert service.store.version(created.game_id) == 4
    with pytest.raises(IdempotencyKeyReused):
        service.handle(created.game_id, 0, bid(2), idempotency_key="k-1")


def test_idempotency_keys_are_scoped_per_seat_each_seat_getting_its_own_first_result(service):
    created = service.create_game("toy-sealed-bids", PLAYERS)
    game_id = created.game_id
    zero = service.handle(game_id, 0, bid(1), idempotency_key="same-key")
    two = service.handle(game_id, 2, bid(3), idempotency_key="same-key")
    assert not two.duplicate, "seat 2's key is its own, whatever seat 0 used"
    assert [r.actor for r in two.events] == [2] and two.version == zero.version + 1
    again_zero = service.handle(game_id, 0, bid(1), idempotency_key="same-key")
    again_two = service.handle(game_id, 2, bid(3), idempotency_key="same-key")
    assert again_zero.duplicate and again_two.duplicate
    assert [r.as_dict() for r in again_zero.events] == [r.as_dict() for r in zero.events]
    assert [r.as_dict() for r in again_two.events] == [r.as_dict() for r in two.events]
    assert service.store.version(game_id) == two.version, "the repeats appended nothing"
    with pytest.raises(IdempotencyKeyReused):
        service.handle(game_id, 2, bid(2), idempotency_key="same-key")


def test_two_seats_commands_under_one_key_stay_two_commands_for_undo(service):
    """Sealed bids: seat 0 and then seat 1 bid under the same key; seat 1's undo takes back
    its own bid only, and seat 0 can still undo its own."""
    created = service.create_game("toy-sealed-bids", PLAYERS)
    game_id = created.game_id
    zero = service.handle(game_id, 0, bid(1), idempotency_key="mine")
    one = service.handle(game_id, 1, bid(2), idempotency_key="mine")
    undone = service.handle(game_id, 1, Command.of("undo"))
    data = undone.events[0].as_dict()["data"]
    assert (data["undone_from"], data["undone_through"]) == (one.version, one.version)
    _, game = service.load(game_id)
    assert game.state.sealed == {0: 1}
    undone_zero = service.handle(game_id, 0, Command.of("undo"))
    data = undone_zero.events[0].as_dict()["data"]
    assert data["undone_from"] == zero.version
    _, game = service.load(game_id)
    assert game.state.sealed == {}


def test_a_key_recorded_before_keys_were_scoped_still_answers_its_own_seat_only(service, client):
    created = service.create_game("toy-sealed-bids", PLAYERS)
    game_id = created.game_id
    first = service.handle(game_id, 0, bid(1), idempotency_key="old-key")
    records = keys.idempotency(game_id)
    client.hset(records, "old-key", client.hget(records, "0 old-key"))  # as stored before
    client.hdel(records, "0 old-key")
    again = service.handle(game_id, 0, bid(1), idempotency_key="old-key")
    assert again.duplicate and [r.version for r in again.events] == [first.version]
    with pytest.raises(IdempotencyKeyReused):
        service.handle(game_id, 0, bid(2), idempotency_key="old-key")
    other = service.handle(game_id, 2, bid(2), idempotency_key="old-key")
    assert not other.duplicate and [r.actor for r in other.events] == [2]


def play_to_the_end(service, game_id):
    rules = SealedBids()
    while True:
        _, game = service.load(game_id)
        if rules.is_over(game.state):
            return game
        seat = min(rules.awaited_seats(game.state))
        action = list(rules.legal_actions(game.state, seat))[-1]
        service.handle(game_id, seat, action)


def test_a_whole_game_replays_from_its_stored_events_and_every_draw_verifies(service, vault):
    created = service.create_game("toy-sealed-bids", PLAYERS, {"rounds": 4})
    final = play_to_the_end(service, created.game_id)
    events = service.events(created.game_id)
    assert replay(SealedBids(), events) == final
    seed = vault.seed(created.game_id)
    draws = [d for r in events for d in r.event.draws]
    assert draws and all(verify_draw(seed, d) for d in draws)
    assert [d.k for d in draws] == list(range(len(draws)))
    assert service.store.meta(created.game_id).status == "finished"


def test_state_loads_from_the_latest_snapshot_plus_the_tail(store, vault):
    writer = GameService(store, vault, rulesets=lambda name: SealedBids())
    created = writer.create_game("toy-sealed-bids", PLAYERS, {"rounds": 5})
    writer.handle(created.game_id, 0, bid(1))
    assert writer.write_snapshot(created.game_id) == 3
    writer.handle(created.game_id, 1, bid(0))
    writer.handle(created.game_id, 2, bid(0))
    fresh = GameService(store, vault, rulesets=lambda name: SealedBids(), cache=StateCache())
    _, loaded = fresh.load(created.game_id)
    assert loaded == replay(SealedBids(), writer.events(created.game_id))
    _, past = fresh.load_at(created.game_id, 3)
    assert past == replay(SealedBids(), writer.events(created.game_id, 1, 3))
    with pytest.raises(VersionOutOfRange):
        fresh.load_at(created.game_id, 99)


def test_a_snapshot_whose_hash_does_not_match_is_ignored(store, vault):
    service = GameService(store, vault, rulesets=lambda name: SealedBids())
    created = service.create_game("toy-sealed-bids", PLAYERS)
    service.handle(created.game_id, 0, bid(1))
    store.save_snapshot(created.game_id, 3, '{"setup": "forged"}', "0" * 64)
    fresh = GameService(store, vault, rulesets=lambda name: SealedBids(), cache=StateCache())
    _, loaded = fresh.load(created.game_id)
    assert loaded == replay(SealedBids(), service.events(created.game_id))


def test_concurrent_commands_without_an_expected_version_all_land_in_some_order(store, vault):
    service = GameService(store, vault, rulesets=lambda name: SealedBids())
    created = service.create_game("toy-sealed-bids", ["a", "b", "c", "d"])
    errors: list[Exception] = []

    def seat_bids(seat: int) -> None:
        own = GameService(store, vault, rulesets=lambda name: SealedBids(), cache=StateCache())
        try:
            own.handle(created.game_id, seat, bid(seat))
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=seat_bids, args=(s,)) for s in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    types = [r.event.type for r in service.events(created.game_id)]
    assert types.count("ToyBidSealed") == 4
    assert types[-1] == "ToyBidsRevealed"


def test_the_in_process_cache_never_goes_back_in_time():
    cache = StateCache(size=2)
    rules = SealedBids()
    from domain.core.chance import Chance
    from domain.core.kernel import creation_events
    from service.chance import HmacSource

    events = creation_events(rules, ("a", "b"), {}, "c", Chance(HmacSource(b"s" * 32), 0))
    first = replay(rules, [Recorded(1, events[0], "system")])
    second = replay(rules, [Recorded(2, events[1], "system")], first)
    cache.put("g", second)
    cache.put("g", first)
    assert cache.get("g") is second
    cache.put("h", first)
    cache.put("i", first)
    assert cache.get("g") is None, "least recently used is evicted"
