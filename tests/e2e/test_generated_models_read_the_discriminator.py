"""A Python generator that reads `discriminator` picks every event's model by its `type` in one
step, from the committed openapi.yaml as it is.

openapi-python-client (tests/e2e/test_generated_client.py) reads no discriminator, so the
example gives it a one-file template override. This is the document's own evidence that its
mappings work in Python without one: datamodel-code-generator (pinned in the test extras) makes
pydantic v2 models from openapi.yaml, and pydantic turns each `oneOf` with a `discriminator`
into a tagged union, which looks the member up by the tag instead of trying members in turn.

Every event of the conformance kit's games, as the spectator and every seat are served it,
goes through its ruleset's feed model, comes out as the model that fixes its `type` (or as
`RedactedEvent`), and dumps back to the same JSON (the models forbid extra fields, so nothing
is dropped on the way)."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Any

import pytest

from bench.generated_client import MODELS as PACKAGE
from bench.generated_client import generate_pydantic, imported
from tests.support import conformance as kit
from tests.support.api import nested_of_type
from tests.support.document import committed_document
from tests.support.http import REPO_ROOT

GAMES_PER_RULESET = 6
DOCUMENT = committed_document()
SCHEMAS = DOCUMENT["components"]["schemas"]
RULESETS = list(SCHEMAS["Feed"]["discriminator"]["mapping"])


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The pydantic models generated from openapi.yaml, imported."""
    root = generate_pydantic(REPO_ROOT / "openapi.yaml", tmp_path_factory.mktemp("models"))
    with imported(root, f"{PACKAGE}._internal") as models:
        yield models


def feed_model(models: Any, ruleset: str) -> Any:
    """The generated model of `Feed_<ruleset>`: the one whose `ruleset` is fixed to it."""
    found = [
        model
        for model in vars(models).values()
        if isinstance(model, type)
        and "events" in getattr(model, "model_fields", {})
        and model.model_fields.get("ruleset") is not None
        and typing.get_args(model.model_fields["ruleset"].annotation) == (ruleset,)
    ]
    assert len(found) == 1, (ruleset, found)
    found[0].model_rebuild()  # the models refer to each other: built once all are defined
    return found[0]


def fixed_type(event: Any) -> str | None:
    """The `type` the picked model fixes with a `Literal`, or None for one that fixes none."""
    field = type(event).model_fields.get("type")
    if field is None:
        return None
    fixed = typing.get_args(field.annotation)
    return fixed[0] if len(fixed) == 1 else None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_rulesets_feed_looks_its_events_up_by_type(models, ruleset):
    mapping = SCHEMAS[f"TypedEvent_{ruleset}"]["discriminator"]["mapping"]
    core = feed_model(models, ruleset).__pydantic_core_schema__
    tags = [set(union["choices"]) for union in nested_of_type(core, "tagged-union")]
    assert set(mapping) in tags, f"no tagged union on `type` with {ruleset}'s {len(mapping)} types"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_event_of_the_kits_games_comes_out_as_its_own_types_model(models, ruleset):
    feed = feed_model(models, ruleset)
    subject = kit.subject(ruleset)
    wrong: list[str] = []
    picked: set[str | None] = set()
    for run in kit.playthroughs(subject, range(GAMES_PER_RULESET)):
        for viewer in kit.viewers(run):
            events = [dict(r.seen_by(viewer)) for r in run.log]
            page = {"ruleset": ruleset, "game_id": "0" * 32, "version": len(events)}
            parsed = feed.model_validate(
                {**page, "events": events, "next": None, "next_cursor": None}
            )
            for sent, got in zip(events, parsed.events, strict=True):
                model = got.root if hasattr(got, "root") else got
                while hasattr(model, "root"):
                    model = model.root
                wanted = None if sent.get("redacted") else sent["type"]
                dumped = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
                picked.add(fixed_type(model))
                if fixed_type(model) != wanted or dumped != sent:
                    wrong.append(f"{run.where()}, viewer {viewer}: {sent['version']} {wanted}")
    assert not wrong, "\n".join(wrong[:20])
    assert None in picked and len(picked) > 10, picked  # redacted events, and many types
