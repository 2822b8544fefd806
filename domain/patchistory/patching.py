"""Patching (patchistory.patch.*): a Tile won is patched onto the territory, wholly over or
wholly under the squares it overlaps (patchistory.patch.overlap), or forfeited
(patchistory.patch.optional); what may not be covered or half covered, the size limit of each
Era, and the first Workers after the game's first Auction (patchistory.patch.first-workers).
The Tiles' facing (patchistory.patch.facing) is the side they were won with, chosen here with
2 players (patchistory.auction.two-player-patching). Example: `WORKED_EXAMPLES`.

`placement_refusal` states where a Tile may go once: the placements listed are those it does
not refuse, and a refused `patch` cites what it says."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from domain.core.declare import Arg
from domain.core.errors import IllegalAction, RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.patchistory import territory as terr
from domain.patchistory.context import COMMANDS, FOLDS, Ctx, PatchEvent, civ_changed
from domain.patchistory.model import Cell, Civ, Cover, Placed, PState
from domain.patchistory.pack import BLACK, SEA, WHITE, Feature, PatchPack, Square
from domain.patchistory.rounds import DecisionAwaited, PhaseBegan, refused_by

OVER, UNDER = "over", "under"


UNCITED_RULES = ("patchistory.patch.facing",)
"""The clauses this module decides that no event or refusal carries."""
WORKED_EXAMPLES = ("patchistory.example.patching",)
"""The rulebook's worked examples of this chapter, each played again by a test."""


def begin_patching(ctx: Ctx) -> None:
    ctx.emit(PhaseBegan(rule="patchistory.patch.optional", phase="patching", seats=()))


def first_workers(ctx: Ctx) -> None:
    count = ctx.pack.numbers["first_workers"][ctx.state.capital_side]
    for seat in ctx.state.in_order():
        for _ in range(count):
            ctx.emit(
                DecisionAwaited(rule="patchistory.patch.first-workers", kind="place-new", seat=seat)
            )


def after_patching(ctx: Ctx) -> bool:
    """Once every Tile won is patched or forfeited: after the game's first Auction each player
    places the first Workers. Whether they are waited for."""
    if ctx.state.era == 1 and ctx.state.round == 1:
        first_workers(ctx)
        if ctx.state.pending:
            ctx.emit(PhaseBegan(rule="patchistory.patch.first-workers", phase="first-workers"))
            return True
    return False


# --- where a Tile may go ----------------------------------------------------------------------


def bounds(cells: list[Cell]) -> tuple[int, int]:
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return max(rows) - min(rows) + 1, max(cols) - min(cols) + 1


def patched(civ: Civ, placed: Placed, covered: set[Cell]) -> Civ:
    """The civilization with `placed` added; Building Tiles under it leave the game."""
    return evolved(
        civ,
        tiles=(*civ.tiles, placed),
        covers=tuple(c for c in civ.covers if c.at not in covered),
    )


def layer_z(civ: Civ, layer: str) -> int:
    zs = [t.z for t in civ.tiles] or [0]
    return max(zs) + 1 if layer == OVER else min(zs) - 1


@dataclass(frozen=True, slots=True)
class Territory:
    """A territory a Tile is tried on, worked out once for every placement tried: what shows,
    its features showing whole, their footprints, its Seas and how far it reaches."""

    civ: Civ
    view: dict[Cell, terr.Shown]
    features: list[tuple[Feature, tuple[Cell, ...]]]
    footprints: tuple[tuple[int, str, frozenset[Cell]], ...]
    """Every feature of every Tile patched: the Tile's index, the feature's name, its cells."""
    seas: frozenset[Cell]
    covers: dict[Cell, Cover]
    reach: tuple[int, int, int, int]
    """The first and last rows, the first and last columns."""
    limit: int

    @property
    def liberty(self) -> bool:
        return any(f.ability == "statue-of-liberty" for f, _ in self.features)


def territory(pack: PatchPack, state: PState, seat: int) -> Territory:
    civ = state.civs[seat]
    view = terr.shown(pack, civ)
    footprints = tuple(
        (index, feature.name, frozenset((item.row + r, item.col + c) for r, c in feature.squares))
        for index, item in enumerate(civ.tiles)
        for feature in terr.side_of(pack, item).features
    )
    rows = [r for r, _ in view] or [0]
    cols = [c for _, c in view] or [0]
    return Territory(
        civ,
        view,
        terr.features_shown(pack, civ, view),
        footprints,
        frozenset(cell for cell, item in view.items() if terr.is_sea(item)),
        {c.at: c for c in civ.covers},
        (min(rows), max(rows), min(cols), max(cols)),
        pack.numbers["patch_limit"][state.era - 1],
    )


def placement_refusal(
    pack: PatchPack, state: PState, seat: int, tile: str, side: str, row: int, col: int, layer: str
) -> tuple[str, str] | None:
    """Why the Tile side may not go at (row, col) `layer` the territory: (rule id, words), or
    None when it may."""
    return refusal_on(pack, territory(pack, state, seat), tile, side, row, col, layer)


def refusal_on(
    pack: PatchPack, land: Territory, tile: str, side: str, row: int, col: int, layer: str
) -> tuple[str, str] | None:
    """`placement_refusal` on a territory worked out already."""
    view = land.view
    new = {(row + sq.at[0], col + sq.at[1]): sq for sq in pack.side(tile, side).squares}
    overlap = [cell for cell in new if cell in view]
    if not overlap:
        return (
            "patchistory.patch.overlap",
            "the Tile must lie over or under a square of your Empire",
        )
    if any(terr.is_sea(view[cell]) for cell in overlap):
        return "patchistory.patch.sea-untouchable", "nothing may be patched over or under a Sea"
    if layer == UNDER and any(new[cell].terrain == SEA for cell in overlap):
        return "patchistory.patch.sea-over", "a Sea cannot be patched under any square"
    liberty = land.liberty
    if layer == OVER and liberty:
        for feature, cells in land.features:
            if feature.ability == "statue-of-liberty" and set(cells) & set(overlap):
                return (
                    "patchistory.tile.statue-of-liberty",
                    "the Statue of Liberty may not be patched over",
                )
    placed = Placed(tile, side, row, col, layer_z(land.civ, layer))
    return _after_refusal(pack, land, placed, new, layer, liberty)


def _after_refusal(
    pack: PatchPack,
    land: Territory,
    placed: Placed,
    new: dict[Cell, Square],
    layer: str,
    liberty: bool,
) -> tuple[str, str] | None:
    """What the territory patched would break: the Era's size (not with the Statue of
    Liberty), a feature half covered, two Seas adjacent, two Workers on one space.

    The Tile tried is laid over (or under) what shows of the territory as it is, rather than
    the territory worked out afresh with it: over, its squares show on all its cells and the
    covers under them are gone; under, only on the cells nothing showed on. The territory's
    features stay whole unless the Tile lies over one of their cells; the Tile's own show whole
    where all their cells show its squares."""
    view, index = land.view, len(land.civ.tiles)
    after_view = dict(view)
    seas = set(land.seas)
    r0, r1, c0, c1 = land.reach
    for cell, square in new.items():
        r0, r1, c0, c1 = min(r0, cell[0]), max(r1, cell[0]), min(c0, cell[1]), max(c1, cell[1])
        if cell in view:
            if layer != OVER:
                continue
            after_view[cell] = terr.Shown(square, index, None)
            seas.discard(cell)
        else:
            after_view[cell] = terr.Shown(square, index, land.covers.get(cell))
        if square.terrain == SEA:
            seas.add(cell)
    if max(r1 - r0 + 1, c1 - c0 + 1) > land.limit and not liberty:
        return (
            "patchistory.patch.limit",
            f"your civilization may not exceed {land.limit}x{land.limit}",
        )
    features = [f for f in land.features if layer != OVER or new.keys().isdisjoint(f[1])]
    mine = []
    for feature in terr.side_of(pack, placed).features:
        cells = tuple(sorted((placed.row + r, placed.col + c) for r, c in feature.squares))
        mine.append((index, feature.name, frozenset(cells)))
        if all(after_view.get(cell) and after_view[cell].layer == index for cell in cells):
            features.append((feature, cells))
    whole = {cell for _, cells in features for cell in cells}
    for at, name, footprint in (*land.footprints, *mine):
        showing = any(after_view[cell].layer == at for cell in footprint)
        if showing and not footprint <= whole:
            return "patchistory.patch.whole-features", f"{name} would be half covered"
    for r, c in seas:
        if (r + 1, c) in seas or (r, c + 1) in seas:
            return "patchistory.patch.seas-apart", "no two Sea spaces may be adjacent"
    anchor = {cell: cells[0] for _, cells in features for cell in cells}
    taken = [anchor.get(w, w) for w in land.civ.workers]
    if len(set(taken)) != len(taken):
        return "patchistory.patch.worker-stays", "two Workers would stand on one space"
    return None


def placements(
    pack: PatchPack, state: PState, seat: int, tile: str, side: str
) -> Iterator[tuple[int, int, str]]:
    """Every legal (row, col, layer) for the Tile side, in order."""
    land = territory(pack, state, seat)
    rows, cols = pack.side(tile, side).size
    r0, r1, c0, c1 = land.reach
    for row in range(r0 - rows + 1, r1 + 1):
        for col in range(c0 - cols + 1, c1 + 1):
            for layer in (OVER, UNDER):
                if refusal_on(pack, land, tile, side, row, col, layer) is None:
                    yield row, col, layer


def patch_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    won = state.won[0]
    sides = (won.side,) if won.side else (WHITE, BLACK)
    for side in sides:
        for row, col, layer in placements(pack, state, seat, won.tile, side):
            yield Command.of("patch", side=side, row=row, col=col, layer=layer)
    yield FORFEIT


def is_listed_patch(pack: PatchPack, state: PState, seat: int, command: Command) -> bool:
    """Whether `patch_actions` lists `command`, without listing: the listing's own command
    built from its arguments, on a side it offers, where `placement_refusal` finds nothing
    (every placement with an overlap lies in the rows and columns the listing tries)."""
    won = state.won[0]
    side, layer = command.arg("side"), command.arg("layer")
    if side not in ((won.side,) if won.side else (WHITE, BLACK)) or layer not in (OVER, UNDER):
        return False
    try:
        row, col = int(command.arg("row")), int(command.arg("col"))
    except (TypeError, ValueError, OverflowError):
        return False
    listed = Command.of("patch", side=str(side), row=row, col=col, layer=str(layer))
    if listed != command:
        return False
    return placement_refusal(pack, state, seat, won.tile, str(side), row, col, str(layer)) is None


FORFEIT = Command.of("forfeit_tile")


def is_listed_forfeit(pack: PatchPack, state: PState, seat: int, command: Command) -> bool:
    """`patch_actions` always ends with forfeiting the Tile won."""
    return bool(state.won) and command == FORFEIT


def why_not_patch(
    pack: PatchPack, state: PState, seat: int, command: Command
) -> RuleViolation | None:
    """The placement's own refusal, else the rule of patching."""
    if state.phase == "patching" and state.won and not state.pending:
        won = state.won[0]
        try:
            side = str(command.arg("side") or won.side)
            found = placement_refusal(
                pack,
                state,
                seat,
                won.tile,
                side,
                int(command.arg("row")),
                int(command.arg("col")),
                str(command.arg("layer")),
            )
        except (TypeError, ValueError, KeyError):
            found = None
        if found is not None:
            return IllegalAction(found[1], found[0], {"command": command.as_dict()})
    return refused_by("patchistory.patch.overlap")(pack, state, seat, command)


# --- the commands ------------------------------------------------------------------------------


@COMMANDS.declares(
    "patch",
    "Patch the Tile you won into your territory, on the side and at the place you choose.",
    Arg("side", "The side patched.", (WHITE, BLACK)),
    Arg("row", "Row of the square in the territory (may be negative).", kind=int),
    Arg("col", "Column of the square in the territory (may be negative).", kind=int),
    Arg("layer", "Over or under the squares it overlaps.", (OVER, UNDER)),
    why_not=why_not_patch,
)
def patch(ctx: Ctx, seat: int, command: Command) -> None:
    side, layer = str(command.arg("side")), str(command.arg("layer"))
    row, col = int(command.arg("row")), int(command.arg("col"))
    state = ctx.state
    won = state.won[0]
    civ = state.civs[seat]
    placed = evolved(Placed(won.tile, side, row, col, 0), z=layer_z(civ, layer))
    before = terr.shown(ctx.pack, civ)
    new = {cell for cell, _ in terr.cells_of(ctx.pack, placed)}
    removed = 0
    if layer == OVER:
        removed = sum(1 for cell, item in before.items() if cell in new and item.cover is not None)
    ctx.emit(
        TilePatched(
            rule="patchistory.patch.overlap",
            cites=(
                *(("patchistory.patch.buildings",) if removed else ()),
                *(("patchistory.auction.two-player-patching",) if state.players == 2 else ()),
            ),
            seat=seat,
            tile=won.tile,
            side=side,
            row=row,
            col=col,
            layer=layer,
            z=placed.z,
            removed=removed,
        )
    )
    _moses(ctx, seat, won.tile, side)


def _moses(ctx: Ctx, seat: int, tile: str, side: str) -> None:
    """patchistory.tile.moses: Moses patched in brings a new Worker onto a free space."""
    after = ctx.state.civs[seat]
    view = terr.shown(ctx.pack, after)
    index = len(after.tiles) - 1
    for feature, _ in terr.features_shown(ctx.pack, after, view):
        if feature.ability != "moses":
            continue
        fresh = {f.id for f in ctx.pack.side(tile, side).features}
        if feature.id in fresh and after.born < 8 and terr.free_spaces(ctx.pack, after):
            ctx.emit(
                DecisionAwaited(
                    rule="patchistory.tile.moses", kind="place-new", seat=seat, numbers=(index,)
                )
            )


@COMMANDS.declares(
    "forfeit_tile",
    "Do not patch the Tile you won.",
    why_not=refused_by("patchistory.patch.optional"),
)
def forfeit_tile(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        TileForfeited(rule="patchistory.patch.optional", seat=seat, tile=ctx.state.won[0].tile)
    )


# --- the events --------------------------------------------------------------------------------


@event
class TilePatched(PatchEvent):
    seat: int
    tile: str
    side: str
    row: int
    col: int
    layer: str
    z: int
    removed: int
    """Building Tiles patched over, removed from the game."""


@FOLDS.handles(TilePatched)
def _patched(pack: PatchPack, state: PState, ev: TilePatched) -> PState:
    civ = state.civs[ev.seat]
    placed = Placed(ev.tile, ev.side, ev.row, ev.col, ev.z)
    cells = {(ev.row + sq.at[0], ev.col + sq.at[1]) for sq in pack.side(ev.tile, ev.side).squares}
    gone = [c for c in civ.covers if c.at in cells] if ev.layer == "over" else []
    state = civ_changed(
        state,
        ev.seat,
        tiles=(*civ.tiles, placed),
        covers=tuple(c for c in civ.covers if c not in gone),
    )
    removed = (*state.removed, *(c.building for c in gone))
    return evolved(state, won=state.won[1:], removed=removed)


@event
class TileForfeited(PatchEvent):
    seat: int
    tile: str


@FOLDS.handles(TileForfeited)
def _forfeit(pack: PatchPack, state: PState, ev: TileForfeited) -> PState:
    return evolved(state, won=state.won[1:])
