"""Helpers for the Patchistory rule tests: a set-up game, commands played through the kernel's
legal-action check, and positions made by hand (the rulebook's examples picture civilizations
that the pack does not print)."""

from __future__ import annotations

import dataclasses
from typing import Any

from domain.core.chance import Chance
from domain.core.kernel import Game, decision
from domain.core.messages import Command, Event
from domain.core.ruleset import Setup
from domain.patchistory.context import Ctx
from domain.patchistory.model import Placed, PState
from domain.patchistory.pack import Capital, PatchPack, Side, Square
from service.chance import HmacSource
from service.rulesets import ruleset

RULES: Any = ruleset("patchistory")
PACK: PatchPack = RULES.pack
NAMES = ("gandhi", "alexander", "yi-sun-sin", "bismarck")


def setup(players: int = 3, side: str = "equality") -> Setup:
    return Setup("patchistory", NAMES[:players], {"capital_side": side}, "0" * 64)


def fresh(players: int = 3, side: str = "equality", seed: bytes = b"patch") -> PState:
    state: PState = RULES.initial_state(setup(players, side))
    for event in RULES.set_up(state, Chance(HmacSource(seed), 0)):
        state = RULES.evolve(state, event)
    return state


def act(
    state: PState, seat: int, kind: str, seed: bytes = b"patch", **args: Any
) -> tuple[PState, list[Event]]:
    """Play a command the way the service does (the kernel refuses what is not listed)."""
    command = Command.of(kind, **args)
    game = Game(setup(state.players, state.capital_side), 1, 0, state)
    decided = decision(RULES, game, seat, command, Chance(HmacSource(seed), 0))
    after = decided.state
    if after is None:
        after = state
        for event in decided.events:
            after = RULES.evolve(after, event)
    return after, decided.events


def of(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def ctx(state: PState, seed: bytes = b"patch") -> Ctx:
    return Ctx(PACK, state, Chance(HmacSource(seed), 0))


def square(
    at: tuple[int, int],
    name: str,
    yields: dict[str, int] | None = None,
    gold: dict[str, int] | None = None,
    terrain: str = "land",
) -> Square:
    return Square(at, terrain, name, yields or {}, gold or {})


def with_capital(squares: list[Square]) -> Any:
    """The ruleset bound to a pack whose Equality Capital is the civilization pictured."""
    capital = Capital("equality", "equality", Side(tuple(squares)), "reconstructed")
    pack = dataclasses.replace(PACK, equality=capital)
    return type(RULES)(pack)


def civ_of(state: PState, seat: int, **changes: Any) -> PState:
    return state.with_civ(seat, dataclasses.replace(state.civs[seat], **changes))


def placed_capital(capital: str) -> tuple[Placed, ...]:
    return (Placed(capital, "capital", 0, 0, 0),)


def act_with(
    rules: Any, state: PState, seat: int, kind: str, seed: bytes = b"patch", **args: Any
) -> tuple[PState, list[Event]]:
    """`act`, for a ruleset bound to a hand-made pack (`with_capital`)."""
    command = Command.of(kind, **args)
    game = Game(setup(state.players, state.capital_side), 1, 0, state)
    decided = decision(rules, game, seat, command, Chance(HmacSource(seed), 0))
    assert decided.state is not None
    return decided.state, decided.events


def managing(state: PState, seat: int, points: int, phase: str = "management") -> PState:
    """`seat`'s turn of Diplomacy or Management with `points` Political Points."""
    pp = list(state.pp or (0,) * state.players)
    pp[seat] = points
    return dataclasses.replace(
        state,
        phase=phase,
        turn=seat,
        passed=(),
        pp=tuple(pp),
        flags=((),) * state.players,
        pending=(),
        won=(),
    )
