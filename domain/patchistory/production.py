"""Production and Maintenance (patchistory.production.*, patchistory.maintenance.*): each
player produces what the Reference Board shows (patchistory.production.tiles) and what the
Workers on Trade Routes stand on (patchistory.production.routes), then feeds the Workers off the
Descendant Track (patchistory.maintenance.workers), paying Culture for what is short (never
below zero: patchistory.culture.floor). In each Era's 5th Round the Heroes and Wonders are
maintained (patchistory.maintenance.heroes-wonders) and Chichen-Itza's player may send Workers
back for Culture before the Vote. Examples: `WORKED_EXAMPLES`."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.messages import Command, event
from domain.patchistory import eras, vote
from domain.patchistory import territory as terr
from domain.patchistory.context import (
    COMMANDS,
    FOLDS,
    Ctx,
    PatchEvent,
    behind_screen,
    goods_changed,
)
from domain.patchistory.model import PState
from domain.patchistory.pack import GOODS, PatchPack
from domain.patchistory.rounds import PhaseBegan, TurnPassed, next_holder
from domain.patchistory.workers import WorkerBackToTrack, cell, cell_args

STATUS_PRODUCERS = ("petra", "apollo", "angkor-wat", "statue-of-liberty")


WORKED_EXAMPLES = (
    "patchistory.example.production",
    "patchistory.example.maintenance",
)
"""The rulebook's worked examples of this chapter, each played again by a test."""


def route_goods(pack: PatchPack, state: PState, seat: int) -> list[dict[str, int]]:
    gains = []
    for route in state.routes:
        space = route.worker_of(seat)
        if space is None:
            continue
        kind = pack.general if route.kind == "general" else pack.allied
        goods = kind.spaces[space].goods
        if goods:
            gains.append(dict(goods))
    return gains


def producing_abilities(pack: PatchPack, state: PState, seat: int) -> tuple[str, ...]:
    """The abilities held that add to the production statuses (Petra's Coin; Apollo 11's,
    Angkor Wat's and the Statue of Liberty's Culture: patchistory.tile.petra,
    patchistory.tile.apollo, patchistory.tile.angkor-wat, patchistory.tile.statue-of-liberty)."""
    held = terr.abilities(pack, state.civs[seat])
    return tuple(terr.STATUS_ABILITIES[a] for a in STATUS_PRODUCERS if a in held)


def produce(ctx: Ctx) -> None:
    """The Production Phase and Worker Maintenance, then the next Round or the Era's end."""
    for seat in ctx.state.in_order():
        _produce(ctx, seat)
    for seat in ctx.state.in_order():
        _feed_workers(ctx, seat)
    state = ctx.state
    if state.round < ctx.pack.number("rounds_per_era"):
        eras.begin_round(ctx, state.era, state.round + 1, (state.start + 1) % state.players)
        return
    for seat in state.in_order():
        _maintain_heroes_wonders(ctx, seat)
    holders = tuple(
        s
        for s in ctx.state.in_order()
        if terr.has(ctx.pack, ctx.state.civs[s], "chichen-itza") and ctx.state.civs[s].workers
    )
    if holders:
        ctx.emit(PhaseBegan(rule="patchistory.tile.chichen-itza", phase="chichen", seats=holders))
        return
    vote.begin_vote(ctx)


def _produce(ctx: Ctx, seat: int) -> None:
    pack = ctx.pack
    state = ctx.state
    made = terr.production(pack, state, seat)
    from_routes = dict.fromkeys(GOODS, 0)
    cyrus = terr.has(pack, state.civs[seat], "cyrus")
    for gain in route_goods(pack, state, seat):
        for good, n in gain.items():
            from_routes[good] += n
        if cyrus:
            from_routes["culture"] += 1
    routed = any(from_routes.values())
    ctx.emit(
        GoodsProduced(
            rule="patchistory.production.tiles",
            cites=(
                terr.STATUS_RULE,
                *((terr.GOLD_BOX_RULE,) if terr.gold_worked(pack, state.civs[seat]) else ()),
                *producing_abilities(pack, state, seat),
                *(("patchistory.production.routes",) if routed else ()),
                *(("patchistory.tile.cyrus",) if cyrus and routed else ()),
            ),
            seat=seat,
            coin=made["coin"] + from_routes["coin"],
            food=made["food"] + from_routes["food"],
            resource=made["resource"] + from_routes["resource"],
            culture=made["culture"] + from_routes["culture"],
            routes=tuple(from_routes[g] for g in GOODS),
        )
    )


def _feed_workers(ctx: Ctx, seat: int) -> None:
    pack = ctx.pack
    civ = ctx.state.civs[seat]
    due = pack.numbers["descendant_track"][civ.born]
    cites: tuple[str, ...] = ()
    if terr.has(pack, civ, "marx"):
        due, cites = pack.number("maintenance", "marx_food"), ("patchistory.tile.marx",)
    paid = min(due, civ.food)
    short = (due - paid) * pack.number("maintenance", "food_short_culture")
    ctx.emit(
        Maintained(
            rule="patchistory.maintenance.workers",
            seat=seat,
            what="workers",
            cites=(*cites, *(("patchistory.culture.floor",) if short > civ.culture else ())),
            food=paid,
            resource=0,
            culture=min(short, civ.culture),
            visibility=behind_screen(pack, seat, seat=seat, what="workers"),
        )
    )


def _maintain_heroes_wonders(ctx: Ctx, seat: int) -> None:
    pack = ctx.pack
    civ = ctx.state.civs[seat]
    board = terr.statuses(pack, ctx.state, seat)
    food_due = board["heroes"] * pack.number("maintenance", "hero_food")
    res_due = board["wonders"] * pack.number("maintenance", "wonder_resources")
    if not food_due and not res_due:
        return
    food = min(food_due, civ.food)
    res = min(res_due, civ.resource)
    short = (food_due - food) * pack.number("maintenance", "food_short_culture") + (
        res_due - res
    ) * pack.number("maintenance", "resource_short_culture")
    ctx.emit(
        Maintained(
            rule="patchistory.maintenance.heroes-wonders",
            cites=("patchistory.culture.floor",) if short > civ.culture else (),
            seat=seat,
            what="heroes-wonders",
            food=food,
            resource=res,
            culture=min(short, civ.culture),
            visibility=behind_screen(pack, seat, seat=seat, what="heroes-wonders"),
        )
    )


# --- Chichen-Itza (patchistory.tile.chichen-itza) -----------------------------------------------


def chichen_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    for at in state.civs[seat].workers:
        yield Command.of("retire_for_culture", row=at[0], col=at[1])
    yield Command.of("end_chichen")


@COMMANDS.declares("retire_for_culture", "Chichen-Itza: a Worker back for 5 Culture.", *cell_args())
def retire_for_culture(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        WorkerBackToTrack(
            rule="patchistory.tile.chichen-itza",
            seat=seat,
            at=cell(command),
            culture=ctx.pack.number("chichen_itza_culture"),
        )
    )
    if not ctx.state.civs[seat].workers:
        _chichen_done(ctx, seat)


@COMMANDS.declares("end_chichen", "Return no more Workers to Chichen-Itza.")
def end_chichen(ctx: Ctx, seat: int, command: Command) -> None:
    _chichen_done(ctx, seat)


def _chichen_done(ctx: Ctx, seat: int) -> None:
    nxt = next_holder(ctx.pack, ctx.state, "chichen-itza", seat)
    ctx.emit(TurnPassed(rule="patchistory.tile.chichen-itza", seat=seat, next=nxt))


# --- the events --------------------------------------------------------------------------------


@event
class GoodsProduced(PatchEvent):
    seat: int
    coin: int
    food: int
    resource: int
    culture: int
    routes: tuple[int, ...]
    """Of which from Workers on Trade Routes: coin, food, resource, culture."""


@FOLDS.handles(GoodsProduced)
def _produced(pack: PatchPack, state: PState, ev: GoodsProduced) -> PState:
    return goods_changed(
        state, ev.seat, coin=ev.coin, food=ev.food, resource=ev.resource, culture=ev.culture
    )


@event
class Maintained(PatchEvent):
    """Food and Resources forfeited for upkeep, and Culture for what was short."""

    seat: int
    what: str
    food: int
    resource: int
    culture: int


@FOLDS.handles(Maintained)
def _maintained(pack: PatchPack, state: PState, ev: Maintained) -> PState:
    return goods_changed(state, ev.seat, food=-ev.food, resource=-ev.resource, culture=-ev.culture)
