"""Scoring in the Avalon Hill 2001 edition (Chapter VI): after each of a player's turns, every
land holding an army of the player's colour counts, whatever its epoch."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.hotw.control import Level, level_in_area
from domain.hotw.editions.ah2001.tables import VictoryPoints

BUILDING_POINTS = {"capital": 2, "city": 1, "monument": 1}
"""ah2001.scoring.buildings: forts score nothing."""


LEVEL_RULES = {
    Level.PRESENCE: "scoring.presence",
    Level.DOMINANCE: "scoring.dominance",
    Level.CONTROL: "scoring.control",
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
