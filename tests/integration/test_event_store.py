"""The event store on a real redis-server (contracts §3)."""

from __future__ import annotations

import json
import multiprocessing
import re
import threading
import uuid
from pathlib import Path

import pytest
import redis

from store import keys
from store.compression import unpack_event
from store.errors import (
    GameExists,
    GameNotFound,
    IdempotencyKeyReused,
    MalformedAppend,
    VersionConflict,
)
from store.redis_store import EventStore

SEED = bytes.fromhex("ab" * 32)


def payload(label: str) -> str:
    return json.dumps({"type": "Noted", "data": {"label": label}})


def new_game(store: EventStore, game_id: str, events: int = 1) -> None:
    store.create(
        game_id,
        ruleset="test",
        players=["ann", "bob"],
        status="active",
        events=[payload(f"created-{i}") for i in range(events)],
        seed=SEED,
    )


def labels(store: EventStore, game_id: str, start: int = 1, end: int | None = None) -> list[str]:
    return [json.loads(e.payload)["data"]["label"] for e in store.read(game_id, start, end)]


def test_a_game_starts_at_the_version_of_its_creation_events(store, game_id):
    new_game(store, game_id, events=3)
    assert store.version(game_id) == 3
    assert [e.version for e in store.read(game_id)] == [1, 2, 3]


def test_every_key_of_a_game_shares_its_hash_tag(store, game_id, client):
    new_game(store, game_id)
    store.append(game_id, [payload("x")], expected_version=1, idempotency_key="k")
    store.save_snapshot(game_id, 2, "{}", "h")
    game_keys = client.keys(f"*{game_id}*")
    assert len(game_keys) >= 5
    assert all(f"{{{game_id}}}" in key for key in game_keys)


def test_creating_a_game_twice_is_refused(store, game_id):
    new_game(store, game_id)
    with pytest.raises(GameExists):
        new_game(store, game_id)


def test_append_puts_all_events_of_a_command_at_the_next_versions(store, game_id):
    new_game(store, game_id)
    result = store.append(game_id, [payload("a"), payload("b"), payload("c")], expected_version=1)
    assert (result.first_version, result.last_version, result.duplicate) == (2, 4, False)
    assert labels(store, game_id, 2) == ["a", "b", "c"]


def test_a_stale_version_is_a_conflict_that_reports_the_current_version(store, game_id):
    new_game(store, game_id)
    store.append(game_id, [payload("a"), payload("b")], expected_version=1)
    with pytest.raises(VersionConflict) as refused:
        store.append(game_id, [payload("late")], expected_version=1)
    assert refused.value.current == 3
    assert store.version(game_id) == 3
    assert "late" not in labels(store, game_id)


def test_appending_to_an_unknown_game_is_refused(store):
    with pytest.raises(GameNotFound):
        store.append("no-such-game", [payload("a")], expected_version=0)


def test_a_multi_event_append_is_all_or_nothing(store, game_id):
    new_game(store, game_id)
    with pytest.raises(MalformedAppend):
        store.append(game_id, [payload("a"), "", payload("c")], expected_version=1)
    assert store.version(game_id) == 1
    assert labels(store, game_id) == ["created-0"]


def test_readers_only_ever_see_whole_commands(redis_url, game_id):
    writer_store = EventStore.from_url(redis_url)
    new_game(writer_store, game_id)
    stop = threading.Event()
    torn: list[int] = []

    def read_continuously() -> None:
        reader = EventStore.from_url(redis_url)
        while not stop.is_set():
            version = len(reader.read(game_id))
            if (version - 1) % 5:
                torn.append(version)

    reader_thread = threading.Thread(target=read_continuously)
    reader_thread.start()
    for i in range(60):
        batch = [payload(f"{i}.{j}") for j in range(5)]
        writer_store.append(game_id, batch, expected_version=1 + 5 * i)
    stop.set()
    reader_thread.join()
    assert torn == []
    assert writer_store.version(game_id) == 301


def test_a_repeated_idempotency_key_returns_the_first_result_and_appends_nothing(store, game_id):
    new_game(store, game_id)
    first = store.append(
        game_id,
        [payload("a"), payload("b")],
        expected_version=1,
        idempotency_key="cmd-1",
        fingerprint="f1",
    )
    store.append(game_id, [payload("other")], expected_version=3, idempotency_key="cmd-2")
    again = store.append(
        game_id,
        [payload("a"), payload("b")],
        expected_version=1,
        idempotency_key="cmd-1",
        fingerprint="f1",
    )
    assert (again.first_version, again.last_version) == (first.first_version, first.last_version)
    assert again.duplicate
    assert store.version(game_id) == 4
    assert labels(store, game_id) == ["created-0", "a", "b", "other"]


def test_idempotency_keys_do_not_expire(store, game_id, client):
    new_game(store, game_id)
    store.append(game_id, [payload("a")], expected_version=1, idempotency_key="k", fingerprint="f")
    assert client.ttl(keys.idempotency(game_id)) == -1


def test_reusing_an_idempotency_key_for_another_request_is_refused(store, game_id):
    new_game(store, game_id)
    store.append(game_id, [payload("a")], expected_version=1, idempotency_key="k", fingerprint="f1")
    with pytest.raises(IdempotencyKeyReused) as refused:
        store.append(
            game_id, [payload("b")], expected_version=2, idempotency_key="k", fingerprint="f2"
        )
    assert refused.value.current == 2
    assert store.version(game_id) == 2


def test_reads_return_exactly_the_requested_range(store, game_id):
    new_game(store, game_id)
    for i in range(20):
        store.append(game_id, [payload(str(i))], expected_version=1 + i)
    assert [e.version for e in store.read(game_id, 5, 9)] == [5, 6, 7, 8, 9]
    assert labels(store, game_id, 20) == ["18", "19"]
    assert store.read(game_id, 22) == []
    assert store.read(game_id, 9, 5) == []
    assert [e.version for e in store.read(game_id, 3, None, count=2)] == [3, 4]


def test_reading_from_a_version_starts_at_its_stream_entry(store, game_id, client):
    """Versions are the stream entry ids, so a read from N is an XRANGE starting at N-0."""
    new_game(store, game_id)
    store.append(game_id, [payload("a"), payload("b")], expected_version=1)
    entry_ids = [entry_id for entry_id, _ in client.xrange(keys.events(game_id))]
    assert entry_ids == ["1-0", "2-0", "3-0"]


def test_the_game_index_lists_games_newest_first_and_filters(store):
    ids = [f"idx-{uuid.uuid4().hex[:10]}" for _ in range(3)]
    for n, game_id in enumerate(ids):
        store.create(
            game_id,
            ruleset="rs-a" if n < 2 else "rs-b",
            players=["p", "q", "r"],
            status="active",
            events=[payload("c")],
            seed=SEED,
        )
    store.set_meta(ids[0], status="finished")
    games, total = store.list_games(limit=1000)
    listed = [g.game_id for g in games if g.game_id in ids]
    assert listed == list(reversed(ids))
    assert total >= 3
    finished, _ = store.list_games(status="finished", limit=1000)
    assert ids[0] in [g.game_id for g in finished]
    assert ids[1] not in [g.game_id for g in finished]
    by_ruleset, _ = store.list_games(ruleset="rs-b", limit=1000)
    assert [g.game_id for g in by_ruleset if g.game_id in ids] == [ids[2]]
    meta = store.meta(ids[2])
    assert (meta.ruleset, meta.players, meta.version) == ("rs-b", ("p", "q", "r"), 1)


def test_snapshots_are_kept_per_version_and_found_at_or_before_a_version(store, game_id):
    new_game(store, game_id)
    for i in range(10):
        store.append(game_id, [payload(str(i))], expected_version=1 + i)
    assert store.save_snapshot(game_id, 4, '{"at": 4}', "h4")
    assert store.save_snapshot(game_id, 8, '{"at": 8}', "h8")
    assert not store.save_snapshot(game_id, 99, "{}", "h99"), "no snapshot of the future"
    assert store.latest_snapshot(game_id).version == 8
    assert store.latest_snapshot(game_id, at_most=7).state_hash == "h4"
    assert store.latest_snapshot(game_id, at_most=3) is None
    assert store.snapshot_versions(game_id) == [4, 8]


def test_the_secret_seed_appears_in_no_read_path(store, vault, game_id, client):
    new_game(store, game_id)
    store.append(game_id, [payload("a")], expected_version=1)
    store.save_snapshot(game_id, 2, "{}", "h")
    secret = SEED.hex()
    assert vault.seed(game_id) == SEED
    seen = json.dumps(
        {
            "events": [e.payload for e in store.read(game_id)],
            "meta": store.meta(game_id).as_dict(),
            "list": [g.as_dict() for g in store.list_games(limit=10_000)[0]],
            "snapshot": store.latest_snapshot(game_id).state,
        }
    )
    assert secret not in seen
    raw = client.xrange(keys.events(game_id))
    assert secret not in json.dumps([unpack_event(fields["e"]) for _, fields in raw])


def test_nothing_in_the_code_deletes_trims_or_rewrites_an_event():
    root = Path(__file__).resolve().parents[2]
    forbidden = re.compile(
        r"\b(XDEL|XTRIM|MAXLEN|xdel|xtrim|maxlen|UNLINK|unlink|FLUSHALL|flushall|FLUSHDB|flushdb)\b|['\"]DEL['\"]|\.delete\("
    )
    offenders = []
    for package in ("store", "service", "api", "workers", "domain", "cli"):
        for path in (root / package).rglob("*.py"):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if forbidden.search(line):
                    offenders.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    # the one exception: a game no seat ever acted in expires whole (issue 33, README
    # "Games that never start"), by a script that checks its version first
    expiry = "store/scripts.py: redis.call('DEL', unpack(KEYS))"
    assert [o.split(":", 1)[0] + ": " + o.split(": ", 1)[1] for o in offenders] in ([], [expiry])


# --- concurrency -------------------------------------------------------------------------


def write_until_done(url: str, game_id: str, writer: int, commands: int) -> list[int]:
    """Append `commands` commands, each of 2 events, retrying on conflicts; return versions won."""
    store = EventStore(redis.Redis.from_url(url, decode_responses=True))
    won: list[int] = []
    while len(won) < commands:
        current = store.version(game_id)
        try:
            result = store.append(
                game_id,
                [payload(f"w{writer}-{len(won)}-a"), payload(f"w{writer}-{len(won)}-b")],
                expected_version=current,
            )
        except VersionConflict:
            continue
        won.append(result.last_version)
    return won


def check_gapless(store: EventStore, game_id: str, won: list[int], commands: int) -> None:
    assert sorted(won) == sorted(set(won)), "one success per version"
    assert len(won) == commands
    versions = [e.version for e in store.read(game_id)]
    assert versions == list(range(1, 1 + 1 + 2 * commands))
    texts = labels(store, game_id, 2)
    for first, second in zip(texts[::2], texts[1::2], strict=True):
        assert first.endswith("-a") and second == first[:-1] + "b", (
            "a command's events stay together"
        )
    assert len(set(texts)) == len(texts), "no event appears twice"


def test_sixteen_concurrent_writer_threads_get_gapless_versions(redis_url, store, game_id):
    new_game(store, game_id)
    results: list[list[int]] = [[] for _ in range(16)]

    def run(i: int) -> None:
        results[i] = write_until_done(redis_url, game_id, i, 12)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    check_gapless(store, game_id, [v for r in results for v in r], 16 * 12)


def test_sixteen_concurrent_writer_processes_get_gapless_versions(redis_url, store, game_id):
    new_game(store, game_id)
    context = multiprocessing.get_context("spawn")
    with context.Pool(16) as pool:
        results = pool.starmap(write_until_done, [(redis_url, game_id, i, 8) for i in range(16)])
    check_gapless(store, game_id, [v for r in results for v in r], 16 * 8)


def test_concurrent_appends_with_one_idempotency_key_land_once(redis_url, store, game_id):
    new_game(store, game_id)
    outcomes: list[tuple[int, int, bool]] = []
    lock = threading.Lock()

    def run() -> None:
        own = EventStore.from_url(redis_url)
        result = own.append(
            game_id, [payload("once")], expected_version=1, idempotency_key="same", fingerprint="f"
        )
        with lock:
            outcomes.append((result.first_version, result.last_version, result.duplicate))

    threads = [threading.Thread(target=run) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {(first, last) for first, last, _ in outcomes} == {(2, 2)}
    assert sum(1 for *_, duplicate in outcomes if not duplicate) == 1
    assert labels(store, game_id) == ["created-0", "once"]
