"""The floor of the stack, for `chronicle bench`: a Flask app that does for each command only
what no rules service can skip. It reads the JSON body, appends it to a stream with one Lua
compare-and-set (against the same redis-server, same `appendfsync`) and answers in JSON. Served
by the same gunicorn configuration and driven by the same clients as the real API, its rate is
the ceiling this machine puts on any Flask + gunicorn + redis-py service; the real API's rate
is read against it."""

from __future__ import annotations

import gc
import os

import redis
from flask import Flask, request
from flask.typing import ResponseReturnValue

APPEND = """
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
redis.call('XADD', KEYS[2], (version + 1) .. '-0', 'e', ARGV[1])
redis.call('HSET', KEYS[1], 'version', version + 1)
return version + 1
"""

app = Flask("chronicle-floor")
store = redis.Redis.from_url(os.environ["REDIS_URL"])
append = store.register_script(APPEND)
gc.collect()
gc.freeze()  # as api/wsgi.py settles the API's heap, so both run under the same collector


@app.post("/games/<game_id>/commands")
def post_command(game_id: str) -> ResponseReturnValue:
    body = request.get_json()
    version = append(keys=[f"floor:{game_id}:meta", f"floor:{game_id}:events"], args=[str(body)])
    return {"game_id": game_id, "version": version, "events": []}, 201
