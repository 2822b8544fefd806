"""Redis clients from URLs: a plain Redis, or a Redis Cluster for `redis+cluster://` URLs.

`REDIS_URL` names where the events live. A plain Redis: `redis://host:6379/0`,
`rediss://…`, `unix:///path.sock`. A Redis Cluster: `redis+cluster://host1:7000,host2:7001`
(`rediss+cluster://` for TLS; a password as `redis+cluster://:secret@host1:7000,…`); the hosts
listed are only where the client starts: it learns every master and replica from them and
follows the cluster's slot map (and its failovers) from then on.

RQ does not speak Redis Cluster, so its jobs keep a plain Redis of their own
(`CHRONICLE_QUEUE_REDIS_URL`; by default `REDIS_URL` itself when that is a plain Redis).
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import parse_qs, unquote

import redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry

CLUSTER_SCHEMES = {"redis+cluster": False, "rediss+cluster": True}
"""URL schemes of a Redis Cluster, and whether each speaks TLS."""

CLUSTER_RETRY = Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), retries=3)
"""How the cluster client retries a command on a node that cannot be reached (it relearns the
slot map between tries): a few quick tries, so that a request to a master that is down is
answered 503 within about a second, instead of after redis-py's default of several seconds of
back-off; the client retries with the same Idempotency-Key once the replica has taken over."""


class NotACluster(ValueError):
    pass


def is_cluster_url(url: str) -> bool:
    return url.split("://", 1)[0].lower() in CLUSTER_SCHEMES


def cluster_nodes(url: str) -> tuple[list[tuple[str, int]], dict[str, Any]]:
    """The start-up nodes of a `redis+cluster://` URL and the connection options it carries
    (username, password, TLS, and `?socket_timeout=…`-style query options)."""
    scheme, _, rest = url.partition("://")
    if scheme.lower() not in CLUSTER_SCHEMES:
        raise NotACluster(f"not a Redis Cluster URL: {url!r}")
    netloc, _, query = rest.partition("?")
    netloc = netloc.split("/", 1)[0]
    options: dict[str, Any] = {"ssl": CLUSTER_SCHEMES[scheme.lower()]}
    if "@" in netloc:
        credentials, netloc = netloc.rsplit("@", 1)
        user, _, password = credentials.partition(":")
        if user:
            options["username"] = unquote(user)
        if password:
            options["password"] = unquote(password)
    nodes = []
    for part in filter(None, netloc.split(",")):
        host, _, port = part.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"a Redis Cluster node must be host:port, not {part!r} in {url!r}")
        nodes.append((host.strip("[]"), int(port)))
    if not nodes:
        raise ValueError(f"no node in the Redis Cluster URL {url!r}")
    for name, values in parse_qs(query).items():
        value = values[-1]
        options[name] = float(value) if name.endswith("timeout") else value
    return nodes, options


def client_from_url(url: str, *, decode_responses: bool = True, **extra: Any) -> redis.Redis:
    """A client for `url`: `redis.Redis`, or `RedisCluster` for a `redis+cluster://` URL.

    Typed as `redis.Redis`: the cluster client answers the same commands the store uses (each
    touching the keys of one game, which share one slot), and routes each by its key."""
    if not is_cluster_url(url):
        return redis.Redis.from_url(url, decode_responses=decode_responses, **extra)
    nodes, options = cluster_nodes(url)
    extra.pop("health_check_interval", None)
    cluster = RedisCluster(
        startup_nodes=[ClusterNode(host, port) for host, port in nodes],
        decode_responses=decode_responses,
        # while a master is down and not yet replaced, its slots are uncovered: the client
        # must still start (and serve every other master's games)
        require_full_coverage=False,
        retry=CLUSTER_RETRY,
        socket_connect_timeout=options.pop("socket_connect_timeout", 2.0),
        **options,
        **extra,
    )
    return cluster  # type: ignore[return-value]


def queue_url(events_url: str | None = None, env: dict[str, str] | None = None) -> str:
    """The plain Redis that RQ's jobs go through: `CHRONICLE_QUEUE_REDIS_URL`, else the events'
    own Redis (`REDIS_URL`) when that is not a cluster."""
    env = dict(os.environ if env is None else env)
    configured = env.get("CHRONICLE_QUEUE_REDIS_URL")
    if configured:
        if is_cluster_url(configured):
            raise ValueError(
                "CHRONICLE_QUEUE_REDIS_URL must be a plain Redis: RQ does not support Redis Cluster"
            )
        return configured
    url = events_url or env.get("REDIS_URL")
    if not url:
        raise RuntimeError("REDIS_URL is not set")
    if is_cluster_url(url):
        raise RuntimeError(
            "REDIS_URL is a Redis Cluster, which RQ does not support: set "
            "CHRONICLE_QUEUE_REDIS_URL to a plain Redis for the background jobs"
        )
    return url
