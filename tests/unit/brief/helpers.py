"""Building A Brief History of the World positions for tests and acting in them with dice
chosen by the test (`ScriptedFaces`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from domain.core.chance import Chance, ScriptedFaces
from domain.core.kernel import Game, decide
from domain.core.messages import Command, Event
from domain.core.ruleset import Setup
from domain.hotw.editions.brief2009.model import BriefState, Cell, Force, Phase, Stage, Turn
from service.rulesets import ruleset

RULES: Any = ruleset("brief-2009")
TABLES = RULES.tables


def setup(players: int = 3) -> Setup:
    return Setup("brief-2009", tuple("abcdef"[:players]), {}, "")


def table(
    lands: Mapping[str, Cell], players: int = 3, epoch: int = 1, gold: Iterable[int] = ()
) -> BriefState:
    """A game in its Empire turns with `lands` occupied (pieces taken from the supplies)."""
    state: BriefState = RULES.initial_state(setup(players))
    colours = list(state.colours)
    for c, amount in enumerate(gold):
        colours[c] = replace(colours[c], gold=amount, arrived=c + 1)
    for cell in lands.values():
        if cell.colour is not None:
            colours[cell.colour] = replace(
                colours[cell.colour], supply=colours[cell.colour].supply - 1
            )
    supply = dict(state.supply)
    for cell in lands.values():
        for kind in cell.buildings:
            key = {"capital": "capitals_and_cities", "city": "capitals_and_cities"}.get(kind)
            key = key or {"monument": "monuments", "fort": "forts"}[kind]
            supply[key] -= 1
    values = {a.id: a.value(epoch) for a in TABLES.areas}
    return replace(
        state,
        epoch=epoch,
        stage=Stage.TURNS,
        colours=tuple(colours),
        lands=dict(lands),
        supply=supply,
        area_values=values,
        moves=len(colours),
        bonus_spaces=tuple(
            tuple(t.id for t in TABLES.bonus_tokens[i * 3 : i * 3 + 3]) for i in range(6)
        ),
    )


def playing(
    state: BriefState,
    colour: int,
    empire: str,
    array: int = 5,
    fleets: tuple[str, ...] = (),
    **turn: Any,
) -> BriefState:
    """`colour` expands `empire` from its standing armies, with `array` armies in its Array."""
    spec = TABLES.empire(empire)
    lands = tuple(land for land, c in state.lands.items() if c.colour == colour and c.standing)
    force = Force(empire, False, array, spec.barbarian, spec.feature, 0, lands)
    colours = list(state.colours)
    colours[colour] = replace(colours[colour], supply=colours[colour].supply - array)
    supply = {**state.supply, "fleets": state.supply["fleets"] - len(fleets)}
    played = Turn(colour, empire, Phase.EXPANDING, (force,), fleets, **turn)
    return replace(state, colours=tuple(colours), supply=supply, turn=played)


def act(
    state: BriefState, command: Command, dice: Iterable[int] = (), seat: int | None = None
) -> tuple[list[Event], BriefState]:
    """`command` by `seat` (the only awaited seat by default), the dice rolling `dice`."""
    if seat is None:
        (seat,) = RULES.awaited_seats(state)
    assert RULES.is_legal(state, seat, command), (command, list(RULES.legal_actions(state, seat)))
    game = Game(setup(len(state.players)), 1, 0, state)
    events = decide(RULES, game, seat, command, Chance(ScriptedFaces(dice), 0))
    for event in events:
        state = RULES.evolve(state, event)
    assert RULES.invariant_failures(state) == []
    return events, state


def of(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def standing(colour: int, *buildings: str) -> Cell:
    return Cell(colour, True, frozenset(buildings))


def resigned(colour: int, *buildings: str) -> Cell:
    return Cell(colour, False, frozenset(buildings))


def expand(land: str, via: str = "land") -> Command:
    return Command.of("expand", land=land, via=via)


def listed(state: BriefState, seat: int | None = None) -> list[Command]:
    if seat is None:
        (seat,) = RULES.awaited_seats(state)
    return list(RULES.legal_actions(state, seat))
