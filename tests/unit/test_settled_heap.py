"""A served process settles its heap once everything that lives as long as it is loaded: a full
collection of the cyclic garbage collector then walks only what requests made, not the app,
its OpenAPI document and schemas, or the rulesets' data packs (docs/benchmarks-history.md: a
full collection in a web process serving Patchistory took 41-61 ms before, 7-23 ms after)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.http import REPO_ROOT

PROBE = """
import gc
import api.wsgi as served
from service.rulesets import available, ruleset
walked = {id(o) for o in gc.get_objects()}
long_lived = [served.app, *(ruleset(name).pack for name in available())]
print(gc.get_freeze_count(), sum(id(o) in walked for o in long_lived), len(long_lived))
"""


def test_the_web_process_moves_the_app_and_every_pack_out_of_the_collectors_walk():
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:1/0"}  # never connected to here
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO_ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr[-2000:]
    frozen, still_walked, long_lived = map(int, run.stdout.split())
    assert frozen > 10_000 and long_lived >= 5
    assert still_walked == 0
