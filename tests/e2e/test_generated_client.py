"""A typed Python client generated from the committed openapi.yaml (openapi-python-client, pinned
in the test extras) plays a whole game of every ruleset, and of the Avalon Hill edition's
simultaneous-empires variant, against `chronicle serve` (gunicorn, and an RQ worker that runs
the steps no seat takes), following each game live on its stream.

The code that plays is the published example, examples/python/play.py: every request goes
through the generated functions and models, none written by hand, with no conversion and no
cast. It is type-checked with `mypy --strict` against the generated package first, so a spec
that made a client convert or cast fails here.

The package is generated as the example's run.sh does it, with the example's template override
(examples/python/templates): openapi-python-client reads no `discriminator`, and the override
makes a union whose members fix `type` with `const` pick its member by that value (a `match`)
instead of trying each in turn."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from bench.generated_client import GAMES as PLAYERS
from bench.generated_client import event_page, model_named
from tests.support.http import REPO_ROOT, serving

PACKAGE = "chronicle_client"
EXAMPLE = REPO_ROOT / "examples" / "python" / "play.py"
TEMPLATES = REPO_ROOT / "examples" / "python" / "templates"
TABLE_BOT = REPO_ROOT / "examples" / "python" / "table_bot.py"
GAMES = ["hotw-2024", "hotw-ah2001", "hotw-ah2001+simultaneous", "brief-2009", "patchistory"]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding the client package, generated from openapi.yaml."""
    root = tmp_path_factory.mktemp("generated-client")
    config = root / "config.yaml"
    config.write_text(f"package_name_override: {PACKAGE}\npost_hooks: []\n")
    generator = Path(sys.executable).with_name("openapi-python-client")
    run = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(REPO_ROOT / "openapi.yaml"),
            "--meta",
            "none",
            "--output-path",
            str(root / PACKAGE),
            "--config",
            str(config),
            "--custom-template-path",
            str(TEMPLATES),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "Warning" not in run.stdout, run.stdout[-3000:]  # nothing left out of the client
    return root


EVENT_LINES_PER_TYPE = 280
"""The ceiling of the event models (`models/event_*.py`: each event type's model, which repeats
the envelope, ~200 lines, the generator's way with a flat event, and the `data` models) in lines
per event type of the document. 283 before event data shapes were shared (b0b6fa9) and 293 on
`main` at 6c7c64c; 277 with them (BENCHMARKS.md has the measurements)."""


def test_the_generated_event_models_stay_under_their_ceiling(generated):
    schemas = yaml.safe_load((REPO_ROOT / "openapi.yaml").read_text())["components"]["schemas"]
    event_types = [n for n, s in schemas.items() if n.startswith("Event_") and "properties" in s]
    files = list((generated / PACKAGE / "models").glob("event_*.py"))
    lines = sum(len(f.read_text().splitlines()) for f in files)
    print(f"\n{len(files)} event model files, {lines} lines, {len(event_types)} event types")
    assert lines <= EVENT_LINES_PER_TYPE * len(event_types)


def test_a_generated_feed_picks_each_event_by_its_type(generated):
    """Each per-ruleset feed's event parser matches `type` against every type its ruleset has
    (one case each, from the discriminator's mapping), after the one member that fixes no
    `type` (`RedactedEvent`); and a page of a game's events, as a spectator reads it, comes out
    as each event's own model, a redacted one as `RedactedEvent`."""
    document = yaml.safe_load((REPO_ROOT / "openapi.yaml").read_text())
    feeds = document["components"]["schemas"]["Feed"]["discriminator"]["mapping"]
    sys.path.insert(0, str(generated))
    try:
        models = importlib.import_module(f"{PACKAGE}.models")
        for ruleset in feeds:
            feed = model_named(models, f"Feed_{ruleset}")
            source = inspect.getsource(sys.modules[feed.__module__])
            kinds = document["components"]["schemas"][f"TypedEvent_{ruleset}"]["discriminator"]
            parser = source[source.index("def _parse_events_item") :]
            assert 'match data.get("type"):' in parser, feed.__module__
            assert [k for k in kinds["mapping"] if f'case "{k}":' not in parser] == []
            assert parser.index("RedactedEvent.from_dict") < parser.index("match data.get")
            assert parser.count(".from_dict(data)") == len(kinds["mapping"]) + 1
        for ruleset in ("brief-2009", "hotw-ah2001"):
            page = json.loads(event_page(ruleset, PLAYERS[ruleset]))
            parsed = model_named(models, f"Feed_{ruleset}").from_dict(page)
            wanted = [
                models.RedactedEvent
                if e.get("redacted")
                else model_named(models, f"Event_{e['type']}")
                for e in page["events"]
            ]
            assert [type(e) for e in parsed.events] == wanted
            assert models.RedactedEvent in wanted
    finally:
        sys.path.remove(str(generated))
        for module in [m for m in sys.modules if m.split(".")[0] == PACKAGE]:
            del sys.modules[module]


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(redis_url, CHRONICLE_QUEUE=f"client-{uuid.uuid4().hex[:8]}") as base:
        yield base


def test_the_example_type_checks_strictly_against_the_generated_client(generated):
    """mypy --strict on the example's own code (the generated package is read, not judged)."""
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",
            "--no-incremental",
            str(EXAMPLE),
            str(TABLE_BOT),
        ],
        env={**os.environ, "MYPYPATH": str(generated)},
        capture_output=True,
        text=True,
        timeout=900,
        cwd=REPO_ROOT,
    )
    assert checked.returncode == 0, checked.stdout[-4000:] + checked.stderr[-2000:]


@pytest.mark.parametrize("game", GAMES)
def test_the_generated_client_plays_a_whole_game_following_its_stream(generated, server, game):
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), server, game],
        env={**os.environ, "PYTHONPATH": str(generated)},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    report = json.loads(run.stdout.splitlines()[-1])
    print(f"\n{game}: {report['commands']} commands, {report['version']} events, {report}")
    assert report["commands"] > 10
    # every event of the feed parsed as its own type's model (none left a plain dict)
    assert sum(report["event_models"].values()) + report["redacted"] == report["version"]
    assert "dict" not in report["event_models"] and "EventGameCreated" in report["event_models"]
    assert report["streamed"] == report["version"] and report["streamed_in_order"]
    assert report["exported"] == report["version"]
    assert sorted(report["ranking"]) == list(range(report["players"]))
    assert report["audit_clean"]
    assert report["board"] == "svg"  # every ruleset draws its table
    if game == "hotw-ah2001+simultaneous":  # the variant's own events, as their own models
        assert report["event_models"].get("EventAh2001ExpansionAttempted", 0) > 0, report
        assert report["event_models"].get("EventAh2001EmpireActivated", 0) > 0, report


@pytest.mark.parametrize("ruleset", ["brief-2009", "hotw-2024"])
def test_a_bot_written_against_the_spec_plays_from_its_notification_stream_alone(
    generated, server, ruleset
):
    """examples/python/table_bot.py: a player opens a table against server-side bots (played on
    the RQ worker) and plays its seat only when `/players/me/stream` says it is its turn."""
    run = subprocess.run(
        [sys.executable, str(TABLE_BOT), server, ruleset],
        env={**os.environ, "PYTHONPATH": str(generated)},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    report = json.loads(run.stdout.splitlines()[-1])
    assert report["finished"] and report["ranked"], report
    assert report["moves"] >= 1 and report["notifications"]["your_turn"] >= 1, report
    assert report["notifications"]["game_finished"] == 1, report
    assert report["my_games"] == [report["game_id"]]
