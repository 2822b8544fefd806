"""A civilization's territory: the Tiles patched into it, what shows, the spaces Workers stand
on and move between, and the Reference Board's statuses (patchistory.patch.status; the
Tiles' abilities, which take precedence over a rule they contradict:
patchistory.tiles.precedence)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from domain.patchistory.model import Cell, Civ, Cover, Placed, PState
from domain.patchistory.pack import (
    GOODS,
    HERO,
    ICONS,
    SEA,
    WASTELAND,
    WONDER,
    Feature,
    PatchPack,
    Side,
    Square,
)

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


STATUS_RULE = "patchistory.patch.status"
"""The Reference Board: each status the sum of the icons the territory shows."""
GOLD_BOX_RULE = "patchistory.workers.gold-box"
"""A square's gold box yields only while a Worker stands on it."""
STATUS_ABILITIES = {
    "great-wall": "patchistory.tile.great-wall",
    "petra": "patchistory.tile.petra",
    "genghis-khan": "patchistory.tile.genghis-khan",
    "apollo": "patchistory.tile.apollo",
    "angkor-wat": "patchistory.tile.angkor-wat",
    "statue-of-liberty": "patchistory.tile.statue-of-liberty",
    "che-guevara": "patchistory.tile.che-guevara",
}
"""The abilities that change a status, each with its clause."""
UNCITED_RULES = ("patchistory.tiles.precedence",)
"""The clauses this module decides that no event or refusal carries."""


@dataclass(frozen=True, slots=True)
class Shown:
    """What shows on one cell of a territory: the Tile's square and its Building Tile."""

    square: Square
    layer: int
    """Index of the Tile in the civilization's `tiles`."""
    cover: Cover | None


def side_of(pack: PatchPack, placed: Placed) -> Side:
    return pack.side(placed.tile, placed.side)


def cells_of(pack: PatchPack, placed: Placed) -> Iterator[tuple[Cell, Square]]:
    for square in side_of(pack, placed).squares:
        yield (placed.row + square.at[0], placed.col + square.at[1]), square


DRAWN_KEPT = 4096
"""How many territories a pack remembers what shows of (then it forgets them all)."""


def shown(pack: PatchPack, civ: Civ) -> dict[Cell, Shown]:
    """Every cell of the territory and what shows on it (the top Tile, and its cover). The
    answer is shared: callers must not change it."""
    found: dict[Cell, Shown] | None = recalled(pack, "shown", civ)
    if found is None:
        found = work_out_shown(pack, civ)
        remember(pack, "shown", civ, found)
    return found


def recalled(pack: PatchPack, kind: str, civ: Civ) -> Any:
    """What was worked out for these very Tiles and covers with this very pack (by identity:
    the entry holds them, so their ids cannot be reused while it lasts), or None."""
    entry = pack.drawn.get((kind, id(civ.tiles), id(civ.covers)))
    if entry is None or entry[0] is not civ.tiles or entry[1] is not civ.covers:
        return None
    if entry[3] is not pack:  # a pack copied with other Tiles shares the dictionary
        return None
    return entry[2]


def remember(pack: PatchPack, kind: str, civ: Civ, value: Any) -> None:
    if len(pack.drawn) >= DRAWN_KEPT:
        pack.drawn.clear()
    pack.drawn[(kind, id(civ.tiles), id(civ.covers))] = (civ.tiles, civ.covers, value, pack)


def work_out_shown(pack: PatchPack, civ: Civ) -> dict[Cell, Shown]:
    top: dict[Cell, tuple[int, Square, int]] = {}
    for index, placed in enumerate(civ.tiles):
        for cell, square in cells_of(pack, placed):
            if cell not in top or top[cell][2] < placed.z:
                top[cell] = (index, square, placed.z)
    covers = {c.at: c for c in civ.covers}
    return {cell: Shown(sq, index, covers.get(cell)) for cell, (index, sq, _) in top.items()}


def features_shown(
    pack: PatchPack, civ: Civ, view: Mapping[Cell, Shown]
) -> list[tuple[Feature, tuple[Cell, ...]]]:
    """The Heroes, Wonders and Special Buildings that show whole, with their cells."""
    if recalled(pack, "shown", civ) is view:  # the civ's own view
        known: list[tuple[Feature, tuple[Cell, ...]]] | None = recalled(pack, "features", civ)
        if known is None:
            known = work_out_features(pack, civ, view)
            remember(pack, "features", civ, known)
        return known
    return work_out_features(pack, civ, view)


def work_out_features(
    pack: PatchPack, civ: Civ, view: Mapping[Cell, Shown]
) -> list[tuple[Feature, tuple[Cell, ...]]]:
    found = []
    for index, placed in enumerate(civ.tiles):
        for feature in side_of(pack, placed).features:
            cells = tuple(sorted((placed.row + r, placed.col + c) for r, c in feature.squares))
            if all(view.get(cell) and view[cell].layer == index for cell in cells):
                found.append((feature, cells))
    return found


def spaces(pack: PatchPack, civ: Civ, view: Mapping[Cell, Shown] | None = None) -> dict[Cell, Cell]:
    """Each cell's space, by the space's first cell: a whole feature is one space."""
    view = view if view is not None else shown(pack, civ)
    anchor = {cell: cell for cell in view}
    for _, cells in features_shown(pack, civ, view):
        for cell in cells:
            anchor[cell] = cells[0]
    return anchor


def free_spaces(pack: PatchPack, civ: Civ) -> list[Cell]:
    anchor = spaces(pack, civ)
    taken = {anchor.get(w, w) for w in civ.workers}
    return sorted({a for a in anchor.values()} - taken)


def is_sea(item: Shown) -> bool:
    return item.square.terrain == SEA


# --- statuses ---------------------------------------------------------------------------------


def abilities(pack: PatchPack, civ: Civ) -> set[str]:
    view = shown(pack, civ)
    return {f.ability for f, _ in features_shown(pack, civ, view) if f.ability}


def gold_worked(pack: PatchPack, civ: Civ) -> bool:
    """Whether a Worker stands on a square whose gold box yields (patchistory.workers.gold-box)."""
    view = shown(pack, civ)
    anchor = spaces(pack, civ, view)
    in_feature = {cell for _, cells in features_shown(pack, civ, view) for cell in cells}
    for worker in civ.workers:
        cell = anchor.get(worker, worker)
        item = view.get(cell)
        if item is not None and item.cover is None and cell not in in_feature and item.square.gold:
            return True
    return False


def has(pack: PatchPack, civ: Civ, ability: str) -> bool:
    return ability in abilities(pack, civ)


def routes_counted(state: PState, seat: int) -> int:
    """General Trade Routes beginning in the territory and Allied ones shared (Petra, Genghis
    Khan, Apollo 11)."""
    return sum(
        1
        for r in state.routes
        if (r.kind == "general" and r.a == seat) or (r.kind == "allied" and seat in (r.a, r.b))
    )


def workers_out(state: PState, seat: int) -> int:
    """Workers the player controls in the territory or on a Trade Route."""
    on_routes = sum(1 for r in state.routes for owner, _ in r.workers if owner == seat)
    return len(state.civs[seat].workers) + on_routes


def statuses(pack: PatchPack, state: PState, seat: int) -> dict[str, int]:
    """The Reference Board (patchistory.patch.status): each icon the visible squares show,
    gold boxes only where a Worker stands, features once when whole, Building Tiles in place of
    the squares they cover; then the abilities that change a status; and the counts the
    Prosperity Cards rank by."""
    civ = state.civs[seat]
    view = shown(pack, civ)
    anchor = spaces(pack, civ, view)
    worked = {anchor.get(w, w) for w in civ.workers}
    total = dict.fromkeys(ICONS, 0)
    whole = features_shown(pack, civ, view)
    in_feature = {cell for _, cells in whole for cell in cells}
    wastes = seas = buildings = reclaimed = 0
    for cell, item in view.items():
        if item.cover is not None:
            if item.cover.wasteland:
                wastes += 1
                reclaimed += 1
            else:
                buildings += 1
                for icon, n in pack.buildings[item.cover.building].yields.items():
                    total[icon] += n
            continue
        if item.square.terrain == WASTELAND:
            wastes += 1
        if item.square.terrain == SEA:
            seas += 1
        if cell in in_feature:
            continue
        for icon, n in item.square.yields.items():
            total[icon] += n
        if cell in worked:
            for icon, n in item.square.gold.items():
                total[icon] += n
    names = set()
    for feature, _ in whole:
        names.add(feature.ability)
        for icon, n in feature.yields.items():
            total[icon] += n
    # the abilities that change a status: STATUS_ABILITIES
    routes = routes_counted(state, seat)
    if "great-wall" in names:
        total["defense"] += workers_out(state, seat)
    if "petra" in names:
        total["coin"] += routes
    if "genghis-khan" in names:
        total["military"] += routes
    if "apollo" in names:
        total["culture"] += routes
    counted_wastes = wastes + (seas if "angkor-wat" in names else 0)
    if "angkor-wat" in names:
        total["culture"] += counted_wastes
    if "statue-of-liberty" in names:
        total["culture"] += reclaimed
    if "che-guevara" in names:
        total["politics"] = pack.number("che_guevara_politics")
    total |= {
        "wastelands": counted_wastes,
        "seas": seas,
        "buildings": buildings,
        "heroes": sum(1 for f, _ in whole if f.kind == HERO),
        "wonders": sum(1 for f, _ in whole if f.kind == WONDER),
        "trade_routes": sum(1 for r in state.routes if seat in (r.a, r.b)),
        "workers": civ.born,
    }
    return total


def production(pack: PatchPack, state: PState, seat: int) -> dict[str, int]:
    board = statuses(pack, state, seat)
    return {good: board[good] for good in GOODS}


# --- movement ---------------------------------------------------------------------------------


def reachable(pack: PatchPack, civ: Civ, start: Cell, steps: int) -> set[Cell]:
    """The spaces (by anchor) a Worker on `start` reaches in up to `steps` orthogonal moves, a
    whole feature counting as one space (patchistory.movement.territory)."""
    view = shown(pack, civ)
    anchor = spaces(pack, civ, view)
    members: dict[Cell, list[Cell]] = {}
    for cell, a in anchor.items():
        members.setdefault(a, []).append(cell)
    origin = anchor.get(start, start)
    seen = {origin: 0}
    frontier = [origin]
    for depth in range(1, steps + 1):
        nxt = []
        for space in frontier:
            for r, c in members.get(space, [space]):
                for dr, dc in STEPS:
                    other = anchor.get((r + dr, c + dc))
                    if other is not None and other not in seen:
                        seen[other] = depth
                        nxt.append(other)
        frontier = nxt
    return set(seen) - {origin}


def one_by_one(pack: PatchPack, civ: Civ) -> list[Cell]:
    """Squares that are 1x1 spaces (Reclamation and Buildings): not part of a whole feature."""
    view = shown(pack, civ)
    in_feature = {c for _, cells in features_shown(pack, civ, view) for c in cells}
    return sorted(cell for cell in view if cell not in in_feature)
