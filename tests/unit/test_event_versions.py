"""Every event type has a schema version; older stored shapes are read through one registry of
upcasters, and a shape newer than this server knows is refused, never misread."""

from __future__ import annotations

import pytest

import domain.core.kernel
import domain.core.table  # noqa: F401
from domain.core.errors import EventSchemaUnavailable
from domain.core.kernel import GameCreated
from domain.core.messages import (
    event_from_record,
    event_record,
    registered_event_classes,
    upcaster,
    upcasters,
)
from service.rulesets import import_rulesets

import_rulesets()

CREATED_SCHEMA_1 = {
    "type": "GameCreated",
    "schema_version": 1,
    "data": {
        "ruleset": "hotw-2024",
        "players": ["ann", "bob", "cy"],
        "options": {"dice": True},
        "seed_commitment": "ab" * 32,
    },
    "rule": "hotw24.setup.player-set",
    "visibility": {"scope": "public"},
}


def test_every_event_type_reads_every_older_schema_through_registered_upcasters() -> None:
    registry = upcasters()
    for cls in registered_event_classes():
        assert cls.SCHEMA_VERSION >= 1
        for older in range(1, cls.SCHEMA_VERSION):
            assert (cls.TYPE_NAME, older) in registry, (cls.TYPE_NAME, older)


def test_a_game_created_before_revisions_existed_reads_as_revision_1_with_no_digest() -> None:
    created = event_from_record(CREATED_SCHEMA_1)
    assert isinstance(created, GameCreated)
    assert (created.revision, created.pack_digest) == (1, "")
    assert event_record(created)["schema_version"] == 2


def test_a_schema_newer_than_the_server_knows_is_refused_naming_it() -> None:
    newer = {**CREATED_SCHEMA_1, "schema_version": 3, "data": {**CREATED_SCHEMA_1["data"]}}
    with pytest.raises(EventSchemaUnavailable) as refused:
        event_from_record(newer)
    assert (refused.value.type_name, refused.value.schema_version, refused.value.known) == (
        "GameCreated",
        3,
        2,
    )
    assert "schema version 3" in str(refused.value)


def test_an_event_type_the_server_does_not_know_is_refused_naming_it() -> None:
    with pytest.raises(EventSchemaUnavailable) as refused:
        event_from_record({**CREATED_SCHEMA_1, "type": "hotw.FromTheFuture"})
    assert "hotw.FromTheFuture" in str(refused.value)


def test_an_upcaster_is_registered_once_per_type_and_version() -> None:
    with pytest.raises(ValueError):
        upcaster("GameCreated", 1)(lambda data: data)
