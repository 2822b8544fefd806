"""Which Redis a URL names: a plain one, or a Redis Cluster; and RQ's own plain Redis."""

from __future__ import annotations

import pytest

from store.connect import cluster_nodes, is_cluster_url, queue_url


def test_a_redis_cluster_url_lists_its_start_up_nodes_and_carries_credentials_and_tls():
    nodes, options = cluster_nodes("rediss+cluster://:s%40cret@10.0.0.1:7000,10.0.0.2:7001/")
    assert nodes == [("10.0.0.1", 7000), ("10.0.0.2", 7001)]
    assert options == {"ssl": True, "password": "s@cret"}
    nodes, options = cluster_nodes("redis+cluster://redis-a:6379?socket_timeout=2")
    assert nodes == [("redis-a", 6379)] and options == {"ssl": False, "socket_timeout": 2.0}


def test_plain_redis_urls_are_not_clusters():
    assert not is_cluster_url("redis://localhost:6379/0")
    assert not is_cluster_url("unix:///tmp/redis.sock")
    assert is_cluster_url("REDIS+CLUSTER://a:1")


def test_a_cluster_node_without_a_port_is_refused_with_the_url_named():
    with pytest.raises(ValueError, match="host:port"):
        cluster_nodes("redis+cluster://a:7000,b")


def test_rq_uses_the_events_redis_when_it_is_plain_and_its_own_when_configured():
    assert queue_url(env={"REDIS_URL": "redis://h:1/0"}) == "redis://h:1/0"
    env = {"REDIS_URL": "redis+cluster://a:1", "CHRONICLE_QUEUE_REDIS_URL": "redis://q:2/0"}
    assert queue_url(env=env) == "redis://q:2/0"


def test_a_cluster_without_a_plain_redis_for_rq_is_refused_at_start():
    with pytest.raises(RuntimeError, match="CHRONICLE_QUEUE_REDIS_URL"):
        queue_url(env={"REDIS_URL": "redis+cluster://a:1"})
    with pytest.raises(ValueError, match="plain Redis"):
        queue_url(
            env={"REDIS_URL": "redis://h:1", "CHRONICLE_QUEUE_REDIS_URL": "redis+cluster://a:1"}
        )
