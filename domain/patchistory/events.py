"""The events of a Patchistory game, one per fact, and how each changes the state (never
checks, never draws). Stored as `patchistory.<Name>`; each cites its rule when decided."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from domain.core.folds import Folds
from domain.core.messages import Event, event
from domain.core.turns import SealedCommand
from domain.patchistory.model import Civ, Cover, Offer, Pending, Placed, PState, Route, Won
from domain.patchistory.pack import PatchPack

Cell = tuple[int, int]


@dataclass(frozen=True, kw_only=True, slots=True)
class PatchEvent(Event):
    FAMILY = "patchistory"


FOLDS: Folds[PatchPack, PState] = Folds()
handles = FOLDS.handles
evolve = FOLDS.evolve
event_types = FOLDS.event_types


def civ_changed(state: PState, seat: int, **changes: Any) -> PState:
    return state.with_civ(seat, dataclasses.replace(state.civs[seat], **changes))


def goods_changed(state: PState, seat: int, **deltas: int) -> PState:
    civ = state.civs[seat]
    return civ_changed(state, seat, **{k: civ.goods(k) + v for k, v in deltas.items() if v})


def spend_points(state: PState, seat: int, cost: int) -> PState:
    pp = list(state.pp)
    pp[seat] -= cost
    return dataclasses.replace(state, pp=tuple(pp))


def without_worker(civ: Civ, at: Cell) -> tuple[Cell, ...]:
    workers = list(civ.workers)
    workers.remove(at)
    return tuple(workers)


# --- setting up and the Round ------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class CapitalsDealt(PatchEvent):
    capitals: tuple[str, ...]


@handles(CapitalsDealt)
def _capitals(pack: PatchPack, state: PState, ev: CapitalsDealt) -> PState:
    civs = tuple(Civ(capital=cap, tiles=(Placed(cap, "capital", 0, 0, 0),)) for cap in ev.capitals)
    return dataclasses.replace(state, civs=civs)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class SuppliesTaken(PatchEvent):
    food: int
    coin: int
    culture: int


@handles(SuppliesTaken)
def _supplies(pack: PatchPack, state: PState, ev: SuppliesTaken) -> PState:
    civs = tuple(
        dataclasses.replace(c, food=ev.food, coin=ev.coin, culture=ev.culture) for c in state.civs
    )
    return dataclasses.replace(state, civs=civs)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingTilesShuffled(PatchEvent):
    order: tuple[str, ...]


@handles(BuildingTilesShuffled)
def _stack(pack: PatchPack, state: PState, ev: BuildingTilesShuffled) -> PState:
    return dataclasses.replace(state, stack=ev.order)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingTilesDrawn(PatchEvent):
    """Building Tiles from the top of the supply into a hand (seen by the drawer only)."""

    seat: int
    drawn: tuple[str, ...]


@handles(BuildingTilesDrawn)
def _drawn(pack: PatchPack, state: PState, ev: BuildingTilesDrawn) -> PState:
    state = dataclasses.replace(state, stack=state.stack[len(ev.drawn) :])
    return civ_changed(state, ev.seat, hand=(*state.civs[ev.seat].hand, *ev.drawn))


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ProsperityDealt(PatchEvent):
    seat: int
    hand: tuple[str, ...]


@handles(ProsperityDealt)
def _prosperity(pack: PatchPack, state: PState, ev: ProsperityDealt) -> PState:
    return civ_changed(state, ev.seat, prosperity=ev.hand)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TradeRouteOpened(PatchEvent):
    """A Trade Route placed on the table: General (from `a` to `b`) or Allied."""

    route: int
    kind: str
    a: int
    b: int
    seat: int = -1
    """Who built it (-1: the set-up or an Alliance)."""
    resources: int = 0
    points: int = 0


@handles(TradeRouteOpened)
def _route(pack: PatchPack, state: PState, ev: TradeRouteOpened) -> PState:
    state = dataclasses.replace(
        state,
        routes=(*state.routes, Route(ev.route, ev.kind, ev.a, ev.b)),
        next_route=max(state.next_route, ev.route + 1),
    )
    if ev.seat >= 0:
        state = goods_changed(state, ev.seat, resource=-ev.resources)
        state = spend_points(state, ev.seat, ev.points)
        if ev.kind == "general":
            state = state.with_flag(ev.seat, "built-route")
    return state


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TradeRouteForfeited(PatchEvent):
    """A Trade Route back to the supply (Break Alliance, Schwerer Gustav); its Workers wait to
    be placed home."""

    route: int
    seat: int
    votes: int = 0
    points: int = 0


@handles(TradeRouteForfeited)
def _route_gone(pack: PatchPack, state: PState, ev: TradeRouteForfeited) -> PState:
    route = state.route(ev.route)
    pending = tuple(Pending("return", owner) for owner, _ in route.workers)
    state = dataclasses.replace(
        state,
        routes=tuple(r for r in state.routes if r.id != ev.route),
        pending=(*state.pending, *pending),
    )
    state = goods_changed(state, ev.seat, votes=ev.votes)
    state = spend_points(state, ev.seat, ev.points)
    return state.with_flag(ev.seat, "diplomacy") if ev.votes else state


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class RoundBegan(PatchEvent):
    era: int
    round: int
    serial: int
    start: int


@handles(RoundBegan)
def _round(pack: PatchPack, state: PState, ev: RoundBegan) -> PState:
    n = state.players
    return dataclasses.replace(
        state,
        era=ev.era,
        round=ev.round,
        serial=ev.serial,
        start=ev.start,
        flags=((),) * n,
        pp=(0,) * n,
        offered=(),
        bids=(-1,) * n,
        amounts=(0,) * n,
        won=(),
        shown=0,
        passed=(),
    )


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class EraTilesShuffled(PatchEvent):
    """The new Era's Terrain Tiles make the stack; the last Era's unused ones are set aside."""

    era: int
    tiles: tuple[str, ...]


@handles(EraTilesShuffled)
def _era_tiles(pack: PatchPack, state: PState, ev: EraTilesShuffled) -> PState:
    return dataclasses.replace(state, tiles_left=ev.tiles)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PhaseBegan(PatchEvent):
    phase: str
    seats: tuple[int, ...] = ()
    """The seats taking part (a sealed step) or in turn order."""


@handles(PhaseBegan)
def _phase(pack: PatchPack, state: PState, ev: PhaseBegan) -> PState:
    sealing = ev.seats if ev.phase in SEALED_PHASES else ()
    turn = ev.seats[0] if ev.seats and ev.phase not in SEALED_PHASES else -1
    return dataclasses.replace(
        state,
        phase=ev.phase,
        sealing=sealing,
        sealed=(),
        seal_no=state.seal_no + (1 if sealing else 0),
        turn=turn,
        passed=(),
        moved=(),
        routes_moved=(),
        participants=ev.seats if ev.phase in ("auction", "auction-sealed") else state.participants,
    )


SEALED_PHASES = frozenset({"auction-sealed", "negotiation", "war", "vote-card", "vote"})


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TurnPassed(PatchEvent):
    """A seat is done with its part of the phase; the turn goes to `next` (-1: nobody)."""

    seat: int
    next: int


@handles(TurnPassed)
def _turn(pack: PatchPack, state: PState, ev: TurnPassed) -> PState:
    return dataclasses.replace(
        state, passed=(*state.passed, ev.seat), turn=ev.next, moved=(), routes_moved=()
    )


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class PointsSet(PatchEvent):
    points: tuple[int, ...]


@handles(PointsSet)
def _points(pack: PatchPack, state: PState, ev: PointsSet) -> PState:
    return dataclasses.replace(state, pp=ev.points)


# --- the Auction -------------------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class CoinBoughtWithCulture(PatchEvent):
    seat: int
    culture: int
    coin: int


@handles(CoinBoughtWithCulture)
def _no_coin(pack: PatchPack, state: PState, ev: CoinBoughtWithCulture) -> PState:
    return goods_changed(state, ev.seat, culture=-ev.culture, coin=ev.coin)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TilesDrawn(PatchEvent):
    tiles: tuple[str, ...]
    sides: tuple[str, ...]


@handles(TilesDrawn)
def _tiles(pack: PatchPack, state: PState, ev: TilesDrawn) -> PState:
    left = tuple(t for t in state.tiles_left if t not in ev.tiles)
    offers = tuple(Offer(t, s) for t, s in zip(ev.tiles, ev.sides, strict=True))
    return dataclasses.replace(
        state, tiles_left=left, offered=(*state.offered, *offers), shown=state.shown + len(offers)
    )


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TileTakenBeforeAuction(PatchEvent):
    """Vasco Da Gama's player takes one of the Tiles out of the Auction."""

    seat: int
    tile: str
    side: str


@handles(TileTakenBeforeAuction)
def _vasco(pack: PatchPack, state: PState, ev: TileTakenBeforeAuction) -> PState:
    return dataclasses.replace(
        state,
        offered=tuple(o for o in state.offered if o.tile != ev.tile),
        won=(*state.won, Won(ev.seat, ev.tile, ev.side)),
        passed=(*state.passed, ev.seat),
    )


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class VascoDeclined(PatchEvent):
    seat: int


@handles(VascoDeclined)
def _vasco_no(pack: PatchPack, state: PState, ev: VascoDeclined) -> PState:
    return dataclasses.replace(state, passed=(*state.passed, ev.seat))


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BidPlaced(PatchEvent):
    """A bid on Tile `tile` (an index of the Auction's Tiles): `added` Coin more, `amount` in
    all; `next` is the seat to bid next (-1: every Tile has exactly one bid)."""

    seat: int
    tile: int
    added: int
    amount: int
    next: int


@handles(BidPlaced)
def _bid(pack: PatchPack, state: PState, ev: BidPlaced) -> PState:
    bids, amounts = list(state.bids), list(state.amounts)
    bids[ev.seat], amounts[ev.seat] = ev.tile, ev.amount
    state = goods_changed(state, ev.seat, coin=-ev.added)
    return dataclasses.replace(state, bids=tuple(bids), amounts=tuple(amounts), turn=ev.next)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BidPassed(PatchEvent):
    seat: int
    next: int


@handles(BidPassed)
def _bid_pass(pack: PatchPack, state: PState, ev: BidPassed) -> PState:
    return dataclasses.replace(state, turn=ev.next)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BidSealed(PatchEvent, SealedCommand):
    """A 2-player secret bid: Tile #1 (`number` 0) or #2 (1), and the Coin offered."""

    seat: int
    number: int
    offer: int


@handles(BidSealed)
def _bid_sealed(pack: PatchPack, state: PState, ev: BidSealed) -> PState:
    return dataclasses.replace(state, sealed=(*state.sealed, (ev.seat, (ev.number, ev.offer))))


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BidsRevealed(PatchEvent):
    REVEALS_HIDDEN = True

    tiles: tuple[int, ...]
    coins: tuple[int, ...]


@handles(BidsRevealed)
def _bids_revealed(pack: PatchPack, state: PState, ev: BidsRevealed) -> PState:
    civs = tuple(
        dataclasses.replace(c, coin=c.coin - ev.coins[s]) for s, c in enumerate(state.civs)
    )
    return dataclasses.replace(state, civs=civs, sealed=(), sealing=())


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TileWon(PatchEvent):
    seat: int
    tile: str
    side: str
    paid: int


@handles(TileWon)
def _won(pack: PatchPack, state: PState, ev: TileWon) -> PState:
    return dataclasses.replace(state, won=(*state.won, Won(ev.seat, ev.tile, ev.side)))


# --- patching and Workers ----------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
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


@handles(TilePatched)
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
    return dataclasses.replace(state, won=state.won[1:], removed=removed)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TileForfeited(PatchEvent):
    seat: int
    tile: str


@handles(TileForfeited)
def _forfeit(pack: PatchPack, state: PState, ev: TileForfeited) -> PState:
    return dataclasses.replace(state, won=state.won[1:])


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class DecisionAwaited(PatchEvent):
    """The rules wait for `seat` to decide `kind` (a Worker to place, Aid to answer ...)."""

    kind: str
    seat: int
    numbers: tuple[int, ...] = ()
    text: str = ""


@handles(DecisionAwaited)
def _awaited(pack: PatchPack, state: PState, ev: DecisionAwaited) -> PState:
    return dataclasses.replace(
        state, pending=(*state.pending, Pending(ev.kind, ev.seat, ev.numbers, ev.text))
    )


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class WorkerPlaced(PatchEvent):
    """A Worker off the Descendant Track onto a space (first Workers, Birth, Moses)."""

    seat: int
    at: Cell
    food: int = 0
    points: int = 0


@handles(WorkerPlaced)
def _placed(pack: PatchPack, state: PState, ev: WorkerPlaced) -> PState:
    civ = state.civs[ev.seat]
    state = civ_changed(
        state, ev.seat, workers=tuple(sorted((*civ.workers, ev.at))), born=civ.born + 1
    )
    state = goods_changed(state, ev.seat, food=-ev.food)
    state = spend_points(state, ev.seat, ev.points)
    return _done_pending(state, ev.seat, ("place-new",))


def _done_pending(state: PState, seat: int, kinds: tuple[str, ...]) -> PState:
    if state.pending and state.pending[0].seat == seat and state.pending[0].kind in kinds:
        return dataclasses.replace(state, pending=state.pending[1:])
    return state


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class WorkerCameHome(PatchEvent):
    """A Worker back from a Trade Route or a Rest space onto a space of its territory."""

    seat: int
    at: Cell


@handles(WorkerCameHome)
def _home(pack: PatchPack, state: PState, ev: WorkerCameHome) -> PState:
    civ = state.civs[ev.seat]
    state = civ_changed(state, ev.seat, workers=tuple(sorted((*civ.workers, ev.at))))
    return _done_pending(state, ev.seat, ("return",))


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class WorkerBackToTrack(PatchEvent):
    """A Worker onto the Descendant Track: from a space (`at`), or one waiting to come home
    with no free space (`at` empty)."""

    seat: int
    at: tuple[int, ...] = ()
    culture: int = 0
    food: int = 0
    votes: int = 0
    points: int = 0
    route: int = 0


@handles(WorkerBackToTrack)
def _to_track(pack: PatchPack, state: PState, ev: WorkerBackToTrack) -> PState:
    civ = state.civs[ev.seat]
    if ev.route:
        route = state.route(ev.route)
        state = state.with_route(
            dataclasses.replace(route, workers=tuple(w for w in route.workers if w[0] != ev.seat))
        )
    workers = civ.workers
    if len(ev.at) == 2:
        workers = without_worker(civ, (ev.at[0], ev.at[1]))
    state = civ_changed(state, ev.seat, workers=workers, born=civ.born - 1)
    state = goods_changed(state, ev.seat, culture=ev.culture, food=ev.food, votes=ev.votes)
    state = spend_points(state, ev.seat, ev.points)
    if not ev.at and not ev.route:
        state = _done_pending(state, ev.seat, ("return",))
    return state


# --- Diplomacy ---------------------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AidOffered(PatchEvent):
    seat: int
    to: int
    food: int
    coin: int
    resource: int
    points: int


@handles(AidOffered)
def _aid(pack: PatchPack, state: PState, ev: AidOffered) -> PState:
    state = spend_points(state, ev.seat, ev.points).with_flag(ev.seat, "diplomacy")
    pending = Pending("aid", ev.to, (ev.seat, ev.food, ev.coin, ev.resource))
    return dataclasses.replace(state, pending=(*state.pending, pending))


@event
@dataclass(frozen=True, kw_only=True, slots=True)
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


@handles(AidAnswered)
def _aid_answer(pack: PatchPack, state: PState, ev: AidAnswered) -> PState:
    if ev.accepted:
        state = goods_changed(state, ev.giver, food=-ev.food, coin=-ev.coin, resource=-ev.resource)
        state = goods_changed(state, ev.seat, food=ev.food, coin=ev.coin, resource=ev.resource)
        state = state.with_flag(ev.seat, "accepted-aid")
    state = goods_changed(state, ev.giver, culture=ev.culture)
    return _done_pending(state, ev.seat, ("aid",))


@event
@dataclass(frozen=True, kw_only=True, slots=True)
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


@handles(Threatened)
def _threat(pack: PatchPack, state: PState, ev: Threatened) -> PState:
    state = spend_points(state, ev.seat, ev.points).with_flag(ev.seat, "diplomacy")
    if ev.success:
        state = goods_changed(state, ev.to, **{ev.demand: -ev.taken})
        state = goods_changed(state, ev.seat, **{ev.demand: ev.taken})
    return goods_changed(state, ev.seat, culture=ev.bonus)


# --- Management --------------------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class TradeBegun(PatchEvent):
    """A Worker from the territory to the Start space of a Trade Route."""

    seat: int
    route: int
    at: Cell
    space: int
    food: int
    points: int


@handles(TradeBegun)
def _trade(pack: PatchPack, state: PState, ev: TradeBegun) -> PState:
    civ = state.civs[ev.seat]
    state = civ_changed(state, ev.seat, workers=without_worker(civ, ev.at))
    route = state.route(ev.route)
    state = state.with_route(
        dataclasses.replace(route, workers=(*route.workers, (ev.seat, ev.space)))
    )
    state = goods_changed(state, ev.seat, food=-ev.food)
    return spend_points(state, ev.seat, ev.points)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GoodsExchanged(PatchEvent, SealedCommand):
    """Private to the exchanging seat (the rulebook's screen hides it); it shows the seat only
    what it chose, so an undo may go back past it."""

    seat: int
    give: str
    amount: int
    food: int
    coin: int
    resource: int
    points: int


@handles(GoodsExchanged)
def _exchange(pack: PatchPack, state: PState, ev: GoodsExchanged) -> PState:
    state = goods_changed(state, ev.seat, food=ev.food, coin=ev.coin, resource=ev.resource)
    state = goods_changed(state, ev.seat, **{ev.give: -ev.amount})
    return spend_points(state, ev.seat, ev.points)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class Honored(PatchEvent):
    seat: int
    what: str
    food: int
    resource: int
    culture: int
    points: int


@handles(Honored)
def _honor(pack: PatchPack, state: PState, ev: Honored) -> PState:
    state = goods_changed(state, ev.seat, food=-ev.food, resource=-ev.resource, culture=ev.culture)
    return spend_points(state, ev.seat, ev.points)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
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


@handles(SquareReclaimed)
def _reclaim(pack: PatchPack, state: PState, ev: SquareReclaimed) -> PState:
    owner = ev.seat if ev.owner < 0 else ev.owner
    state = _cover(state, owner, Cover(ev.at[0], ev.at[1], ev.tile_used, True))
    civ = state.civs[ev.seat]
    hand = list(civ.hand)
    hand.remove(ev.tile_used)
    state = civ_changed(state, ev.seat, hand=tuple(hand))
    state = goods_changed(state, ev.seat, resource=-ev.resources)
    state = spend_points(state, ev.seat, ev.points)
    return _done_pending(state, ev.seat, ("stealth",))


def _cover(state: PState, seat: int, cover: Cover) -> PState:
    civ = state.civs[seat]
    old = [c for c in civ.covers if c.at == cover.at]
    covers = tuple(sorted((*(c for c in civ.covers if c.at != cover.at), cover), key=_cover_key))
    state = civ_changed(state, seat, covers=covers)
    if old:
        state = dataclasses.replace(state, removed=(*state.removed, old[0].building))
    return state


def _cover_key(cover: Cover) -> tuple[int, int]:
    return cover.at


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class BuildingConstructed(PatchEvent):
    seat: int
    at: Cell
    building: str
    resources: int
    points: int


@handles(BuildingConstructed)
def _build(pack: PatchPack, state: PState, ev: BuildingConstructed) -> PState:
    state = _cover(state, ev.seat, Cover(ev.at[0], ev.at[1], ev.building, False))
    civ = state.civs[ev.seat]
    hand = list(civ.hand)
    hand.remove(ev.building)
    state = civ_changed(state, ev.seat, hand=tuple(hand))
    state = goods_changed(state, ev.seat, resource=-ev.resources)
    return spend_points(state, ev.seat, ev.points)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class Campaigned(PatchEvent):
    seat: int
    points: int


@handles(Campaigned)
def _campaign(pack: PatchPack, state: PState, ev: Campaigned) -> PState:
    state = goods_changed(state, ev.seat, votes=ev.points)
    return spend_points(state, ev.seat, ev.points).with_flag(ev.seat, "campaigned")


# --- Movement ----------------------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class WorkerMoved(PatchEvent):
    seat: int
    frm: Cell
    to: Cell


@handles(WorkerMoved)
def _moved(pack: PatchPack, state: PState, ev: WorkerMoved) -> PState:
    civ = state.civs[ev.seat]
    state = civ_changed(
        state, ev.seat, workers=tuple(sorted((*without_worker(civ, ev.frm), ev.to)))
    )
    return dataclasses.replace(state, moved=(*state.moved, ev.to))


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class RouteWorkerMoved(PatchEvent):
    """A Worker along a Trade Route (`to` a space index), or onto its Rest/Return space
    (`rest`), or home at once from an Allied route's far end (`home`)."""

    seat: int
    route: int
    frm: int
    to: int
    rest: bool = False
    home: bool = False
    forced: bool = False


@handles(RouteWorkerMoved)
def _route_moved(pack: PatchPack, state: PState, ev: RouteWorkerMoved) -> PState:
    route = state.route(ev.route)
    others = tuple(w for w in route.workers if w[0] != ev.seat)
    if ev.rest or ev.home:
        state = state.with_route(dataclasses.replace(route, workers=others))
    else:
        state = state.with_route(
            dataclasses.replace(route, workers=tuple(sorted((*others, (ev.seat, ev.to)))))
        )
    if ev.rest:
        civ = state.civs[ev.seat]
        state = civ_changed(state, ev.seat, resting=(*civ.resting, state.serial))
    if ev.home:
        state = dataclasses.replace(state, pending=(*state.pending, Pending("return", ev.seat)))
    if not ev.forced:
        state = dataclasses.replace(state, routes_moved=(*state.routes_moved, ev.route))
    return state


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class RestOver(PatchEvent):
    """Workers that went to Rest/Return in an earlier Round come home."""

    seat: int
    count: int


@handles(RestOver)
def _rest_over(pack: PatchPack, state: PState, ev: RestOver) -> PState:
    civ = state.civs[ev.seat]
    staying = tuple(r for r in civ.resting if r >= state.serial)
    state = civ_changed(state, ev.seat, resting=staying)
    pending = tuple(Pending("return", ev.seat) for _ in range(ev.count))
    return dataclasses.replace(state, pending=(*state.pending, *pending))


# --- Negotiation and War -----------------------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ConflictsFound(PatchEvent):
    negotiations: tuple[int, ...]
    wars: tuple[int, ...]


@handles(ConflictsFound)
def _conflicts(pack: PatchPack, state: PState, ev: ConflictsFound) -> PState:
    return dataclasses.replace(state, negotiations=ev.negotiations, wars=ev.wars)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class SideChosen(PatchEvent, SealedCommand):
    seat: int
    route: int
    blue: bool


@handles(SideChosen)
def _side(pack: PatchPack, state: PState, ev: SideChosen) -> PState:
    return dataclasses.replace(state, sealed=(*state.sealed, (ev.seat, (int(ev.blue),))))


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class SidesRevealed(PatchEvent):
    REVEALS_HIDDEN = True

    route: int
    seats: tuple[int, ...]
    blue: tuple[bool, ...]


@handles(SidesRevealed)
def _sides(pack: PatchPack, state: PState, ev: SidesRevealed) -> PState:
    return dataclasses.replace(state, sealed=(), sealing=(), negotiations=state.negotiations[1:])


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class WarDeclared(PatchEvent):
    route: int
    aggressors: tuple[int, ...]
    paid: tuple[int, ...]
    """Resources each Aggressor forfeited, in `aggressors` order."""


@handles(WarDeclared)
def _war(pack: PatchPack, state: PState, ev: WarDeclared) -> PState:
    route = state.route(ev.route)
    state = state.with_route(dataclasses.replace(route, declared=True, aggressors=ev.aggressors))
    for seat, paid in zip(ev.aggressors, ev.paid, strict=True):
        state = goods_changed(state, seat, resource=-paid)
    return state


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class AllianceAnswered(PatchEvent):
    """A player's answer to an Alliance after both chose blue (`direction`: the proposer's
    choice of which end the Allied route starts from; -1 for the other player)."""

    seat: int
    route: int
    agree: bool
    direction: int = -1


@handles(AllianceAnswered)
def _alliance(pack: PatchPack, state: PState, ev: AllianceAnswered) -> PState:
    state = dataclasses.replace(state, pending=state.pending[1:])
    if ev.agree and ev.direction >= 0:
        route = state.route(ev.route)
        other = route.b if ev.seat == route.a else route.a
        ask = Pending("alliance-accept", other, (ev.route, ev.direction))
        state = dataclasses.replace(state, pending=(ask, *state.pending))
    return state


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class WorkerLeftRoute(PatchEvent):
    """The Worker on a Trade Route's Preparation or War space leaves it to come home."""

    seat: int
    route: int


@handles(WorkerLeftRoute)
def _left(pack: PatchPack, state: PState, ev: WorkerLeftRoute) -> PState:
    route = state.route(ev.route)
    state = state.with_route(
        dataclasses.replace(
            route,
            workers=tuple(w for w in route.workers if w[0] != ev.seat),
            declared=False,
            aggressors=(),
        )
    )
    return dataclasses.replace(state, pending=(*state.pending, Pending("return", ev.seat)))


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class StrengthCommitted(PatchEvent, SealedCommand):
    seat: int
    route: int
    spent_resources: int
    spent_votes: int


@handles(StrengthCommitted)
def _strength(pack: PatchPack, state: PState, ev: StrengthCommitted) -> PState:
    return dataclasses.replace(
        state, sealed=(*state.sealed, (ev.seat, (ev.spent_resources, ev.spent_votes)))
    )


@event
@dataclass(frozen=True, kw_only=True, slots=True)
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


@handles(WarResolved)
def _resolved(pack: PatchPack, state: PState, ev: WarResolved) -> PState:
    for i, seat in enumerate(ev.seats):
        state = goods_changed(
            state, seat, resource=-ev.resources[i], votes=-ev.votes[i], culture=ev.culture[i]
        )
    return dataclasses.replace(state, sealed=(), sealing=(), wars=state.wars[1:])


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class NegotiationSkipped(PatchEvent):
    """Allies do not negotiate for War: the Worker goes home."""

    route: int


@handles(NegotiationSkipped)
def _skipped(pack: PatchPack, state: PState, ev: NegotiationSkipped) -> PState:
    return dataclasses.replace(state, negotiations=state.negotiations[1:])


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class WarCalledOff(PatchEvent):
    route: int


@handles(WarCalledOff)
def _called_off(pack: PatchPack, state: PState, ev: WarCalledOff) -> PState:
    return dataclasses.replace(state, wars=state.wars[1:])


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class DecisionDeclined(PatchEvent):
    """A seat lets an optional decision go (Stealth Aircraft, Chichen-Itza)."""

    seat: int
    kind: str


@handles(DecisionDeclined)
def _declined(pack: PatchPack, state: PState, ev: DecisionDeclined) -> PState:
    return _done_pending(state, ev.seat, (ev.kind,))


# --- Production, maintenance, Vote, Era ---------------------------------------------------------


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GoodsProduced(PatchEvent):
    seat: int
    coin: int
    food: int
    resource: int
    culture: int
    routes: tuple[int, ...]
    """Of which from Workers on Trade Routes: coin, food, resource, culture."""


@handles(GoodsProduced)
def _produced(pack: PatchPack, state: PState, ev: GoodsProduced) -> PState:
    return goods_changed(
        state, ev.seat, coin=ev.coin, food=ev.food, resource=ev.resource, culture=ev.culture
    )


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class Maintained(PatchEvent):
    """Food and Resources forfeited for upkeep, and Culture for what was short."""

    seat: int
    what: str
    food: int
    resource: int
    culture: int


@handles(Maintained)
def _maintained(pack: PatchPack, state: PState, ev: Maintained) -> PState:
    return goods_changed(state, ev.seat, food=-ev.food, resource=-ev.resource, culture=-ev.culture)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ProsperityChosen(PatchEvent, SealedCommand):
    seat: int
    card: str


@handles(ProsperityChosen)
def _chosen(pack: PatchPack, state: PState, ev: ProsperityChosen) -> PState:
    index = state.civs[ev.seat].prosperity.index(ev.card)
    return dataclasses.replace(state, sealed=(*state.sealed, (ev.seat, (index,))))


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ProsperityRevealed(PatchEvent):
    """The chosen cards, shuffled and turned up (who chose which stays unknown)."""

    REVEALS_HIDDEN = True

    cards: tuple[str, ...]


@handles(ProsperityRevealed)
def _revealed(pack: PatchPack, state: PState, ev: ProsperityRevealed) -> PState:
    chosen = dict(state.sealed)
    civs = tuple(
        dataclasses.replace(
            c, prosperity=tuple(p for i, p in enumerate(c.prosperity) if i != chosen[s][0])
        )
        if s in chosen
        else c
        for s, c in enumerate(state.civs)
    )
    return dataclasses.replace(
        state,
        civs=civs,
        sealed=(),
        sealing=(),
        vote_cards=ev.cards,
        vote_index=0,
        votes_on=(0,) * len(ev.cards),
    )


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class VotesCommitted(PatchEvent, SealedCommand):
    seat: int
    card: str
    count: int


@handles(VotesCommitted)
def _votes(pack: PatchPack, state: PState, ev: VotesCommitted) -> PState:
    return dataclasses.replace(state, sealed=(*state.sealed, (ev.seat, (ev.count,))))


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class VotesRevealed(PatchEvent):
    REVEALS_HIDDEN = True

    card: str
    votes: tuple[int, ...]
    total: int


@handles(VotesRevealed)
def _votes_revealed(pack: PatchPack, state: PState, ev: VotesRevealed) -> PState:
    civs = tuple(
        dataclasses.replace(c, votes=c.votes - ev.votes[s]) for s, c in enumerate(state.civs)
    )
    on = list(state.votes_on)
    on[state.vote_index] = ev.total
    return dataclasses.replace(
        state, civs=civs, votes_on=tuple(on), vote_index=state.vote_index + 1, sealed=(), sealing=()
    )


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ProsperityScored(PatchEvent):
    card: str
    votes: int
    value: int
    """Culture per first place (the Votes, or half of them: 2-player fewer card)."""
    ranks: tuple[int, ...]
    culture: tuple[int, ...]


@handles(ProsperityScored)
def _scored(pack: PatchPack, state: PState, ev: ProsperityScored) -> PState:
    for seat, delta in enumerate(ev.culture):
        state = goods_changed(state, seat, culture=delta)
    return state


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class ProsperityDiscarded(PatchEvent):
    card: str
    votes: int


@handles(ProsperityDiscarded)
def _discarded(pack: PatchPack, state: PState, ev: ProsperityDiscarded) -> PState:
    return state


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class VotesForfeited(PatchEvent):
    votes: tuple[int, ...]


@handles(VotesForfeited)
def _forfeit_votes(pack: PatchPack, state: PState, ev: VotesForfeited) -> PState:
    civs = tuple(dataclasses.replace(c, votes=0) for c in state.civs)
    return dataclasses.replace(state, civs=civs, vote_cards=(), votes_on=(), vote_index=0)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class CultureFromTiles(PatchEvent):
    """Culture an ability gives or takes at the end of an Era or of the game."""

    seat: int
    ability: str
    culture: int


@handles(CultureFromTiles)
def _tile_culture(pack: PatchPack, state: PState, ev: CultureFromTiles) -> PState:
    return goods_changed(state, ev.seat, culture=ev.culture)


@event
@dataclass(frozen=True, kw_only=True, slots=True)
class GameFinished(PatchEvent):
    culture: tuple[int, ...]
    winners: tuple[int, ...]


@handles(GameFinished)
def _finished(pack: PatchPack, state: PState, ev: GameFinished) -> PState:
    return dataclasses.replace(state, phase="over", final=ev.culture, turn=-1, pending=())
