"""Negotiation and War (patchistory.negotiation.*, patchistory.war.*): a Worker on a General
Trade Route's Preparation space brings its two players to Negotiation
(patchistory.negotiation.when), each choosing red or blue under seal: both blue may form an
Alliance (patchistory.negotiation.alliance), any red declares War
(patchistory.negotiation.red). A War is fought the next Round with Military Strength, Defense
and the Resources committed under seal (patchistory.war.strength); Allies neither negotiate
nor fight (patchistory.war.allies). Stealth Aircraft's winner may reclaim a square of the
defeated."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from domain.core.declare import Arg
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.core.turns import SealedCommand
from domain.patchistory import territory as terr
from domain.patchistory.construction import buildings, reclaim, reclaimable
from domain.patchistory.context import (
    COMMANDS,
    FOLDS,
    Ctx,
    PatchEvent,
    behind_screen,
    goods_changed,
)
from domain.patchistory.model import Pending, PState, Route
from domain.patchistory.pack import PatchPack
from domain.patchistory.production import produce
from domain.patchistory.revisions import WAR_ORDER_CHOSEN
from domain.patchistory.rounds import AT_ONCE, DecisionAwaited, PhaseBegan, refused_by
from domain.patchistory.trade_routes import TradeRouteOpened, allied, used
from domain.patchistory.workers import cell_args


def begin_conflicts(ctx: Ctx) -> None:
    state = ctx.state
    prep = ctx.pack.general.index("preparation")
    war = ctx.pack.general.index("war")
    order = state.in_order()

    def by_turn(route: Route) -> tuple[int, int]:
        return (order.index(route.a), route.id)

    talks = sorted(
        (
            r
            for r in state.routes
            if r.kind == "general" and not r.declared and r.worker_of(r.a) == prep
        ),
        key=by_turn,
    )
    wars = sorted(
        (r for r in state.routes if r.kind == "general" and r.worker_of(r.a) == war),
        key=by_turn,
    )
    if talks or wars:
        ctx.emit(
            ConflictsFound(
                rule="patchistory.negotiation.when",
                negotiations=tuple(r.id for r in talks),
                wars=tuple(r.id for r in wars),
            )
        )
    ctx.emit(PhaseBegan(rule="patchistory.negotiation.when", phase="conflicts"))


def next_conflict(ctx: Ctx) -> None:
    state = ctx.state
    if state.negotiations:
        route = state.route(state.negotiations[0])
        if allied(state, route.a, route.b):
            ctx.emit(NegotiationSkipped(rule="patchistory.war.allies", route=route.id))
            ctx.emit(WorkerLeftRoute(rule="patchistory.war.allies", seat=route.a, route=route.id))
            return
        ctx.emit(
            PhaseBegan(
                rule="patchistory.negotiation.choose", phase="negotiation", seats=(route.a, route.b)
            )
        )
        return
    if state.wars:
        route = state.route(state.wars[0])
        if war_order_to_choose(ctx.pack, state):
            ctx.emit(
                DecisionAwaited(
                    rule="patchistory.war.order",
                    kind="war-order",
                    seat=route.a,
                    numbers=wars_of(state, route.a),
                )
            )
            return
        if allied(state, route.a, route.b):
            ctx.emit(WarCalledOff(rule="patchistory.war.allies", route=route.id))
            ctx.emit(WorkerLeftRoute(rule="patchistory.war.allies", seat=route.a, route=route.id))
            return
        ctx.emit(PhaseBegan(rule="patchistory.war.strength", phase="war", seats=(route.a, route.b)))
        return
    produce(ctx)


def wars_of(state: PState, seat: int) -> tuple[int, ...]:
    """The Wars still to resolve that `seat` is involved in, in the Routes' order."""
    return tuple(w for w in state.wars if seat in (state.route(w).a, state.route(w).b))


def war_order_to_choose(pack: PatchPack, state: PState) -> bool:
    """patchistory.war.order: "If a player is involved in two Wars when it is their turn, they
    may choose which War to resolve first" (from revision 4): the player of the next War's
    turn, involved in two or more, has not chosen yet."""
    if not pack.since(WAR_ORDER_CHOSEN) or not state.wars or state.war_chosen == state.wars[0]:
        return False
    return len(wars_of(state, state.route(state.wars[0]).a)) >= 2


def conflict_route(state: PState) -> Route:
    return state.route(state.negotiations[0] if state.phase == "negotiation" else state.wars[0])


# --- what a seat may do ------------------------------------------------------------------------


def side_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    yield Command.of("choose_side", blue=False)
    yield Command.of("choose_side", blue=True)


def strength_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    civ = state.civs[seat]
    votes = civ.votes if terr.has(pack, civ, "jeanne-darc") else 0
    for resources in range(civ.resource + 1):
        for v in range(votes + 1):
            yield Command.of("commit_strength", resources=resources, votes=v)


def propose_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    route = state.route(state.pending[0].numbers[0])
    for start in (route.a, route.b):
        yield Command.of("propose_alliance", start=start)
    yield Command.of("decline_alliance")


def accept_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    yield Command.of("accept_alliance")
    yield Command.of("decline_alliance")


def war_order_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    for route in state.pending[0].numbers:
        yield Command.of("choose_war", route=route)


def stealth_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    loser = state.civs[state.pending[0].numbers[0]]
    hand = sorted(set(state.civs[seat].hand))
    for at in reclaimable(pack, loser):
        for building in hand:
            yield Command.of("stealth_reclaim", row=at[0], col=at[1], building=building)
    yield Command.of("decline")


# --- Negotiation -------------------------------------------------------------------------------


@COMMANDS.declares(
    "choose_side",
    "Negotiation: red (false) or blue (true), in secret.",
    Arg("blue", "Blue: Defender or Alliance; red: Aggression.", kind=bool),
    why_not=refused_by("patchistory.negotiation.choose"),
)
def choose_side(ctx: Ctx, seat: int, command: Command) -> None:
    route = conflict_route(ctx.state)
    ctx.emit(
        SideChosen(
            rule="patchistory.negotiation.choose",
            seat=seat,
            route=route.id,
            blue=bool(command.arg("blue")),
            visibility=AT_ONCE.sealed_visibility(seat, route=route.id),
        )
    )
    if AT_ONCE.all_committed(ctx.state):
        resolve_negotiation(ctx)


def resolve_negotiation(ctx: Ctx) -> None:
    state = ctx.state
    route = conflict_route(state)
    chosen = state.sealed_map()
    seats = (route.a, route.b)
    blue = tuple(bool(chosen[s][0]) for s in seats)
    ctx.emit(
        SidesRevealed(rule="patchistory.negotiation.choose", route=route.id, seats=seats, blue=blue)
    )
    if all(blue):
        if used(ctx.state, "allied") < ctx.pack.allied.count and not allied(ctx.state, *seats):
            ctx.emit(
                DecisionAwaited(
                    rule="patchistory.negotiation.alliance",
                    kind="alliance-propose",
                    seat=route.a,
                    numbers=(route.id,),
                )
            )
        ctx.emit(WorkerLeftRoute(rule="patchistory.negotiation.blue", seat=route.a, route=route.id))
        return
    aggressors = tuple(s for s, b in zip(seats, blue, strict=True) if not b)
    cost = ctx.pack.era_number("war_preparation_resources", state.era)
    paid = tuple(min(cost, ctx.state.civs[s].resource) for s in aggressors)
    ctx.emit(
        WarDeclared(
            rule="patchistory.negotiation.red", route=route.id, aggressors=aggressors, paid=paid
        )
    )


@COMMANDS.declares(
    "propose_alliance",
    "Propose an Alliance, choosing its direction.",
    Arg("start", "The seat the Allied Trade Route starts from.", kind=int, minimum=0),
)
def propose_alliance(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        AllianceAnswered(
            rule="patchistory.negotiation.alliance",
            seat=seat,
            route=ctx.state.pending[0].numbers[0],
            agree=True,
            direction=int(command.arg("start")),
        )
    )


@COMMANDS.declares("accept_alliance", "Agree to the Alliance.")
def accept_alliance(ctx: Ctx, seat: int, command: Command) -> None:
    _answer_alliance(ctx, seat, agree=True)


@COMMANDS.declares("decline_alliance", "Do not form an Alliance.")
def decline_alliance(ctx: Ctx, seat: int, command: Command) -> None:
    _answer_alliance(ctx, seat, agree=False)


def _answer_alliance(ctx: Ctx, seat: int, agree: bool) -> None:
    pending = ctx.state.pending[0]
    route_id = pending.numbers[0]
    ctx.emit(
        AllianceAnswered(
            rule="patchistory.negotiation.blue", seat=seat, route=route_id, agree=agree
        )
    )
    if agree:
        start = pending.numbers[1]
        old = ctx.state.route(route_id) if any(r.id == route_id for r in ctx.state.routes) else None
        other = seat if old is None else (old.b if start == old.a else old.a)
        ctx.emit(
            TradeRouteOpened(
                rule="patchistory.negotiation.alliance",
                route=ctx.state.next_route,
                kind="allied",
                a=start,
                b=other,
            )
        )


# --- War ---------------------------------------------------------------------------------------


@COMMANDS.declares(
    "commit_strength",
    "War: Resources (and Votes) forfeited, in secret.",
    Arg("resources", "Resources forfeited.", kind=int, minimum=0),
    Arg("votes", "Votes forfeited (Jeanne d'Arc).", kind=int, minimum=0),
    why_not=refused_by("patchistory.war.strength"),
)
def commit_strength(ctx: Ctx, seat: int, command: Command) -> None:
    route = conflict_route(ctx.state)
    votes = int(command.arg("votes"))
    ctx.emit(
        StrengthCommitted(
            rule="patchistory.tile.jeanne-darc" if votes else "patchistory.war.strength",
            seat=seat,
            route=route.id,
            spent_resources=int(command.arg("resources")),
            spent_votes=votes,
            visibility=AT_ONCE.sealed_visibility(seat, route=route.id),
        )
    )
    if AT_ONCE.all_committed(ctx.state):
        resolve_war(ctx)


def war_strength(pack: PatchPack, state: PState, route: Route, seat: int) -> int:
    board = terr.statuses(pack, state, seat)
    if seat in route.aggressors:
        return board["military"]
    return board["military"] + board["defense"]


def resolve_war(ctx: Ctx) -> None:
    state = ctx.state
    pack = ctx.pack
    route = conflict_route(state)
    committed = state.sealed_map()
    seats = (route.a, route.b)
    base = tuple(war_strength(pack, state, route, s) for s in seats)
    resources = tuple(committed[s][0] for s in seats)
    votes = tuple(committed[s][1] for s in seats)
    totals = tuple(b + r + v for b, r, v in zip(base, resources, votes, strict=True))
    if totals[0] != totals[1]:
        winners: tuple[int, ...] = (seats[0] if totals[0] > totals[1] else seats[1],)
    else:
        winners = tuple(s for s in seats if s not in route.aggressors)
    culture, spoils = _war_culture(pack, state, route, totals, winners)
    strength = ["patchistory.war.strength"]
    if any(v for v in votes):
        strength.append("patchistory.tile.jeanne-darc")
    defenders = [s for s in seats if s not in route.aggressors]
    if any(terr.has(pack, state.civs[s], "great-wall") for s in defenders):
        strength.append("patchistory.tile.great-wall")
    fought: dict[str, Any] = {
        "route": route.id,
        "seats": seats,
        "base": base,
        "resources": resources,
        "votes": votes,
        "totals": totals,
        "winners": winners,
    }
    # The Culture a crushing win takes is what the loser could pay (patchistory.war.spoils):
    # only the two players see it, or it would show what is behind the loser's screen.
    ctx.emit(
        WarResolved(
            rule="patchistory.war.winner",
            cites=(*strength, *spoils),
            culture=culture,
            visibility=behind_screen(pack, *seats, **fought),
            **fought,
        )
    )
    if winners:
        (winner,) = winners
        _stealth(ctx, winner, seats[1 - seats.index(winner)])
    ctx.emit(WorkerLeftRoute(rule="patchistory.war.worker-home", seat=route.a, route=route.id))


def _war_culture(
    pack: PatchPack,
    state: PState,
    route: Route,
    totals: tuple[int, ...],
    winners: tuple[int, ...],
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Culture each side gains or loses (patchistory.war.winner, and patchistory.war.spoils
    for a crushing win), and the spoils' rule when taken."""
    seats = (route.a, route.b)
    culture = [0, 0]
    cites: list[str] = []
    if winners:
        (winner,) = winners
        w = seats.index(winner)
        key = "aggressor_win_culture" if winner in route.aggressors else "defender_win_culture"
        culture[w] += pack.era_number(key, state.era)
        crushing = pack.numbers["war_crushing"]
        if totals[w] - totals[1 - w] >= crushing["margin"]:
            loser_culture = state.civs[seats[1 - w]].culture
            taken = min(crushing["culture"], loser_culture)
            culture[w] += taken
            culture[1 - w] -= taken
            cites.append("patchistory.war.spoils")
    return tuple(culture), tuple(cites)


def _stealth(ctx: Ctx, winner: int, loser: int) -> None:
    """patchistory.tile.stealth-aircraft: the winner may reclaim a square of the defeated."""
    if (
        terr.has(ctx.pack, ctx.state.civs[winner], "stealth-aircraft")
        and ctx.state.civs[winner].hand
        and terr.one_by_one(ctx.pack, ctx.state.civs[loser])
    ):
        ctx.emit(
            DecisionAwaited(
                rule="patchistory.tile.stealth-aircraft",
                kind="stealth",
                seat=winner,
                numbers=(loser,),
            )
        )


@COMMANDS.declares(
    "choose_war",
    "War: which of your Wars is resolved first.",
    Arg("route", "The General Route of the War.", kind=int, minimum=1),
    why_not=refused_by("patchistory.war.order"),
)
def choose_war(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(WarChosen(rule="patchistory.war.order", seat=seat, route=int(command.arg("route"))))


@COMMANDS.declares(
    "stealth_reclaim",
    "Stealth Aircraft: Reclaim a defeated player's square.",
    *cell_args(),
    Arg("building", "The Building Tile used.", buildings),
)
def stealth_reclaim(ctx: Ctx, seat: int, command: Command) -> None:
    reclaim(ctx, seat, command, owner=ctx.state.pending[0].numbers[0])


# --- the events --------------------------------------------------------------------------------


@event
class WarChosen(PatchEvent):
    """The player of the turn, in two Wars or more, chose the one resolved next."""

    seat: int
    route: int


@FOLDS.handles(WarChosen)
def _war_chosen(pack: PatchPack, state: PState, ev: WarChosen) -> PState:
    wars = (ev.route, *(w for w in state.wars if w != ev.route))
    return evolved(state, wars=wars, war_chosen=ev.route, pending=state.pending[1:])


@event
class ConflictsFound(PatchEvent):
    negotiations: tuple[int, ...]
    wars: tuple[int, ...]


@FOLDS.handles(ConflictsFound)
def _conflicts(pack: PatchPack, state: PState, ev: ConflictsFound) -> PState:
    return evolved(state, negotiations=ev.negotiations, wars=ev.wars)


@event
class SideChosen(PatchEvent, SealedCommand):
    seat: int
    route: int
    blue: bool


@FOLDS.handles(SideChosen)
def _side(pack: PatchPack, state: PState, ev: SideChosen) -> PState:
    return evolved(state, sealed=(*state.sealed, (ev.seat, (int(ev.blue),))))


@event
class SidesRevealed(PatchEvent):
    REVEALS_HIDDEN = True

    route: int
    seats: tuple[int, ...]
    blue: tuple[bool, ...]


@FOLDS.handles(SidesRevealed)
def _sides(pack: PatchPack, state: PState, ev: SidesRevealed) -> PState:
    return evolved(state, sealed=(), sealing=(), negotiations=state.negotiations[1:])


@event
class WarDeclared(PatchEvent):
    route: int
    aggressors: tuple[int, ...]
    paid: tuple[int, ...]
    """Resources each Aggressor forfeited, in `aggressors` order."""


@FOLDS.handles(WarDeclared)
def _war(pack: PatchPack, state: PState, ev: WarDeclared) -> PState:
    route = state.route(ev.route)
    state = state.with_route(evolved(route, declared=True, aggressors=ev.aggressors))
    for seat, paid in zip(ev.aggressors, ev.paid, strict=True):
        state = goods_changed(state, seat, resource=-paid)
    return state


@event
class AllianceAnswered(PatchEvent):
    """A player's answer to an Alliance after both chose blue (`direction`: the proposer's
    choice of which end the Allied route starts from; -1 for the other player)."""

    seat: int
    route: int
    agree: bool
    direction: int = -1


@FOLDS.handles(AllianceAnswered)
def _alliance(pack: PatchPack, state: PState, ev: AllianceAnswered) -> PState:
    state = evolved(state, pending=state.pending[1:])
    if ev.agree and ev.direction >= 0:
        route = state.route(ev.route)
        other = route.b if ev.seat == route.a else route.a
        ask = Pending("alliance-accept", other, (ev.route, ev.direction))
        state = evolved(state, pending=(ask, *state.pending))
    return state


@event
class WorkerLeftRoute(PatchEvent):
    """The Worker on a Trade Route's Preparation or War space leaves it to come home."""

    seat: int
    route: int


@FOLDS.handles(WorkerLeftRoute)
def _left(pack: PatchPack, state: PState, ev: WorkerLeftRoute) -> PState:
    route = state.route(ev.route)
    state = state.with_route(
        evolved(
            route,
            workers=tuple(w for w in route.workers if w[0] != ev.seat),
            declared=False,
            aggressors=(),
        )
    )
    return evolved(state, pending=(*state.pending, Pending("return", ev.seat)))


@event
class StrengthCommitted(PatchEvent, SealedCommand):
    seat: int
    route: int
    spent_resources: int
    spent_votes: int


@FOLDS.handles(StrengthCommitted)
def _strength(pack: PatchPack, state: PState, ev: StrengthCommitted) -> PState:
    return evolved(state, sealed=(*state.sealed, (ev.seat, (ev.spent_resources, ev.spent_votes))))


@event
class WarResolved(PatchEvent):
    REVEALS_HIDDEN = True

    route: int
    seats: tuple[int, ...]
    base: tuple[int, ...]
    resources: tuple[int, ...]
    votes: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    culture: tuple[int, ...]
    """Culture each seat gains (the Public Storage) or loses (to the winner), in `seats` order."""


@FOLDS.handles(WarResolved)
def _resolved(pack: PatchPack, state: PState, ev: WarResolved) -> PState:
    for i, seat in enumerate(ev.seats):
        state = goods_changed(
            state, seat, resource=-ev.resources[i], votes=-ev.votes[i], culture=ev.culture[i]
        )
    return evolved(state, sealed=(), sealing=(), wars=state.wars[1:])


@event
class NegotiationSkipped(PatchEvent):
    """Allies do not negotiate for War: the Worker goes home."""

    route: int


@FOLDS.handles(NegotiationSkipped)
def _skipped(pack: PatchPack, state: PState, ev: NegotiationSkipped) -> PState:
    return evolved(state, negotiations=state.negotiations[1:])


@event
class WarCalledOff(PatchEvent):
    route: int


@FOLDS.handles(WarCalledOff)
def _called_off(pack: PatchPack, state: PState, ev: WarCalledOff) -> PState:
    return evolved(state, wars=state.wars[1:])
