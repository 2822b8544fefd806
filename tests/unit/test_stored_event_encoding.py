"""Stored events are deflated with a preset dictionary; what is read back is the JSON that was
written, byte for byte, and events stored before the encoding (plain JSON) still read."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from store.compression import (
    CURRENT,
    DICTIONARIES,
    UnreadablePayload,
    pack_event,
    pack_snapshot,
    unpack_event,
    unpack_snapshot,
)

EVENT = json.dumps(
    {
        "actor": 2,
        "command_id": "5f0c2b7e8a9d4c1b9e3f6a7d8c9b0a1e",
        "data": {"land": "lower-egypt", "seat": 2},
        "recorded_at": "2026-11-22T07:48:32.608550Z",
        "rule": "hotw24.forts.build",
        "schema_version": 1,
        "type": "FortBuilt",
        "visibility": {"scope": "public"},
    },
    separators=(",", ":"),
    sort_keys=True,
)


SHA256 = {
    "1": "9b9759fba4bb97cce847102ce217adca8830638014e081219eb1610fe95816df",
    "2": "1d7446ab7299487aeff5f5eee347fd67f66094a05fb7da3f049a748426d03a2a",
}
STORED_WITH_DICTIONARY_1 = (
    "1:w1lZmqYZJBslmadaJFqmmCQbJlmmGqeZJZqnWCRbJhkkGqZiSQj55alFuqnplQWI6MdRGxoa6hoZhRiYW5lYWBkb6Z"
    "kZWJiaGtClhAQA"
)


@pytest.mark.parametrize("number", sorted(SHA256))
def test_the_dictionaries_that_stored_events_need_never_change(number):
    data = (DICTIONARIES / f"events-{number}.txt").read_bytes()
    assert hashlib.sha256(data).hexdigest() == SHA256[number], (
        f"events stored with dictionary {number} can only be read with it: add a new one instead"
    )


def test_an_event_stored_with_the_first_dictionary_still_reads():
    assert unpack_event(STORED_WITH_DICTIONARY_1) == EVENT


def test_a_stored_event_reads_back_as_the_json_written_and_is_much_smaller():
    stored = pack_event(EVENT)
    assert stored.startswith(f"{CURRENT}:") and CURRENT == "2"
    assert unpack_event(stored) == EVENT
    assert len(stored) < len(EVENT) / 2


def test_an_event_stored_as_plain_json_still_reads():
    assert unpack_event(EVENT) == EVENT


@pytest.mark.parametrize("stored", ["9:AAAA", "x", "1:not base64!", "1:AAAA"])
def test_a_stored_value_in_no_known_encoding_is_refused_by_name(stored):
    with pytest.raises(UnreadablePayload):
        unpack_event(stored)


@given(st.text(max_size=2000))
def test_any_text_survives_the_round_trip(text):
    assert unpack_event(pack_event(text)) == text
    assert unpack_snapshot(pack_snapshot(text)) == text


def test_an_event_is_stored_as_its_envelope_without_the_version_and_reads_back_the_same():
    from bench.measure import recorded_game
    from domain.core.messages import Recorded
    from service.codec import stored_payload
    from service.rulesets import ruleset

    log = recorded_game(ruleset("hotw-2024"), 4, 11)
    assert len(log) > 500
    for recorded in log:
        stored = json.loads(stored_payload(recorded.as_dict()))
        assert "version" not in stored
        assert Recorded.from_dict({**stored, "version": recorded.version}) == recorded


def test_an_event_recorded_before_types_were_namespaced_reads_as_its_familys_type():
    """Logs written before event types carried their family (`FortBuilt`, not
    `hotw.FortBuilt`) replay unchanged: the bare name is the History of the World event."""
    from domain.core.messages import event_from_record
    from domain.hotw.editions.hotw_2024.events import FortBuilt

    old = json.loads(EVENT)
    read = event_from_record(old)
    assert type(read) is FortBuilt
    assert read.type == "hotw.FortBuilt"
    assert event_from_record({**old, "type": "hotw.FortBuilt"}) == read


def test_two_families_may_each_name_an_event_game_ended_without_colliding():
    from dataclasses import dataclass

    from domain.core.messages import Event, event, event_type
    from domain.hotw.editions.hotw_2024.events import GameEnded as HotwGameEnded

    @event
    @dataclass(frozen=True, kw_only=True, slots=True)
    class GameEnded(Event):
        FAMILY = "otherfamily"

        winner: int

    assert HotwGameEnded.TYPE_NAME == "hotw.GameEnded"
    assert GameEnded(rule="x.end", winner=1).type == "otherfamily.GameEnded"
    assert event_type("otherfamily.GameEnded") is GameEnded
    assert event_type("hotw.GameEnded") is HotwGameEnded


def test_the_other_rules_an_event_cites_are_stored_and_read_back_and_absent_when_none():
    from domain.core.messages import event_from_record, event_record
    from domain.hotw.editions.hotw_2024.events import FortBuilt

    plain = FortBuilt(rule="hotw24.forts.build", seat=2, land="lower-egypt")
    assert "cites" not in event_record(plain)
    citing = FortBuilt(
        rule="hotw24.forts.build", cites=("hotw24.forts.purpose",), seat=2, land="lower-egypt"
    )
    stored = json.loads(json.dumps(event_record(citing)))
    assert stored["cites"] == ["hotw24.forts.purpose"]
    assert event_from_record(stored) == citing
