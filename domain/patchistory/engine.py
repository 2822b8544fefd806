"""The Patchistory rules as a kernel Ruleset: setting up, each Round's phases (Auction and
Patching, Diplomacy and Management, Movement, Negotiation and War, Production and Worker
Maintenance), and in Round 5 Heroes & Wonders Maintenance, the Vote and the End of an Era.

Commands that a seat decides are listed by `legal_actions`; whatever follows from them without
a choice (drawing Tiles, production, upkeep, scoring) is played on at once by `proceed`, in the
same command's events. Sealed choices (the 2-player Auction, Negotiation, War, the Vote) use the
kernel's simultaneous turn model; the last seat's sealed command reveals them all."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from domain.core.chance import Chance
from domain.core.errors import IllegalAction, RuleViolation
from domain.core.folds import Working
from domain.core.messages import Command, Event, private_to
from domain.core.ruleset import CommandSpec, Decision, Ruleset, Setup
from domain.core.turns import Sequential, Simultaneous, TurnModel, TurnTaking
from domain.patchistory import events as ev
from domain.patchistory import territory as terr
from domain.patchistory.commands import command_specs
from domain.patchistory.model import Civ, Placed, PState, Route, decode, encode
from domain.patchistory.pack import BLACK, EXCHANGED, GOODS, SEA, WHITE, PatchPack
from domain.patchistory.territory import rule

NOBODY = private_to()
TURN_PHASES = frozenset({"vasco", "auction", "patching", "diplomacy", "management", "movement"})
TURN_PHASES |= {"chichen"}
CAPITAL_SIDE = "capital_side"
STATUS_PRODUCERS = ("petra", "apollo", "angkor-wat", "statue-of-liberty")


class Ctx(Working[PatchPack, PState]):
    """The decide-side working state of one command (`Working`)."""

    folds = ev.FOLDS


# --- who acts --------------------------------------------------------------------------------


def actor(state: PState) -> int | None:
    if state.phase == "over":
        return None
    if state.pending:
        return state.pending[0].seat
    if state.phase == "patching":
        return state.won[0].seat if state.won else None
    if state.phase in TURN_PHASES and state.turn >= 0:
        return state.turn
    return None


def turn_key(state: PState) -> Hashable:
    """One seat's turn: its undo stays within it (the seat acting, in this phase of this Round,
    before anybody passes or a decision is waited for)."""
    return (state.serial, state.phase, actor(state), len(state.passed), len(state.pending))


def _sealing(state: PState) -> tuple[int, ...]:
    return state.sealing


def _sealed(state: PState) -> dict[int, tuple[int, ...]]:
    return state.sealed_map()


def _seal_no(state: PState) -> int:
    return state.seal_no


class PatchistoryRuleset(TurnTaking[PState], Ruleset[PState]):
    pack: PatchPack
    view_schema = "schemas.patchistory_view:VIEW"
    in_turn: Sequential[PState] = Sequential(actor, turn=turn_key)
    at_once: Simultaneous[PState] = Simultaneous(
        seats=_sealing, sealed=_sealed, order=_sealing, round=_seal_no
    )

    # --- creation -----------------------------------------------------------------------------

    def initial_state(self, setup: Setup) -> PState:
        n = len(setup.players)
        side = str(setup.options.get(CAPITAL_SIDE, "equality"))
        return PState(
            players=n,
            names=tuple(setup.players),
            capital_side=side,
            civs=tuple(Civ(capital="") for _ in range(n)),
        )

    def set_up(self, state: PState, chance: Chance) -> list[Event]:
        pack = self.pack
        ctx = Ctx(pack, state, chance)
        n = state.players
        if state.capital_side == "liberty":
            caps = chance.shuffled([c.id for c in pack.liberty])[:n]
            ctx.emit(
                ev.CapitalsDealt(
                    rule=rule("setup.capital-side"), capitals=caps, draws=chance.take_draws()
                )
            )
        else:
            ctx.emit(
                ev.CapitalsDealt(rule=rule("setup.capital-side"), capitals=(pack.equality.id,) * n)
            )
        start = pack.numbers["start"]
        ctx.emit(
            ev.SuppliesTaken(
                rule=rule("setup.supply"),
                food=start["food"],
                coin=start["coin"],
                culture=start["culture"],
            )
        )
        order = chance.shuffled(sorted(pack.buildings))
        ctx.emit(
            ev.BuildingTilesShuffled(
                rule=rule("management.building-tiles"),
                order=order,
                visibility=private_to(redacted={"count": len(order)}),
                draws=chance.take_draws(),
            )
        )
        for seat in range(n):
            self._draw_buildings(ctx, seat, start["building_tiles"], rule("setup.supply"))
        cards = chance.shuffled(sorted(pack.prosperity))
        dealt = chance.take_draws()
        per = start["prosperity_cards"]
        for seat in range(n):
            hand = cards[seat * per : (seat + 1) * per]
            ctx.emit(
                ev.ProsperityDealt(
                    rule=rule("setup.prosperity"),
                    seat=seat,
                    hand=hand,
                    visibility=private_to(seat, redacted={"seat": seat, "count": len(hand)}),
                    draws=dealt if seat == 0 else (),
                )
            )
        if n >= 3:
            for seat in range(n):
                ctx.emit(
                    ev.TradeRouteOpened(
                        rule=rule("setup.trade-routes"),
                        route=ctx.state.next_route,
                        kind="general",
                        a=seat,
                        b=(seat + 1) % n,
                    )
                )
        self._begin_round(ctx, era=1, round_=1, start=0)
        self.proceed(ctx)
        return ctx.events

    def _draw_buildings(self, ctx: Ctx, seat: int, count: int, cite: str) -> None:
        drawn = ctx.state.stack[:count]
        if not drawn:
            return
        ctx.emit(
            ev.BuildingTilesDrawn(
                rule=cite,
                seat=seat,
                drawn=tuple(drawn),
                visibility=private_to(seat, redacted={"seat": seat, "count": len(drawn)}),
            )
        )

    # --- the Round's flow ---------------------------------------------------------------------

    def _begin_round(self, ctx: Ctx, era: int, round_: int, start: int) -> None:
        state = ctx.state
        serial = (era - 1) * self.pack.number("rounds_per_era") + round_
        ctx.emit(
            ev.RoundBegan(
                rule=rule("round.phases"),
                cites=(rule("setup.start-player") if serial == 1 else rule("round.start-player"),),
                era=era,
                round=round_,
                serial=serial,
                start=start,
            )
        )
        if round_ == 1:
            ctx.emit(
                ev.EraTilesShuffled(
                    rule=rule("era.end") if era > 1 else rule("objective.eras"),
                    era=era,
                    tiles=self.pack.era_tiles(era),
                )
            )
        state = ctx.state
        for seat in state.in_order():
            if state.civs[seat].coin == 0:
                auction = self.pack.numbers["auction"]
                paid = min(auction["no_coin_culture"], state.civs[seat].culture)
                ctx.emit(
                    ev.CoinBoughtWithCulture(
                        rule=rule("auction.no-coin"),
                        seat=seat,
                        culture=paid,
                        coin=auction["no_coin_gain"],
                    )
                )
        first = era == 1 and round_ == 1 and state.players >= 3
        self._draw_tiles(ctx, 1 if first else state.players)
        holders = [s for s in state.in_order() if self._has(ctx.state, s, "vasco-da-gama")]
        if holders and not first:
            ctx.emit(
                ev.PhaseBegan(rule=rule("tile.vasco-da-gama"), phase="vasco", seats=tuple(holders))
            )
            return
        self._begin_auction(ctx)

    def _draw_tiles(self, ctx: Ctx, count: int) -> None:
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
            ev.TilesDrawn(
                rule=rule("auction.arrange"),
                tiles=tuple(tiles),
                sides=tuple(sides),
                draws=ctx.chance.take_draws(),
            )
        )

    def _begin_auction(self, ctx: Ctx) -> None:
        state = ctx.state
        taken = {w.seat for w in state.won}
        seats = tuple(s for s in state.in_order() if s not in taken)
        if not seats or not state.offered:
            self._begin_patching(ctx)
            return
        if state.players == 2 and len(seats) == 2:
            ctx.emit(
                ev.PhaseBegan(rule=rule("auction.two-player"), phase="auction-sealed", seats=seats)
            )
            return
        first = state.era == 1 and state.round == 1 and state.players >= 3
        cite = rule("auction.first") if first else rule("auction.order")
        ctx.emit(ev.PhaseBegan(rule=cite, phase="auction", seats=seats))

    def _begin_patching(self, ctx: Ctx) -> None:
        ctx.emit(ev.PhaseBegan(rule=rule("patch.optional"), phase="patching", seats=()))

    def proceed(self, ctx: Ctx) -> None:
        """Play on whatever follows without a choice, until a seat must decide or the game ends."""
        while True:
            state = ctx.state
            if state.phase == "over" or state.pending:
                return
            phase = state.phase
            if phase == "patching":
                if state.won:
                    return
                if state.era == 1 and state.round == 1:
                    self._first_workers(ctx)
                    if ctx.state.pending:
                        ctx.emit(
                            ev.PhaseBegan(rule=rule("patch.first-workers"), phase="first-workers")
                        )
                        return
                self._begin_diplomacy(ctx)
                return
            if phase == "first-workers":
                self._begin_diplomacy(ctx)
                return
            if phase in ("diplomacy", "management", "movement", "vasco", "chichen", "auction"):
                if state.turn >= 0:
                    return
                if phase == "vasco":
                    self._begin_auction(ctx)
                elif phase == "auction":
                    self._close_auction(ctx)
                elif phase == "diplomacy":
                    ctx.emit(
                        ev.PhaseBegan(
                            rule=rule("management.order"),
                            phase="management",
                            seats=state.in_order(),
                        )
                    )
                elif phase == "management":
                    self._begin_movement(ctx)
                elif phase == "movement":
                    self._begin_conflicts(ctx)
                elif phase == "chichen":
                    self._begin_vote(ctx)
                continue
            if phase in ev.SEALED_PHASES:
                if state.sealing:
                    return
                if phase == "negotiation" or phase == "war":
                    self._next_conflict(ctx)
                elif phase == "vote-card" or phase == "vote":
                    self._next_vote(ctx)
                elif phase == "auction-sealed":
                    self._begin_patching(ctx)
                continue
            if phase in ("conflicts",):
                self._next_conflict(ctx)
                continue
            return

    # --- Auction ------------------------------------------------------------------------------

    def _close_auction(self, ctx: Ctx) -> None:
        state = ctx.state
        for seat in state.in_order():
            index = state.bids[seat]
            if index >= 0:
                offer = state.offered[index]
                ctx.emit(
                    ev.TileWon(
                        rule=rule("auction.payment"),
                        cites=(rule("auction.side"),),
                        seat=seat,
                        tile=offer.tile,
                        side=offer.side,
                        paid=state.amounts[seat],
                    )
                )
        self._begin_patching(ctx)

    def highest(self, state: PState, tile: int, besides: int = -1) -> int:
        return max(
            (
                state.amounts[s]
                for s in state.participants
                if state.bids[s] == tile and s != besides
            ),
            default=0,
        )

    def beaten(self, state: PState, seat: int) -> bool:
        tile = state.bids[seat]
        return tile >= 0 and self.highest(state, tile, seat) > state.amounts[seat]

    def must_bid(self, state: PState, seat: int) -> bool:
        return state.bids[seat] < 0 or self.beaten(state, seat)

    def first_stage(self, state: PState) -> bool:
        """The first Auction of a 3-4 player game, while its Tiles are still coming out
        (patchistory.auction.first): each player in turn acts once (`passed` counts them)."""
        return (
            state.era == 1
            and state.round == 1
            and state.players >= 3
            and len(state.passed) < len(state.participants)
        )

    def next_bidder(self, state: PState, after: int) -> int:
        seats = state.participants
        i = seats.index(after)
        for k in range(1, len(seats) + 1):
            seat = seats[(i + k) % len(seats)]
            if self.must_bid(state, seat):
                return seat
        return -1

    def bid_actions(self, state: PState, seat: int) -> Iterator[Command]:
        coin = state.civs[seat].coin
        minimum = self.pack.numbers["auction"]["minimum_bid"]
        shown = len(state.offered)
        for tile in range(shown):
            own = state.amounts[seat] if state.bids[seat] >= 0 else 0
            need = max(minimum, self.highest(state, tile, seat) + 1)
            low = max(0, need - own)
            if tile == state.bids[seat]:
                low = max(1, low)
            for added in range(low, coin + 1):
                yield Command.of("bid", tile=tile, coin=added)
        if (
            self.first_stage(state)
            and state.bids[seat] < 0
            and len(state.passed) < len(state.participants) - 1
        ):
            yield Command.of("pass")

    def _bid(self, ctx: Ctx, seat: int, tile: int, added: int) -> None:
        state = ctx.state
        base = state.amounts[seat] if state.bids[seat] >= 0 else 0
        cite = rule("auction.beaten") if self.beaten(state, seat) else rule("auction.bid")
        self._after_bid(
            ctx,
            seat,
            ev.BidPlaced(
                rule=cite, seat=seat, tile=tile, added=added, amount=base + added, next=-1
            ),
        )

    def _after_bid(self, ctx: Ctx, seat: int, placed: ev.BidPlaced | ev.BidPassed) -> None:
        state = ctx.state
        staged = self.first_stage(state)
        probe = ev.evolve(self.pack, state, placed)
        if staged:
            probe = dataclasses.replace(probe, passed=(*probe.passed, seat))
            stage_over = len(probe.passed) >= len(probe.participants)
            nxt = (
                self.next_bidder(probe, seat)
                if stage_over
                else probe.participants[len(probe.passed)]
            )
        else:
            nxt = self.next_bidder(probe, seat)
        ctx.emit(dataclasses.replace(placed, next=nxt))
        if staged:
            ctx.emit(ev.TurnPassed(rule=rule("auction.first"), seat=seat, next=nxt))
            if len(ctx.state.offered) < len(ctx.state.participants) and nxt >= 0:
                self._draw_tiles(ctx, 1)

    # --- Patching -----------------------------------------------------------------------------

    def patch_actions(self, state: PState, seat: int) -> Iterator[Command]:
        won = state.won[0]
        sides = (won.side,) if won.side else (WHITE, BLACK)
        for side in sides:
            for row, col, layer in terr.placements(self.pack, state, seat, won.tile, side):
                yield Command.of("patch", side=side, row=row, col=col, layer=layer)
        yield Command.of("forfeit_tile")

    def _patch(self, ctx: Ctx, seat: int, side: str, row: int, col: int, layer: str) -> None:
        state = ctx.state
        won = state.won[0]
        civ = state.civs[seat]
        placed = dataclasses.replace(
            Placed(won.tile, side, row, col, 0), z=terr.layer_z(civ, layer)
        )
        before = terr.shown(self.pack, civ)
        new = {cell for cell, _ in terr.cells_of(self.pack, placed)}
        removed = 0
        if layer == terr.OVER:
            removed = sum(
                1 for cell, item in before.items() if cell in new and item.cover is not None
            )
        ctx.emit(
            ev.TilePatched(
                rule=rule("patch.overlap"),
                cites=(
                    *((rule("patch.buildings"),) if removed else ()),
                    *((rule("auction.two-player-patching"),) if state.players == 2 else ()),
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
        after = ctx.state.civs[seat]
        view = terr.shown(self.pack, after)
        index = len(after.tiles) - 1
        for feature, _ in terr.features_shown(self.pack, after, view):
            if feature.ability != "moses":
                continue
            fresh = {f.id for f in self.pack.side(won.tile, side).features}
            if feature.id in fresh and after.born < 8 and terr.free_spaces(self.pack, after):
                ctx.emit(
                    ev.DecisionAwaited(
                        rule=rule("tile.moses"), kind="place-new", seat=seat, numbers=(index,)
                    )
                )

    def _first_workers(self, ctx: Ctx) -> None:
        count = self.pack.numbers["first_workers"][ctx.state.capital_side]
        for seat in ctx.state.in_order():
            for _ in range(count):
                ctx.emit(
                    ev.DecisionAwaited(
                        rule=rule("patch.first-workers"), kind="place-new", seat=seat
                    )
                )

    # --- Diplomacy & Management ---------------------------------------------------------------

    def _begin_diplomacy(self, ctx: Ctx) -> None:
        state = ctx.state
        points = tuple(
            max(0, terr.statuses(self.pack, state, s)["politics"]) for s in range(state.players)
        )
        che = tuple(
            rule("tile.che-guevara")
            for s in range(state.players)
            if self._has(state, s, "che-guevara")
        )[:1]
        ctx.emit(ev.PointsSet(rule=rule("politics.points"), cites=che, points=points))
        ctx.emit(
            ev.PhaseBegan(rule=rule("diplomacy.order"), phase="diplomacy", seats=state.in_order())
        )

    def cost(self, state: PState, seat: int, action: str) -> int:
        """An action's Political cost, lowered by Special Buildings, never below 1
        (patchistory.politics.minimum-cost)."""
        base = int(self.pack.numbers["political_costs"][action])
        return max(1, base - self.cheaper(state, seat, action))

    def cost_cites(self, state: PState, seat: int, action: str) -> tuple[str, ...]:
        """What set an action's Political cost below the printed one: a Special Building
        (patchistory.tile.cost-reduction), and the floor of 1 when it would go lower."""
        cheaper = self.cheaper(state, seat, action)
        if not cheaper:
            return ()
        base = int(self.pack.numbers["political_costs"][action])
        floor = (rule("politics.minimum-cost"),) if base - cheaper < 1 else ()
        return (rule("tile.cost-reduction"), *floor)

    def cheaper(self, state: PState, seat: int, action: str) -> int:
        civ = state.civs[seat]
        shown = terr.features_shown(self.pack, civ, terr.shown(self.pack, civ))
        return sum(1 for f, _ in shown if f.ability == f"cheaper-{action}")

    def _has(self, state: PState, seat: int, ability: str) -> bool:
        return terr.has(self.pack, state.civs[seat], ability)

    def allied(self, state: PState, seat: int, other: int) -> bool:
        return any(r.kind == "allied" and r.joins(seat, other) for r in state.routes)

    def connected(self, state: PState, seat: int, other: int, general_only: bool = False) -> bool:
        return any(
            r.joins(seat, other) and (r.kind == "general" or not general_only) for r in state.routes
        )

    def next_in_turn(self, state: PState, seat: int) -> int:
        order = state.in_order()
        done = {*state.passed, seat}
        for s in order[order.index(seat) + 1 :]:
            if s not in done:
                return s
        return -1

    def diplomacy_actions(self, state: PState, seat: int) -> Iterator[Command]:
        civ = state.civs[seat]
        pp = state.pp[seat]
        numbers = self.pack.numbers
        if pp >= self.cost(state, seat, "aid") and not state.has_flag(seat, "accepted-aid"):
            units = numbers["aid"]["units"]
            for other in range(state.players):
                if other == seat or not self.connected(state, seat, other):
                    continue
                for food in range(min(units, civ.food) + 1):
                    for coin in range(min(units - food, civ.coin) + 1):
                        resource = units - food - coin
                        if resource <= civ.resource:
                            yield Command.of(
                                "aid", to=other, food=food, coin=coin, resource=resource
                            )
        if pp >= self.cost(state, seat, "threaten"):
            for other in range(state.players):
                if (
                    other != seat
                    and self.connected(state, seat, other, general_only=True)
                    and not self.allied(state, seat, other)
                ):
                    for demand in ("culture", "coin"):
                        yield Command.of("threaten", to=other, demand=demand)
        if pp >= 1 and not state.has_flag(seat, "diplomacy"):
            for route in state.routes:
                if route.kind == "allied" and seat in (route.a, route.b):
                    yield Command.of("break_alliance", route=route.id)
        yield Command.of("end_diplomacy")

    def management_actions(self, state: PState, seat: int) -> Iterator[Command]:
        pack = self.pack
        civ = state.civs[seat]
        pp = state.pp[seat]
        era = state.era
        board = terr.statuses(pack, state, seat)
        free = terr.free_spaces(pack, civ)
        if pp >= self.cost(state, seat, "trade"):
            food = self.trade_food(state, seat)
            if civ.food >= food and civ.workers:
                for route in state.routes:
                    if not self.may_trade_on(state, seat, route):
                        continue
                    for at in civ.workers:
                        yield Command.of("trade", route=route.id, row=at[0], col=at[1])
        if pp >= self.cost(state, seat, "exchange"):
            yield from self.exchange_actions(state, seat, board["transport"])
        if (
            pp >= self.cost(state, seat, "birth")
            and civ.born < pack.number("start", "workers")
            and civ.food >= pack.era_number("birth_food", era)
        ):
            for at in free:
                yield Command.of("birth", row=at[0], col=at[1])
        heroes_food = pack.era_number("honor_heroes_food", era)
        if (
            pp >= self.cost(state, seat, "honor-heroes")
            and board["heroes"]
            and civ.food >= heroes_food
        ):
            yield Command.of("honor_heroes")
        wonders_due = pack.era_number("honor_wonders_resources", era)
        if (
            pp >= self.cost(state, seat, "honor-wonders")
            and board["wonders"]
            and civ.resource >= wonders_due
        ):
            yield Command.of("honor_wonders")
        general_used = sum(1 for r in state.routes if r.kind == "general")
        if (
            pp >= self.cost(state, seat, "trade-route")
            and not state.has_flag(seat, "built-route")
            and civ.resource >= pack.number("construction", "trade_route_resources")
            and general_used < pack.general.count
        ):
            for other in range(state.players):
                if other != seat:
                    yield Command.of("build_route", to=other)
        squares = terr.one_by_one(pack, civ)
        view = terr.shown(pack, civ)
        if pp >= self.cost(state, seat, "reclamation") and civ.resource >= pack.number(
            "construction", "reclamation_resources"
        ):
            for at in squares:
                cover = view[at].cover
                if cover is not None and cover.wasteland:
                    continue
                for building in sorted(set(civ.hand)):
                    yield Command.of("reclaim", row=at[0], col=at[1], building=building)
        if pp >= self.cost(state, seat, "building"):
            for building in sorted(set(civ.hand)):
                if pack.buildings[building].cost > civ.resource:
                    continue
                for at in squares:
                    if view[at].cover is None and view[at].square.terrain != SEA:
                        yield Command.of("construct", row=at[0], col=at[1], building=building)
        if pp >= 1 and not state.has_flag(seat, "campaigned"):
            for points in range(1, pp + 1):
                yield Command.of("campaign", points=points)
        allied_used = sum(1 for r in state.routes if r.kind == "allied")
        if (
            self._has(state, seat, "constantine")
            and pp >= self.cost(state, seat, "constantine")
            and allied_used < pack.allied.count
        ):
            for other in range(state.players):
                if other != seat and not self.allied(state, seat, other):
                    yield Command.of("constantine", to=other)
        if self._has(state, seat, "schwerer-gustav") and pp >= self.cost(
            state, seat, "schwerer-gustav"
        ):
            for route in state.routes:
                mine = (route.kind == "general" and route.a == seat) or (
                    route.kind == "allied" and seat in (route.a, route.b)
                )
                if mine and not route.declared:
                    yield Command.of("demolish_route", route=route.id)
        for ability in ("hanging-gardens", "kremlin"):
            if self._has(state, seat, ability) and pp >= self.cost(state, seat, ability):
                for at in civ.workers:
                    yield Command.of("retire_worker", ability=ability, worker=f"{at[0]},{at[1]}")
                for route in state.routes:
                    space = route.worker_of(seat)
                    if space is not None and not route.declared:
                        yield Command.of(
                            "retire_worker", ability=ability, worker=f"route-{route.id}"
                        )
        yield Command.of("end_management")

    def trade_food(self, state: PState, seat: int) -> int:
        if self._has(state, seat, "genghis-khan"):
            return 1
        return self.pack.era_number("trade_food", state.era)

    def may_trade_on(self, state: PState, seat: int, route: Route) -> bool:
        if route.kind == "general":
            return route.a == seat and not route.workers
        return seat in (route.a, route.b) and route.worker_of(seat) is None

    def exchange_actions(self, state: PState, seat: int, transport: int) -> Iterator[Command]:
        civ = state.civs[seat]
        values = self.pack.numbers["exchange_values"]
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

    # --- Movement -----------------------------------------------------------------------------

    def _begin_movement(self, ctx: Ctx) -> None:
        state = ctx.state
        ctx.emit(
            ev.PhaseBegan(rule=rule("movement.territory"), phase="movement", seats=state.in_order())
        )
        war_space = self.pack.general.index("war")
        prep = self.pack.general.index("preparation")
        for route in state.routes:
            for owner, space in route.workers:
                if route.declared and space == prep:
                    ctx.emit(
                        ev.RouteWorkerMoved(
                            rule=rule("movement.war-space"),
                            seat=owner,
                            route=route.id,
                            frm=space,
                            to=war_space,
                            forced=True,
                        )
                    )
        for seat in state.in_order():
            if terr.statuses(self.pack, ctx.state, seat)["transport"] > 0:
                continue
            for route in ctx.state.routes:
                at = route.worker_of(seat)
                if at is None or (route.kind == "general" and at >= prep):
                    continue
                ctx.emit(
                    ev.RouteWorkerMoved(
                        rule=rule("movement.no-transport"),
                        seat=seat,
                        route=route.id,
                        frm=at,
                        to=at,
                        rest=True,
                        forced=True,
                    )
                )

    def route_to_move(self, state: PState, seat: int, route: Route) -> bool:
        space = route.worker_of(seat)
        if space is None or route.id in state.routes_moved:
            return False
        if route.kind == "general":
            return space < self.pack.general.index("preparation")
        return True

    def movement_actions(self, state: PState, seat: int) -> Iterator[Command]:
        pack = self.pack
        civ = state.civs[seat]
        transport = terr.statuses(pack, state, seat)["transport"]
        if not state.routes_moved and transport > 0:
            anchor = terr.spaces(pack, civ)
            taken = {anchor.get(w, w) for w in civ.workers}
            for at in civ.workers:
                if at in state.moved:
                    continue
                for to in sorted(terr.reachable(pack, civ, at, transport) - taken):
                    yield Command.of(
                        "move_worker", row=at[0], col=at[1], to_row=to[0], to_col=to[1]
                    )
        pending_routes = False
        for route in state.routes:
            if not self.route_to_move(state, seat, route):
                continue
            pending_routes = True
            space = route.worker_of(seat)
            assert space is not None
            for steps in range(1, transport + 1):
                target = self.route_target(route, seat, space, steps)
                if target is None:
                    break
                yield Command.of("advance", route=route.id, steps=steps)
            if route.kind == "general" or transport == 0:
                # movement.no-transport: with no Transport (a Worker moved off a gold box this
                # Movement) an Allied route's Worker goes to Rest/Return too
                yield Command.of("rest", route=route.id)
        if not pending_routes:
            yield Command.of("end_movement")

    def route_target(self, route: Route, seat: int, space: int, steps: int) -> int | None:
        """Where `steps` forward lead on the route (None: past where the Worker must stop)."""
        if route.kind == "general":
            target = space + steps
            return target if target <= self.pack.general.index("preparation") else None
        last = len(self.pack.allied.spaces) - 1
        forward = route.a == seat
        target = space + steps if forward else space - steps
        return target if 0 <= target <= last else None

    # --- Negotiation & War --------------------------------------------------------------------

    def _begin_conflicts(self, ctx: Ctx) -> None:
        state = ctx.state
        prep = self.pack.general.index("preparation")
        war = self.pack.general.index("war")
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
                ev.ConflictsFound(
                    rule=rule("negotiation.when"),
                    negotiations=tuple(r.id for r in talks),
                    wars=tuple(r.id for r in wars),
                )
            )
        ctx.emit(ev.PhaseBegan(rule=rule("negotiation.when"), phase="conflicts"))

    def _next_conflict(self, ctx: Ctx) -> None:
        state = ctx.state
        if state.negotiations:
            route = state.route(state.negotiations[0])
            if self.allied(state, route.a, route.b):
                ctx.emit(ev.NegotiationSkipped(rule=rule("war.allies"), route=route.id))
                ctx.emit(ev.WorkerLeftRoute(rule=rule("war.allies"), seat=route.a, route=route.id))
                return
            ctx.emit(
                ev.PhaseBegan(
                    rule=rule("negotiation.choose"), phase="negotiation", seats=(route.a, route.b)
                )
            )
            return
        while state.wars:
            route = state.route(state.wars[0])
            if self.allied(state, route.a, route.b):
                ctx.emit(ev.WarCalledOff(rule=rule("war.allies"), route=route.id))
                ctx.emit(ev.WorkerLeftRoute(rule=rule("war.allies"), seat=route.a, route=route.id))
                return
            ctx.emit(
                ev.PhaseBegan(rule=rule("war.strength"), phase="war", seats=(route.a, route.b))
            )
            return
        self._production(ctx)

    def conflict_route(self, state: PState) -> Route:
        return state.route(state.negotiations[0] if state.phase == "negotiation" else state.wars[0])

    def _resolve_negotiation(self, ctx: Ctx) -> None:
        state = ctx.state
        route = self.conflict_route(state)
        chosen = state.sealed_map()
        seats = (route.a, route.b)
        blue = tuple(bool(chosen[s][0]) for s in seats)
        ctx.emit(
            ev.SidesRevealed(
                rule=rule("negotiation.choose"), route=route.id, seats=seats, blue=blue
            )
        )
        if all(blue):
            allied_used = sum(1 for r in ctx.state.routes if r.kind == "allied")
            if allied_used < self.pack.allied.count and not self.allied(ctx.state, *seats):
                ctx.emit(
                    ev.DecisionAwaited(
                        rule=rule("negotiation.alliance"),
                        kind="alliance-propose",
                        seat=route.a,
                        numbers=(route.id,),
                    )
                )
            ctx.emit(
                ev.WorkerLeftRoute(rule=rule("negotiation.blue"), seat=route.a, route=route.id)
            )
            return
        aggressors = tuple(s for s, b in zip(seats, blue, strict=True) if not b)
        cost = self.pack.era_number("war_preparation_resources", state.era)
        paid = tuple(min(cost, ctx.state.civs[s].resource) for s in aggressors)
        ctx.emit(
            ev.WarDeclared(
                rule=rule("negotiation.red"), route=route.id, aggressors=aggressors, paid=paid
            )
        )

    def war_strength(self, state: PState, route: Route, seat: int) -> int:
        board = terr.statuses(self.pack, state, seat)
        if seat in route.aggressors:
            return board["military"]
        return board["military"] + board["defense"]

    def _resolve_war(self, ctx: Ctx) -> None:
        state = ctx.state
        pack = self.pack
        route = self.conflict_route(state)
        committed = state.sealed_map()
        seats = (route.a, route.b)
        base = tuple(self.war_strength(state, route, s) for s in seats)
        resources = tuple(committed[s][0] for s in seats)
        votes = tuple(committed[s][1] for s in seats)
        totals = tuple(b + r + v for b, r, v in zip(base, resources, votes, strict=True))
        if totals[0] != totals[1]:
            winners: tuple[int, ...] = (seats[0] if totals[0] > totals[1] else seats[1],)
        else:
            defenders = [s for s in seats if s not in route.aggressors]
            winners = tuple(defenders)
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
                cites.append(rule("war.spoils"))
        strength = [rule("war.strength")]
        if any(v for v in votes):
            strength.append(rule("tile.jeanne-darc"))
        defenders = [s for s in seats if s not in route.aggressors]
        if any(self._has(state, s, "great-wall") for s in defenders):
            strength.append(rule("tile.great-wall"))
        ctx.emit(
            ev.WarResolved(
                rule=rule("war.winner"),
                cites=(*strength, *cites),
                route=route.id,
                seats=seats,
                base=base,
                resources=resources,
                votes=votes,
                totals=totals,
                winners=winners,
                culture=tuple(culture),
            )
        )
        if winners:
            (winner,) = winners
            loser = seats[1 - seats.index(winner)]
            if (
                self._has(ctx.state, winner, "stealth-aircraft")
                and ctx.state.civs[winner].hand
                and terr.one_by_one(pack, ctx.state.civs[loser])
            ):
                ctx.emit(
                    ev.DecisionAwaited(
                        rule=rule("tile.stealth-aircraft"),
                        kind="stealth",
                        seat=winner,
                        numbers=(loser,),
                    )
                )
        ctx.emit(ev.WorkerLeftRoute(rule=rule("war.worker-home"), seat=route.a, route=route.id))

    # --- Production, maintenance, the Vote, the Era ---------------------------------------------

    def route_goods(self, state: PState, seat: int) -> list[dict[str, int]]:
        gains = []
        for route in state.routes:
            space = route.worker_of(seat)
            if space is None:
                continue
            kind = self.pack.general if route.kind == "general" else self.pack.allied
            goods = kind.spaces[space].goods
            if goods:
                gains.append(dict(goods))
        return gains

    def producing_abilities(self, state: PState, seat: int) -> tuple[str, ...]:
        """The abilities held that add to the production statuses (Petra's Coin; Apollo 11's,
        Angkor Wat's and the Statue of Liberty's Culture)."""
        held = terr.abilities(self.pack, state.civs[seat])
        return tuple(rule(f"tile.{a}") for a in STATUS_PRODUCERS if a in held)

    def _production(self, ctx: Ctx) -> None:
        pack = self.pack
        for seat in ctx.state.in_order():
            state = ctx.state
            made = terr.production(pack, state, seat)
            from_routes = dict.fromkeys(GOODS, 0)
            cyrus = self._has(state, seat, "cyrus")
            for gain in self.route_goods(state, seat):
                for good, n in gain.items():
                    from_routes[good] += n
                if cyrus:
                    from_routes["culture"] += 1
            ctx.emit(
                ev.GoodsProduced(
                    rule=rule("production.tiles"),
                    cites=(
                        rule("patch.status"),
                        *(
                            (rule("workers.gold-box"),)
                            if terr.gold_worked(pack, state.civs[seat])
                            else ()
                        ),
                        *self.producing_abilities(state, seat),
                        *((rule("production.routes"),) if any(from_routes.values()) else ()),
                        *((rule("tile.cyrus"),) if cyrus and any(from_routes.values()) else ()),
                    ),
                    seat=seat,
                    coin=made["coin"] + from_routes["coin"],
                    food=made["food"] + from_routes["food"],
                    resource=made["resource"] + from_routes["resource"],
                    culture=made["culture"] + from_routes["culture"],
                    routes=tuple(from_routes[g] for g in GOODS),
                )
            )
        for seat in ctx.state.in_order():
            civ = ctx.state.civs[seat]
            due = pack.numbers["descendant_track"][civ.born]
            cites: tuple[str, ...] = ()
            if self._has(ctx.state, seat, "marx"):
                due, cites = pack.number("maintenance", "marx_food"), (rule("tile.marx"),)
            paid = min(due, civ.food)
            short = (due - paid) * pack.number("maintenance", "food_short_culture")
            ctx.emit(
                ev.Maintained(
                    rule=rule("maintenance.workers"),
                    seat=seat,
                    what="workers",
                    cites=(*cites, *((rule("culture.floor"),) if short > civ.culture else ())),
                    food=paid,
                    resource=0,
                    culture=min(short, civ.culture),
                )
            )
        state = ctx.state
        if state.round < pack.number("rounds_per_era"):
            self._begin_round(ctx, state.era, state.round + 1, (state.start + 1) % state.players)
            return
        for seat in state.in_order():
            civ = ctx.state.civs[seat]
            board = terr.statuses(pack, ctx.state, seat)
            food_due = board["heroes"] * pack.number("maintenance", "hero_food")
            res_due = board["wonders"] * pack.number("maintenance", "wonder_resources")
            if not food_due and not res_due:
                continue
            food = min(food_due, civ.food)
            res = min(res_due, civ.resource)
            short = (food_due - food) * pack.number("maintenance", "food_short_culture") + (
                res_due - res
            ) * pack.number("maintenance", "resource_short_culture")
            ctx.emit(
                ev.Maintained(
                    rule=rule("maintenance.heroes-wonders"),
                    cites=(rule("culture.floor"),) if short > civ.culture else (),
                    seat=seat,
                    what="heroes-wonders",
                    food=food,
                    resource=res,
                    culture=min(short, civ.culture),
                )
            )
        holders = tuple(
            s
            for s in ctx.state.in_order()
            if self._has(ctx.state, s, "chichen-itza") and ctx.state.civs[s].workers
        )
        if holders:
            ctx.emit(ev.PhaseBegan(rule=rule("tile.chichen-itza"), phase="chichen", seats=holders))
            return
        self._begin_vote(ctx)

    def _begin_vote(self, ctx: Ctx) -> None:
        state = ctx.state
        seats = tuple(s for s in state.in_order() if state.civs[s].prosperity)
        if not seats:
            self._end_era(ctx)
            return
        ctx.emit(ev.PhaseBegan(rule=rule("vote.cards"), phase="vote-card", seats=seats))

    def _next_vote(self, ctx: Ctx) -> None:
        state = ctx.state
        if state.vote_index < len(state.vote_cards):
            ctx.emit(ev.PhaseBegan(rule=rule("vote.assign"), phase="vote", seats=state.in_order()))
            return
        self._score_vote(ctx)
        self._end_era(ctx)

    def _score_vote(self, ctx: Ctx) -> None:
        state = ctx.state
        cards, votes = state.vote_cards, state.votes_on
        n = state.players
        fewest = min(votes)
        kept = list(range(len(cards)))
        if n >= 3:
            kept = [i for i in kept if votes[i] != fewest]
            for i in range(len(cards)):
                if votes[i] == fewest:
                    ctx.emit(
                        ev.ProsperityDiscarded(
                            rule=rule("vote.discard"), card=cards[i], votes=votes[i]
                        )
                    )
        for i in kept:
            value = votes[i]
            if n == 2 and len(cards) == 2 and votes[i] == fewest and votes[0] != votes[1]:
                value = votes[i] // 2
            measure = self.pack.prosperity[cards[i]].measure
            scores = [terr.statuses(self.pack, ctx.state, s)[measure] for s in range(n)]
            ranks = vote_ranks(scores)
            culture = []
            for seat, place in enumerate(ranks):
                gain = vote_culture(place, value, n)
                if gain < 0:
                    gain = -min(-gain, ctx.state.civs[seat].culture)
                culture.append(gain)
            ctx.emit(
                ev.ProsperityScored(
                    rule=rule("vote.points"),
                    cites=(rule("vote.ties"),),
                    card=cards[i],
                    votes=votes[i],
                    value=value,
                    ranks=tuple(ranks),
                    culture=tuple(culture),
                )
            )
        ctx.emit(
            ev.VotesForfeited(
                rule=rule("vote.forfeit"), votes=tuple(c.votes for c in ctx.state.civs)
            )
        )

    def _end_era(self, ctx: Ctx) -> None:
        pack = self.pack
        state = ctx.state
        for seat in state.in_order():
            if self._has(ctx.state, seat, "pyramids"):
                ctx.emit(
                    ev.CultureFromTiles(
                        rule=rule("tile.pyramids"),
                        seat=seat,
                        ability="pyramids",
                        culture=pack.number("pyramids_culture"),
                    )
                )
            if self._has(ctx.state, seat, "ziggurat"):
                civ = ctx.state.civs[seat]
                gain = len(civ.workers)
                if not gain:
                    gain = -min(pack.number("ziggurat_none_culture"), civ.culture)
                ctx.emit(
                    ev.CultureFromTiles(
                        rule=rule("tile.ziggurat"), seat=seat, ability="ziggurat", culture=gain
                    )
                )
        if state.era < pack.number("eras"):
            self._begin_round(ctx, state.era + 1, 1, (state.start + 1) % state.players)
            return
        for seat in state.in_order():
            if self._has(ctx.state, seat, "wall-street"):
                coin = ctx.state.civs[seat].coin
                ctx.emit(
                    ev.CultureFromTiles(
                        rule=rule("tile.wall-street"),
                        seat=seat,
                        ability="wall-street",
                        culture=coin // pack.number("wall_street_coin_per_culture"),
                    )
                )
        culture = tuple(c.culture for c in ctx.state.civs)
        best = max(culture)
        ctx.emit(
            ev.GameFinished(
                rule=rule("game.end"),
                culture=culture,
                winners=tuple(s for s, c in enumerate(culture) if c == best),
            )
        )

    # --- the kernel's functions -----------------------------------------------------------------

    def turn_model(self, state: PState) -> TurnModel[PState] | None:
        if state.phase == "over":
            return None
        if not state.pending and state.phase in ev.SEALED_PHASES and state.sealing:
            return self.at_once
        return self.in_turn

    def legal_actions(self, state: PState, seat: int) -> Iterable[Command]:
        return list(self.listed(state, seat))

    def listed(self, state: PState, seat: int) -> Iterator[Command]:
        if seat not in self.awaited_seats(state):
            return
        if state.pending:
            yield from self.pending_actions(state, seat)
            return
        phase = state.phase
        civ = state.civs[seat]
        if phase == "vasco":
            for i, _ in enumerate(state.offered):
                yield Command.of("take_tile", tile=i)
            yield Command.of("decline")
        elif phase == "auction":
            yield from self.bid_actions(state, seat)
        elif phase == "auction-sealed":
            for tile in range(len(state.offered)):
                for coin in range(1, civ.coin + 1):
                    yield Command.of("seal_bid", tile=tile, coin=coin)
        elif phase == "patching":
            yield from self.patch_actions(state, seat)
        elif phase == "diplomacy":
            yield from self.diplomacy_actions(state, seat)
        elif phase == "management":
            yield from self.management_actions(state, seat)
        elif phase == "movement":
            yield from self.movement_actions(state, seat)
        elif phase == "negotiation":
            yield Command.of("choose_side", blue=False)
            yield Command.of("choose_side", blue=True)
        elif phase == "war":
            votes = civ.votes if self._has(state, seat, "jeanne-darc") else 0
            for resources in range(civ.resource + 1):
                for v in range(votes + 1):
                    yield Command.of("commit_strength", resources=resources, votes=v)
        elif phase == "chichen":
            for at in civ.workers:
                yield Command.of("retire_for_culture", row=at[0], col=at[1])
            yield Command.of("end_chichen")
        elif phase == "vote-card":
            for card in sorted(set(civ.prosperity)):
                yield Command.of("choose_card", card=card)
        elif phase == "vote":
            for votes in range(civ.votes + 1):
                yield Command.of("vote", votes=votes)

    def pending_actions(self, state: PState, seat: int) -> Iterator[Command]:
        pending = state.pending[0]
        civ = state.civs[seat]
        if pending.kind in ("place-new", "return"):
            free = terr.free_spaces(self.pack, civ)
            for at in free:
                yield Command.of("place_worker", row=at[0], col=at[1])
            if not free:  # patchistory.workers.return reading; a new Worker stays on the Track
                yield Command.of("worker_to_track")
        elif pending.kind == "aid":
            yield Command.of("accept_aid")
            yield Command.of("refuse_aid")
        elif pending.kind == "alliance-propose":
            route = state.route(pending.numbers[0])
            for start in (route.a, route.b):
                yield Command.of("propose_alliance", start=start)
            yield Command.of("decline_alliance")
        elif pending.kind == "alliance-accept":
            yield Command.of("accept_alliance")
            yield Command.of("decline_alliance")
        elif pending.kind == "stealth":
            loser = state.civs[pending.numbers[0]]
            view = terr.shown(self.pack, loser)
            for at in terr.one_by_one(self.pack, loser):
                cover = view[at].cover
                if cover is not None and cover.wasteland:
                    continue
                for building in sorted(set(civ.hand)):
                    yield Command.of("stealth_reclaim", row=at[0], col=at[1], building=building)
            yield Command.of("decline")

    def event_types(self) -> tuple[type[Event], ...]:
        return ev.event_types()

    def command_schemas(self) -> tuple[CommandSpec, ...]:
        return command_specs(self.pack)

    def out_of_turn_rule(self, command: Command) -> str:
        """A bid from a player whose bid stands is the rule's own refusal."""
        if command.type == "bid":
            return rule("auction.not-beaten")
        return self.turn_rule

    def refusal(self, state: PState, seat: int, command: Command) -> Exception:
        return refusal_for(self, state, seat, command)

    def decide(self, state: PState, seat: int, command: Command, chance: Chance) -> list[Event]:
        return self.decision(state, seat, command, chance).events

    def decision(
        self, state: PState, seat: int, command: Command, chance: Chance
    ) -> Decision[PState]:
        from domain.patchistory.play import play

        ctx = Ctx(self.pack, state, chance)
        play(self, ctx, seat, command)
        self.proceed(ctx)
        return Decision(ctx.events, ctx.state)

    def evolve(self, state: PState, event: Event) -> PState:
        return ev.evolve(self.pack, state, event)

    def is_over(self, state: PState) -> bool:
        return state.phase == "over"

    def result(self, state: PState) -> dict[str, Any]:
        culture = list(state.final or tuple(c.culture for c in state.civs))
        seats = range(state.players)
        ranking = [
            {
                "seat": seat,
                "place": 1 + sum(culture[o] > culture[seat] for o in seats),
                "score": culture[seat],
            }
            for seat in sorted(seats, key=lambda s: (-culture[s], s))
        ]
        return {
            "scores": culture,
            "ranking": ranking,
            "tie_breaks": [],
            "details": {
                "rule": rule("game.end"),
                "winners": [r["seat"] for r in ranking if r["place"] == 1],
            },
        }

    def summary(self, state: PState) -> dict[str, Any]:
        return {
            "era": state.era,
            "round": state.round,
            "phase": state.phase,
            "start_player": state.start,
            "awaiting": sorted(self.awaited_seats(state)),
        }

    def encode_state(self, state: PState) -> Any:
        return encode(state)

    def decode_state(self, data: Any) -> PState:
        return decode(PState, data)

    def invariant_failures(self, state: PState) -> list[str]:
        from domain.patchistory.invariants import failures

        return failures(self, state)

    def view(self, state: PState, viewer: int | None) -> dict[str, Any]:
        from domain.patchistory.views import view

        return view(self, state, viewer)

    def names(self) -> Mapping[str, str]:
        from domain.patchistory.words import names_of

        known: Mapping[str, str] | None = getattr(self, "_names", None)
        if known is None:
            known = names_of(self.pack)
            self._names = known
        return known

    def card_texts(self) -> Mapping[str, str]:
        from domain.patchistory.words import card_texts

        return card_texts(self.pack)

    def narrate(self, event: Mapping[str, Any], players: Sequence[str]) -> str:
        from domain.patchistory.words import narrate

        return narrate(self, event, players)

    def action_words(
        self, state: PState, command: Mapping[str, Any], players: Sequence[str]
    ) -> tuple[str, str]:
        from domain.patchistory.words import action_words

        return action_words(self, state, command, players)

    def draw_board(self, state: PState, viewer: int | None) -> str | None:
        from domain.patchistory.drawing import table_svg

        return table_svg(self, state, viewer)

    def strategy(self) -> Any:
        from domain.patchistory.strategy import PatchStrategy

        return PatchStrategy(self)


def vote_ranks(scores: list[int]) -> list[int]:
    """Each seat's place on a Prosperity Card: tied players are lowered by one less than their
    number (patchistory.vote.ties: two tied 2nd are both 3rd, three tied 2nd all 4th)."""
    places = []
    for score in scores:
        better = sum(1 for s in scores if s > score)
        tied = sum(1 for s in scores if s == score)
        places.append(better + tied)
    return places


def vote_culture(place: int, value: int, players: int) -> int:
    """patchistory.vote.points: 1st gains the value, 2nd half (down), 3rd nothing, 4th (4
    players) forfeits half; with 2 players the 2nd gains nothing."""
    if place == 1:
        return value
    if place == 2 and players >= 3:
        return value // 2
    if place == 4 and players == 4:
        return -(value // 2)
    return 0


def refusal_for(
    rules: PatchistoryRuleset, state: PState, seat: int, command: Command
) -> RuleViolation:
    """The rule a command breaks, as precisely as the phase tells."""
    phase = state.phase
    by_type = {
        "bid": "auction.bid",
        "pass": "auction.first",
        "seal_bid": "auction.two-player",
        "patch": "patch.overlap",
        "forfeit_tile": "patch.optional",
        "aid": "diplomacy.aid",
        "threaten": "diplomacy.threaten",
        "break_alliance": "diplomacy.break-alliance",
        "trade": "management.trade",
        "exchange": "management.exchange",
        "birth": "management.birth",
        "honor_heroes": "management.honor-heroes",
        "honor_wonders": "management.honor-wonders",
        "build_route": "management.trade-route",
        "reclaim": "management.reclamation",
        "construct": "management.building",
        "campaign": "management.campaign",
        "move_worker": "movement.territory",
        "advance": "movement.route",
        "rest": "movement.rest",
        "end_movement": "movement.route",
        "choose_side": "negotiation.choose",
        "commit_strength": "war.strength",
        "vote": "vote.assign",
        "choose_card": "vote.cards",
        "place_worker": "workers.one-per-space",
    }
    if command.type == "patch" and state.phase == "patching" and state.won and not state.pending:
        won = state.won[0]
        try:
            side = str(command.arg("side") or won.side)
            found = terr.placement_refusal(
                rules.pack,
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
    key = by_type.get(command.type)
    if key is None or seat not in rules.awaited_seats(state):
        return IllegalAction(
            f"{command.type!r} is not a legal action for seat {seat} now ({phase})",
            rules.turn_rule,
            {"command": command.as_dict(), "phase": phase},
        )
    return IllegalAction(
        f"{command.type!r} with these arguments is not allowed now ({phase})",
        rule(key),
        {"command": command.as_dict(), "phase": phase},
    )
