"""Setting up (patchistory.setup.*): 2-4 players (patchistory.setup.players), the Capital
Tiles' side for everyone (patchistory.setup.capital-side: Equality, or Liberty dealt at random),
each player's supply (patchistory.setup.supply), the Building Tiles shuffled and drawn, three
Prosperity Cards each (patchistory.setup.prosperity) and, with 3-4 players, a General Trade
Route between neighbours (patchistory.setup.trade-routes). The Status Markers start at what the
Capital shows (patchistory.setup.status: the statuses are read off the territory). Example:
`WORKED_EXAMPLES`."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event, private_to
from domain.core.ruleset import Setup
from domain.patchistory import eras
from domain.patchistory.construction import draw_buildings
from domain.patchistory.context import FOLDS, Ctx, PatchEvent, civ_changed
from domain.patchistory.model import Civ, Placed, PState
from domain.patchistory.pack import PatchPack
from domain.patchistory.trade_routes import TradeRouteOpened

CAPITAL_SIDE = "capital_side"


PLAYER_COUNT_RULE = "patchistory.setup.players"
"""The clause a player count the game is not for is refused by (the ruleset's `setup_rule`)."""
UNCITED_RULES = ("patchistory.setup.status",)
"""The clauses this module decides that no event or refusal carries."""
WORKED_EXAMPLES = ("patchistory.example.setup",)
"""The rulebook's worked examples of this chapter, each played again by a test."""


def initial_state(setup: Setup) -> PState:
    n = len(setup.players)
    side = str(setup.options.get(CAPITAL_SIDE, "equality"))
    return PState(
        players=n,
        names=tuple(setup.players),
        capital_side=side,
        civs=tuple(Civ(capital="") for _ in range(n)),
    )


def set_up(ctx: Ctx) -> None:
    pack = ctx.pack
    chance = ctx.chance
    n = ctx.state.players
    if ctx.state.capital_side == "liberty":
        caps = chance.shuffled([c.id for c in pack.liberty])[:n]
        ctx.emit(
            CapitalsDealt(
                rule="patchistory.setup.capital-side", capitals=caps, draws=chance.take_draws()
            )
        )
    else:
        ctx.emit(
            CapitalsDealt(rule="patchistory.setup.capital-side", capitals=(pack.equality.id,) * n)
        )
    start = pack.numbers["start"]
    ctx.emit(
        SuppliesTaken(
            rule="patchistory.setup.supply",
            food=start["food"],
            coin=start["coin"],
            culture=start["culture"],
        )
    )
    order = chance.shuffled(sorted(pack.buildings))
    ctx.emit(
        BuildingTilesShuffled(
            rule="patchistory.management.building-tiles",
            order=order,
            visibility=private_to(redacted={"count": len(order)}),
            draws=chance.take_draws(),
        )
    )
    for seat in range(n):
        draw_buildings(ctx, seat, start["building_tiles"], "patchistory.setup.supply")
    _deal_prosperity(ctx, start["prosperity_cards"])
    if n >= 3:
        for seat in range(n):
            ctx.emit(
                TradeRouteOpened(
                    rule="patchistory.setup.trade-routes",
                    route=ctx.state.next_route,
                    kind="general",
                    a=seat,
                    b=(seat + 1) % n,
                )
            )
    eras.begin_round(ctx, era=1, round_=1, start=0)


def _deal_prosperity(ctx: Ctx, per: int) -> None:
    cards = ctx.chance.shuffled(sorted(ctx.pack.prosperity))
    dealt = ctx.chance.take_draws()
    for seat in range(ctx.state.players):
        hand = cards[seat * per : (seat + 1) * per]
        ctx.emit(
            ProsperityDealt(
                rule="patchistory.setup.prosperity",
                seat=seat,
                hand=hand,
                visibility=private_to(seat, redacted={"seat": seat, "count": len(hand)}),
                draws=dealt if seat == 0 else (),
            )
        )


# --- the events --------------------------------------------------------------------------------


@event
class CapitalsDealt(PatchEvent):
    capitals: tuple[str, ...]


@FOLDS.handles(CapitalsDealt)
def _capitals(pack: PatchPack, state: PState, ev: CapitalsDealt) -> PState:
    civs = tuple(Civ(capital=cap, tiles=(Placed(cap, "capital", 0, 0, 0),)) for cap in ev.capitals)
    return evolved(state, civs=civs)


@event
class SuppliesTaken(PatchEvent):
    food: int
    coin: int
    culture: int


@FOLDS.handles(SuppliesTaken)
def _supplies(pack: PatchPack, state: PState, ev: SuppliesTaken) -> PState:
    civs = tuple(evolved(c, food=ev.food, coin=ev.coin, culture=ev.culture) for c in state.civs)
    return evolved(state, civs=civs)


@event
class BuildingTilesShuffled(PatchEvent):
    order: tuple[str, ...]


@FOLDS.handles(BuildingTilesShuffled)
def _stack(pack: PatchPack, state: PState, ev: BuildingTilesShuffled) -> PState:
    return evolved(state, stack=ev.order)


@event
class ProsperityDealt(PatchEvent):
    seat: int
    hand: tuple[str, ...]


@FOLDS.handles(ProsperityDealt)
def _prosperity(pack: PatchPack, state: PState, ev: ProsperityDealt) -> PState:
    return civ_changed(state, ev.seat, prosperity=ev.hand)
