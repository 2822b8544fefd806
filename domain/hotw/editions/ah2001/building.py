"""Chapter V of the Avalon Hill 2001 rules, Forts and Resource Symbols and Monuments: a pool
army exchanged for a fort, one per land (ah2001.forts.build, ah2001.forts.one-per-land); a
monument for each pair of resource lands held at the end of the expansion
(ah2001.monuments.count), placed where the placement order says (ah2001.monuments.placement),
while the supply lasts (ah2001.monuments.supply)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.changes import with_cell, with_turn
from domain.hotw.editions.ah2001.context import (
    COMMANDS,
    FOLDS,
    SIMULTANEOUS,
    Ah2001Event,
    Ctx,
    empire,
    in_turn,
    with_supply,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
)
from domain.hotw.editions.ah2001.optional import stack
from domain.hotw.editions.ah2001.scoring import score_turn
from domain.hotw.editions.ah2001.simultaneous import monuments_done
from domain.hotw.editions.ah2001.tables import Ah2001Tables
from domain.hotw.monuments import by_priority
from domain.hotw.refusals import refused


def fort_clause(tables: Ah2001Tables, state: Ah2001State, seat: int, land: str) -> str | None:
    """The clause a fort in `land` breaks (None: it may be built there): a land of the Active
    Empire's, its army's figures below the stack, no fort yet."""
    assert state.turn is not None
    cell = state.land(land)
    if "fort" in cell.buildings:
        return "ah2001.forts.one-per-land"
    if land not in state.turn.lands or cell.owner != seat or cell.armies >= stack(tables):
        return "ah2001.forts.build"
    return None


def fort_actions(tables: Ah2001Tables, state: Ah2001State, seat: int) -> Iterator[Command]:
    """A fort for a pool army (or a fort a card gave), while the supply has forts."""
    turn = state.turn
    assert turn is not None
    if (turn.pool > 0 or turn.free_forts > 0) and state.supply.get("forts", 0) > 0:
        for land in turn.lands:
            if fort_clause(tables, state, seat, land) is None:
                yield Command.of("build_fort", land=land)


def why_not_fort(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    land = str(command.arg("land", ""))
    key = "ah2001.forts.build"
    if (
        in_turn(state, seat)
        and fort_clause(tables, state, seat, land) == "ah2001.forts.one-per-land"
    ):
        key = "ah2001.forts.one-per-land"
    return refused(
        "a fort replaces a pool army in a land of the Active Empire without a fort", key, command
    )


@COMMANDS.declares(
    "build_fort",
    "Exchange a pool army for a fort.",
    Arg("land", "A land id.", ids=lambda t: tuple(sorted(t.board.lands))),
    why_not=why_not_fort,
)
def build_fort(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(FortBuilt(rule="ah2001.forts.build", seat=seat, land=str(command.arg("land"))))


def monument_sites(tables: Ah2001Tables, state: Ah2001State) -> list[str]:
    """ah2001.monuments.placement: the capital's land, else a city the Empire holds, else one
    of its resource lands; never a land that has a monument."""
    turn = state.turn
    assert turn is not None
    lands = [
        land
        for land in turn.lands
        if state.land(land).owner == turn.seat and "monument" not in state.land(land).buildings
    ]
    spec = empire(tables, turn.empire)
    return by_priority(
        [
            land
            for land in lands
            if land == spec.start_land and "capital" in state.land(land).buildings
        ],
        [land for land in lands if "city" in state.land(land).buildings],
        [land for land in lands if tables.board.lands[land].resource],
    )


def monument_actions(tables: Ah2001Tables, state: Ah2001State) -> Iterator[Command]:
    for land in monument_sites(tables, state):
        yield Command.of("build_monument", land=land)


def why_not_monument(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "a monument goes where the placement order says", "ah2001.monuments.placement", command
    )


@COMMANDS.declares(
    "build_monument",
    "Place a monument earned this turn.",
    Arg("land", "A land id.", ids=lambda t: tuple(sorted(t.board.lands))),
    why_not=why_not_monument,
)
def build_monument(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        MonumentBuilt(rule="ah2001.monuments.placement", seat=seat, land=str(command.arg("land")))
    )


def monuments_due(ctx: Ctx) -> int:
    """ah2001.monuments.count: one monument per two resource lands held, as the supply allows."""
    turn = ctx.state.turn
    assert turn is not None
    resources = sum(
        1
        for land in turn.lands
        if ctx.state.land(land).owner == turn.seat and ctx.tables.board.lands[land].resource
    )
    return min(resources // ctx.tables.resources_per_monument, ctx.state.supply.get("monuments", 0))


def monument_step(ctx: Ctx) -> bool:
    """Monuments earned go where they must (one site: no choice); none left to place, the turn
    is scored (with simultaneous empires, the Empire's move goes on)."""
    turn = ctx.state.turn
    assert turn is not None
    if turn.monuments_due <= 0 or ctx.state.supply.get("monuments", 0) <= 0:
        if SIMULTANEOUS in ctx.state.options:
            monuments_done(ctx)
        else:
            score_turn(ctx)
        return True
    sites = monument_sites(ctx.tables, ctx.state)
    if not sites:
        ctx.emit(
            MonumentsUnbuilt(
                rule="ah2001.monuments.supply", seat=turn.seat, count=turn.monuments_due
            )
        )
        return True
    if len(sites) == 1:
        ctx.emit(MonumentBuilt(rule="ah2001.monuments.placement", seat=turn.seat, land=sites[0]))
        return True
    return False


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class FortBuilt(Ah2001Event):
    seat: int
    land: str


@FOLDS.handles(FortBuilt)
def _fort(t: Ah2001Tables, s: Ah2001State, e: FortBuilt) -> Ah2001State:
    cell = s.land(e.land)
    s = with_cell(s, e.land, evolved(cell, buildings=cell.buildings | {"fort"}))
    turn = s.turn
    assert turn is not None
    if turn.free_forts > 0:
        return with_supply(with_turn(s, free_forts=turn.free_forts - 1), forts=-1)
    return with_supply(with_turn(s, pool=turn.pool - 1), forts=-1)


@event
class MonumentBuilt(Ah2001Event):
    seat: int
    land: str


@FOLDS.handles(MonumentBuilt)
def _monument(t: Ah2001Tables, s: Ah2001State, e: MonumentBuilt) -> Ah2001State:
    cell = s.land(e.land)
    s = with_cell(s, e.land, evolved(cell, buildings=cell.buildings | {"monument"}))
    assert s.turn is not None
    turn = s.turn
    changes = {"monuments_due": turn.monuments_due - 1, "monuments_built": turn.monuments_built + 1}
    return with_supply(with_turn(s, **changes), monuments=-1)


@event
class MonumentsUnbuilt(Ah2001Event):
    seat: int
    count: int


@FOLDS.handles(MonumentsUnbuilt)
def _unbuilt(t: Ah2001Tables, s: Ah2001State, e: MonumentsUnbuilt) -> Ah2001State:
    assert s.turn is not None
    return with_turn(s, monuments_due=0, monuments_built=s.turn.monuments_built + e.count)
