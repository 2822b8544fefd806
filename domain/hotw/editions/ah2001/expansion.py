"""Chapter V of the Avalon Hill 2001 rules, Expansion: armies from the pool go next to the
Active Empire's armies (ah2001.expand.adjacent, across straits: .straits) or over its chain of
fleets (ah2001.expand.fleets), never into a barren land (.barren) or one it holds (.one-army);
its own colour's older army is replaced (.own-colour), another player's is fought (combat); the
expansion ends with the monuments earned counted (ah2001.monuments.count).

A strait joins two lands as a border does (ah2001.expand.straits: the board's adjacency);
worked example: `WORKED_EXAMPLES`."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.changes import with_turn
from domain.hotw.editions.ah2001.building import fort_actions, monuments_due
from domain.hotw.editions.ah2001.combat import Via, battle
from domain.hotw.editions.ah2001.context import (
    COMMANDS,
    FOLDS,
    MULTIPLE_ARMIES,
    NAVAL_CONTROL,
    SIMULTANEOUS,
    Ah2001Event,
    Ctx,
    card,
    held_by_turn,
    in_turn,
)
from domain.hotw.editions.ah2001.event_cards import (
    CardEmpireEnded,
    card_rule,
    coin_actions,
    crusaders_take,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Stage,
)
from domain.hotw.editions.ah2001.optional import naval_actions, stack
from domain.hotw.editions.ah2001.sack import sack_on_entry
from domain.hotw.editions.ah2001.simultaneous import attempted, monuments_at_once
from domain.hotw.editions.ah2001.tables import Ah2001Tables
from domain.hotw.editions.ah2001.turn import ArmyPlaced
from domain.hotw.refusals import refused

WORKED_EXAMPLES = ("ah2001.example.greeks-stepping-stones",)
"""The rulebook's worked examples of this chapter, each played again by a test."""


def targets(tables: Ah2001Tables, state: Ah2001State) -> Iterator[tuple[str, Via]]:
    """Where the Active Empire may place an army: next to one of its armies (straits
    included), or over its chain of fleets; never a barren land, never a land it holds."""
    turn = state.turn
    assert turn is not None
    board = tables.board
    held = set(turn.lands)
    overland: set[str] = set()
    for land in held:
        overland |= board.adjacent(land)
    by_sea = board.fleet_reach(held, turn.fleets) if turn.fleets else frozenset()
    if turn.at_sea is not None:
        by_sea |= board.coasts[turn.at_sea]
    if MULTIPLE_ARMIES in state.options:
        for land in sorted(held):
            cell = state.land(land)
            if cell.owner == turn.seat and cell.armies + ("fort" in cell.buildings) < stack(tables):
                yield land, Via.LAND
    for land in sorted(overland | by_sea):
        if land in held or board.lands[land].barren:
            continue
        if land in overland:
            yield land, Via.LAND
        if land in by_sea:
            yield land, Via.SEA


def may_enter(state: Ah2001State, land: str) -> bool:
    """ah2001.events.allies: while the pool holds only armies Allies' coins bought, an army
    goes into an unoccupied land only (never an attack, nor over an army of its own colour)."""
    turn = state.turn
    assert turn is not None
    return turn.free_armies > 0 or state.land(land).owner is None


def may_place_army(tables: Ah2001Tables, state: Ah2001State, command: Command) -> bool:
    """Whether `targets` would offer the command's land and way, found from the land itself
    rather than by going round every land next to the Empire."""
    turn = state.turn
    assert turn is not None
    land, via = command.arg("land"), command.arg("via")
    if turn.pool <= 0 or len(command.args) != 2 or not isinstance(land, str):
        return False
    board = tables.board
    if land not in board.lands or via not in (Via.LAND.value, Via.SEA.value):
        return False
    if not may_enter(state, land):
        return False
    held = set(turn.lands)
    if land in held:
        cell = state.land(land)
        return (
            via == Via.LAND.value
            and MULTIPLE_ARMIES in state.options
            and cell.owner == turn.seat
            and cell.armies + ("fort" in cell.buildings) < stack(tables)
        )
    if board.lands[land].barren:
        return False
    if via == Via.LAND.value:
        return any(land in board.adjacent(mine) for mine in held)
    by_sea = board.fleet_reach(held, turn.fleets) if turn.fleets else frozenset()
    return land in by_sea or (turn.at_sea is not None and land in board.coasts[turn.at_sea])


def expansion_actions(tables: Ah2001Tables, state: Ah2001State, seat: int) -> Iterator[Command]:
    """The Active Empire's expansion: armies placed, forts built, (Naval Control) fleets
    manned, coins spent, until it ends the expansion."""
    turn = state.turn
    assert turn is not None
    if turn.pool > 0:
        for land, via in targets(tables, state):
            if may_enter(state, land):
                yield Command.of("place_army", land=land, via=via.value)
    yield from fort_actions(tables, state, seat)
    if turn.free_armies > 0 and NAVAL_CONTROL in state.options and turn.outer is None:
        yield from naval_actions(tables, state)
    yield from coin_actions(state)
    yield Command.of("end_expansion")


def why_not_place(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    """The clause a refused army breaks: a barren land, a land already holding the Active
    Empire's army, else the adjacency of ah2001.expand.adjacent."""
    land = str(command.arg("land", ""))
    key = "ah2001.expand.adjacent"
    turn = state.turn
    if in_turn(state, seat) and turn is not None and turn.pool > 0 and land in tables.board.lands:
        if tables.board.lands[land].barren:
            key = "ah2001.expand.barren"
        elif held_by_turn(state, land):
            key = "ah2001.expand.one-army"
        elif not may_enter(state, land):
            key = "ah2001.events.allies"
    return refused(
        "an army goes next to one of the Active Empire's armies or over its fleets, "
        "never into a barren land or a land it holds",
        key,
        command,
    )


@COMMANDS.declares(
    "place_army",
    "Place an army from the pool (combat if another player's army is there).",
    Arg("land", "A land id.", ids=lambda t: tuple(sorted(t.board.lands))),
    Arg("via", "`land` (from an adjacent land) or `sea` (over fleets).", ids=("land", "sea")),
    why_not=why_not_place,
)
def place_army(ctx: Ctx, seat: int, command: Command) -> None:
    land = str(command.arg("land"))
    simultaneous = SIMULTANEOUS in ctx.state.options
    if simultaneous and not held_by_turn(ctx.state, land):
        attempted(ctx, seat, land)
    expand_into(ctx, seat, land, Via(str(command.arg("via"))))
    turn = ctx.state.turn
    assert turn is not None
    if turn.card is not None and ctx.state.land(land).owner == seat:
        crusaders_take(ctx, card(ctx.tables, turn.card), land)
    if simultaneous and turn.card is None:
        monuments_at_once(ctx)


def expand_into(ctx: Ctx, seat: int, land: str, via: Via) -> None:
    cell = ctx.state.land(land)
    turn = ctx.state.turn
    assert turn is not None
    epoch = turn.figure or ctx.state.epoch
    if cell.owner is None:
        ctx.emit(
            ArmyPlaced(
                rule="ah2001.expand.fleets" if via is Via.SEA else "ah2001.expand.adjacent",
                seat=seat,
                land=land,
                figure=epoch,
            )
        )
        sack_on_entry(ctx, land)
        return
    if cell.owner == seat and land in turn.lands:
        ctx.emit(
            ArmyPlaced(
                rule="ah2001.option.multiple-armies",
                seat=seat,
                land=land,
                figure=epoch,
                stacked=True,
            )
        )
        return
    if cell.owner == seat:
        ctx.emit(
            ArmyPlaced(
                rule="ah2001.expand.own-colour",
                seat=seat,
                land=land,
                figure=epoch,
                replaced=True,
            )
        )
        return
    battle(ctx, seat, land, via)


@COMMANDS.declares("end_expansion", "Stop expanding.")
def end_expansion_command(ctx: Ctx, seat: int, command: Command) -> None:
    end_expansion(ctx)


def end_expansion(ctx: Ctx) -> None:
    """The expansion ends: a card's Empire hands back to its Active Empire; an Empire counts
    its monuments (ah2001.monuments.count)."""
    turn = ctx.state.turn
    assert turn is not None
    if turn.outer is not None and turn.card is not None:
        played = card(ctx.tables, turn.card)
        ctx.emit(
            CardEmpireEnded(
                rule=card_rule(played),
                cites=("ah2001.events.minor-empire.scored-after",)
                if played.kind == "minor-empire"
                else (),
                seat=turn.seat,
                card=played.id,
                unused=turn.pool,
            )
        )
        return
    ctx.emit(
        ExpansionEnded(
            rule="ah2001.monuments.count",
            seat=turn.seat,
            monuments=monuments_due(ctx),
            unused=turn.pool,
        )
    )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class ExpansionEnded(Ah2001Event):
    seat: int
    monuments: int
    unused: int


@FOLDS.handles(ExpansionEnded)
def _expansion_ended(t: Ah2001Tables, s: Ah2001State, e: ExpansionEnded) -> Ah2001State:
    return with_turn(evolved(s, stage=Stage.MONUMENTS), pool=0, monuments_due=e.monuments)
