"""Settings from the environment (and command-line flags, which win)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    redis_url: str | None
    queue_redis_url: str | None
    redis_wait_replicas: int
    redis_wait_timeout_ms: int
    data_dir: Path
    host: str
    port: int
    redis_port: int
    redis_fsync: str
    workers: int
    web_workers: int
    queue: str
    cors_origins: tuple[str, ...]
    snapshot_every: int

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        origins = tuple(
            o.strip() for o in env.get("CHRONICLE_CORS_ORIGINS", "").split(",") if o.strip()
        )
        return cls(
            redis_url=env.get("REDIS_URL") or None,
            queue_redis_url=env.get("CHRONICLE_QUEUE_REDIS_URL") or None,
            redis_wait_replicas=int(env.get("CHRONICLE_REDIS_WAIT_REPLICAS", "0")),
            redis_wait_timeout_ms=int(env.get("CHRONICLE_REDIS_WAIT_TIMEOUT_MS", "1000")),
            data_dir=Path(env.get("CHRONICLE_DATA_DIR", ".chronicle")).resolve(),
            host=env.get("CHRONICLE_HOST", "127.0.0.1"),
            port=int(env.get("CHRONICLE_PORT", "8000")),
            redis_port=int(env.get("CHRONICLE_REDIS_PORT", "0")),
            redis_fsync=env.get("CHRONICLE_REDIS_FSYNC", "always"),
            workers=int(env.get("CHRONICLE_WORKERS", "1")),
            web_workers=int(env.get("CHRONICLE_WEB_WORKERS", "2")),
            queue=env.get("CHRONICLE_QUEUE", "chronicle"),
            cors_origins=origins,
            snapshot_every=int(env.get("CHRONICLE_SNAPSHOT_EVERY", "200")),
        )
