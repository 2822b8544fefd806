"""What each listed command does: the events it produces (it is legal: `legal_actions` listed
it). One function per command type; `play` dispatches."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from domain.core.messages import Command, private_to
from domain.patchistory import events as ev
from domain.patchistory import territory as terr
from domain.patchistory.territory import rule

if TYPE_CHECKING:
    from domain.patchistory.engine import Ctx, PatchistoryRuleset

Play = Callable[["PatchistoryRuleset", "Ctx", int, Command], None]
_PLAYS: dict[str, Play] = {}


def plays(*types: str) -> Callable[[Play], Play]:
    def register(fn: Play) -> Play:
        for kind in types:
            _PLAYS[kind] = fn
        return fn

    return register


def play(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    _PLAYS[command.type](rules, ctx, seat, command)


def _at(command: Command, row: str = "row", col: str = "col") -> tuple[int, int]:
    return (int(command.arg(row)), int(command.arg(col)))


def _holders(rules: PatchistoryRuleset, ctx: Ctx, ability: str, after: int) -> int:
    order = ctx.state.in_order()
    for seat in order[order.index(after) + 1 :]:
        if rules._has(ctx.state, seat, ability):
            return seat
    return -1


# --- Auction and Patching -------------------------------------------------------------------------


@plays("take_tile", "decline")
def _vasco(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    if state.pending:  # Stealth Aircraft declined
        ctx.emit(ev.DecisionDeclined(rule=rule("tile.stealth-aircraft"), seat=seat, kind="stealth"))
        return
    if command.type == "take_tile":
        offer = state.offered[int(command.arg("tile"))]
        ctx.emit(
            ev.TileTakenBeforeAuction(
                rule=rule("tile.vasco-da-gama"), seat=seat, tile=offer.tile, side=offer.side
            )
        )
    else:
        ctx.emit(ev.VascoDeclined(rule=rule("tile.vasco-da-gama"), seat=seat))
    nxt = _holders(rules, ctx, "vasco-da-gama", seat)
    ctx.emit(ev.TurnPassed(rule=rule("tile.vasco-da-gama"), seat=seat, next=nxt))


@plays("bid")
def _bid(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    rules._bid(ctx, seat, int(command.arg("tile")), int(command.arg("coin")))


@plays("pass")
def _pass(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    rules._after_bid(ctx, seat, ev.BidPassed(rule=rule("auction.first"), seat=seat, next=-1))


@plays("seal_bid")
def _seal_bid(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    tile, coin = int(command.arg("tile")), int(command.arg("coin"))
    ctx.emit(
        ev.BidSealed(
            rule=rule("auction.two-player"),
            seat=seat,
            number=tile,
            offer=coin,
            visibility=rules.at_once.sealed_visibility(seat),
        )
    )
    if not rules.at_once.all_committed(ctx.state):
        return
    state = ctx.state
    bids = state.sealed_map()
    seats = state.in_order()
    tiles = tuple(bids[s][0] for s in range(state.players))
    coins = tuple(bids[s][1] for s in range(state.players))
    ctx.emit(ev.BidsRevealed(rule=rule("auction.two-player"), tiles=tiles, coins=coins))
    first, second = seats
    if tiles[first] != tiles[second]:
        got = {first: tiles[first], second: tiles[second]}
    else:
        wanted = tiles[first]
        winner = first if coins[first] >= coins[second] else second
        loser = second if winner == first else first
        got = {winner: wanted, loser: 1 - wanted}
    for s in seats:
        offer = state.offered[got[s]]
        ctx.emit(
            ev.TileWon(
                rule=rule("auction.two-player"), seat=s, tile=offer.tile, side="", paid=coins[s]
            )
        )


@plays("patch")
def _patch(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    rules._patch(
        ctx,
        seat,
        str(command.arg("side")),
        int(command.arg("row")),
        int(command.arg("col")),
        str(command.arg("layer")),
    )


@plays("forfeit_tile")
def _forfeit(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(ev.TileForfeited(rule=rule("patch.optional"), seat=seat, tile=ctx.state.won[0].tile))


# --- Workers waiting for a space ------------------------------------------------------------------


@plays("place_worker")
def _place(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    pending = ctx.state.pending[0]
    at = _at(command)
    if pending.kind == "place-new":
        cite = rule("tile.moses") if pending.numbers else rule("patch.first-workers")
        ctx.emit(ev.WorkerPlaced(rule=cite, seat=seat, at=at))
    else:
        ctx.emit(ev.WorkerCameHome(rule=rule("workers.return"), seat=seat, at=at))


@plays("worker_to_track")
def _to_track(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    if ctx.state.pending[0].kind == "place-new":  # no free space: the Worker stays unborn
        ctx.emit(
            ev.DecisionDeclined(rule=rule("workers.one-per-space"), seat=seat, kind="place-new")
        )
        return
    ctx.emit(ev.WorkerBackToTrack(rule=rule("workers.return"), seat=seat))


# --- Diplomacy ------------------------------------------------------------------------------------


@plays("aid")
def _aid(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        ev.AidOffered(
            rule=rule("diplomacy.aid"),
            seat=seat,
            to=int(command.arg("to")),
            food=int(command.arg("food")),
            coin=int(command.arg("coin")),
            resource=int(command.arg("resource")),
            points=rules.cost(ctx.state, seat, "aid"),
        )
    )


@plays("accept_aid", "refuse_aid")
def _aid_answer(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    giver, food, coin, resource = ctx.state.pending[0].numbers
    accepted = command.type == "accept_aid"
    numbers = rules.pack.numbers["aid"]
    ctx.emit(
        ev.AidAnswered(
            rule=rule("diplomacy.aid"),
            cites=(rule("diplomacy.aid-accepted"),) if accepted else (),
            seat=seat,
            giver=giver,
            accepted=accepted,
            food=food,
            coin=coin,
            resource=resource,
            culture=numbers["accepted_culture"] if accepted else numbers["refused_culture"],
        )
    )


@plays("threaten")
def _threaten(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    pack = rules.pack
    to, demand = int(command.arg("to")), str(command.arg("demand"))
    mine = terr.statuses(pack, state, seat)
    theirs = terr.statuses(pack, state, to)
    gandhi = rules._has(state, seat, "gandhi")
    against = (0 if gandhi else theirs["military"]) + theirs["defense"]
    numbers = pack.numbers["threaten"]
    success = mine["military"] > against
    crushing = mine["military"] - against >= numbers["crushing_margin"]
    asked = numbers[f"crushing_{demand}" if crushing else demand]
    taken = min(asked, state.civs[to].goods(demand)) if success else 0
    bismarck = success and rules._has(state, seat, "bismarck")
    cites = tuple(
        c for c, on in ((rule("tile.gandhi"), gandhi), (rule("tile.bismarck"), bismarck)) if on
    )
    ctx.emit(
        ev.Threatened(
            rule=rule("diplomacy.threaten"),
            cites=(*cites, *rules.cost_cites(state, seat, "threaten")),
            seat=seat,
            to=to,
            demand=demand,
            military=mine["military"],
            against=against,
            success=success,
            taken=taken,
            bonus=numbers["bismarck_culture"] if bismarck else 0,
            points=rules.cost(state, seat, "threaten"),
        )
    )


@plays("break_alliance")
def _break(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    points = ctx.state.pp[seat]
    ctx.emit(
        ev.TradeRouteForfeited(
            rule=rule("diplomacy.break-alliance"),
            route=int(command.arg("route")),
            seat=seat,
            votes=points,
            points=points,
        )
    )


@plays("end_diplomacy", "end_management")
def _end_politics(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    key = "diplomacy.order" if command.type == "end_diplomacy" else "management.order"
    ctx.emit(ev.TurnPassed(rule=rule(key), seat=seat, next=rules.next_in_turn(ctx.state, seat)))


# --- Management -----------------------------------------------------------------------------------


@plays("trade")
def _trade(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    route = state.route(int(command.arg("route")))
    space = 0 if route.kind == "general" or route.a == seat else len(rules.pack.allied.spaces) - 1
    genghis = rules._has(state, seat, "genghis-khan")
    ctx.emit(
        ev.TradeBegun(
            rule=rule("management.trade"),
            cites=(rule("politics.era-costs"), *((rule("tile.genghis-khan"),) if genghis else ())),
            seat=seat,
            route=route.id,
            at=_at(command),
            space=space,
            food=rules.trade_food(state, seat),
            points=rules.cost(state, seat, "trade"),
        )
    )


@plays("exchange")
def _exchange(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    # The Goods go behind the Player Screen and back to the supply out of sight: unlike
    # production (laid out in front of the screen first), the rulebook shows nobody what is
    # exchanged. The Political Point it costs moves on the public Reference Board.
    points = rules.cost(ctx.state, seat, "exchange")
    ctx.emit(
        ev.GoodsExchanged(
            rule=rule("management.exchange"),
            seat=seat,
            give=str(command.arg("give")),
            amount=int(command.arg("amount")),
            food=int(command.arg("food")),
            coin=int(command.arg("coin")),
            resource=int(command.arg("resource")),
            points=points,
            visibility=private_to(seat, redacted={"seat": seat, "points": points}),
        )
    )


@plays("birth")
def _birth(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        ev.WorkerPlaced(
            rule=rule("management.birth"),
            cites=(rule("politics.era-costs"), *rules.cost_cites(ctx.state, seat, "birth")),
            seat=seat,
            at=_at(command),
            food=rules.pack.era_number("birth_food", ctx.state.era),
            points=rules.cost(ctx.state, seat, "birth"),
        )
    )


@plays("honor_heroes", "honor_wonders")
def _honor(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    pack = rules.pack
    board = terr.statuses(pack, state, seat)
    heroes = command.type == "honor_heroes"
    ctx.emit(
        ev.Honored(
            rule=rule("management.honor-heroes" if heroes else "management.honor-wonders"),
            cites=(rule("politics.era-costs"),),
            seat=seat,
            what="heroes" if heroes else "wonders",
            food=pack.era_number("honor_heroes_food", state.era) if heroes else 0,
            resource=0 if heroes else pack.era_number("honor_wonders_resources", state.era),
            culture=board["heroes"] if heroes else board["wonders"],
            points=rules.cost(state, seat, "honor-heroes" if heroes else "honor-wonders"),
        )
    )


@plays("build_route")
def _build_route(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        ev.TradeRouteOpened(
            rule=rule("management.trade-route"),
            cites=rules.cost_cites(ctx.state, seat, "trade-route"),
            route=ctx.state.next_route,
            kind="general",
            a=seat,
            b=int(command.arg("to")),
            seat=seat,
            resources=rules.pack.number("construction", "trade_route_resources"),
            points=rules.cost(ctx.state, seat, "trade-route"),
        )
    )


@plays("reclaim", "stealth_reclaim")
def _reclaim(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    at = _at(command)
    building = str(command.arg("building"))
    stealth = command.type == "stealth_reclaim"
    owner = state.pending[0].numbers[0] if stealth else -1
    resources = 0 if stealth else rules.pack.number("construction", "reclamation_resources")
    points = 0 if stealth else rules.cost(state, seat, "reclamation")
    cite = rule("tile.stealth-aircraft") if stealth else rule("management.reclamation")
    ctx.emit(
        ev.SquareReclaimed(
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
    rules._draw_buildings(ctx, seat, 1, rule("management.building-tiles"))


@plays("construct")
def _construct(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    building = str(command.arg("building"))
    ctx.emit(
        ev.BuildingConstructed(
            rule=rule("management.building"),
            cites=rules.cost_cites(ctx.state, seat, "building"),
            seat=seat,
            at=_at(command),
            building=building,
            resources=rules.pack.buildings[building].cost,
            points=rules.cost(ctx.state, seat, "building"),
        )
    )
    rules._draw_buildings(ctx, seat, 1, rule("management.building-tiles"))


@plays("campaign")
def _campaign(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        ev.Campaigned(
            rule=rule("management.campaign"), seat=seat, points=int(command.arg("points"))
        )
    )


@plays("constantine")
def _constantine(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        ev.TradeRouteOpened(
            rule=rule("tile.constantine"),
            route=ctx.state.next_route,
            kind="allied",
            a=seat,
            b=int(command.arg("to")),
            seat=seat,
            points=rules.cost(ctx.state, seat, "constantine"),
        )
    )


@plays("demolish_route")
def _demolish(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        ev.TradeRouteForfeited(
            rule=rule("tile.schwerer-gustav"),
            route=int(command.arg("route")),
            seat=seat,
            points=rules.cost(ctx.state, seat, "schwerer-gustav"),
        )
    )


@plays("retire_worker")
def _retire(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    ability = str(command.arg("ability"))
    worker = str(command.arg("worker"))
    pack = rules.pack
    at: tuple[int, ...] = ()
    route = 0
    if worker.startswith("route-"):
        route = int(worker.removeprefix("route-"))
    else:
        row, col = worker.split(",")
        at = (int(row), int(col))
    gardens = ability == "hanging-gardens"
    ctx.emit(
        ev.WorkerBackToTrack(
            rule=rule(f"tile.{ability}"),
            seat=seat,
            at=at,
            route=route,
            food=pack.number("hanging_gardens_food") if gardens else 0,
            votes=0 if gardens else pack.number("kremlin_votes"),
            points=rules.cost(ctx.state, seat, ability),
        )
    )


# --- Movement -------------------------------------------------------------------------------------


@plays("move_worker")
def _move(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        ev.WorkerMoved(
            rule=rule("movement.territory"),
            seat=seat,
            frm=_at(command),
            to=_at(command, "to_row", "to_col"),
        )
    )


@plays("advance", "rest")
def _route_move(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    route = ctx.state.route(int(command.arg("route")))
    space = route.worker_of(seat)
    assert space is not None
    if command.type == "rest":
        cite = rule("movement.rest") if route.kind == "general" else rule("movement.no-transport")
        ctx.emit(
            ev.RouteWorkerMoved(
                rule=cite,
                seat=seat,
                route=route.id,
                frm=space,
                to=space,
                rest=True,
            )
        )
        return
    target = rules.route_target(route, seat, space, int(command.arg("steps")))
    assert target is not None
    home = route.kind == "allied" and target in (0, len(rules.pack.allied.spaces) - 1)
    ctx.emit(
        ev.RouteWorkerMoved(
            rule=rule("movement.allied") if home else rule("movement.route"),
            seat=seat,
            route=route.id,
            frm=space,
            to=target,
            home=home,
        )
    )


@plays("end_movement")
def _end_movement(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    civ = ctx.state.civs[seat]
    due = sum(1 for r in civ.resting if r < ctx.state.serial)
    if due:
        ctx.emit(ev.RestOver(rule=rule("movement.rest"), seat=seat, count=due))
    ctx.emit(
        ev.TurnPassed(
            rule=rule("movement.territory"), seat=seat, next=rules.next_in_turn(ctx.state, seat)
        )
    )


# --- Negotiation and War --------------------------------------------------------------------------


@plays("choose_side")
def _side(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    route = rules.conflict_route(ctx.state)
    ctx.emit(
        ev.SideChosen(
            rule=rule("negotiation.choose"),
            seat=seat,
            route=route.id,
            blue=bool(command.arg("blue")),
            visibility=rules.at_once.sealed_visibility(seat, route=route.id),
        )
    )
    if rules.at_once.all_committed(ctx.state):
        rules._resolve_negotiation(ctx)


@plays("propose_alliance", "accept_alliance", "decline_alliance")
def _alliance(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    pending = ctx.state.pending[0]
    route_id = pending.numbers[0]
    if command.type == "propose_alliance":
        ctx.emit(
            ev.AllianceAnswered(
                rule=rule("negotiation.alliance"),
                seat=seat,
                route=route_id,
                agree=True,
                direction=int(command.arg("start")),
            )
        )
        return
    agree = command.type == "accept_alliance"
    ctx.emit(
        ev.AllianceAnswered(rule=rule("negotiation.blue"), seat=seat, route=route_id, agree=agree)
    )
    if agree:
        start = pending.numbers[1]
        old = ctx.state.route(route_id) if any(r.id == route_id for r in ctx.state.routes) else None
        other = seat if old is None else (old.b if start == old.a else old.a)
        ctx.emit(
            ev.TradeRouteOpened(
                rule=rule("negotiation.alliance"),
                route=ctx.state.next_route,
                kind="allied",
                a=start,
                b=other,
            )
        )


@plays("commit_strength")
def _strength(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    route = rules.conflict_route(ctx.state)
    votes = int(command.arg("votes"))
    ctx.emit(
        ev.StrengthCommitted(
            rule=rule("tile.jeanne-darc") if votes else rule("war.strength"),
            seat=seat,
            route=route.id,
            spent_resources=int(command.arg("resources")),
            spent_votes=votes,
            visibility=rules.at_once.sealed_visibility(seat, route=route.id),
        )
    )
    if rules.at_once.all_committed(ctx.state):
        rules._resolve_war(ctx)


# --- Round 5 --------------------------------------------------------------------------------------


@plays("retire_for_culture")
def _chichen(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    at = _at(command)
    ctx.emit(
        ev.WorkerBackToTrack(
            rule=rule("tile.chichen-itza"),
            seat=seat,
            at=at,
            culture=rules.pack.number("chichen_itza_culture"),
        )
    )
    if not ctx.state.civs[seat].workers:
        nxt = _holders(rules, ctx, "chichen-itza", seat)
        ctx.emit(ev.TurnPassed(rule=rule("tile.chichen-itza"), seat=seat, next=nxt))


@plays("end_chichen")
def _end_chichen(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    nxt = _holders(rules, ctx, "chichen-itza", seat)
    ctx.emit(ev.TurnPassed(rule=rule("tile.chichen-itza"), seat=seat, next=nxt))


@plays("choose_card")
def _card(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        ev.ProsperityChosen(
            rule=rule("vote.cards"),
            seat=seat,
            card=str(command.arg("card")),
            visibility=rules.at_once.sealed_visibility(seat),
        )
    )
    if not rules.at_once.all_committed(ctx.state):
        return
    state = ctx.state
    chosen = state.sealed_map()
    cards = [state.civs[s].prosperity[chosen[s][0]] for s in sorted(chosen)]
    order = ctx.chance.shuffled(sorted(cards))
    ctx.emit(
        ev.ProsperityRevealed(rule=rule("vote.cards"), cards=order, draws=ctx.chance.take_draws())
    )


@plays("vote")
def _vote(rules: PatchistoryRuleset, ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    card = state.vote_cards[state.vote_index]
    ctx.emit(
        ev.VotesCommitted(
            rule=rule("vote.assign"),
            seat=seat,
            card=card,
            count=int(command.arg("votes")),
            visibility=rules.at_once.sealed_visibility(seat, card=card),
        )
    )
    if not rules.at_once.all_committed(ctx.state):
        return
    sealed = ctx.state.sealed_map()
    votes = tuple(sealed[s][0] for s in range(state.players))
    ctx.emit(ev.VotesRevealed(rule=rule("vote.assign"), card=card, votes=votes, total=sum(votes)))
