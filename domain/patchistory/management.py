"""Management (the second step of the Diplomacy and Management Phase, in turn order:
patchistory.management.order): Trade (a Worker to the Start of a Trade Route), Exchange, Birth,
Honoring Heroes and Wonders, Constructing a General Trade Route, Construction (construction.py)
and the Campaign, each for its Political cost (patchistory.politics.era-costs); and the
Management abilities of Constantine, Schwerer Gustav, the Hanging Gardens
(patchistory.tile.hanging-gardens) and the Kremlin (patchistory.tile.kremlin).
Examples: `WORKED_EXAMPLES`."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.frozen import evolved
from domain.core.messages import PUBLIC, Command, event, private_to
from domain.core.turns import SealedCommand
from domain.patchistory import territory as terr
from domain.patchistory.construction import buildings, construct, construction_actions, reclaim
from domain.patchistory.context import (
    COMMANDS,
    FOLDS,
    Ctx,
    PatchEvent,
    civ_changed,
    goods_changed,
    spend_points,
    without_worker,
)
from domain.patchistory.diplomacy import SEAT, affords, cost, cost_cites
from domain.patchistory.model import Cell, PState, Route
from domain.patchistory.pack import EXCHANGED, PatchPack
from domain.patchistory.revisions import EXCHANGES_BEHIND_THE_SCREEN
from domain.patchistory.rounds import PhaseBegan, pass_turn, refused_by
from domain.patchistory.trade_routes import (
    ROUTE,
    TradeRouteForfeited,
    TradeRouteOpened,
    allied,
    used,
)
from domain.patchistory.workers import WorkerBackToTrack, WorkerPlaced, cell, cell_args

RETIRING = {
    "hanging-gardens": "patchistory.tile.hanging-gardens",
    "kremlin": "patchistory.tile.kremlin",
}
"""The Wonders that send a Worker back to the Descendant Track, each with its clause."""


WORKED_EXAMPLES = (
    "patchistory.example.exchange",
    "patchistory.example.campaign",
)
"""The rulebook's worked examples of this chapter, each played again by a test."""


def begin_management(ctx: Ctx) -> None:
    ctx.emit(
        PhaseBegan(
            rule="patchistory.management.order", phase="management", seats=ctx.state.in_order()
        )
    )


# --- what a seat may do ------------------------------------------------------------------------


def management_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    yield from trade_actions(pack, state, seat)
    if affords(pack, state, seat, "exchange"):
        transport = terr.statuses(pack, state, seat)["transport"]
        yield from exchange_actions(pack, state, seat, transport)
    yield from growth_actions(pack, state, seat)
    yield from construction_actions(pack, state, seat)
    if state.pp[seat] >= 1 and not state.has_flag(seat, "campaigned"):
        for points in range(1, state.pp[seat] + 1):
            yield Command.of("campaign", points=points)
    yield from ability_actions(pack, state, seat)
    yield END


END = Command.of("end_management")


def is_listed_end(pack: PatchPack, state: PState, seat: int, command: Command) -> bool:
    """`management_actions` always ends with ending the Management."""
    return command == END


def trade_food(pack: PatchPack, state: PState, seat: int) -> int:
    if terr.has(pack, state.civs[seat], "genghis-khan"):
        return 1
    return pack.era_number("trade_food", state.era)


def may_trade_on(state: PState, seat: int, route: Route) -> bool:
    if route.kind == "general":
        return route.a == seat and not route.workers
    return seat in (route.a, route.b) and route.worker_of(seat) is None


def trade_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    civ = state.civs[seat]
    if not affords(pack, state, seat, "trade"):
        return
    if civ.food >= trade_food(pack, state, seat) and civ.workers:
        for route in state.routes:
            if not may_trade_on(state, seat, route):
                continue
            for at in civ.workers:
                yield Command.of("trade", route=route.id, row=at[0], col=at[1])


def exchange_actions(
    pack: PatchPack, state: PState, seat: int, transport: int
) -> Iterator[Command]:
    civ = state.civs[seat]
    values = pack.numbers["exchange_values"]
    for give in EXCHANGED:
        others = [g for g in EXCHANGED if g != give]
        for amount in range(1, min(transport, civ.goods(give)) + 1):
            worth = amount * values[give]
            first, second = others
            for x in range(worth // values[first] + 1):
                rest = worth - x * values[first]
                if rest % values[second]:
                    continue
                y = rest // values[second]
                got = {first: x, second: y, give: 0}
                yield Command.of(
                    "exchange",
                    give=give,
                    amount=amount,
                    food=got["food"],
                    coin=got["coin"],
                    resource=got["resource"],
                )


def growth_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    """Birth, Honoring Heroes and Wonders, and a General Trade Route constructed."""
    civ = state.civs[seat]
    era = state.era
    board = terr.statuses(pack, state, seat)
    if (
        affords(pack, state, seat, "birth")
        and civ.born < pack.number("start", "workers")
        and civ.food >= pack.era_number("birth_food", era)
    ):
        for at in terr.free_spaces(pack, civ):
            yield Command.of("birth", row=at[0], col=at[1])
    heroes_food = pack.era_number("honor_heroes_food", era)
    if affords(pack, state, seat, "honor-heroes") and board["heroes"] and civ.food >= heroes_food:
        yield Command.of("honor_heroes")
    wonders_due = pack.era_number("honor_wonders_resources", era)
    if (
        affords(pack, state, seat, "honor-wonders")
        and board["wonders"]
        and civ.resource >= wonders_due
    ):
        yield Command.of("honor_wonders")
    if (
        affords(pack, state, seat, "trade-route")
        and not state.has_flag(seat, "built-route")
        and civ.resource >= pack.number("construction", "trade_route_resources")
        and used(state, "general") < pack.general.count
    ):
        for other in range(state.players):
            if other != seat:
                yield Command.of("build_route", to=other)


def ability_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    """Constantine, Schwerer Gustav, the Hanging Gardens and the Kremlin."""
    civ = state.civs[seat]
    held = terr.abilities(pack, civ)
    if (
        "constantine" in held
        and affords(pack, state, seat, "constantine")
        and used(state, "allied") < pack.allied.count
    ):
        for other in range(state.players):
            if other != seat and not allied(state, seat, other):
                yield Command.of("constantine", to=other)
    if "schwerer-gustav" in held and affords(pack, state, seat, "schwerer-gustav"):
        for route in state.routes:
            mine = (route.kind == "general" and route.a == seat) or (
                route.kind == "allied" and seat in (route.a, route.b)
            )
            if mine and not route.declared:
                yield Command.of("demolish_route", route=route.id)
    for ability in ("hanging-gardens", "kremlin"):
        if ability in held and affords(pack, state, seat, ability):
            for at in civ.workers:
                yield Command.of("retire_worker", ability=ability, worker=f"{at[0]},{at[1]}")
            for route in state.routes:
                space = route.worker_of(seat)
                if space is not None and not route.declared:
                    yield Command.of("retire_worker", ability=ability, worker=f"route-{route.id}")


# --- the commands ------------------------------------------------------------------------------


@COMMANDS.declares(
    "trade",
    "Send a Worker to the Start of a Trade Route.",
    Arg("route", ROUTE, kind=int, minimum=1),
    *cell_args(),
    why_not=refused_by("patchistory.management.trade"),
)
def trade(ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    route = state.route(int(command.arg("route")))
    space = 0 if route.kind == "general" or route.a == seat else len(ctx.pack.allied.spaces) - 1
    genghis = terr.has(ctx.pack, state.civs[seat], "genghis-khan")
    ctx.emit(
        TradeBegun(
            rule="patchistory.management.trade",
            cites=(
                "patchistory.politics.era-costs",
                *(("patchistory.tile.genghis-khan",) if genghis else ()),
            ),
            seat=seat,
            route=route.id,
            at=cell(command),
            space=space,
            food=trade_food(ctx.pack, state, seat),
            points=cost(ctx.pack, state, seat, "trade"),
        )
    )


@COMMANDS.declares(
    "exchange",
    "Exchange one Good for others, up to your Transport.",
    Arg("give", "The Good given.", ("resource", "food", "coin")),
    Arg("amount", "How many given.", kind=int, minimum=1),
    Arg("food", "Food received.", kind=int, minimum=0),
    Arg("coin", "Coin received.", kind=int, minimum=0),
    Arg("resource", "Resources received.", kind=int, minimum=0),
    why_not=refused_by("patchistory.management.exchange"),
)
def exchange(ctx: Ctx, seat: int, command: Command) -> None:
    # The Goods go behind the Player Screen and back to the supply out of sight: unlike
    # production (laid out in front of the screen first), the rulebook shows nobody what is
    # exchanged (patchistory.hidden.screen). The Political Point it costs moves on the public
    # Reference Board.
    points = cost(ctx.pack, ctx.state, seat, "exchange")
    hidden = ctx.pack.since(EXCHANGES_BEHIND_THE_SCREEN)
    ctx.emit(
        GoodsExchanged(
            rule="patchistory.management.exchange",
            seat=seat,
            give=str(command.arg("give")),
            amount=int(command.arg("amount")),
            food=int(command.arg("food")),
            coin=int(command.arg("coin")),
            resource=int(command.arg("resource")),
            points=points,
            visibility=private_to(seat, redacted={"seat": seat, "points": points})
            if hidden
            else PUBLIC,
        )
    )


@COMMANDS.declares(
    "birth",
    "Birth a Worker onto a free space.",
    *cell_args(),
    why_not=refused_by("patchistory.management.birth"),
)
def birth(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        WorkerPlaced(
            rule="patchistory.management.birth",
            cites=(
                "patchistory.politics.era-costs",
                *cost_cites(ctx.pack, ctx.state, seat, "birth"),
            ),
            seat=seat,
            at=cell(command),
            food=ctx.pack.era_number("birth_food", ctx.state.era),
            points=cost(ctx.pack, ctx.state, seat, "birth"),
        )
    )


@COMMANDS.declares(
    "honor_heroes", "Honor your Heroes.", why_not=refused_by("patchistory.management.honor-heroes")
)
def honor_heroes(ctx: Ctx, seat: int, command: Command) -> None:
    honor(ctx, seat, heroes=True)


@COMMANDS.declares(
    "honor_wonders",
    "Honor your Wonders.",
    why_not=refused_by("patchistory.management.honor-wonders"),
)
def honor_wonders(ctx: Ctx, seat: int, command: Command) -> None:
    honor(ctx, seat, heroes=False)


def honor(ctx: Ctx, seat: int, heroes: bool) -> None:
    state = ctx.state
    pack = ctx.pack
    board = terr.statuses(pack, state, seat)
    ctx.emit(
        Honored(
            rule="patchistory.management.honor-heroes"
            if heroes
            else "patchistory.management.honor-wonders",
            cites=("patchistory.politics.era-costs",),
            seat=seat,
            what="heroes" if heroes else "wonders",
            food=pack.era_number("honor_heroes_food", state.era) if heroes else 0,
            resource=0 if heroes else pack.era_number("honor_wonders_resources", state.era),
            culture=board["heroes"] if heroes else board["wonders"],
            points=cost(pack, state, seat, "honor-heroes" if heroes else "honor-wonders"),
        )
    )


@COMMANDS.declares(
    "build_route",
    "Construct a General Trade Route to a player.",
    Arg("to", SEAT, kind=int, minimum=0),
    why_not=refused_by("patchistory.management.trade-route"),
)
def build_route(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        TradeRouteOpened(
            rule="patchistory.management.trade-route",
            cites=cost_cites(ctx.pack, ctx.state, seat, "trade-route"),
            route=ctx.state.next_route,
            kind="general",
            a=seat,
            b=int(command.arg("to")),
            seat=seat,
            resources=ctx.pack.number("construction", "trade_route_resources"),
            points=cost(ctx.pack, ctx.state, seat, "trade-route"),
        )
    )


@COMMANDS.declares(
    "reclaim",
    "Reclaim a 1x1 square with a Building Tile's Wasteland side.",
    *cell_args(),
    Arg("building", "The Building Tile used.", buildings),
    why_not=refused_by("patchistory.management.reclamation"),
)
def do_reclaim(ctx: Ctx, seat: int, command: Command) -> None:
    reclaim(ctx, seat, command)


@COMMANDS.declares(
    "construct",
    "Construct a Building on a 1x1 non-Sea square.",
    *cell_args(),
    Arg("building", "The Building Tile built.", buildings),
    why_not=refused_by("patchistory.management.building"),
)
def do_construct(ctx: Ctx, seat: int, command: Command) -> None:
    construct(ctx, seat, command)


@COMMANDS.declares(
    "campaign",
    "Spend Political Points for Votes (once a Round).",
    Arg("points", "Points spent.", kind=int, minimum=1),
    why_not=refused_by("patchistory.management.campaign"),
)
def campaign(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        Campaigned(
            rule="patchistory.management.campaign", seat=seat, points=int(command.arg("points"))
        )
    )


@COMMANDS.declares(
    "constantine",
    "Constantine: a free Allied Trade Route with a player.",
    Arg("to", SEAT, kind=int, minimum=0),
)
def constantine(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        TradeRouteOpened(
            rule="patchistory.tile.constantine",
            route=ctx.state.next_route,
            kind="allied",
            a=seat,
            b=int(command.arg("to")),
            seat=seat,
            points=cost(ctx.pack, ctx.state, seat, "constantine"),
        )
    )


@COMMANDS.declares(
    "demolish_route",
    "Schwerer Gustav: forfeit a Trade Route.",
    Arg("route", ROUTE, kind=int, minimum=1),
)
def demolish_route(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        TradeRouteForfeited(
            rule="patchistory.tile.schwerer-gustav",
            route=int(command.arg("route")),
            seat=seat,
            points=cost(ctx.pack, ctx.state, seat, "schwerer-gustav"),
        )
    )


@COMMANDS.declares(
    "retire_worker",
    "Hanging Gardens / Kremlin: a Worker back to the Track.",
    Arg("ability", "The Wonder used.", ("hanging-gardens", "kremlin")),
    Arg("worker", "'row,col' in the territory, or 'route-N'."),
)
def retire_worker(ctx: Ctx, seat: int, command: Command) -> None:
    ability = str(command.arg("ability"))
    worker = str(command.arg("worker"))
    pack = ctx.pack
    at: tuple[int, ...] = ()
    route = 0
    if worker.startswith("route-"):
        route = int(worker.removeprefix("route-"))
    else:
        row, col = worker.split(",")
        at = (int(row), int(col))
    gardens = ability == "hanging-gardens"
    ctx.emit(
        WorkerBackToTrack(
            rule=RETIRING[ability],
            seat=seat,
            at=at,
            route=route,
            food=pack.number("hanging_gardens_food") if gardens else 0,
            votes=0 if gardens else pack.number("kremlin_votes"),
            points=cost(pack, ctx.state, seat, ability),
        )
    )


@COMMANDS.declares("end_management", "End your Management step.")
def end_management(ctx: Ctx, seat: int, command: Command) -> None:
    pass_turn(ctx, "patchistory.management.order", seat)


# --- the events --------------------------------------------------------------------------------


@event
class TradeBegun(PatchEvent):
    """A Worker from the territory to the Start space of a Trade Route."""

    seat: int
    route: int
    at: Cell
    space: int
    food: int
    points: int


@FOLDS.handles(TradeBegun)
def _trade(pack: PatchPack, state: PState, ev: TradeBegun) -> PState:
    civ = state.civs[ev.seat]
    state = civ_changed(state, ev.seat, workers=without_worker(civ, ev.at))
    route = state.route(ev.route)
    state = state.with_route(evolved(route, workers=(*route.workers, (ev.seat, ev.space))))
    state = goods_changed(state, ev.seat, food=-ev.food)
    return spend_points(state, ev.seat, ev.points)


@event
class GoodsExchanged(PatchEvent, SealedCommand):
    """Private to the exchanging seat from revision 2 (the rulebook's screen hides it); it shows
    the seat only what it chose, so an undo may go back past it."""

    seat: int
    give: str
    amount: int
    food: int
    coin: int
    resource: int
    points: int


@FOLDS.handles(GoodsExchanged)
def _exchange(pack: PatchPack, state: PState, ev: GoodsExchanged) -> PState:
    state = goods_changed(state, ev.seat, food=ev.food, coin=ev.coin, resource=ev.resource)
    state = goods_changed(state, ev.seat, **{ev.give: -ev.amount})
    return spend_points(state, ev.seat, ev.points)


@event
class Honored(PatchEvent):
    seat: int
    what: str
    food: int
    resource: int
    culture: int
    points: int


@FOLDS.handles(Honored)
def _honor(pack: PatchPack, state: PState, ev: Honored) -> PState:
    state = goods_changed(state, ev.seat, food=-ev.food, resource=-ev.resource, culture=ev.culture)
    return spend_points(state, ev.seat, ev.points)


@event
class Campaigned(PatchEvent):
    seat: int
    points: int


@FOLDS.handles(Campaigned)
def _campaign(pack: PatchPack, state: PState, ev: Campaigned) -> PState:
    state = goods_changed(state, ev.seat, votes=ev.points)
    return spend_points(state, ev.seat, ev.points).with_flag(ev.seat, "campaigned")
