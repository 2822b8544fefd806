"""Rate limits counted in Redis, so that every API process shares them (the `limits` library,
moving windows). What is limited, per what, is the API's choice (api/limits.py)."""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import RedisStorage
from limits.strategies import MovingWindowRateLimiter

from service.wiring import raw_redis_client
from store.connect import queue_url


class RateLimited(Exception):
    """A request over one of its limits: retry after `wait_s` seconds."""

    def __init__(self, item: RateLimitItem, scope: str, wait_s: int) -> None:
        per = " per token" if scope == "token" else ""
        super().__init__(f"too many requests ({item}{per}); retry in {wait_s} s")
        self.limit = str(item)
        self.wait_s = wait_s


class RateCounter:
    """Counts hits of a scope's key against that scope's limits (`30/minute;500/day`…)."""

    def __init__(self, url: str, limits_by_scope: dict[str, str]) -> None:
        pool = raw_redis_client(queue_url(url)).connection_pool
        self.counter = MovingWindowRateLimiter(
            RedisStorage("redis://", connection_pool=pool, key_prefix="chronicle:limits")
        )
        self.items = {scope: parse_many(spec) for scope, spec in limits_by_scope.items()}

    def hit(self, scope: str, key: str) -> None:
        """Count one request of `key` in `scope`, or raise `RateLimited` if it is one too many."""
        for item in self.items[scope]:
            if self.counter.hit(item, scope, key):
                continue
            reset_at = self.counter.get_window_stats(item, scope, key).reset_time
            raise RateLimited(item, scope, max(1, math.ceil(reset_at - time.time())))
