"""Construction (the Management actions Construction - Reclamation and Construction -
Building): a 1x1 square reclaimed with a Building Tile's Wasteland side
(patchistory.management.reclamation), a Building constructed on a 1x1 non-Sea square
(patchistory.management.building), and a Building Tile drawn from the supply after either
(patchistory.management.building-tiles)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.frozen import evolved
from domain.core.messages import Command, event, private_to
from domain.patchistory import territory as terr
from domain.patchistory.context import (
    FOLDS,
    Ctx,
    PatchEvent,
    civ_changed,
    done_pending,
    goods_changed,
    spend_points,
)
from domain.patchistory.diplomacy import affords, cost, cost_cites
from domain.patchistory.model import Cell, Civ, Cover, PState
from domain.patchistory.pack import SEA, PatchPack
from domain.patchistory.workers import cell


def buildings(pack: PatchPack) -> tuple[str, ...]:
    return tuple(sorted(pack.buildings))


def draw_buildings(ctx: Ctx, seat: int, count: int, cite: str) -> None:
    drawn = ctx.state.stack[:count]
    if not drawn:
        return
    ctx.emit(
        BuildingTilesDrawn(
            rule=cite,
            seat=seat,
            drawn=tuple(drawn),
            visibility=private_to(seat, redacted={"seat": seat, "count": len(drawn)}),
        )
    )


def reclaimable(pack: PatchPack, civ: Civ) -> Iterator[Cell]:
    """The 1x1 squares of a territory not already a Wasteland side."""
    view = terr.shown(pack, civ)
    for at in terr.one_by_one(pack, civ):
        cover = view[at].cover
        if cover is not None and cover.wasteland:
            continue
        yield at


def construction_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    civ = state.civs[seat]
    hand = sorted(set(civ.hand))
    if affords(pack, state, seat, "reclamation") and civ.resource >= pack.number(
        "construction", "reclamation_resources"
    ):
        for at in reclaimable(pack, civ):
            for building in hand:
                yield Command.of("reclaim", row=at[0], col=at[1], building=building)
    if affords(pack, state, seat, "building"):
        squares = terr.one_by_one(pack, civ)
        view = terr.shown(pack, civ)
        for building in hand:
            if pack.buildings[building].cost > civ.resource:
                continue
            for at in squares:
                if view[at].cover is None and view[at].square.terrain != SEA:
                    yield Command.of("construct", row=at[0], col=at[1], building=building)


def reclaim(ctx: Ctx, seat: int, command: Command, owner: int = -1) -> None:
    """A square reclaimed: in the seat's own territory (a Management action), or in the
    defeated `owner`'s for nothing (Stealth Aircraft)."""
    state = ctx.state
    at = cell(command)
    building = str(command.arg("building"))
    stealth = owner >= 0
    resources = 0 if stealth else ctx.pack.number("construction", "reclamation_resources")
    points = 0 if stealth else cost(ctx.pack, state, seat, "reclamation")
    cite = "patchistory.tile.stealth-aircraft" if stealth else "patchistory.management.reclamation"
    ctx.emit(
        SquareReclaimed(
            rule=cite,
            seat=seat,
            at=at,
            tile_used=building,
            resources=resources,
            points=points,
            owner=owner,
            visibility=private_to(
                seat,
                redacted={
                    "seat": seat,
                    "at": list(at),
                    "resources": resources,
                    "points": points,
                    "owner": owner,
                },
            ),
        )
    )
    draw_buildings(ctx, seat, 1, "patchistory.management.building-tiles")


def construct(ctx: Ctx, seat: int, command: Command) -> None:
    """A Building constructed, and a Building Tile drawn to replace it."""
    building = str(command.arg("building"))
    ctx.emit(
        BuildingConstructed(
            rule="patchistory.management.building",
            cites=cost_cites(ctx.pack, ctx.state, seat, "building"),
            seat=seat,
            at=cell(command),
            building=building,
            resources=ctx.pack.buildings[building].cost,
            points=cost(ctx.pack, ctx.state, seat, "building"),
        )
    )
    draw_buildings(ctx, seat, 1, "patchistory.management.building-tiles")


# --- the events --------------------------------------------------------------------------------


@event
class BuildingTilesDrawn(PatchEvent):
    """Building Tiles from the top of the supply into a hand (seen by the drawer only)."""

    seat: int
    drawn: tuple[str, ...]


@FOLDS.handles(BuildingTilesDrawn)
def _drawn(pack: PatchPack, state: PState, ev: BuildingTilesDrawn) -> PState:
    state = evolved(state, stack=state.stack[len(ev.drawn) :])
    return civ_changed(state, ev.seat, hand=(*state.civs[ev.seat].hand, *ev.drawn))


@event
class SquareReclaimed(PatchEvent):
    """A square covered by the Wasteland side of a Building Tile (which one: its player's
    secret; `building` is empty in the public form)."""

    seat: int
    at: Cell
    tile_used: str
    resources: int
    points: int
    owner: int = -1
    """Whose territory (-1: the player's own; Stealth Aircraft reclaims the defeated's)."""


@FOLDS.handles(SquareReclaimed)
def _reclaim(pack: PatchPack, state: PState, ev: SquareReclaimed) -> PState:
    owner = ev.seat if ev.owner < 0 else ev.owner
    state = _cover(state, owner, Cover(ev.at[0], ev.at[1], ev.tile_used, True))
    civ = state.civs[ev.seat]
    hand = list(civ.hand)
    hand.remove(ev.tile_used)
    state = civ_changed(state, ev.seat, hand=tuple(hand))
    state = goods_changed(state, ev.seat, resource=-ev.resources)
    state = spend_points(state, ev.seat, ev.points)
    return done_pending(state, ev.seat, ("stealth",))


@event
class BuildingConstructed(PatchEvent):
    seat: int
    at: Cell
    building: str
    resources: int
    points: int


@FOLDS.handles(BuildingConstructed)
def _build(pack: PatchPack, state: PState, ev: BuildingConstructed) -> PState:
    state = _cover(state, ev.seat, Cover(ev.at[0], ev.at[1], ev.building, False))
    civ = state.civs[ev.seat]
    hand = list(civ.hand)
    hand.remove(ev.building)
    state = civ_changed(state, ev.seat, hand=tuple(hand))
    state = goods_changed(state, ev.seat, resource=-ev.resources)
    return spend_points(state, ev.seat, ev.points)


def _cover(state: PState, seat: int, cover: Cover) -> PState:
    civ = state.civs[seat]
    old = [c for c in civ.covers if c.at == cover.at]
    covers = tuple(sorted((*(c for c in civ.covers if c.at != cover.at), cover), key=_cover_key))
    state = civ_changed(state, seat, covers=covers)
    if old:
        state = evolved(state, removed=(*state.removed, old[0].building))
    return state


def _cover_key(cover: Cover) -> tuple[int, int]:
    return cover.at
