"""`is_legal` answers an army's placement by its own test (`expansion.may_place_army`) instead
of listing every land the Empire could reach: on self-played games, with and without the
optional rules that change where armies go, it must answer exactly as the list does."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.measure import recorded_game
from domain.core.messages import Command
from service.rulesets import ruleset

RULES = ruleset("hotw-ah2001")


def neighbours(command: Command, lands: list[str]) -> list[Command]:
    """The command, its land swapped for others (held, barren, far or unknown), its way
    turned about, its arguments mistyped, one too many and one missing."""
    args = dict(command.args)
    found = [command]
    for land in [*lands, "atlantis", 7, None]:
        found.append(Command(command.type, tuple(sorted({**args, "land": land}.items()))))
    for via in ("land", "sea", "air", 1, None):
        found.append(Command(command.type, tuple(sorted({**args, "via": via}.items()))))
    found.append(Command(command.type, tuple(sorted({**args, "extra": 1}.items()))))
    found.append(Command(command.type, tuple(sorted(args.items())[1:])))
    return found


@pytest.mark.parametrize(
    "options",
    [{}, {"multiple_armies": True}, {"naval_control": True, "multiple_armies": True}],
    ids=["standard", "multiple-armies", "naval-control"],
)
def test_an_army_is_placed_exactly_where_the_listed_actions_would_place_it(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    cls = type(RULES)
    is_legal = cls.is_legal
    rng = random.Random(len(options))
    lands = sorted(RULES.tables.board.lands)
    asked = {"shortcut": 0, "true": 0, "false": 0}

    def checked(self: Any, state: Any, seat: int, command: Command) -> bool:
        listed = list(self.legal_actions(state, seat))
        placements = [a for a in listed if a.type == "place_army"]
        if self.expanding_alone(state, seat) and placements:
            sample = rng.sample(placements, min(3, len(placements)))
            for candidate in [
                *neighbours(sample[0], rng.sample(lands, 6)),
                *sample,
                Command.of("place_army", land=rng.choice(lands), via="land"),
            ]:
                expected = candidate in listed
                assert is_legal(self, state, seat, candidate) == expected, candidate
                asked["shortcut"] += 1
                asked["true" if expected else "false"] += 1
        return is_legal(self, state, seat, command)

    monkeypatch.setattr(cls, "is_legal", checked)
    for seed in range(2):
        recorded_game(RULES, 3, 700 + seed, options=options)
    assert asked["shortcut"] > 200 and asked["true"] > 50 and asked["false"] > 100, asked
