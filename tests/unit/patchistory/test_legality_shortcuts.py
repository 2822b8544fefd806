"""`is_legal` answers some commands by their own test instead of listing every legal action
(`engine.LISTED`): on self-played games it must answer exactly as the list does, for every
command played and for neighbours of it that the list may or may not hold."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.measure import recorded_game
from domain.core.messages import Command
from service.rulesets import ruleset

RULES = ruleset("patchistory")


def variants(command: Command) -> list[Command]:
    """The command, each argument nudged (a neighbouring square, the other layer or side, a
    string, float or boolean for a number, nothing), an argument too many and one missing,
    and the phases' argument-free commands."""
    args = dict(command.args)
    found = [command]
    for key, value in args.items():
        others: list[Any]
        if isinstance(value, int) and not isinstance(value, bool):
            others = [value + 1, value - 1, value + 0.5, str(value), float(value), True, None]
        elif isinstance(value, str):
            others = ["white", "black", "over", "under", "zz", 1, None]
        else:
            others = [None, 0]
        found += [Command(command.type, tuple(sorted({**args, key: o}.items()))) for o in others]
    found.append(Command(command.type, tuple(sorted({**args, "extra": 1}.items()))))
    if args:
        found.append(Command(command.type, tuple(sorted(args.items())[1:])))
    found += [Command.of(name) for name in ("forfeit_tile", "end_management", "end_movement")]
    found.append(Command.of("move_worker", row=0, col=0, to_row=0, to_col=1))
    found.append(Command.of("patch", side="white", row=0, col=0, layer="over"))
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_is_legal_answers_as_the_listed_actions_do(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    cls = type(RULES)
    is_legal = cls.is_legal
    rng = random.Random(players)
    asked = {"shortcut": 0}

    def checked(self: Any, state: Any, seat: int, command: Command) -> bool:
        listed = list(self.legal_actions(state, seat))
        for candidate in variants(command) + rng.sample(listed, min(3, len(listed))):
            expected = any(action == candidate for action in listed)
            assert is_legal(self, state, seat, candidate) == expected, candidate
            asked["shortcut"] += (state.phase, candidate.type) in {
                ("patching", "patch"),
                ("management", "end_management"),
                ("movement", "move_worker"),
            }
        return is_legal(self, state, seat, command)

    monkeypatch.setattr(cls, "is_legal", checked)
    recorded_game(RULES, players, 900 + players)
    assert asked["shortcut"] > 100
