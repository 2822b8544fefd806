"""Each rulebook chapter module owns its vocabulary: the events it declares with their evolve
handlers, and the commands it declares with what they do and why they are refused."""

from __future__ import annotations

import importlib
import inspect

import pytest

from domain.core.errors import UnknownCommand
from domain.core.messages import Command, event_type
from domain.hotw.editions.hotw_2024 import events
from domain.hotw.editions.hotw_2024.context import COMMANDS, FOLDS, HotwEvent
from domain.hotw.editions.hotw_2024.model import Stage
from tests.support.hotw import RULES, position

CHAPTERS = (
    "organization",
    "card_selection",
    "turn",
    "reveal",
    "establish",
    "monuments",
    "expand",
    "invasion",
    "conquest",
    "buildings",
    "effects",
    "honors",
    "gold",
    "endgame",
)


def test_every_event_of_the_family_is_declared_by_a_chapter_and_handled_beside_it():
    declared = [getattr(events, name) for name in events.__all__ if name != "HotwEvent"]
    assert len(declared) > 70
    for cls in declared:
        chapter = cls.__module__.rsplit(".", 1)[-1]
        assert chapter in CHAPTERS, cls
        assert cls in FOLDS.event_types(), cls
        module = importlib.import_module(cls.__module__)
        handlers = [
            fn
            for _, fn in inspect.getmembers(module, inspect.isfunction)
            if fn.__module__ == module.__name__
        ]
        assert handlers, chapter


def test_event_types_are_named_within_the_family():
    assert events.ArmyPlaced.TYPE_NAME == "hotw.ArmyPlaced"
    assert issubclass(events.GameEnded, HotwEvent)
    assert event_type("hotw.GameEnded") is events.GameEnded


def test_every_command_a_seat_is_ever_offered_is_declared_by_a_chapter():
    rules = COMMANDS.declared()
    assert set(rules) == {
        "choose_area_token",
        "choose_event_card",
        "choose_empire_card",
        "place_army",
        "place_fleet",
        "build_fort",
        "place_great_wall",
        "use_leader",
        "play_honor",
        "end_phase",
        "play_area_token",
        "conquer_land",
        "end_conquest",
        "choose_land",
        "choose_area",
        "choose_water",
        "stop_choosing",
    }
    owners = {name: rule.chapter for name, rule in rules.items()}
    assert owners["place_army"] == "expand"
    assert owners["choose_empire_card"] == "organization"
    assert owners["conquer_land"] == "conquest"
    assert owners["play_honor"] == "honors"
    assert owners["end_phase"] == "turn"


def test_a_command_no_edition_has_is_refused_as_unknown_citing_the_table_rule():
    state = position({}, epoch=1, card="sumeria")
    refusal = RULES.refusal(state, 0, Command.of("castle", land="tigris"))
    assert isinstance(refusal, UnknownCommand)
    assert refusal.code == "unknown_command"
    assert refusal.rule == "hotw24.table.commands"
    assert "place_army" in refusal.context["commands"]


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        (Command.of("move_army", land="tigris"), "hotw24.expand.no-movement"),
        (Command.of("place_army", land="sahara"), "hotw24.expand.no-wasteland"),
        (Command.of("choose_event_card", card="x"), "hotw24.organization.event-cards"),
    ],
)
def test_a_refusal_cites_the_editions_id_of_the_chapters_rule(command, rule):
    state = position({}, epoch=1, card="sumeria")
    if command.type == "choose_event_card":
        state = state.__class__(**{**state.__dict__, "stage": Stage.ORGANIZATION})
    assert RULES.refusal(state, 0, command).rule == rule


def test_the_kernel_raises_the_unknown_command_refusal_for_a_move_of_no_game():
    from domain.core.kernel import Game, decide
    from domain.core.ruleset import Setup

    state = position({}, epoch=1, card="sumeria")
    game = Game(Setup("hotw-2024", (), {}, ""), 1, 0, state)
    with pytest.raises(UnknownCommand) as refused:
        decide(RULES, game, 0, Command.of("castle"), None)  # type: ignore[arg-type]
    assert refused.value.rule == "hotw24.table.commands"
