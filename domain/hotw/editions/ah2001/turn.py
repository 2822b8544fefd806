"""Chapter III–V of the Avalon Hill 2001 rules, the Empire's turn: the called Empire's card is
turned over; its army pool (ah2001.turn.army-pool), capital (ah2001.turn.capital) and fleets
(ah2001.turn.fleets) come from the supply, and its first army and capital go to its start land
(ah2001.turn.start-land), which is cleared of what stood there."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.changes import with_cell, with_player
from domain.hotw.editions.ah2001.context import (
    FOLDS,
    NAVAL_CONTROL,
    Ah2001Event,
    Ctx,
    empire,
    with_supply,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Cell,
    Turn,
)
from domain.hotw.editions.ah2001.optional import (
    fight_for_seas,
    reclaim_fleets,
    reclaim_whole_epochs,
)
from domain.hotw.editions.ah2001.revisions import RECLAIM_CHOSEN
from domain.hotw.editions.ah2001.tables import Ah2001Tables, EmpireStats


def pool_size(
    tables: Ah2001Tables, state: Ah2001State, seat: int, strength: int, figure: int = 0
) -> int:
    """The Empire's strength, as far as the player's figures of its epoch allow."""
    figure = figure or state.epoch
    figures = tables.pieces.armies_per_colour_by_epoch[figure]
    return max(0, min(strength, figures - state.figures_out(seat, figure)))


def begin_turn(ctx: Ctx, seat: int, spec: EmpireStats) -> bool:
    """ah2001.epoch.call-order: the holder of the called Empire's card plays its turn; False
    while it must first choose which fleets Naval Control takes back (revision 11)."""
    board = ctx.tables.board
    wanted = tuple(sorted(board.navigation(spec.navigation)))
    if NAVAL_CONTROL in ctx.state.options:
        if not ctx.tables.since(RECLAIM_CHOSEN):
            reclaim_fleets(ctx, len(wanted))
        elif not reclaim_whole_epochs(ctx, len(wanted)):
            return False
    state = ctx.state
    armies = pool_size(ctx.tables, state, seat, spec.strength)
    fleets = wanted[: state.supply.get("counters", 0)]
    capital = spec.capital and state.supply.get("capitals_and_cities", 0) > 0
    ctx.emit(
        TurnBegan(
            rule="ah2001.epoch.call-order",
            cites=(
                "ah2001.empires.card",
                "ah2001.turn.army-pool",
                "ah2001.turn.capital",
                "ah2001.turn.fleets",
            ),
            seat=seat,
            empire=spec.id,
            armies=armies,
            capital=capital,
            fleets=fleets,
        )
    )
    if NAVAL_CONTROL in ctx.state.options:
        fight_for_seas(ctx, seat)
    return True


def wanted_fleets(tables: Ah2001Tables, spec: EmpireStats) -> int:
    """How many fleet counters the Empire's navigation asks for (ah2001.turn.fleets)."""
    return len(tables.board.navigation(spec.navigation))


def place_start(ctx: Ctx, seat: int, start_land: str) -> None:
    """ah2001.turn.start-land: the capital and first army; an army and fort there go."""
    state = ctx.state
    assert state.turn is not None
    capital = state.turn.capital
    cell = ctx.state.land(start_land)
    if cell.owner is not None or cell.buildings & {"fort", "city", "capital"}:
        ctx.emit(
            StartLandCleared(
                rule="ah2001.turn.start-land",
                land=start_land,
                owner=cell.owner,
                fort="fort" in cell.buildings,
            )
        )
    ctx.emit(
        ArmyPlaced(
            rule="ah2001.turn.start-land",
            seat=seat,
            land=start_land,
            figure=state.turn.figure or state.epoch,
            capital=capital,
        )
    )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class TurnBegan(Ah2001Event):
    """The holder turns the called Empire's card over; its army pool, capital and fleets."""

    REVEALS_HIDDEN = True

    seat: int
    empire: str
    armies: int
    capital: bool
    fleets: tuple[str, ...]


@FOLDS.handles(TurnBegan)
def _turn(t: Ah2001Tables, s: Ah2001State, e: TurnBegan) -> Ah2001State:
    spec = empire(t, e.empire)
    player = s.players[e.seat]
    s = with_player(
        s, e.seat, empires=(*player.empires, e.empire), called=(*player.called, spec.number)
    )
    turn = Turn(e.seat, e.empire, pool=e.armies, capital=e.capital, fleets=tuple(e.fleets))
    return with_supply(
        evolved(s, turn=turn),
        counters=-len(e.fleets),
        capitals_and_cities=-1 if e.capital else 0,
    )


@event
class StartLandCleared(Ah2001Event):
    land: str
    owner: int | None
    fort: bool


@FOLDS.handles(StartLandCleared)
def _cleared(t: Ah2001Tables, s: Ah2001State, e: StartLandCleared) -> Ah2001State:
    cell = s.land(e.land)
    kept = cell.buildings - {"fort", "city", "capital"}
    freed = len(cell.buildings & {"city", "capital"})
    s = with_supply(s, forts=1 if e.fort else 0, capitals_and_cities=freed)
    return with_cell(s, e.land, Cell(None, 0, kept))


@event
class ArmyPlaced(Ah2001Event):
    """An army from the pool claims a land (empty, or its own colour's, replaced); with the
    first army the capital goes down too."""

    seat: int
    land: str
    figure: int
    capital: bool = False
    replaced: bool = False
    stacked: bool = False
    """Another army joins the Empire's own (ah2001.option.multiple-armies)."""


@FOLDS.handles(ArmyPlaced)
def _placed(t: Ah2001Tables, s: Ah2001State, e: ArmyPlaced) -> Ah2001State:
    cell = s.land(e.land)
    buildings = cell.buildings | ({"capital"} if e.capital else set())
    armies = cell.armies + 1 if e.stacked else 1
    placed = Cell(e.seat, e.figure, frozenset(buildings), armies)
    turn = s.turn
    assert turn is not None
    lands = turn.lands if e.land in turn.lands else (*turn.lands, e.land)
    allied = 1 if turn.allied > 0 and cell.owner is None else 0  # ah2001.events.allies
    turn = evolved(
        turn,
        pool=turn.pool - 1,
        allied=turn.allied - allied,
        lands=lands,
        capital=turn.capital and not e.capital,
    )
    return evolved(with_cell(s, e.land, placed), turn=turn)
