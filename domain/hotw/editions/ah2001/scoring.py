"""Scoring in the Avalon Hill 2001 edition (Chapter VI): after each of a player's turns, every
land holding an army of the player's colour counts, whatever its epoch.

Worked example: `WORKED_EXAMPLES`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.changes import with_player
from domain.hotw.control import Level, level_in_area
from domain.hotw.editions.ah2001.context import (
    FOLDS,
    Ah2001Event,
    Ctx,
    with_supply,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Stage,
)
from domain.hotw.editions.ah2001.revisions import COINS_TAKE_COUNTERS
from domain.hotw.editions.ah2001.tables import Ah2001Tables, VictoryPoints

BUILDING_POINTS = {"capital": 2, "city": 1, "monument": 1}
"""ah2001.scoring.buildings: forts score nothing."""


WORKED_EXAMPLES = ("ah2001.example.purple-scoring",)
"""The rulebook's worked examples of this chapter, each played again by a test."""


LEVEL_RULES = {
    Level.PRESENCE: "ah2001.scoring.presence",
    Level.DOMINANCE: "ah2001.scoring.dominance",
    Level.CONTROL: "ah2001.scoring.control",
}


def area_points(table: VictoryPoints, area: str, epoch: int, level: Level) -> int:
    return table.base(area, epoch) * int(level)


def buildings_points(buildings: Iterable[str]) -> int:
    return sum(BUILDING_POINTS.get(b, 0) for b in buildings)


def area_levels(
    seat: int, armies: Mapping[str, int], area_of: Mapping[str, str | None]
) -> dict[str, Level]:
    """The level of control `seat` has in each area where it has one (presence, dominance or
    control: ah2001.scoring.presence, .dominance, .control)."""
    per_area: dict[str, list[int]] = {}
    for land, owner in armies.items():
        area = area_of[land]
        if area is None:
            continue
        per_area.setdefault(area, []).append(owner)
    levels: dict[str, Level] = {}
    for area, owners in sorted(per_area.items()):
        own = owners.count(seat)
        others = [owners.count(o) for o in set(owners) if o != seat]
        level = level_in_area(own, others)
        if level:
            levels[area] = level
    return levels


def turn_score(
    table: VictoryPoints,
    epoch: int,
    seat: int,
    armies: Mapping[str, int],
    area_of: Mapping[str, str | None],
    buildings: Mapping[str, Iterable[str]],
) -> dict[str, int]:
    """The points `seat` scores now, by area and for buildings: `armies` is each occupied
    land's owner, `area_of` each land's area (None for a barren land), `buildings` what stands
    in each land."""
    points = {
        area: area_points(table, area, epoch, level)
        for area, level in area_levels(seat, armies, area_of).items()
    }
    held = [b for land, owner in armies.items() if owner == seat for b in buildings.get(land, ())]
    if held:
        points["buildings"] = buildings_points(held)
    return points


def points_now(tables: Ah2001Tables, state: Ah2001State, seat: int) -> dict[str, int]:
    """What `seat` scores now for all its pieces (ah2001.scoring.*), held seas included."""
    board = tables.board
    armies = {land: cell.owner for land, cell in state.lands.items() if cell.owner is not None}
    points = turn_score(
        tables.victory_points,
        state.epoch,
        seat,
        armies,
        {land: board.lands[land].area for land in armies},
        {land: cell.buildings for land, cell in state.lands.items()},
    )
    seas = sum(1 for held in state.seas.values() if held.owner == seat)
    if seas:
        points = {**points, "seas": seas}
    return points


def levels_cited(tables: Ah2001Tables, state: Ah2001State, seat: int) -> tuple[str, ...]:
    """The levels of control `seat` scores now (ah2001.scoring.presence, .dominance,
    .control), each cited once, weakest first."""
    board = tables.board
    armies = {land: cell.owner for land, cell in state.lands.items() if cell.owner is not None}
    levels = set(
        area_levels(seat, armies, {land: board.lands[land].area for land in armies}).values()
    )
    return tuple(LEVEL_RULES[level] for level in sorted(levels))


def score_turn(ctx: Ctx) -> None:
    """ah2001.scoring.when: at the end of the turn (its clean-up), the player scores."""
    turn = ctx.state.turn
    assert turn is not None
    points = points_now(ctx.tables, ctx.state, turn.seat)
    before = ctx.state.players[turn.seat].points
    track = ctx.tables.score_track
    lap = (before + sum(points.values())) // track > before // track
    ctx.emit(
        TurnScored(
            rule="ah2001.scoring.when",
            cites=(
                "ah2001.turn.clean-up",
                "ah2001.scoring.table",
                *levels_cited(ctx.tables, ctx.state, turn.seat),
                "ah2001.scoring.buildings",
                *(("ah2001.scoring.track",) if lap else ()),
            ),
            seat=turn.seat,
            points=points,
            total=sum(points.values()),
        )
    )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class TurnScored(Ah2001Event):
    """Clean-up (the fleets leave the board) and the player's score for all its pieces."""

    seat: int
    points: Mapping[str, int]
    total: int


@FOLDS.handles(TurnScored)
def _scored(t: Ah2001Tables, s: Ah2001State, e: TurnScored) -> Ah2001State:
    assert s.turn is not None
    coins = s.turn.coins if t.since(COINS_TAKE_COUNTERS) else 0
    s = with_supply(s, counters=len(s.turn.fleets) - len(s.turn.manned) + coins)
    s = with_player(s, e.seat, points=s.players[e.seat].points + e.total)
    return evolved(s, turn=None, stage=Stage.TURNS, call_index=s.call_index + 1)
