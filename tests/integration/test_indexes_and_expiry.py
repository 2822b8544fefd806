"""Listing by status and ruleset reads one index a page at a time, whatever else is stored; a
game moves between the status indexes as it plays; a game no seat ever acted in expires after
its time, and a started one never does."""

from __future__ import annotations

import json
import time
import uuid

import pytest
import redis

from domain.core.messages import Command
from service.games import GameService
from store import keys
from store.credentials import SecretVault
from store.errors import GameNotFound
from store.redis_store import EventStore
from tests.support.abuse import own_redis
from tests.support.toy import SealedBidsClosedBySystem
from workers.scheduling import sweep_closing_games


def hgetalls(client: redis.Redis) -> int:
    stats = client.info("commandstats")
    return int(stats.get("cmdstat_hgetall", {}).get("calls", 0))


def put(store: EventStore, ruleset: str, status: str) -> str:
    game_id = uuid.uuid4().hex
    store.create(
        game_id,
        ruleset=ruleset,
        players=["a", "b"],
        status=status,
        events=[json.dumps({"type": "GameCreated", "data": {}, "actor": "system"})],
        seed=b"s" * 32,
        extra={"seed_revealed": "true"},
    )
    return game_id


def test_a_filtered_listing_reads_its_page_not_every_game(store: EventStore) -> None:
    ruleset = f"index-{uuid.uuid4().hex[:8]}"
    active = [put(store, ruleset, "active") for _ in range(5)]
    for _ in range(300):
        put(store, ruleset, "finished")
    store.ensure_indexed()  # once per database: the indexes of games made before them
    before = hgetalls(store.redis)
    page, total = store.list_games(status="active", ruleset=ruleset, limit=50)
    read = hgetalls(store.redis) - before
    assert sorted(m.game_id for m in page) == sorted(active) and total == 5
    assert read <= 10, f"{read} games read to list 5"
    page, total = store.list_games(ruleset=ruleset, limit=20, offset=10)
    assert len(page) == 20 and total == 305
    assert all(m.ruleset == ruleset for m in page)


def test_a_game_moves_between_status_indexes_as_it_plays(store, vault) -> None:
    service = GameService(store, vault, rulesets=lambda name: SealedBidsClosedBySystem())
    created = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 1})
    ruleset = "toy-sealed-bids-closing"

    def listed(status: str) -> bool:
        page, _ = store.list_games(status=status, ruleset=ruleset, limit=1000)
        return created.game_id in {m.game_id for m in page}

    assert listed("active") and not listed("closing")
    service.handle(created.game_id, 0, Command.of("bid", chips=0))
    service.handle(created.game_id, 1, Command.of("bid", chips=0))
    assert listed("closing") and not listed("active")
    service.run_system_steps(created.game_id)
    assert not listed("closing")
    assert listed(store.meta(created.game_id).status)


def test_a_stale_index_entry_is_dropped_when_met(store: EventStore) -> None:
    ruleset = f"index-{uuid.uuid4().hex[:8]}"
    game_id = put(store, ruleset, "active")
    store.index_status(game_id, ruleset, "closing")  # as if the append after it had failed
    page, _ = store.list_games(status="closing", ruleset=ruleset)
    assert page == []
    assert store.redis.zscore(keys.status_index("closing", ruleset), game_id) is None


@pytest.fixture()
def own_service():
    with own_redis() as server:
        client = redis.Redis.from_url(server.url, decode_responses=True)
        service = GameService(
            EventStore(client), SecretVault(client), rulesets=lambda n: SealedBidsClosedBySystem()
        )
        yield service, server.url
        client.close()


def test_only_games_no_seat_acted_in_expire(own_service) -> None:
    service, _ = own_service
    idle = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 1})
    played = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 1})
    service.handle(played.game_id, 0, Command.of("bid", chips=0))
    young = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 1})
    expired = service.expire_unstarted(3600, time.time() + 1800)  # the first two are "old"
    assert idle.game_id not in expired or young.game_id not in expired
    expired = service.expire_unstarted(0.0, time.time() + 1)
    assert set(expired) == {idle.game_id, young.game_id}
    for gone in expired:
        with pytest.raises(GameNotFound):
            service.store.version(gone)
        assert not any(service.store.redis.exists(k) for k in keys.game_keys(gone))
        listed, _ = service.store.list_games(limit=1000)
        assert gone not in {m.game_id for m in listed}
    assert service.store.version(played.game_id) == played.version + 1
    assert service.expire_unstarted(0.0, time.time() + 1) == []
    assert service.store.redis.zscore(keys.UNSTARTED, played.game_id) is None


def test_games_made_before_the_unstarted_list_expire_too_and_started_ones_stay(
    own_service,
) -> None:
    """A database whose games predate the unstarted list (indexed in layout 1, the games not
    on the list) gets them checked by the sweep like new ones."""
    service, _ = own_service
    idle = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 1})
    played = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 1})
    service.handle(played.game_id, 0, Command.of("bid", chips=0))
    client = service.store.redis
    client.zrem(keys.UNSTARTED, idle.game_id, played.game_id)
    client.set(keys.INDEXED, "1")
    assert service.expire_unstarted(0.0, time.time() + 1) == [idle.game_id]
    with pytest.raises(GameNotFound):
        service.store.version(idle.game_id)
    assert service.store.version(played.game_id) == played.version + 1
    assert client.zscore(keys.UNSTARTED, played.game_id) is None, "checked once, then left"
    assert client.get(keys.INDEXED) == keys.INDEX_LAYOUT


def test_a_command_that_lands_during_the_expiry_keeps_its_game(own_service) -> None:
    service, _ = own_service
    created = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 1})
    read_at = service.store.version(created.game_id)
    service.handle(created.game_id, 0, Command.of("bid", chips=0))
    assert service.store.expire_game(created.game_id, read_at) is False
    assert service.store.version(created.game_id) == read_at + 1


def test_the_sweep_expires_unstarted_games_after_the_configured_time(
    own_service, monkeypatch
) -> None:
    service, url = own_service
    monkeypatch.setenv("CHRONICLE_UNSTARTED_TTL_S", "0.2")
    idle = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 1})
    time.sleep(0.3)
    sweep_closing_games(url, f"q-{uuid.uuid4().hex[:6]}", 30)
    with pytest.raises(GameNotFound):
        service.store.version(idle.game_id)


def put_listed(store: EventStore, ruleset: str, listing: str | None) -> str:
    game_id = uuid.uuid4().hex
    store.create(
        game_id,
        ruleset=ruleset,
        players=["a", "b"],
        status="active",
        events=[json.dumps({"type": "GameCreated", "data": {}, "actor": "system"})],
        seed=b"s" * 32,
        extra={"seed_revealed": "true", **({"listing": listing} if listing else {})},
    )
    return game_id


def every_listed(store: EventStore, ruleset: str, limit: int) -> list[str]:
    seen: list[str] = []
    after = None
    while True:
        page = store.listed_page(ruleset=ruleset, limit=limit, after=after)
        seen += [m.game_id for m in page.games]
        if page.next_after is None:
            return seen
        after = page.next_after


def test_paging_by_cursor_gives_each_listed_game_once_even_when_many_share_an_instant(
    store: EventStore,
) -> None:
    ruleset = f"listed-{uuid.uuid4().hex[:8]}"
    public = [put_listed(store, ruleset, "public" if n % 2 else None) for n in range(40)]
    private = [put_listed(store, ruleset, "private") for _ in range(40)]
    index = keys.listed_index(None, ruleset)
    for n, game_id in enumerate(public):  # three instants, many games in each
        store.redis.zadd(index, {game_id: 1_700_000_000.123456 + n % 3})
    for limit in (1, 3, 7, 40, 200):
        seen = every_listed(store, ruleset, limit)
        assert sorted(seen) == sorted(public), f"limit {limit}"
    assert not any(store.redis.zscore(index, g) is not None for g in private)


def test_a_listed_page_reads_its_page_not_the_private_games(store: EventStore) -> None:
    ruleset = f"listed-{uuid.uuid4().hex[:8]}"
    public = [put_listed(store, ruleset, "public") for _ in range(5)]
    for _ in range(300):
        put_listed(store, ruleset, "private")
    store.ensure_indexed()
    before = hgetalls(store.redis)
    page = store.listed_page(ruleset=ruleset, limit=50)
    assert sorted(m.game_id for m in page.games) == sorted(public) and page.next_after is None
    assert hgetalls(store.redis) - before <= 10


def test_games_stored_before_the_listed_index_are_listed_once_it_is_built(own_service) -> None:
    """A database indexed in layout 2 (before the listed index) has its public games put on it
    once, and its private tables never."""
    service, _ = own_service
    store = service.store
    public = put_listed(store, "toy-sealed-bids-closing", "public")
    classic = put_listed(store, "toy-sealed-bids-closing", None)
    private = put_listed(store, "toy-sealed-bids-closing", "private")
    for name in list(store.redis.scan_iter(f"{keys.listed_index()}*")):
        store.redis.delete(name)
    store.redis.set(keys.INDEXED, "2")
    seen = every_listed(store, "toy-sealed-bids-closing", 2)
    assert sorted(seen) == sorted([public, classic]) and private not in seen
    assert store.redis.get(keys.INDEXED) == keys.INDEX_LAYOUT
    page, _ = store.list_games(status="active", public_only=True, limit=10)
    assert {m.game_id for m in page} == {public, classic}


def test_an_expired_game_leaves_the_listed_indexes(own_service) -> None:
    service, _ = own_service
    idle = service.create_game("toy-sealed-bids-closing", ["a", "b"], {"rounds": 1})
    assert [m.game_id for m in service.store.listed_page(limit=10).games] == [idle.game_id]
    assert service.expire_unstarted(0.0, time.time() + 1) == [idle.game_id]
    assert service.store.listed_page(limit=10).games == []
    for name in service.store.redis.scan_iter(f"{keys.listed_index()}*"):
        assert service.store.redis.zscore(name, idle.game_id) is None
