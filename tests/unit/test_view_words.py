"""The words the page reads a seat's view in come from the view's schema (issue 48): a
`title` is a field's label, `x-words` the phrase its value reads in, `x-hidden` what its
`null` means, and seats and colours are found by their type."""

from __future__ import annotations

from schemas.views import view_words


def test_an_ah2001_army_reads_by_its_epoch_and_who_holds_a_land_by_player():
    words = view_words("hotw-ah2001")
    assert words["lands.*.figure"] == {"label": "Army", "value": "an Epoch {} army"}
    assert words["lands.*.owner"] == {"label": "Held by", "seat": True}
    assert words["players.hand"] == {"hidden": "hidden from you"}
    assert words["drawing.order"] == {"seat": True} and words["result"] == {"seat": True}


def test_brief_names_colours_as_colours_and_seats_as_seats():
    words = view_words("brief-2009")
    assert words["lands.*.colour"] == {"label": "Held by", "colour": True}
    assert words["turn.colour"] == {"colour": True}
    assert words["colours.seat"] == {"seat": True}


def test_a_ruleset_without_a_view_schema_has_no_words():
    assert view_words("no-such-ruleset") == {}
