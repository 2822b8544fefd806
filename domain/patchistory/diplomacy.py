"""Diplomacy (the first step of the Diplomacy and Management Phase, patchistory.diplomacy.*):
the Political Points each Round gives (patchistory.politics.points) and what actions cost
(patchistory.politics.minimum-cost, lowered by Special Buildings: patchistory.tile.cost-reduction);
in turn order from the Start Player (patchistory.diplomacy.order), Aid offered over a Trade
Route and its answer, a Threat over a General Trade Route, and an Alliance broken."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from domain.core.declare import Arg
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.patchistory import territory as terr
from domain.patchistory.context import (
    COMMANDS,
    FOLDS,
    Ctx,
    PatchEvent,
    behind_screen,
    done_pending,
    goods_changed,
    spend_points,
)
from domain.patchistory.model import Pending, PState
from domain.patchistory.pack import PatchPack
from domain.patchistory.rounds import PhaseBegan, pass_turn, refused_by
from domain.patchistory.trade_routes import TradeRouteForfeited, allied, connected

SEAT = "A seat (0-based)."


def begin_diplomacy(ctx: Ctx) -> None:
    state = ctx.state
    pack = ctx.pack
    points = tuple(max(0, terr.statuses(pack, state, s)["politics"]) for s in range(state.players))
    che = tuple(
        "patchistory.tile.che-guevara"
        for s in range(state.players)
        if terr.has(pack, state.civs[s], "che-guevara")
    )[:1]
    ctx.emit(PointsSet(rule="patchistory.politics.points", cites=che, points=points))
    ctx.emit(
        PhaseBegan(rule="patchistory.diplomacy.order", phase="diplomacy", seats=state.in_order())
    )


# --- Political costs ---------------------------------------------------------------------------


def cost(pack: PatchPack, state: PState, seat: int, action: str) -> int:
    """An action's Political cost, lowered by Special Buildings, never below 1
    (patchistory.politics.minimum-cost)."""
    base = int(pack.numbers["political_costs"][action])
    return max(1, base - cheaper(pack, state, seat, action))


def cost_cites(pack: PatchPack, state: PState, seat: int, action: str) -> tuple[str, ...]:
    """What set an action's Political cost below the printed one: a Special Building
    (patchistory.tile.cost-reduction), and the floor of 1 when it would go lower."""
    less = cheaper(pack, state, seat, action)
    if not less:
        return ()
    base = int(pack.numbers["political_costs"][action])
    floor = ("patchistory.politics.minimum-cost",) if base - less < 1 else ()
    return ("patchistory.tile.cost-reduction", *floor)


def cheaper(pack: PatchPack, state: PState, seat: int, action: str) -> int:
    civ = state.civs[seat]
    shown = terr.features_shown(pack, civ, terr.shown(pack, civ))
    return sum(1 for f, _ in shown if f.ability == f"cheaper-{action}")


def affords(pack: PatchPack, state: PState, seat: int, action: str) -> bool:
    """Whether the seat has the Political Points `action` costs it."""
    return state.pp[seat] >= cost(pack, state, seat, action)


# --- what a seat may do ------------------------------------------------------------------------


def diplomacy_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    yield from aid_actions(pack, state, seat)
    if affords(pack, state, seat, "threaten"):
        for other in range(state.players):
            if (
                other != seat
                and connected(state, seat, other, general_only=True)
                and not allied(state, seat, other)
            ):
                for demand in ("culture", "coin"):
                    yield Command.of("threaten", to=other, demand=demand)
    if state.pp[seat] >= 1 and not state.has_flag(seat, "diplomacy"):
        for route in state.routes:
            if route.kind == "allied" and seat in (route.a, route.b):
                yield Command.of("break_alliance", route=route.id)
    yield Command.of("end_diplomacy")


def aid_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    civ = state.civs[seat]
    if not affords(pack, state, seat, "aid") or state.has_flag(seat, "accepted-aid"):
        return
    units = pack.numbers["aid"]["units"]
    for other in range(state.players):
        if other == seat or not connected(state, seat, other):
            continue
        for food in range(min(units, civ.food) + 1):
            for coin in range(min(units - food, civ.coin) + 1):
                resource = units - food - coin
                if resource <= civ.resource:
                    yield Command.of("aid", to=other, food=food, coin=coin, resource=resource)


def answer_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    yield Command.of("accept_aid")
    yield Command.of("refuse_aid")


# --- the commands ------------------------------------------------------------------------------


@COMMANDS.declares(
    "aid",
    "Offer Aid: three units of Food, Coin and Resources.",
    Arg("to", SEAT, kind=int, minimum=0),
    Arg("food", "Food offered.", kind=int, minimum=0),
    Arg("coin", "Coin offered.", kind=int, minimum=0),
    Arg("resource", "Resources offered.", kind=int, minimum=0),
    why_not=refused_by("patchistory.diplomacy.aid"),
)
def aid(ctx: Ctx, seat: int, command: Command) -> None:
    to, points = int(command.arg("to")), cost(ctx.pack, ctx.state, seat, "aid")
    ctx.emit(
        AidOffered(
            rule="patchistory.diplomacy.aid",
            seat=seat,
            to=to,
            food=int(command.arg("food")),
            coin=int(command.arg("coin")),
            resource=int(command.arg("resource")),
            points=points,
            visibility=behind_screen(ctx.pack, seat, to, seat=seat, to=to, points=points),
        )
    )


@COMMANDS.declares("accept_aid", "Accept the Aid offered.")
def accept_aid(ctx: Ctx, seat: int, command: Command) -> None:
    _answer_aid(ctx, seat, accepted=True)


@COMMANDS.declares("refuse_aid", "Refuse the Aid offered.")
def refuse_aid(ctx: Ctx, seat: int, command: Command) -> None:
    _answer_aid(ctx, seat, accepted=False)


def _answer_aid(ctx: Ctx, seat: int, accepted: bool) -> None:
    giver, food, coin, resource = ctx.state.pending[0].numbers
    numbers = ctx.pack.numbers["aid"]
    culture = numbers["accepted_culture"] if accepted else numbers["refused_culture"]
    ctx.emit(
        AidAnswered(
            rule="patchistory.diplomacy.aid",
            cites=("patchistory.diplomacy.aid-accepted",) if accepted else (),
            seat=seat,
            giver=giver,
            accepted=accepted,
            food=food,
            coin=coin,
            resource=resource,
            culture=culture,
            visibility=behind_screen(
                ctx.pack, seat, giver, seat=seat, giver=giver, accepted=accepted, culture=culture
            ),
        )
    )


@COMMANDS.declares(
    "threaten",
    "Threaten a player for Culture or Coin.",
    Arg("to", SEAT, kind=int, minimum=0),
    Arg("demand", "What you ask for.", ("culture", "coin")),
    why_not=refused_by("patchistory.diplomacy.threaten"),
)
def threaten(ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    pack = ctx.pack
    to, demand = int(command.arg("to")), str(command.arg("demand"))
    mine = terr.statuses(pack, state, seat)
    theirs = terr.statuses(pack, state, to)
    gandhi = terr.has(pack, state.civs[seat], "gandhi")
    against = (0 if gandhi else theirs["military"]) + theirs["defense"]
    numbers = pack.numbers["threaten"]
    success = mine["military"] > against
    crushing = mine["military"] - against >= numbers["crushing_margin"]
    asked = numbers[f"crushing_{demand}" if crushing else demand]
    taken = min(asked, state.civs[to].goods(demand)) if success else 0
    bismarck = success and terr.has(pack, state.civs[seat], "bismarck")
    cites = tuple(
        c
        for c, on in (("patchistory.tile.gandhi", gandhi), ("patchistory.tile.bismarck", bismarck))
        if on
    )
    shown: dict[str, Any] = {
        "seat": seat,
        "to": to,
        "demand": demand,
        "military": mine["military"],
        "against": against,
        "success": success,
        "bonus": numbers["bismarck_culture"] if bismarck else 0,
        "points": cost(pack, state, seat, "threaten"),
    }
    # What is taken is what the threatened player could pay (patchistory.diplomacy.threaten):
    # only the two players see it, or it would show what is behind the threatened screen.
    ctx.emit(
        Threatened(
            rule="patchistory.diplomacy.threaten",
            cites=(*cites, *cost_cites(pack, state, seat, "threaten")),
            taken=taken,
            visibility=behind_screen(pack, seat, to, **shown),
            **shown,
        )
    )


@COMMANDS.declares(
    "break_alliance",
    "Break an Alliance (all your Political Points).",
    Arg("route", "The Allied Trade Route.", kind=int, minimum=1),
    why_not=refused_by("patchistory.diplomacy.break-alliance"),
)
def break_alliance(ctx: Ctx, seat: int, command: Command) -> None:
    points = ctx.state.pp[seat]
    ctx.emit(
        TradeRouteForfeited(
            rule="patchistory.diplomacy.break-alliance",
            route=int(command.arg("route")),
            seat=seat,
            votes=points,
            points=points,
        )
    )


@COMMANDS.declares("end_diplomacy", "Take no more Diplomacy actions this Round.")
def end_diplomacy(ctx: Ctx, seat: int, command: Command) -> None:
    pass_turn(ctx, "patchistory.diplomacy.order", seat)


# --- the events --------------------------------------------------------------------------------


@event
class PointsSet(PatchEvent):
    points: tuple[int, ...]


@FOLDS.handles(PointsSet)
def _points(pack: PatchPack, state: PState, ev: PointsSet) -> PState:
    return evolved(state, pp=ev.points)


@event
class AidOffered(PatchEvent):
    seat: int
    to: int
    food: int
    coin: int
    resource: int
    points: int


@FOLDS.handles(AidOffered)
def _aid(pack: PatchPack, state: PState, ev: AidOffered) -> PState:
    state = spend_points(state, ev.seat, ev.points).with_flag(ev.seat, "diplomacy")
    pending = Pending("aid", ev.to, (ev.seat, ev.food, ev.coin, ev.resource))
    return evolved(state, pending=(*state.pending, pending))


@event
class AidAnswered(PatchEvent):
    seat: int
    """Who answers (the player offered Aid)."""
    giver: int
    accepted: bool
    food: int
    coin: int
    resource: int
    culture: int
    """Culture the giver gains."""


@FOLDS.handles(AidAnswered)
def _aid_answer(pack: PatchPack, state: PState, ev: AidAnswered) -> PState:
    if ev.accepted:
        state = goods_changed(state, ev.giver, food=-ev.food, coin=-ev.coin, resource=-ev.resource)
        state = goods_changed(state, ev.seat, food=ev.food, coin=ev.coin, resource=ev.resource)
        state = state.with_flag(ev.seat, "accepted-aid")
    state = goods_changed(state, ev.giver, culture=ev.culture)
    return done_pending(state, ev.seat, ("aid",))


@event
class Threatened(PatchEvent):
    seat: int
    to: int
    demand: str
    military: int
    against: int
    success: bool
    taken: int
    bonus: int
    points: int


@FOLDS.handles(Threatened)
def _threat(pack: PatchPack, state: PState, ev: Threatened) -> PState:
    state = spend_points(state, ev.seat, ev.points).with_flag(ev.seat, "diplomacy")
    if ev.success:
        state = goods_changed(state, ev.to, **{ev.demand: -ev.taken})
        state = goods_changed(state, ev.seat, **{ev.demand: ev.taken})
    return goods_changed(state, ev.seat, culture=ev.bonus)
