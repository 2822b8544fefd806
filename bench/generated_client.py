"""The Python client generated from openapi.yaml (openapi-python-client, the test extras' pin):
its size, the time to import it, and the time its models take to parse a page of 500 events of
each ruleset against the time `json.loads` alone takes for the same page. Measured twice: as
the stock generator makes it (`client_*`, which tries a union's members in turn), and with the
example's template override (`templated_*`: examples/python/templates, which picks an event's
model by its `type`), as examples/python/run.sh and the client test generate it. And once more
for pydantic v2 models of the same document made by datamodel-code-generator (`pydantic_*`: a
generator that reads `discriminator`, so each feed is a tagged union on `type`; models only, no
operations), validated from the page's JSON text.

The pages are those a spectator reads from `GET /games/{id}/events?limit=500`: the first 500
events of a random game of each ruleset, played in process and seen as a spectator sees them
(private events redacted), through JSON and back. Each page is parsed with the ruleset's own
feed model (`FeedHotw2024`...); every event must come out as its own type's model or, redacted,
as `RedactedEvent`, or the bench stops.
"""

from __future__ import annotations

import importlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.measure import recorded_game
from service.queries import version_cursor
from service.rulesets import ruleset

PACKAGE = "chronicle_client"
MODELS = "chronicle_models"
PAGE = 500
GAMES = {"hotw-2024": 6, "hotw-ah2001": 4, "brief-2009": 4, "patchistory": 4}
"""Each ruleset with its players: the most events a game of it makes, and its every type."""
DEFAULT_SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"
TEMPLATES = Path(__file__).resolve().parents[1] / "examples" / "python" / "templates"


def generate(spec: Path, into: Path, templates: Path | None = None) -> Path:
    """The package generated from `spec` under `into` (the folder to put on sys.path), with the
    template override in `templates` if given."""
    config = into / "config.yaml"
    config.write_text(f"package_name_override: {PACKAGE}\npost_hooks: []\n")
    generator = Path(sys.executable).with_name("openapi-python-client")
    arguments = ["--path", str(spec), "--meta", "none", "--output-path", str(into / PACKAGE)]
    if templates is not None:
        arguments += ["--custom-template-path", str(templates)]
    generated(
        [str(generator), "generate", *arguments, "--config", str(config)], "openapi-python-client"
    )
    return into


def generated(command: list[str], generator: str) -> None:
    """Run a generator; a failure, or a warning that it left something out, stops with what
    it printed."""
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    printed = run.stdout[-3000:] + run.stderr[-3000:]
    if run.returncode != 0:
        raise RuntimeError(f"{generator} failed:\n{printed}")
    if "Warning" in run.stdout:
        raise RuntimeError(f"{generator} left something out:\n{printed}")


def generate_pydantic(spec: Path, into: Path) -> Path:
    """pydantic v2 models generated from `spec` under `into` (package `MODELS`), by
    datamodel-code-generator: a generator that reads `discriminator` (a tagged union)."""
    generator = Path(sys.executable).with_name("datamodel-codegen")
    arguments = ["--input", str(spec), "--input-file-type", "openapi", "--use-annotated"]
    arguments += ["--output-model-type", "pydantic_v2.BaseModel", "--formatters", "builtin"]
    arguments += ["--target-python-version", "3.11", "--output", str(into / MODELS)]
    generated([str(generator), *arguments], "datamodel-code-generator")
    return into


def package_size(root: Path, package: str = PACKAGE) -> dict[str, int]:
    files = list((root / package).rglob("*.py"))
    return {
        "client_py_files": len(files),
        "client_py_lines": sum(len(f.read_text().splitlines()) for f in files),
    }


def import_seconds(root: Path, runs: int, modules: str = "") -> list[float]:
    """Importing the models and the events operation (or `modules`), each time in a fresh
    interpreter (its CPU time, as `median_ms`)."""
    modules = modules or f"{PACKAGE}.models, {PACKAGE}.api.events.get_games_game_id_events"
    probe = (
        "import sys, time; sys.path.insert(0, sys.argv[1]); began = time.process_time(); "
        f"import {modules}; print(time.process_time() - began)"
    )
    command = [sys.executable, "-c", probe, str(root)]
    return [
        float(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        for _ in range(runs)
    ]


def event_page(name: str, players: int) -> str:
    """The first 500 events of a random game of `name`, as a spectator's page, in JSON."""
    log = recorded_game(ruleset(name), players, seed=7)
    events = [recorded.seen_by(None) for recorded in log[:PAGE]]
    page = {
        "ruleset": name,
        "game_id": "0" * 32,
        "version": len(log),
        "events": events,
        "next": PAGE + 1 if len(log) > PAGE else None,
        "next_cursor": version_cursor(PAGE + 1 if len(log) > PAGE else None),
    }
    return json.dumps(page)


def model_named(models: Any, component: str) -> Any:
    """The model the generator made of a component (`Feed_hotw-2024` → FeedHotw2024)."""
    wanted = "".join(ch for ch in component if ch.isalnum()).lower()
    return next(getattr(models, n) for n in dir(models) if n.lower() == wanted)


def parsed_one_by_one(models: Any, events: list[dict[str, Any]]) -> Callable[[], Any]:
    """Each event parsed with the model its `type` names: what a generator that reads the
    discriminator's mapping does, one step an event (openapi-python-client tries in turn)."""
    redacted = models.RedactedEvent
    picked = {e["type"]: model_named(models, f"Event_{e['type']}") for e in events}

    def parse() -> list[Any]:
        return [(redacted if e.get("redacted") else picked[e["type"]]).from_dict(e) for e in events]

    return parse


def median_ms(action: Callable[[], Any], runs: int) -> float:
    """The median CPU time of `action` (the process's own, so other work on the machine, which
    shares two cores with this one, lengthens it far less than it would wall-clock time)."""
    times = []
    for _ in range(runs):
        began = time.process_time()
        action()
        times.append((time.process_time() - began) * 1000)
    return round(statistics.median(times), 2)


@contextmanager
def imported(root: Path, module: str) -> Iterator[Any]:
    """`module` imported from the generated package under `root`, and forgotten afterwards
    (with every module of its package) so that another generation can be imported after it."""
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(module)
    finally:
        sys.path.remove(str(root))
        package = module.split(".")[0]
        for name in [m for m in sys.modules if m.split(".")[0] == package]:
            del sys.modules[name]


def parse_times(root: Path, runs: int) -> dict[str, dict[str, float]]:
    with imported(root, f"{PACKAGE}.models") as models:
        timed = {}
        for name, players in GAMES.items():
            text = event_page(name, players)
            feed = model_named(models, f"Feed_{name}")
            parsed = feed.from_dict(json.loads(text))
            kinds = {type(event).__name__ for event in parsed.events}
            assert len(parsed.events) == PAGE and "dict" not in kinds, kinds
            one_by_one = parsed_one_by_one(models, json.loads(text)["events"])
            assert [type(e) for e in one_by_one()] == [type(e) for e in parsed.events]
            timed[name] = {
                "json_ms": median_ms(lambda text=text: json.loads(text), runs),
                "models_ms": median_ms(lambda t=text, f=feed: f.from_dict(json.loads(t)), runs),
                "picked_by_type_ms": median_ms(one_by_one, runs),
                "event_types": len(kinds),
            }
        return timed


def pydantic_parse_times(root: Path, runs: int) -> dict[str, dict[str, float]]:
    """The page of each ruleset validated from its JSON text by the pydantic feed model (the
    JSON parse included), against `json.loads` alone."""
    with imported(root, f"{MODELS}._internal") as models:
        timed = {}
        for name, players in GAMES.items():
            text = event_page(name, players)
            feed = model_named(models, f"Feed_{name}")
            feed.model_rebuild()
            parsed = feed.model_validate_json(text)
            assert len(parsed.events) == PAGE
            timed[name] = {
                "json_ms": median_ms(lambda text=text: json.loads(text), runs),
                "models_ms": median_ms(lambda t=text, f=feed: f.model_validate_json(t), runs),
            }
        return timed


def run(
    quick: bool = False,
    progress: Callable[[str], None] | None = None,
    spec: Path = DEFAULT_SPEC,
) -> dict[str, Any]:
    say = progress or (lambda message: None)
    runs = 3 if quick else 9
    results: dict[str, Any] = {}
    for prefix, templates in (("client", None), ("templated", TEMPLATES)):
        with tempfile.TemporaryDirectory(prefix="chronicle-client-") as tmp:
            say(f"generating the client from {spec}" + (f" with {templates}" if templates else ""))
            root = generate(spec, Path(tmp), templates)
            size = package_size(root)
            results[f"{prefix}_py_files"] = size["client_py_files"]
            results[f"{prefix}_py_lines"] = size["client_py_lines"]
            say("importing it")
            imports = import_seconds(root, runs)
            results[f"{prefix}_import_s"] = round(statistics.median(imports), 3)
            say(f"parsing a page of {PAGE} events of each ruleset")
            results[f"{prefix}_parse_500_events"] = parse_times(root, runs)
    with tempfile.TemporaryDirectory(prefix="chronicle-models-") as tmp:
        say(f"generating pydantic models from {spec} (datamodel-code-generator)")
        root = generate_pydantic(spec, Path(tmp))
        size = package_size(root, MODELS)
        results["pydantic_py_files"] = size["client_py_files"]
        results["pydantic_py_lines"] = size["client_py_lines"]
        imports = import_seconds(root, runs, f"{MODELS}._internal")
        results["pydantic_import_s"] = round(statistics.median(imports), 3)
        results["pydantic_parse_500_events"] = pydantic_parse_times(root, runs)
    return results
