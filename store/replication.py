"""A write script run on its master and, when replicas are asked for, acknowledged by them (Redis
`WAIT`) before it counts: across a cluster's failover, on the master that now serves its slot."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.exceptions import AskError, MovedError, NoScriptError, TryAgainError

from store.errors import NotReplicated


def replicated_write(
    client: redis.Redis,
    script: Script,
    keys: list[str],
    args: list[Any],
    replicas: int,
    timeout_ms: int,
) -> Any:
    """Run a write script on the master of its keys' slot; with `replicas`, on one
    connection followed by `WAIT` (which counts the writes of its own connection only)."""
    if not replicas:
        return script(keys=keys, args=args)
    for _attempt in range(3):
        target = master_of(client, keys[0])
        pipe = target.pipeline(transaction=False)
        pipe.evalsha(script.sha, len(keys), *keys, *args)
        pipe.execute_command("WAIT", replicas, timeout_ms)
        try:
            reply, acknowledged = pipe.execute(raise_on_error=False)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
            relearn_slots(client)
            raise
        if isinstance(reply, NoScriptError):  # a new master, or a restarted one
            target.script_load(script.script)
            continue
        if isinstance(reply, MovedError | AskError | TryAgainError):  # a failover moved it
            relearn_slots(client)
            continue
        if isinstance(reply, Exception):
            raise reply
        if isinstance(acknowledged, Exception):
            raise acknowledged
        if int(acknowledged) < replicas:
            raise NotReplicated(replicas, int(acknowledged), timeout_ms)
        return reply
    raise redis.exceptions.ConnectionError(
        f"the slot of {keys[0]!r} kept moving: the cluster is failing over"
    )


def master_of(client: redis.Redis, key: str) -> redis.Redis:
    if not isinstance(client, RedisCluster):
        return client
    return client.get_redis_connection(client.get_node_from_key(key))


def relearn_slots(client: redis.Redis) -> None:
    """Ask the cluster again which master serves which slot (after a failover)."""
    if isinstance(client, RedisCluster):
        with suppress(redis.exceptions.RedisError):
            client.nodes_manager.initialize()
