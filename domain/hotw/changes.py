"""The small changes a History of the World family event makes to a state: one player's
record, the turn in progress, one land's cell, the counts of a supply. Shared by every edition
whose state has those parts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from domain.core.frozen import evolved

T = TypeVar("T")


class _HasPlayers(Protocol):
    @property
    def players(self) -> tuple[Any, ...]: ...


class _HasTurn(Protocol):
    @property
    def turn(self) -> Any: ...


class _HasLands(Protocol):
    @property
    def lands(self) -> Mapping[str, Any]: ...


class _Cell(Protocol):
    @property
    def is_empty(self) -> bool: ...


P = TypeVar("P", bound=_HasPlayers)
TS = TypeVar("TS", bound=_HasTurn)
L = TypeVar("L", bound=_HasLands)


def with_item(items: tuple[T, ...], index: int, **changes: Any) -> tuple[T, ...]:
    """`items` with the one at `index` evolved by `changes`."""
    changed = list(items)
    changed[index] = evolved(changed[index], **changes)
    return tuple(changed)


def with_player(state: P, seat: int, **changes: Any) -> P:
    return evolved(state, players=with_item(state.players, seat, **changes))


def with_turn(state: TS, **changes: Any) -> TS:
    assert state.turn is not None
    return evolved(state, turn=evolved(state.turn, **changes))


def with_cell(state: L, land: str, cell: _Cell) -> L:
    """The land's cell replaced; an empty cell leaves the land out."""
    lands = dict(state.lands)
    if cell.is_empty:
        lands.pop(land, None)
    else:
        lands[land] = cell
    return evolved(state, lands=lands)


def added(counts: Mapping[str, int], **deltas: int) -> dict[str, int]:
    """`counts` with each delta added (a key not there counts from nothing)."""
    new = dict(counts)
    for key, delta in deltas.items():
        new[key] = new.get(key, 0) + delta
    return new
