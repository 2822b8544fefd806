"""An append that must be acknowledged by replicas (Redis WAIT) before it is answered."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
import redis

from store.errors import NotReplicated
from store.redis_store import EventStore
from store.server import RedisServer

SEED = bytes.fromhex("cd" * 32)


def payload(label: str) -> str:
    return json.dumps({"type": "Noted", "data": {"label": label}})


def test_an_append_no_replica_acknowledged_is_refused_as_not_replicated_yet_kept_on_the_master(
    client: redis.Redis, game_id: str
):
    store = EventStore(client, wait_replicas=1, wait_timeout_ms=50)
    with pytest.raises(NotReplicated, match="0 of the 1 replica"):
        store.create(
            game_id, ruleset="t", players=["a"], status="active", events=[payload("0")], seed=SEED
        )
    assert store.version(game_id) == 1  # the master has it; a failover might not
    with pytest.raises(NotReplicated):
        store.append(game_id, [payload("1")], expected_version=1, idempotency_key="k1")
    # the retry with the same key finds the command done, and answers as a duplicate once a
    # replica acknowledges (here: once no replica is asked for)
    plain = EventStore(client)
    again = plain.append(game_id, [payload("1")], expected_version=1, idempotency_key="k1")
    assert again.duplicate and (again.first_version, again.last_version) == (2, 2)
    assert isinstance(NotReplicated(1, 0, 50), redis.exceptions.TimeoutError)  # a 503


def test_an_append_its_replica_acknowledged_is_answered(game_id: str):
    with tempfile.TemporaryDirectory(prefix="chronicle-wait-") as tmp:
        master = RedisServer(data_dir=Path(tmp) / "m", port=0).start()
        replica = RedisServer(data_dir=Path(tmp) / "r", port=0).start()
        try:
            master_client = redis.Redis.from_url(master.url, decode_responses=True)
            master_client.config_set("repl-diskless-sync-delay", "0")
            replica_client = redis.Redis.from_url(replica.url, decode_responses=True)
            replica_client.replicaof("127.0.0.1", master.port)
            store = EventStore(master_client, wait_replicas=1, wait_timeout_ms=30_000)
            store.create(
                game_id,
                ruleset="t",
                players=["a"],
                status="active",
                events=[payload("0")],
                seed=SEED,
            )
            result = store.append(game_id, [payload("1")], expected_version=1, idempotency_key="k")
            assert (result.first_version, result.duplicate) == (2, False)
            assert EventStore(replica_client).version(game_id) == 2
        finally:
            replica.kill()  # a stopping Redis 7 master waits for its replicas: no need here
            master.kill()
