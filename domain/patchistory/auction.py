"""The Auction (patchistory.auction.*): the Tiles arranged White and Black, bids in turn from
the Start Player (patchistory.auction.order) until every Tile has exactly one bid, the first
Auction of the game (patchistory.auction.first), the 2-player Auction under seal
(patchistory.auction.two-player), Coin bought with Culture by a player with none, and Vasco Da
Gama's Tile taken before the Auction. Examples: `WORKED_EXAMPLES`."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.core.turns import SealedCommand
from domain.patchistory import patching
from domain.patchistory.context import (
    COMMANDS,
    FOLDS,
    Ctx,
    PatchEvent,
    behind_screen,
    goods_changed,
)
from domain.patchistory.model import Offer, PState, Won
from domain.patchistory.pack import BLACK, WHITE, PatchPack
from domain.patchistory.rounds import (
    AT_ONCE,
    DecisionDeclined,
    PhaseBegan,
    TurnPassed,
    next_holder,
    refused_by,
)
from domain.patchistory.territory import has

NOT_BEATEN = "patchistory.auction.not-beaten"
"""A bid from a player whose bid stands is refused by the rule's own words."""


UNCITED_RULES = ("patchistory.auction.committed",)
"""The clauses this module decides that no event or refusal carries."""
WORKED_EXAMPLES = (
    "patchistory.example.auction",
    "patchistory.example.two-player-auction",
)
"""The rulebook's worked examples of this chapter, each played again by a test."""


def first_auction(state: PState) -> bool:
    """The first Round of a 3-4 player game: its Auction shows the Tiles one by one."""
    return state.era == 1 and state.round == 1 and state.players >= 3


def open_auction(ctx: Ctx) -> None:
    """The Round's Auction: Coin for those with none, the Tiles drawn, Vasco Da Gama first."""
    state = ctx.state
    for seat in state.in_order():
        if state.civs[seat].coin == 0:
            auction = ctx.pack.numbers["auction"]
            paid = min(auction["no_coin_culture"], state.civs[seat].culture)
            ctx.emit(
                CoinBoughtWithCulture(
                    rule="patchistory.auction.no-coin",
                    seat=seat,
                    culture=paid,
                    coin=auction["no_coin_gain"],
                    visibility=behind_screen(
                        ctx.pack, seat, seat=seat, coin=auction["no_coin_gain"]
                    ),
                )
            )
    first = first_auction(state)
    draw_tiles(ctx, 1 if first else state.players)
    holders = [s for s in state.in_order() if has(ctx.pack, ctx.state.civs[s], "vasco-da-gama")]
    if holders and not first:
        ctx.emit(
            PhaseBegan(rule="patchistory.tile.vasco-da-gama", phase="vasco", seats=tuple(holders))
        )
        return
    begin_auction(ctx)


def draw_tiles(ctx: Ctx, count: int) -> None:
    state = ctx.state
    left = list(state.tiles_left)
    tiles: list[str] = []
    for _ in range(min(count, len(left))):
        tile = ctx.chance.pick(left)
        left.remove(tile)
        tiles.append(tile)
    sides = []
    for i in range(len(tiles)):
        if state.players == 2:
            sides.append("")
            continue
        position = state.shown + i
        white_first = state.serial % 2 == 1
        white = (position % 2 == 0) == white_first
        sides.append(WHITE if white else BLACK)
    ctx.emit(
        TilesDrawn(
            rule="patchistory.auction.arrange",
            tiles=tuple(tiles),
            sides=tuple(sides),
            draws=ctx.chance.take_draws(),
        )
    )


def begin_auction(ctx: Ctx) -> None:
    state = ctx.state
    taken = {w.seat for w in state.won}
    seats = tuple(s for s in state.in_order() if s not in taken)
    if not seats or not state.offered:
        patching.begin_patching(ctx)
        return
    if state.players == 2 and len(seats) == 2:
        ctx.emit(
            PhaseBegan(rule="patchistory.auction.two-player", phase="auction-sealed", seats=seats)
        )
        return
    cite = "patchistory.auction.first" if first_auction(state) else "patchistory.auction.order"
    ctx.emit(PhaseBegan(rule=cite, phase="auction", seats=seats))


def close_auction(ctx: Ctx) -> None:
    state = ctx.state
    for seat in state.in_order():
        index = state.bids[seat]
        if index >= 0:
            offer = state.offered[index]
            ctx.emit(
                TileWon(
                    rule="patchistory.auction.payment",
                    cites=("patchistory.auction.side",),
                    seat=seat,
                    tile=offer.tile,
                    side=offer.side,
                    paid=state.amounts[seat],
                )
            )
    patching.begin_patching(ctx)


# --- bidding -----------------------------------------------------------------------------------


def highest(state: PState, tile: int, besides: int = -1) -> int:
    return max(
        (state.amounts[s] for s in state.participants if state.bids[s] == tile and s != besides),
        default=0,
    )


def beaten(state: PState, seat: int) -> bool:
    tile = state.bids[seat]
    return tile >= 0 and highest(state, tile, seat) > state.amounts[seat]


def must_bid(state: PState, seat: int) -> bool:
    return state.bids[seat] < 0 or beaten(state, seat)


def first_stage(state: PState) -> bool:
    """The first Auction of a 3-4 player game, while its Tiles are still coming out
    (patchistory.auction.first): each player in turn acts once (`passed` counts them)."""
    return first_auction(state) and len(state.passed) < len(state.participants)


def next_bidder(state: PState, after: int) -> int:
    seats = state.participants
    i = seats.index(after)
    for k in range(1, len(seats) + 1):
        seat = seats[(i + k) % len(seats)]
        if must_bid(state, seat):
            return seat
    return -1


def bid_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    """Every bid the seat may make: at least the minimum and 1 more than the Tile's highest,
    counting what it already committed, which stays (patchistory.auction.committed)."""
    coin = state.civs[seat].coin
    minimum = pack.numbers["auction"]["minimum_bid"]
    shown = len(state.offered)
    for tile in range(shown):
        own = state.amounts[seat] if state.bids[seat] >= 0 else 0
        need = max(minimum, highest(state, tile, seat) + 1)
        low = max(0, need - own)
        if tile == state.bids[seat]:
            low = max(1, low)
        for added in range(low, coin + 1):
            yield Command.of("bid", tile=tile, coin=added)
    if (
        first_stage(state)
        and state.bids[seat] < 0
        and len(state.passed) < len(state.participants) - 1
    ):
        yield Command.of("pass")


def sealed_bid_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    for tile in range(len(state.offered)):
        for coin in range(1, state.civs[seat].coin + 1):
            yield Command.of("seal_bid", tile=tile, coin=coin)


def vasco_actions(pack: PatchPack, state: PState, seat: int) -> Iterator[Command]:
    for i, _ in enumerate(state.offered):
        yield Command.of("take_tile", tile=i)
    yield Command.of("decline")


def after_bid(ctx: Ctx, seat: int, placed: BidPlaced | BidPassed) -> None:
    state = ctx.state
    staged = first_stage(state)
    probe = FOLDS.evolve(ctx.pack, state, placed)
    if staged:
        probe = evolved(probe, passed=(*probe.passed, seat))
        stage_over = len(probe.passed) >= len(probe.participants)
        nxt = next_bidder(probe, seat) if stage_over else probe.participants[len(probe.passed)]
    else:
        nxt = next_bidder(probe, seat)
    ctx.emit(dataclasses.replace(placed, next=nxt))  # an event: slotted
    if staged:
        ctx.emit(TurnPassed(rule="patchistory.auction.first", seat=seat, next=nxt))
        if len(ctx.state.offered) < len(ctx.state.participants) and nxt >= 0:
            draw_tiles(ctx, 1)


# --- the commands ------------------------------------------------------------------------------

AUCTION_TILE: Arg[PatchPack] = Arg("tile", "Index of the Tile in the Auction.", kind=int, minimum=0)


@COMMANDS.declares("take_tile", "Vasco Da Gama: take a Tile before the Auction.", AUCTION_TILE)
def take_tile(ctx: Ctx, seat: int, command: Command) -> None:
    offer = ctx.state.offered[int(command.arg("tile"))]
    ctx.emit(
        TileTakenBeforeAuction(
            rule="patchistory.tile.vasco-da-gama", seat=seat, tile=offer.tile, side=offer.side
        )
    )
    _vasco_done(ctx, seat)


@COMMANDS.declares("decline", "Let an optional ability go (Vasco Da Gama, Stealth Aircraft).")
def decline(ctx: Ctx, seat: int, command: Command) -> None:
    if ctx.state.pending:  # Stealth Aircraft declined
        ctx.emit(
            DecisionDeclined(rule="patchistory.tile.stealth-aircraft", seat=seat, kind="stealth")
        )
        return
    ctx.emit(VascoDeclined(rule="patchistory.tile.vasco-da-gama", seat=seat))
    _vasco_done(ctx, seat)


def _vasco_done(ctx: Ctx, seat: int) -> None:
    nxt = next_holder(ctx.pack, ctx.state, "vasco-da-gama", seat)
    ctx.emit(TurnPassed(rule="patchistory.tile.vasco-da-gama", seat=seat, next=nxt))


@COMMANDS.declares(
    "bid",
    "Bid on a Tile at the Auction, adding Coin to the highest bid.",
    AUCTION_TILE,
    Arg("coin", "Coin added to your bid.", kind=int, minimum=0),
    why_not=refused_by("patchistory.auction.bid"),
)
def bid(ctx: Ctx, seat: int, command: Command) -> None:
    tile, added = int(command.arg("tile")), int(command.arg("coin"))
    state = ctx.state
    base = state.amounts[seat] if state.bids[seat] >= 0 else 0
    cite = "patchistory.auction.beaten" if beaten(state, seat) else "patchistory.auction.bid"
    placed = BidPlaced(rule=cite, seat=seat, tile=tile, added=added, amount=base + added, next=-1)
    after_bid(ctx, seat, placed)


@COMMANDS.declares(
    "pass",
    "First Auction of the game: bid on nothing yet.",
    why_not=refused_by("patchistory.auction.first"),
)
def pass_in_the_auction(ctx: Ctx, seat: int, command: Command) -> None:
    after_bid(ctx, seat, BidPassed(rule="patchistory.auction.first", seat=seat, next=-1))


@COMMANDS.declares(
    "seal_bid",
    "2-player Auction: a secret bid of Coin for Tile #1 or Tile #2 at the Auction.",
    Arg("tile", "0 for Tile #1, 1 for Tile #2.", kind=int, minimum=0),
    Arg("coin", "Coin bid.", kind=int, minimum=1),
    why_not=refused_by("patchistory.auction.two-player"),
)
def seal_bid(ctx: Ctx, seat: int, command: Command) -> None:
    tile, coin = int(command.arg("tile")), int(command.arg("coin"))
    ctx.emit(
        BidSealed(
            rule="patchistory.auction.two-player",
            seat=seat,
            number=tile,
            offer=coin,
            visibility=AT_ONCE.sealed_visibility(seat),
        )
    )
    if AT_ONCE.all_committed(ctx.state):
        _reveal_bids(ctx)


def _reveal_bids(ctx: Ctx) -> None:
    """patchistory.auction.two-player: different Tiles go to their bidders; on the same Tile
    the higher bid (the Start Player's when equal) wins it and the other takes the other."""
    state = ctx.state
    bids = state.sealed_map()
    seats = state.in_order()
    tiles = tuple(bids[s][0] for s in range(state.players))
    coins = tuple(bids[s][1] for s in range(state.players))
    ctx.emit(BidsRevealed(rule="patchistory.auction.two-player", tiles=tiles, coins=coins))
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
            TileWon(
                rule="patchistory.auction.two-player",
                seat=s,
                tile=offer.tile,
                side="",
                paid=coins[s],
            )
        )


# --- the events --------------------------------------------------------------------------------


@event
class CoinBoughtWithCulture(PatchEvent):
    seat: int
    culture: int
    coin: int


@FOLDS.handles(CoinBoughtWithCulture)
def _no_coin(pack: PatchPack, state: PState, ev: CoinBoughtWithCulture) -> PState:
    return goods_changed(state, ev.seat, culture=-ev.culture, coin=ev.coin)


@event
class TilesDrawn(PatchEvent):
    tiles: tuple[str, ...]
    sides: tuple[str, ...]


@FOLDS.handles(TilesDrawn)
def _tiles(pack: PatchPack, state: PState, ev: TilesDrawn) -> PState:
    left = tuple(t for t in state.tiles_left if t not in ev.tiles)
    offers = tuple(Offer(t, s) for t, s in zip(ev.tiles, ev.sides, strict=True))
    return evolved(
        state, tiles_left=left, offered=(*state.offered, *offers), shown=state.shown + len(offers)
    )


@event
class TileTakenBeforeAuction(PatchEvent):
    """Vasco Da Gama's player takes one of the Tiles out of the Auction."""

    seat: int
    tile: str
    side: str


@FOLDS.handles(TileTakenBeforeAuction)
def _vasco(pack: PatchPack, state: PState, ev: TileTakenBeforeAuction) -> PState:
    return evolved(
        state,
        offered=tuple(o for o in state.offered if o.tile != ev.tile),
        won=(*state.won, Won(ev.seat, ev.tile, ev.side)),
        passed=(*state.passed, ev.seat),
    )


@event
class VascoDeclined(PatchEvent):
    seat: int


@FOLDS.handles(VascoDeclined)
def _vasco_no(pack: PatchPack, state: PState, ev: VascoDeclined) -> PState:
    return evolved(state, passed=(*state.passed, ev.seat))


@event
class BidPlaced(PatchEvent):
    """A bid on Tile `tile` (an index of the Auction's Tiles): `added` Coin more, `amount` in
    all; `next` is the seat to bid next (-1: every Tile has exactly one bid)."""

    seat: int
    tile: int
    added: int
    amount: int
    next: int


@FOLDS.handles(BidPlaced)
def _bid(pack: PatchPack, state: PState, ev: BidPlaced) -> PState:
    bids, amounts = list(state.bids), list(state.amounts)
    bids[ev.seat], amounts[ev.seat] = ev.tile, ev.amount
    state = goods_changed(state, ev.seat, coin=-ev.added)
    return evolved(state, bids=tuple(bids), amounts=tuple(amounts), turn=ev.next)


@event
class BidPassed(PatchEvent):
    seat: int
    next: int


@FOLDS.handles(BidPassed)
def _bid_pass(pack: PatchPack, state: PState, ev: BidPassed) -> PState:
    return evolved(state, turn=ev.next)


@event
class BidSealed(PatchEvent, SealedCommand):
    """A 2-player secret bid: Tile #1 (`number` 0) or #2 (1), and the Coin offered."""

    seat: int
    number: int
    offer: int


@FOLDS.handles(BidSealed)
def _bid_sealed(pack: PatchPack, state: PState, ev: BidSealed) -> PState:
    return evolved(state, sealed=(*state.sealed, (ev.seat, (ev.number, ev.offer))))


@event
class BidsRevealed(PatchEvent):
    REVEALS_HIDDEN = True

    tiles: tuple[int, ...]
    coins: tuple[int, ...]


@FOLDS.handles(BidsRevealed)
def _bids_revealed(pack: PatchPack, state: PState, ev: BidsRevealed) -> PState:
    civs = tuple(evolved(c, coin=c.coin - ev.coins[s]) for s, c in enumerate(state.civs))
    return evolved(state, civs=civs, sealed=(), sealing=())


@event
class TileWon(PatchEvent):
    seat: int
    tile: str
    side: str
    paid: int


@FOLDS.handles(TileWon)
def _won(pack: PatchPack, state: PState, ev: TileWon) -> PState:
    return evolved(state, won=(*state.won, Won(ev.seat, ev.tile, ev.side)))
