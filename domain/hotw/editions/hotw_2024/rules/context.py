"""The decide-side working context: the state as it evolves while a command's events pile up.

Rules functions take a `Ctx`, read `ctx.state` and `emit` events; every emitted event is applied
at once (with the same `evolve` the fold uses), so later rules see its effect.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from domain.core.chance import Chance
from domain.core.messages import Event
from domain.hotw.board import Board
from domain.hotw.editions.hotw_2024.cards import Cards, EmpireSpec
from domain.hotw.editions.hotw_2024.evolve import evolve
from domain.hotw.editions.hotw_2024.model import HotwState, Turn
from domain.hotw.editions.hotw_2024.pack import HotwPack


@dataclass(frozen=True, slots=True)
class Invader:
    """Who places an army: a seat, from which pool (`empire` or `event`), barbarian or not,
    with the Leader in use or not (and, without dice, what it ignores)."""

    seat: int
    pool: str
    barbarian: bool = False
    leader: bool = False
    leader_ignores: str | None = None
    expanding: bool = False
    """Placed by the player while expanding (the Empire, or an Event played as if an Empire),
    not by a text Event's instructions: Option 3's counter and conquests follow such armies."""
    reached_by: tuple[str, ...] = ()
    """The rules (keys) that made the land reachable: a strait, a fleet, an ocean's seas."""

    @property
    def plunder_rule(self) -> str:
        return "events.plunder" if self.pool == "event" else "plunder.value"


class Engine(Protocol):
    """What the rules need of the ruleset object: its pack and its replaceable rules."""

    pack: HotwPack

    def resolve_invasion(self, ctx: Ctx, land: str, invader: Invader) -> None: ...


class Ctx:
    __slots__ = ("board", "cards", "chance", "cite", "engine", "events", "pack", "state")

    def __init__(self, engine: Engine, state: HotwState, chance: Chance) -> None:
        self.engine = engine
        self.pack = engine.pack
        self.board: Board = engine.pack.board
        self.cards: Cards = engine.pack.cards
        self.state = state
        self.chance = chance
        self.events: list[Event] = []
        self.cite = engine.pack.edition.cite
        """The edition's catalogue id of a shared rule key."""

    def cites(self, *keys: str) -> tuple[str, ...]:
        """The edition's ids of the shared rules `keys`, each once."""
        return tuple(self.cite(key) for key in dict.fromkeys(keys))

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.pack, self.state, event)

    @property
    def turn(self) -> Turn:
        turn = self.state.turn
        assert turn is not None, "no player turn in progress"
        return turn

    @property
    def seat(self) -> int:
        return self.turn.seat


def current_spec(pack: HotwPack, turn: Turn) -> EmpireSpec:
    """The Empire in play: the card's only Empire, or the Incas then the Aztecs (p9)."""
    card = pack.cards.empire(turn.card)
    return card.empires[min(turn.empire_index, len(card.empires) - 1)]
