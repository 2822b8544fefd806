"""The document's event and view types are the truth: every event of random History of the
World games, as each seat, a spectator and the open book after the end see it, validates
against the `Event` component of openapi.yaml (exactly one of its types), and so does every
seat's view against `View_hotw-2024`; an event with a field its type does not declare, or of the
wrong type, does not."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import jsonschema
import pytest

from api.openapi import build_spec
from bench.measure import recorded_game
from domain.core.kernel import fold, replay
from tests.support.hotw import RULES


@cache
def document() -> dict[str, Any]:
    return build_spec(["hotw-2024"]).to_dict()


def validator(component: str) -> jsonschema.Draft202012Validator:
    spec = document()
    schema = {"$ref": f"#/components/schemas/{component}", "components": spec["components"]}
    return jsonschema.Draft202012Validator(schema)


@cache
def seen_events() -> list[dict[str, Any]]:
    seen = []
    for seed, players in ((1, 3),):
        for recorded in recorded_game(RULES, players, seed):
            seen.append(recorded.as_dict())
            for viewer in (None, *range(players)):
                seen.append(recorded.seen_by(viewer))
    return seen


def test_every_event_as_any_caller_sees_it_is_exactly_one_documented_type() -> None:
    """Each event fits its own type's component (or, redacted, `RedactedEvent`); the `oneOf`
    itself is checked on a sample (the members exclude each other by construction: a fixed
    `type` each, and `redacted` admitted by the redacted form only)."""
    events = seen_events()
    assert len(events) > 4_000 and any(e.get("redacted") for e in events)
    checks: dict[str, jsonschema.Draft202012Validator] = {}
    errors = []
    for event in events:
        name = "RedactedEvent" if event.get("redacted") else f"Event_{event['type']}"
        check = checks.setdefault(name, validator(name))
        errors += [(event["type"], err.message[:200]) for err in check.iter_errors(event)]
    assert errors[:5] == []
    whole = validator("Event")
    assert all(whole.is_valid(event) for event in events[::40])


def test_every_event_type_a_game_shows_has_its_own_typed_component() -> None:
    components = document()["components"]["schemas"]
    for event in seen_events():
        typed = components[f"Event_{event['type']}"]
        assert typed["properties"]["type"]["const"] == event["type"]
        data = typed["properties"]["data"]
        if "$ref" in data:  # a shape other types share too
            data = components[data["$ref"].rsplit("/", 1)[-1]]
        assert data["additionalProperties"] is False


def test_a_data_shape_several_event_types_share_is_one_component_they_refer_to() -> None:
    components = document()["components"]["schemas"]
    card_and_seat = components["EventData_card-seat"]
    assert card_and_seat["properties"] == {"card": {"type": "string"}, "seat": {"type": "integer"}}
    users = [
        name
        for name, component in components.items()
        if name.startswith("Event_")
        and component.get("properties", {}).get("data")
        == {"$ref": "#/components/schemas/EventData_card-seat"}
    ]
    assert {"Event_hotw.EmpireCardChosen", "Event_hotw.EventCardChosen"} <= set(users)
    inline = [
        json.dumps(c["properties"]["data"], sort_keys=True)
        for n, c in components.items()
        if n.startswith("Event_") and "properties" in c and "$ref" not in c["properties"]["data"]
    ]
    assert len(inline) == len(set(inline)), "a shape written out twice"


def first_event(kind: str) -> dict[str, Any]:
    return copy.deepcopy(next(e for e in seen_events() if e["type"] == kind and "draws" in e))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda e: e["data"].update(secret_field=1), "Additional properties"),
        (lambda e: e["data"].update(empire_dice="six"), "not of type"),
        (lambda e: e["data"].pop("land"), "required"),
        (lambda e: e.update(type="hotw.NoSuchEvent"), ""),
    ],
)
def test_an_event_off_its_type_is_refused_by_the_document(change: Any, words: str) -> None:
    event = first_event("hotw.InvasionSucceeded")
    assert validator("Event").is_valid(event)
    change(event)
    assert not validator("Event").is_valid(event)
    land = validator("Event_hotw.InvasionSucceeded")
    assert any(words in err.message for err in land.iter_errors(event))


def test_every_seats_view_fits_the_documented_view() -> None:
    check = validator("View_hotw-2024")
    log = recorded_game(RULES, 4, 3)
    game = None
    checked = 0
    for version, recorded in enumerate(log, 1):
        game = fold(RULES, game, recorded)
        if version % 53 == 0 or version == len(log):
            for viewer in (None, 0, 1, 2, 3):
                view = RULES.view(game.state, viewer)
                assert [e.message for e in check.iter_errors(view)][:3] == []
                checked += 1
    assert checked > 100
    broken = RULES.view(replay(RULES, log[:500]).state, 0)
    broken["players"][0]["gold"] = "rich"
    assert not check.is_valid(broken)
