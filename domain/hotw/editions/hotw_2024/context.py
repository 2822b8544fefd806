"""What every chapter of the 2024 rules works with: the family's event base and folds (with the
small state builders the folds share), the decide-side context, the command book the chapters
declare their commands in (with the ids their arguments take), and the refusal they raise.

Each fold returns a new state sharing everything it did not change (`evolved` copies a record
through its ``__dict__``; the land map is copied only when a land changes); folds never check and
never draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from domain.core.chance import Chance
from domain.core.declare import Arg, CommandBook
from domain.core.folds import Folds, Working
from domain.core.frozen import evolved
from domain.core.messages import Event
from domain.core.ruleset import CommandSpec
from domain.hotw.board import Board
from domain.hotw.changes import with_player, with_turn
from domain.hotw.editions.hotw_2024.cards import Building, Cards, EmpireSpec
from domain.hotw.editions.hotw_2024.model import (
    EMPTY_LAND,
    GREAT_WALL,
    EffectTask,
    HotwState,
    LandState,
    Pool,
    Stage,
    Turn,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack
from domain.hotw.refusals import refused

__all__ = [
    "COMMANDS",
    "FOLDS",
    "Arg",
    "Ctx",
    "HotwEvent",
    "Invader",
    "cited",
    "command_specs",
    "refused",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class HotwEvent(Event):
    """An event of the History of the World family (stored as `hotw.<Name>`)."""

    FAMILY = "hotw"
    READS_BARE_NAMES = True


FOLDS: Folds[HotwPack, HotwState] = Folds()
"""Every event type of the edition, each with its fold, registered by the chapter declaring it."""


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
    """The rules that made the land reachable: a strait, a fleet, an ocean's seas."""

    @property
    def plunder_rule(self) -> str:
        return "hotw24.events.plunder" if self.pool == "event" else "hotw24.plunder.value"


class Engine(Protocol):
    """What the rules need of the ruleset object: its pack and its replaceable rules."""

    pack: HotwPack

    def resolve_invasion(self, ctx: Ctx, land: str, invader: Invader) -> None: ...


class Ctx(Working[HotwPack, HotwState]):
    """The decide-side working state of one command (`Working`); `data` is the pack, and
    `engine` the ruleset whose replaceable rules the chapters call."""

    folds = FOLDS

    def __init__(self, engine: Engine, state: HotwState, chance: Chance) -> None:
        super().__init__(engine.pack, state, chance)
        self.engine = engine
        self.pack = engine.pack
        self.board: Board = engine.pack.board
        self.cards: Cards = engine.pack.cards

    @property
    def turn(self) -> Turn:
        turn = self.state.turn
        assert turn is not None, "no player turn in progress"
        return turn

    @property
    def seat(self) -> int:
        return self.turn.seat


def cited(*rules: str) -> tuple[str, ...]:
    """The rules an event cites besides its deciding one, each once, in order."""
    return tuple(dict.fromkeys(rules))


COMMANDS: CommandBook[HotwPack, HotwState, Ctx] = CommandBook()
"""The edition's commands (`domain.core.declare`), each declared by the chapter that plays it."""


def command_specs(pack: HotwPack) -> tuple[CommandSpec, ...]:
    """Every command of the family as the API documents it, ids from `pack`."""
    return COMMANDS.specs(pack)


# --- the ids a command's arguments take -----------------------------------------------------------


def lands(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.lands))


def waters(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.seas))


def areas(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.areas))


def area_tokens(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.area_tokens))


def any_area_tokens(pack: HotwPack) -> tuple[str, ...]:
    """Area tokens and (Option 4) Paired Area tokens."""
    return area_tokens(pack) + tuple(sorted(pack.board.paired_area_tokens))


def empire_cards(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(card.id for card in pack.cards.all_empires()))


def event_cards(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(card.id for card in pack.cards.all_events()))


def honors(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(honor.id for honor in pack.cards.honors))


def current_spec(pack: HotwPack, turn: Turn) -> EmpireSpec:
    """The Empire in play: the card's only Empire, or the Incas then the Aztecs (p9)."""
    card = pack.cards.empire(turn.card)
    return card.empires[min(turn.empire_index, len(card.empires) - 1)]


# --- small changes of the state, shared by the folds ----------------------------------------------


def set_land(lands: dict[str, LandState], land: str, value: LandState) -> None:
    if value.is_empty:
        lands.pop(land, None)
    else:
        lands[land] = value


def with_gold(state: HotwState, seat: int, delta: int) -> HotwState:
    players = list(state.players)
    player = players[seat]
    arrivals = state.arrivals + 1
    players[seat] = evolved(player, gold=max(0, player.gold + delta), arrival=arrivals)
    return evolved(state, players=tuple(players), arrivals=arrivals)


def pool_of(turn: Turn, pool: str) -> tuple[str, Pool]:
    return ("event_pool", turn.event_pool) if pool == "event" else ("pool", turn.pool)


def take_person(state: HotwState, pool: str) -> HotwState:
    """One people piece leaves the named pool (not for `supply`)."""
    if state.turn is None or pool == "supply":
        return state
    name, current = pool_of(state.turn, pool)
    return with_turn(
        state, **{name: Pool(current.people - 1, current.fleets, current.great_wall_forts)}
    )


def return_people(state: HotwState, seat: int, count: int) -> HotwState:
    if not count:
        return state
    return with_player(state, seat, supply=state.players[seat].supply + count)


def top_task(state: HotwState) -> Any:
    return state.agenda[-1] if state.agenda else None


def replace_top(state: HotwState, task: Any | None) -> HotwState:
    agenda = state.agenda[:-1] if task is None else (*state.agenda[:-1], task)
    return evolved(state, agenda=agenda)


def without_building(land: LandState, building: Building) -> LandState:
    return LandState(
        land.owner,
        land.standing,
        land.buildings - {building},
        land.great_wall and building is not Building.FORT,
    )


def remove_building_from(
    state: HotwState, lands: dict[str, LandState], land: str, building: Building
) -> dict[str, int]:
    """Take `building` off `land` (in `lands`); returns the supply deltas."""
    current = lands.get(land, EMPTY_LAND)
    if building not in current.buildings:
        return {}
    set_land(lands, land, without_building(current, building))
    if building is Building.FORT and current.great_wall:
        return {GREAT_WALL: 1}
    return {building.value: 1}


def great_wall_off(state: HotwState, land: str, before: LandState) -> tuple[str, ...]:
    if before.great_wall:
        return tuple(x for x in state.great_wall_on_map if x != land)
    return state.great_wall_on_map


def out_of_bag(bag: tuple[str, ...], tokens: tuple[str, ...]) -> tuple[str, ...]:
    gone = set(tokens)
    return tuple(t for t in bag if t not in gone)


def turns_begin(pack: HotwPack, state: HotwState) -> HotwState:
    """Every seat holds its Empire card: turns follow the cards' chronological numbers."""
    order = tuple(sorted(state.empire_choices, key=lambda card: pack.cards.empire(card).number))
    return evolved(state, step=None, stage=Stage.TURNS, choosing=(), turn_order=order, turn_index=0)


def evolved_task(task: EffectTask, **changes: Any) -> EffectTask:
    values = {name: getattr(task, name) for name in EffectTask.__slots__}
    values.update(changes)
    return EffectTask(**values)
