"""The Avalon Hill 2001 rules as a kernel Ruleset: drawing Empire cards, each Empire's turn
(pool, capital, fleets, start land, expansion and combat, forts, monuments, clean-up,
scoring), pre-eminence between epochs and the end of the game. Every event cites its rule."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from domain.core.catalogue import RulesCatalogue
from domain.core.chance import Chance
from domain.core.errors import IllegalAction, RuleViolation
from domain.core.folds import Working
from domain.core.messages import Command, Event, private_to
from domain.core.ruleset import ArgSpec, CommandSpec, Ruleset, Setup
from domain.hotw import codec
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001 import simultaneous as sim
from domain.hotw.editions.ah2001.between import Record, draw_order, final_ranking, pre_eminent
from domain.hotw.editions.ah2001.combat import (
    Approach,
    Edge,
    Result,
    Via,
    attack_dice,
    defence_dice,
    fight_round,
    sacked,
)
from domain.hotw.editions.ah2001.model import Ah2001State, Player, Stage
from domain.hotw.editions.ah2001.revisions import COINS_TAKE_COUNTERS, REVISIONS
from domain.hotw.editions.ah2001.scoring import LEVEL_RULES, area_levels, turn_score
from domain.hotw.editions.ah2001.tables import Ah2001Tables, EmpireStats

NO_PRE_EMINENCE = "no_pre_eminence"
MINOR_EMPIRES = "minor_empires"
MULTIPLE_ARMIES = "multiple_armies"
NAVAL_CONTROL = "naval_control"
SIMULTANEOUS = "simultaneous_empires"
STACK = 3
"""ah2001.option.multiple-armies: up to three figures of a player in a land, one fort at most."""
PLAYABLE_KINDS = frozenset(
    {
        "leader",
        "weaponry",
        "reallocation",
        "siegecraft",
        "elite-troops",
        "naval-power",
        "engineering",
        "expert-troops",
        "coins",
        "jihad",
        "kingdom",
        "astronomy",
        "treachery",
        "disaster",
        "famine",
        "pestilence",
        "black-death",
        "migrants",
        "jewish-revolt",
        "minor-empire",
        "crusade",
        "civil-war",
        "barbarians",
        "plague",
    }
)
PICKS = {"astronomy": 1, "treachery": 1, "disaster": 2, "famine": 1, "pestilence": 1}
PICKS |= {"black-death": 2, "migrants": 2, "civil-war": 3}
PICKS |= {"barbarians": 1000, "plague": 1000}
"""How many targets a card names (the chains - Barbarians, Plague - run until they stop)."""
UP_TO = frozenset({"disaster", "migrants"})
"""Cards that choose "up to" their number of targets (the player may stop early)."""


def far_epoch(epoch: int) -> int:
    """ah2001.events.far-epoch reading: Epoch VII figures early in the game, Epoch I late."""
    return 7 if epoch <= 4 else 1


NOBODY = private_to()


@dataclass(frozen=True)
class Ah2001Pack:
    """What the ruleset is built with: the printed tables, the board and the catalogue."""

    tables: Ah2001Tables
    rules: RulesCatalogue
    ruleset: str = "hotw-ah2001"


def rule(key: str) -> str:
    return f"ah2001.{key}"


REPEATABLE = frozenset({Result.ATTACKER_LOST, Result.FORT_AND_ATTACKER_LOST})
"""Results after which the attacker may attack the same land again (ah2001.combat.repeat)."""


class Ctx(Working[Ah2001Tables, Ah2001State]):
    """The decide-side working state of one command (`Working`)."""

    folds = ev.FOLDS


def spend_coin(ctx: Ctx, seat: int, *, for_fort: bool) -> None:
    """ah2001.events.coins: a coin buys a fort, or saves an army from the pool."""
    key = "events.coins.buy-fort" if for_fort else "events.coins.save-army"
    ctx.emit(
        ev.CoinSpent(rule=rule(key), cites=(rule("events.coins"),), seat=seat, for_fort=for_fort)
    )


# --- queries -------------------------------------------------------------------------------


def calling_order(tables: Ah2001Tables, epoch: int) -> tuple[EmpireStats, ...]:
    return tables.empires_by_epoch[epoch]


def empire(tables: Ah2001Tables, empire_id: str) -> EmpireStats:
    (found,) = [e for e in tables.empires if e.id == empire_id]
    return found


def drawer(state: Ah2001State) -> int | None:
    drawing = state.drawing
    if drawing is None or drawing.position >= len(drawing.order):
        return None
    return drawing.order[drawing.position]


def without_card(state: Ah2001State) -> list[int]:
    assert state.drawing is not None
    holding = set(state.drawing.holders.values())
    return [seat for seat in range(len(state.players)) if seat not in holding]


def targets(tables: Ah2001Tables, state: Ah2001State) -> Iterator[tuple[str, Via]]:
    """Where the Active Empire may place an army: next to one of its armies (straits
    included), or over its chain of fleets; never a barren land, never a land it holds."""
    turn = state.turn
    assert turn is not None
    board = tables.board
    held = set(turn.lands)
    overland: set[str] = set()
    for land in held:
        overland |= board.adjacent(land)
    by_sea = board.fleet_reach(held, turn.fleets) if turn.fleets else frozenset()
    if turn.at_sea is not None:
        by_sea |= board.coasts[turn.at_sea]
    if MULTIPLE_ARMIES in state.options:
        for land in held:
            cell = state.land(land)
            if cell.owner == turn.seat and cell.armies + ("fort" in cell.buildings) < STACK:
                yield land, Via.LAND
    for land in sorted(overland | by_sea):
        if land in held or board.lands[land].barren:
            continue
        if land in overland:
            yield land, Via.LAND
        if land in by_sea:
            yield land, Via.SEA


def approach(tables: Ah2001Tables, state: Ah2001State, land: str, via: Via) -> Approach:
    """From the sea, or from the adjacent Empire land the defender gets fewest dice against
    (ah2001.combat.from-sea reading: the attacker names the way, and takes the best border)."""
    if via is Via.SEA:
        return Approach(Via.SEA)
    assert state.turn is not None
    board = tables.board
    options = []
    for source in state.turn.lands:
        if land in board.lands[source].neighbours:
            wall = board.crosses_great_wall(source, land)
            options.append(Approach(Via.LAND, great_wall=wall))
        elif land in board.lands[source].straits:
            options.append(Approach(Via.LAND, strait=True))
    return min(options, key=lambda a: (a.strait or a.great_wall, a.strait))


def pool_size(
    tables: Ah2001Tables, state: Ah2001State, seat: int, strength: int, figure: int = 0
) -> int:
    """The Empire's strength, as far as the player's figures of its epoch allow."""
    figure = figure or state.epoch
    figures = tables.pieces.armies_per_colour_by_epoch[figure]
    return max(0, min(strength, figures - state.figures_out(seat, figure)))


def monument_sites(tables: Ah2001Tables, state: Ah2001State) -> list[str]:
    """ah2001.monuments.placement: the capital's land, else a city the Empire holds, else one
    of its resource lands; never a land that has a monument."""
    turn = state.turn
    assert turn is not None
    lands = [
        land
        for land in turn.lands
        if state.land(land).owner == turn.seat and "monument" not in state.land(land).buildings
    ]
    spec = empire(tables, turn.empire)
    for tier in (
        [
            land
            for land in lands
            if land == spec.start_land and "capital" in state.land(land).buildings
        ],
        [land for land in lands if "city" in state.land(land).buildings],
        [land for land in lands if tables.board.lands[land].resource],
    ):
        if tier:
            return sorted(tier)
    return []


def records(tables: Ah2001Tables, state: Ah2001State) -> list[Record]:
    return [
        Record(
            p.points,
            tuple(empire(tables, e).strength for e in p.empires),
            p.called,
            sum(p.pre_eminence),
        )
        for p in state.players
    ]


# --- the ruleset ---------------------------------------------------------------------------


class Ah2001Ruleset(Ruleset[Ah2001State]):
    pack: Ah2001Pack
    view_schema = "schemas.ah2001_view:VIEW"

    revisions = REVISIONS

    @property
    def tables(self) -> Ah2001Tables:
        return self.pack.tables

    def pack_at(self, revision: int) -> Ah2001Pack:
        """The same pack, its tables answering the revision gates of the folds for `revision`."""
        return replace(self.pack, tables=replace(self.pack.tables, revision=revision))

    # creation

    def initial_state(self, setup: Setup) -> Ah2001State:
        pieces = self.tables.pieces
        return Ah2001State(
            epoch=0,
            stage=Stage.DRAWING,
            players=tuple(Player(name) for name in setup.players),
            supply={
                "capitals_and_cities": pieces.capitals_and_cities,
                "forts": pieces.forts,
                "monuments": pieces.monuments,
                "counters": pieces.coins_and_fleets,
            },
            options=frozenset(k for k, v in setup.options.items() if v is True),
        )

    def set_up(self, state: Ah2001State, chance: Chance) -> list[Event]:
        ctx = Ctx(self.tables, state, chance)
        seats = len(state.players)
        rolls: list[tuple[int, ...]] = [chance.dice(2) for _ in range(seats)]
        contenders = list(range(seats))
        while True:
            best = max(sum(rolls[s]) for s in contenders)
            contenders = [s for s in contenders if sum(rolls[s]) == best]
            if len(contenders) == 1:
                break
            for seat in contenders:
                rolls[seat] = (*rolls[seat], *chance.dice(2))
        first = contenders[0]
        order = tuple((first + i) % seats for i in range(seats))
        ctx.emit(
            ev.DrawOrderRolled(
                rule=rule("empires.first-draw-order"),
                rolls=tuple(rolls),
                order=order,
                draws=chance.take_draws(),
            )
        )
        hands = self.deal(state, chance)
        dealt = chance.take_draws()
        minors = MINOR_EMPIRES in state.options
        for seat, hand in enumerate(hands):
            ctx.emit(
                ev.EventCardsDealt(
                    rule=rule("option.minor-empires" if minors else "setup.event-cards"),
                    seat=seat,
                    cards=hand,
                    visibility=private_to(seat, redacted={"seat": seat, "count": len(hand)}),
                    draws=dealt if seat == 0 else (),
                )
            )
        markers = chance.shuffled(self.tables.pieces.pre_eminence_markers)
        ctx.emit(
            ev.MarkersShuffled(
                rule=rule("setup.pre-eminence"),
                markers=markers,
                visibility=private_to(redacted={"count": len(markers)}),
                draws=chance.take_draws(),
            )
        )
        ctx.emit(ev.EpochBegan(rule=rule("object.epochs"), epoch=1, order=order))
        self.proceed(ctx)
        return ctx.events

    def deal(self, state: Ah2001State, chance: Chance) -> list[tuple[str, ...]]:
        """ah2001.setup.event-cards: Greater and Lesser cards dealt from shuffled decks; with
        ah2001.option.minor-empires each player gets one Minor Empire and two other Greater."""
        seats = len(state.players)
        pieces = self.tables.pieces
        greater_ids = self.tables.deck("greater")
        minor_ids = {c.id for c in self.tables.events if c.kind == "minor-empire"}
        minors: list[str] = []
        per_seat = pieces.greater_dealt
        if MINOR_EMPIRES in state.options:
            minors = list(chance.shuffled(tuple(c for c in greater_ids if c in minor_ids)))
            greater_ids = tuple(c for c in greater_ids if c not in minor_ids)
            per_seat -= 1
        greater = list(chance.shuffled(greater_ids))
        lesser = list(chance.shuffled(self.tables.deck("lesser")))
        return [
            (
                *minors[seat : seat + 1],
                *greater[seat * per_seat : (seat + 1) * per_seat],
                *lesser[seat * pieces.lesser_dealt : (seat + 1) * pieces.lesser_dealt],
            )
            for seat in range(seats)
        ]

    # whose move

    def awaited_seats(self, state: Ah2001State) -> frozenset[int]:
        if state.stage is Stage.DRAWING:
            seat = drawer(state)
            return frozenset() if seat is None else frozenset({seat})
        if state.turn is not None and state.stage in (Stage.TURNS, Stage.MONUMENTS):
            return frozenset({state.turn.seat})
        return frozenset()

    def undo_scope(self, state: Ah2001State) -> Any:
        """A seat undoes within one Empire's move: its turn (the epoch's calling position) and,
        with simultaneous empires, the one round's move of one Empire."""
        awaited = tuple(sorted(self.awaited_seats(state)))
        return (awaited, state.epoch, state.call_index, state.slot, state.cursor)

    def legal_actions(self, state: Ah2001State, seat: int) -> Iterable[Command]:
        return list(self.listed(state, seat))

    def listed(self, state: Ah2001State, seat: int) -> Iterator[Command]:
        if seat not in self.awaited_seats(state):
            return
        if state.stage is Stage.DRAWING:
            assert state.drawing is not None
            if seat not in state.drawing.holders.values():
                yield Command.of("keep_empire")
            for other in without_card(state):
                if other != seat:
                    yield Command.of("pass_empire", to=other)
            return
        turn = state.turn
        assert turn is not None
        if state.stage is Stage.MONUMENTS:
            for land in monument_sites(self.tables, state):
                yield Command.of("build_monument", land=land)
            return
        if turn.pending is not None:
            card = self.card(turn.pending)
            for target in self.target_options(state, card):
                yield Command.of("choose_target", target=target)
            if card.kind in UP_TO:
                yield Command.of("stop_targeting")
            return
        if not turn.expanding:
            yield from self.card_actions(state, seat)
            return
        if SIMULTANEOUS in state.options:
            yield from self.round_actions(state, seat)
            return
        if turn.pool > 0:
            for land, via in targets(self.tables, state):
                yield Command.of("place_army", land=land, via=via.value)
        if (turn.pool > 0 or turn.free_forts > 0) and state.supply.get("forts", 0) > 0:
            for land in turn.lands:
                cell = state.land(land)
                if cell.owner == seat and "fort" not in cell.buildings and cell.armies < STACK:
                    yield Command.of("build_fort", land=land)
        if turn.pool > 0 and NAVAL_CONTROL in state.options and turn.outer is None:
            for water in turn.fleets:
                if self.tables.board.waters[water].kind == "sea" and water not in turn.manned:
                    yield Command.of("man_fleet", water=water)
        if turn.coins > 0 and turn.lost > 0:
            yield Command.of("recover_army")
        if turn.coins > 0 and state.supply.get("forts", 0) > turn.free_forts:
            yield Command.of("buy_fort")
        yield Command.of("end_expansion")

    def card_actions(self, state: Ah2001State, seat: int) -> Iterator[Command]:
        """ah2001.events.two-per-turn: before the first army, up to two cards playable in this
        epoch, never two of the same; Reallocation's fleets to coins; then the expansion."""
        turn = state.turn
        assert turn is not None
        if len(turn.played) < 2:
            for card_id in sorted(set(state.players[seat].hand) - set(turn.played)):
                card = self.card(card_id)
                if card.kind in PLAYABLE_KINDS and card.playable_in(state.epoch):
                    yield Command.of("play_event", card=card_id)
        if turn.reallocating:
            for water in turn.fleets:
                yield Command.of("reallocate_fleet", water=water)
        yield Command.of("begin_expansion")

    def target_options(self, state: Ah2001State, card: Any) -> list[str]:
        """What the pending card may name next (its text's choices)."""
        turn = state.turn
        assert turn is not None
        board = self.tables.board
        taken = set(turn.picks)
        if card.kind == "astronomy":
            if state.supply.get("counters", 0) <= 0:
                return []
            return sorted(
                w.id for w in board.waters.values() if w.kind == "sea" and w.id not in turn.fleets
            )
        if card.kind == "treachery":
            return sorted(
                land for land, c in state.lands.items() if c.owner not in (None, turn.seat)
            )
        if card.kind == "disaster":
            return sorted(
                land
                for land, c in state.lands.items()
                if "monument" in c.buildings and land not in taken
            )
        if card.kind == "famine":
            return sorted(self.tables.victory_points.scores)
        if card.kind == "pestilence":
            return sorted(land for land, c in state.lands.items() if c.owner is not None)
        if card.kind == "black-death":
            if not turn.picks:
                return sorted(self.tables.victory_points.scores)
            return sorted(self.adjacent_areas(turn.picks[0]))
        if card.kind == "plague":
            return self.plague_options(state, taken)
        if card.kind == "civil-war":
            return self.civil_war_options(state, turn.seat, turn.picks)
        if card.kind == "barbarians":
            return self.barbarian_options(state, turn.seat, turn.picks)
        if card.kind == "migrants":
            area = str(card.effect["area"])
            return sorted(
                land.id
                for land in board.lands.values()
                if land.area == area and state.land(land.id).owner is None and land.id not in taken
            )
        return []

    def plague_options(self, state: Ah2001State, taken: set[str]) -> list[str]:
        """Any occupied land first; then an occupied land next to the last army it killed."""
        turn = state.turn
        assert turn is not None
        if not turn.picks:
            return sorted(land for land, c in state.lands.items() if c.owner is not None)
        last = turn.picks[-1]
        return sorted(
            land
            for land in self.tables.board.adjacent(last)
            if state.land(land).owner is not None and land not in taken
        )

    def civil_war_options(self, state: Ah2001State, seat: int, picks: tuple[str, ...]) -> list[str]:
        """Lands of one enemy Empire (ah2001.events.civil-war reading: one player's armies of
        one epoch's figure), all different."""
        if not picks:
            return sorted(land for land, c in state.lands.items() if c.owner not in (None, seat))
        first = state.land(picks[0])
        return sorted(
            land
            for land, c in state.lands.items()
            if (c.owner, c.figure) == (first.owner, first.figure) and land not in picks
        )

    def barbarian_options(self, state: Ah2001State, seat: int, picks: tuple[str, ...]) -> list[str]:
        """First a barren land next to an enemy army; then, one by one, the enemy lands next
        to it, until they are all conquered."""
        board = self.tables.board

        def enemies_next_to(barren: str) -> list[str]:
            return sorted(
                land
                for land in board.adjacent(barren)
                if state.land(land).owner not in (None, seat)
            )

        if not picks:
            return sorted(
                land.id for land in board.lands.values() if land.barren and enemies_next_to(land.id)
            )
        return enemies_next_to(picks[0])

    def adjacent_areas(self, area: str) -> set[str]:
        board = self.tables.board
        found: set[str] = set()
        for land in board.lands.values():
            if land.area != area:
                continue
            for other in board.adjacent(land.id):
                other_area = board.lands[other].area
                if other_area is not None and other_area != area:
                    found.add(other_area)
        return found

    def card(self, card_id: str) -> Any:
        (found,) = [c for c in self.tables.events if c.id == card_id]
        return found

    def is_legal(self, state: Ah2001State, seat: int, command: Command) -> bool:
        return command in self.listed(state, seat)

    def refusal(self, state: Ah2001State, seat: int, command: Command) -> RuleViolation:
        kind = command.type
        why = {
            "keep_empire": ("a player given a card must pass the one drawn", "empires.one-card"),
            "pass_empire": ("a card goes to a player still without one", "empires.draw"),
            "place_army": (
                "an army goes next to one of the Active Empire's armies or over its fleets, "
                "never into a barren land or a land it holds",
                "expand.adjacent",
            ),
            "build_fort": (
                "a fort replaces a pool army in a land of the Active Empire without a fort",
                "forts.build",
            ),
            "build_monument": (
                "a monument goes where the placement order says",
                "monuments.placement",
            ),
            "play_event": (
                "up to two Event cards, playable in this epoch, not two of the same, before the "
                "first army",
                "events.two-per-turn",
            ),
            "begin_expansion": ("the expansion has begun", "events.before-first-army"),
            "recover_army": ("a coin returns an army lost in combat", "events.coins.save-army"),
            "buy_fort": ("a coin buys a fort", "events.coins.buy-fort"),
            "reallocate_fleet": ("Reallocation turns fleets into coins", "events.reallocation"),
            "end_round": (
                "only with simultaneous empires, once the start is placed",
                "variant.rounds",
            ),
            "terminate_empire": (
                "only with simultaneous empires, in an Empire's round",
                "variant.terminate",
            ),
            "man_fleet": (
                "with Naval Control an army from the pool goes onto one of the Active Empire's "
                "fleets in a sea (not an ocean), once",
                "option.naval-control",
            ),
            "choose_target": ("not a target this card may name now", "events.lesser-kinds"),
            "stop_targeting": ("this card names all its targets", "events.lesser-kinds"),
        }
        message, key = why.get(kind, (f"{kind!r} is not a legal action now", "turn.parts"))
        key = self.refusal_clause(state, seat, command) or key
        return IllegalAction(message, rule(key), {"command": command.as_dict()})

    def refusal_clause(self, state: Ah2001State, seat: int, command: Command) -> str | None:
        """The narrower clause a refused command breaks, where one says more than the command's
        own: a barren land, a land already holding the Active Empire's army, a second fort, a
        card of another epoch or one played after the first army."""
        turn = state.turn
        if turn is None or seat != turn.seat or state.stage is not Stage.TURNS:
            return None
        land = str(command.arg("land", ""))
        if command.type == "place_army" and turn.pool > 0 and land in self.tables.board.lands:
            if self.tables.board.lands[land].barren:
                return "expand.barren"
            if land in turn.lands and state.land(land).owner == seat:
                return "expand.one-army"
        if command.type == "build_fort" and "fort" in state.land(land).buildings:
            return "forts.one-per-land"
        if command.type == "play_event":
            if turn.expanding:
                return "events.before-first-army"
            card_id = str(command.arg("card"))
            if card_id in state.players[seat].hand and not self.card(card_id).playable_in(
                state.epoch
            ):
                return "events.epochs"
        return None

    # deciding

    def decide(
        self, state: Ah2001State, seat: int, command: Command, chance: Chance
    ) -> list[Event]:
        ctx = Ctx(self.tables, state, chance)
        getattr(self, f"do_{command.type}")(ctx, seat, command)
        self.proceed(ctx)
        return ctx.events

    def do_keep_empire(self, ctx: Ctx, seat: int, command: Command) -> None:
        self.give(ctx, seat, seat)

    def do_pass_empire(self, ctx: Ctx, seat: int, command: Command) -> None:
        self.give(ctx, seat, int(command.arg("to")))

    def give(self, ctx: Ctx, seat: int, to: int) -> None:
        drawing = ctx.state.drawing
        assert drawing is not None and drawing.drawn is not None
        key = "empires.draw" if to == seat else "empires.passed-unseen"
        ctx.emit(
            ev.EmpireCardGiven(
                rule=rule(key),
                from_seat=seat,
                to_seat=to,
                card=drawing.drawn,
                visibility=private_to(seat, redacted={"from_seat": seat, "to_seat": to}),
            )
        )

    def do_place_army(self, ctx: Ctx, seat: int, command: Command) -> None:
        land = str(command.arg("land"))
        simultaneous = SIMULTANEOUS in ctx.state.options
        if simultaneous and not self.held_by_turn(ctx.state, land):
            ctx.emit(
                ev.ExpansionAttempted(rule=rule("variant.one-attempt"), seat=seat, target=land)
            )
        self.expand_into(ctx, seat, land, Via(str(command.arg("via"))))
        turn = ctx.state.turn
        assert turn is not None
        if turn.card is not None and ctx.state.land(land).owner == seat:
            self.crusaders_take(ctx, self.card(turn.card), land)
        if simultaneous and turn.card is None:
            self.monuments_at_once(ctx)

    def crusaders_take(self, ctx: Ctx, card: Any, land: str) -> None:
        """ah2001.events.crusade: Palestine taken by the Crusaders gets a fort and a city."""
        if card.kind != "crusade" or land != card.effect["land"]:
            return
        have = ctx.state.land(land).buildings
        fort = "fort" not in have and ctx.state.supply.get("forts", 0) > 0
        city = not have & {"city", "capital"} and ctx.state.supply.get("capitals_and_cities", 0) > 0
        if fort or city:
            ctx.emit(
                ev.CrusadersFortified(rule=rule("events.crusade"), land=land, fort=fort, city=city)
            )

    def expand_into(self, ctx: Ctx, seat: int, land: str, via: Via) -> None:
        cell = ctx.state.land(land)
        turn = ctx.state.turn
        assert turn is not None
        epoch = turn.figure or ctx.state.epoch
        if cell.owner is None:
            ctx.emit(
                ev.ArmyPlaced(
                    rule=rule("expand.fleets" if via is Via.SEA else "expand.adjacent"),
                    seat=seat,
                    land=land,
                    figure=epoch,
                )
            )
            return
        if cell.owner == seat and land in turn.lands:
            ctx.emit(
                ev.ArmyPlaced(
                    rule=rule("option.multiple-armies"),
                    seat=seat,
                    land=land,
                    figure=epoch,
                    stacked=True,
                )
            )
            return
        if cell.owner == seat:
            ctx.emit(
                ev.ArmyPlaced(
                    rule=rule("expand.own-colour"),
                    seat=seat,
                    land=land,
                    figure=epoch,
                    replaced=True,
                )
            )
            return
        self.battle(ctx, seat, land, via)

    def battle(self, ctx: Ctx, seat: int, land: str, via: Via) -> None:
        """ah2001.combat.*: rounds until one side's army is gone (a fort falls first)."""
        tables = self.tables
        homeless = via is Via.LAND and not self.holds_any(ctx.state)
        way = Approach(Via.LAND) if homeless else approach(tables, ctx.state, land, via)
        terrain = frozenset({tables.board.lands[land].terrain})
        first = True
        while True:
            cell = ctx.state.land(land)
            defender = cell.owner
            assert defender is not None
            edge = self.edge(ctx.state)
            if homeless:  # ah2001.variant.no-lands-left: no Difficult Terrain for the defender
                edge = replace(edge, no_terrain_penalty=True)
            turn = ctx.state.turn
            if turn is not None and turn.treachery == land:
                won = (
                    Result.FORT_AND_DEFENDER_LOST
                    if "fort" in cell.buildings
                    else Result.DEFENDER_LOST
                )
                ctx.emit(
                    ev.BattleFought(
                        rule=rule("events.treachery"),
                        seat=seat,
                        land=land,
                        defender=defender,
                        via=via.value,
                        attack_dice=(),
                        defence_dice=(),
                        attack=0,
                        defence=0,
                        result=won.value,
                    )
                )
                if ctx.state.land(land).owner == defender:
                    continue  # more armies stand there (ah2001.option.multiple-armies)
                self.sack(ctx, land)
                return
            attacking, attack_rule = attack_dice(edge)
            defending, defence_rule = defence_dice(terrain, way, edge)
            attack = ctx.chance.dice(attacking)
            defence = ctx.chance.dice(defending)
            fought = fight_round(attack, defence, cell.buildings, edge)
            cites = tuple(
                dict.fromkeys(
                    rule(k)
                    for k in (attack_rule, defence_rule, *fought.rules)
                    if k != "combat.dice"
                )
            )
            ctx.emit(
                ev.BattleFought(
                    rule=rule(
                        "combat.when" if fought.result is not Result.BOTH_LOST else "combat.tie"
                    ),
                    cites=(
                        rule("combat.dice"),
                        *cites,
                        *((rule("combat.attacker-bonus"),) if attacking > 2 else ()),
                        *((rule("variant.no-lands-left"),) if homeless else ()),
                        *((rule("combat.repeat"),) if fought.result in REPEATABLE else ()),
                    ),
                    seat=seat,
                    land=land,
                    defender=defender,
                    via=via.value,
                    attack_dice=attack,
                    defence_dice=defence,
                    attack=fought.attack,
                    defence=fought.defence,
                    result=fought.result.value,
                    first_round=first,
                    leader_killed=fought.leader_killed,
                    draws=ctx.chance.take_draws(),
                )
            )
            first = False
            if not self.fights_on(ctx, land, fought):
                return

    def fights_on(self, ctx: Ctx, land: str, fought: Any) -> bool:
        """After a round the attacker fights on while only a fort fell or more defenders stand;
        a land won at last is sacked (ah2001.combat.sack)."""
        if fought.result is Result.FORT_LOST or self.defender_fights_on(ctx, land, fought):
            return True
        if fought.result in (Result.DEFENDER_LOST, Result.FORT_AND_DEFENDER_LOST):
            self.sack(ctx, land)
        return False

    @staticmethod
    def defender_fights_on(ctx: Ctx, land: str, fought: Any) -> bool:
        """ah2001.option.multiple-armies: a defender's loss costs one of its armies; while
        others stand, the attacking army fights on."""
        won = fought.result in (Result.DEFENDER_LOST, Result.FORT_AND_DEFENDER_LOST)
        cell = ctx.state.land(land)
        return won and cell.owner is not None and cell.owner != ctx.state.turn_seat()

    def sack(self, ctx: Ctx, land: str) -> None:
        after = sacked(ctx.state.land(land).buildings)
        if after != ctx.state.land(land).buildings:
            ctx.emit(
                ev.LandSacked(rule=rule("combat.sack"), land=land, buildings=tuple(sorted(after)))
            )

    def do_play_event(self, ctx: Ctx, seat: int, command: Command) -> None:
        card = self.card(str(command.arg("card")))
        turn = ctx.state.turn
        assert turn is not None
        spec = empire(self.tables, turn.empire)
        coins = int(card.effect.get("coins", 0))
        if card.id == "civil-service":
            coins += (1 if spec.capital else 0) + (1 if spec.navigation else 0)
        if self.since(COINS_TAKE_COUNTERS):
            coins = min(coins, ctx.state.supply.get("counters", 0))  # ah2001.components.coin-fleet
        forts = int(card.effect.get("forts", 0)) if spec.capital else 0
        ctx.emit(
            ev.EventCardPlayed(
                rule=rule(f"events.{card.id if card.kind == 'coins' else card.kind}"),
                cites=(
                    rule("events.two-per-turn"),
                    rule("events.epochs"),
                    rule("events.active-empire"),
                    rule(f"events.{card.deck}-kinds"),
                    *((rule("events.coins"),) if coins else ()),
                ),
                seat=seat,
                card=card.id,
                coins=coins,
                forts=forts,
            )
        )
        if card.kind == "jewish-revolt":
            land = str(card.effect["land"])
            self.revolt(ctx, seat, land, key=rule("events.jewish-revolt"), dice=3)
        if card.kind == "minor-empire":
            self.minor_empire_begins(ctx, seat, card)
        if card.kind == "crusade":
            ctx.emit(
                ev.CardEmpireBegan(
                    rule=rule("events.crusade"),
                    seat=seat,
                    card=card.id,
                    armies=pool_size(self.tables, ctx.state, seat, int(card.effect["armies"]), 1),
                    figure=int(card.effect["figures_epoch"]),
                    capital=False,
                    fleets=(),
                    at_sea=str(card.effect["water"]),
                    bonus=True,
                )
            )
        if card.kind == "kingdom":
            ctx.emit(
                ev.KingdomPlaced(
                    rule=rule("events.kingdom"),
                    cites=(rule("events.far-epoch"),),
                    seat=seat,
                    land=str(card.effect["land"]),
                    figure=int(card.effect["figures_epoch"]),
                )
            )

    def minor_empire_begins(self, ctx: Ctx, seat: int, card: Any) -> None:
        """ah2001.events.minor-empire: its own pool, figures, fleets and capital, placed in its
        start land; untouched by the turn's other card (.unaffected)."""
        effect = card.effect
        figure = int(effect.get("figures_epoch") or far_epoch(ctx.state.epoch))
        supply = ctx.state.supply
        fleets = tuple(sorted(self.tables.board.navigation(effect["navigation"])))
        ctx.emit(
            ev.CardEmpireBegan(
                rule=rule("events.minor-empire"),
                cites=(rule("events.minor-empire.unaffected"), rule("events.far-epoch")),
                seat=seat,
                card=card.id,
                armies=pool_size(self.tables, ctx.state, seat, int(effect["strength"]), figure),
                figure=figure,
                capital=bool(effect["capital"]) and supply.get("capitals_and_cities", 0) > 0,
                fleets=fleets[: supply.get("counters", 0)],
            )
        )
        if ctx.state.turn is not None and ctx.state.turn.pool > 0:
            self.place_start(ctx, seat, str(effect["start_land"]))

    def do_choose_target(self, ctx: Ctx, seat: int, command: Command) -> None:
        turn = ctx.state.turn
        assert turn is not None and turn.pending is not None
        card = self.card(turn.pending)
        target = str(command.arg("target"))
        ctx.emit(
            ev.TargetChosen(
                rule=rule(f"events.{card.kind}"), seat=seat, card=turn.pending, target=target
            )
        )
        if card.kind == "plague":
            self.plague_strikes(ctx, card, target)
        if card.kind == "barbarians" and len(turn.picks) > 0:
            self.barbarians_attack(ctx, seat, card, turn.picks[0], target)

    def plague_strikes(self, ctx: Ctx, card: Any, land: str) -> None:
        """ah2001.events.plague: four dice for the first army, three for each one after; the
        chain stops at the first army that survives."""
        first = len(ctx.state.turn.picks) == 1 if ctx.state.turn else True
        dice = int(card.effect["first_dice" if first else "spread_dice"])
        roll = ctx.chance.dice(dice)
        died = 1 in roll
        ctx.emit(
            ev.ArmiesStruck(
                rule=rule("events.plague"),
                card=card.id,
                rolls=(roll,),
                lands=(land,),
                destroyed=(land,) if died else (),
                draws=ctx.chance.take_draws(),
            )
        )
        if not died:
            self.card_done(ctx, card)

    def barbarians_attack(self, ctx: Ctx, seat: int, card: Any, barren: str, land: str) -> None:
        """ah2001.events.barbarians: a new far-epoch army attacks out of the barren land with
        the normal dice; the first defeat ends the invasion."""
        board = self.tables.board
        way = Approach(
            Via.LAND,
            strait=land in board.lands[barren].straits,
            great_wall=board.crosses_great_wall(barren, land),
        )
        self.revolt(ctx, seat, land, key=rule("events.barbarians"), dice=2, way=way)
        if ctx.state.land(land).owner != seat:
            self.card_done(ctx, card)

    def card_done(self, ctx: Ctx, card: Any) -> None:
        turn = ctx.state.turn
        assert turn is not None
        ctx.emit(ev.CardResolved(rule=rule(f"events.{card.kind}"), seat=turn.seat, card=card.id))

    def do_stop_targeting(self, ctx: Ctx, seat: int, command: Command) -> None:
        self.resolve_card(ctx)

    def resolve_card(self, ctx: Ctx) -> None:
        """The pending card acts on the targets chosen."""
        state = ctx.state
        turn = state.turn
        assert turn is not None and turn.pending is not None
        card = self.card(turn.pending)
        picks = turn.picks
        key = rule(f"events.{card.kind}")
        if card.kind == "astronomy" and picks:
            ctx.emit(ev.FleetAdded(rule=key, seat=turn.seat, water=picks[0]))
        elif card.kind == "treachery" and picks:
            ctx.emit(ev.TreacheryNamed(rule=key, seat=turn.seat, land=picks[0]))
        elif card.kind == "disaster" and picks:
            ctx.emit(ev.MonumentsDestroyed(rule=key, lands=tuple(picks)))
        elif card.kind == "migrants" and picks:
            figure = int(card.effect.get("figures_epoch") or 1)
            ctx.emit(ev.ArmiesLanded(rule=key, seat=turn.seat, lands=tuple(picks), figure=figure))
        elif card.kind in ("famine", "pestilence", "black-death") and picks:
            self.strike(ctx, card, picks)
        elif card.kind == "civil-war":
            for land in picks:
                self.revolt(ctx, turn.seat, land, key=key, dice=2)
        ctx.emit(ev.CardResolved(rule=key, seat=turn.seat, card=card.id))

    def strike(self, ctx: Ctx, card: Any, picks: tuple[str, ...]) -> None:
        """Each army named rolls its dice; any 1 destroys it with its fort."""
        state = ctx.state
        board = self.tables.board
        dice: dict[str, int] = {}
        if card.kind == "pestilence":
            dice[picks[0]] = int(card.effect["first_dice"])
            for other in sorted(board.adjacent(picks[0])):
                dice.setdefault(other, int(card.effect["adjacent_dice"]))
        else:
            for land in sorted(state.lands):
                if board.lands[land].area in picks:
                    dice[land] = int(card.effect["dice"])
        lands = tuple(land for land in sorted(dice) if state.land(land).owner is not None)
        rolls = tuple(ctx.chance.dice(dice[land]) for land in lands)
        destroyed = tuple(land for land, roll in zip(lands, rolls, strict=True) if 1 in roll)
        ctx.emit(
            ev.ArmiesStruck(
                rule=rule(f"events.{card.kind}"),
                card=card.id,
                rolls=rolls,
                lands=lands,
                destroyed=destroyed,
                draws=ctx.chance.take_draws(),
            )
        )

    def revolt(
        self, ctx: Ctx, seat: int, land: str, *, key: str, dice: int, way: Approach | None = None
    ) -> None:
        """A far epoch's army of the player's colour attacks `land` (Jewish Revolt, Civil War,
        Barbarians): `dice` for the attacker, one die for the defender - more over Difficult
        Terrain only when the attack comes `way` (never for the revolts) - a fort still counts;
        an empty land (or the player's own army there) is simply taken."""
        figure = far_epoch(ctx.state.epoch)
        edge = Edge(no_terrain_penalty=way is None)
        terrain = frozenset({self.tables.board.lands[land].terrain})
        defending, defence_rule = defence_dice(terrain, way or Approach(Via.LAND), edge)
        while True:
            cell = ctx.state.land(land)
            if cell.owner is None or cell.owner == seat:
                ctx.emit(
                    ev.RevoltFought(
                        rule=key,
                        seat=seat,
                        land=land,
                        figure=figure,
                        defender=cell.owner,
                        attack_dice=(),
                        defence_dice=(),
                        result="unopposed",
                    )
                )
                return
            attack = ctx.chance.dice(dice)
            defence = ctx.chance.dice(defending)
            fought = fight_round(attack, defence, cell.buildings, edge)
            cites = (rule("combat.dice"), rule("combat.fort"), rule("events.far-epoch"))
            ctx.emit(
                ev.RevoltFought(
                    rule=key,
                    cites=tuple(dict.fromkeys((*cites, rule(defence_rule)))),
                    seat=seat,
                    land=land,
                    figure=figure,
                    defender=cell.owner,
                    attack_dice=attack,
                    defence_dice=defence,
                    result=fought.result.value,
                    draws=ctx.chance.take_draws(),
                )
            )
            if not self.fights_on(ctx, land, fought):
                return

    def do_man_fleet(self, ctx: Ctx, seat: int, command: Command) -> None:
        water = str(command.arg("water"))
        if SIMULTANEOUS in ctx.state.options:
            ctx.emit(
                ev.ExpansionAttempted(rule=rule("variant.one-attempt"), seat=seat, target=water)
            )
        ctx.emit(
            ev.FleetManned(
                rule=rule("option.naval-control"),
                seat=seat,
                water=str(command.arg("water")),
                figure=ctx.state.epoch,
            )
        )

    def do_reallocate_fleet(self, ctx: Ctx, seat: int, command: Command) -> None:
        ctx.emit(
            ev.FleetReallocated(
                rule=rule("events.reallocation"), seat=seat, water=str(command.arg("water"))
            )
        )

    def do_begin_expansion(self, ctx: Ctx, seat: int, command: Command) -> None:
        ctx.emit(ev.ExpansionBegan(rule=rule("events.before-first-army"), seat=seat))
        turn = ctx.state.turn
        assert turn is not None
        if turn.pool > 0:
            self.place_start(ctx, seat, empire(self.tables, turn.empire).start_land)

    def do_recover_army(self, ctx: Ctx, seat: int, command: Command) -> None:
        spend_coin(ctx, seat, for_fort=False)

    def do_buy_fort(self, ctx: Ctx, seat: int, command: Command) -> None:
        spend_coin(ctx, seat, for_fort=True)

    @staticmethod
    def edge(state: Ah2001State) -> Edge:
        """What the cards played this turn give the Active Empire in combat."""
        turn = state.turn
        assert turn is not None
        return Edge(
            leader=turn.leader,
            weaponry=turn.weaponry,
            siegecraft=turn.siegecraft,
            elite_troops=turn.elite_troops,
            jihad_losses=turn.jihad_losses,
            naval_power=turn.naval_power,
            expert=turn.expert,
        )

    def do_build_fort(self, ctx: Ctx, seat: int, command: Command) -> None:
        ctx.emit(ev.FortBuilt(rule=rule("forts.build"), seat=seat, land=str(command.arg("land"))))

    def do_end_expansion(self, ctx: Ctx, seat: int, command: Command) -> None:
        self.end_expansion(ctx)

    def end_expansion(self, ctx: Ctx) -> None:
        turn = ctx.state.turn
        assert turn is not None
        if turn.outer is not None and turn.card is not None:
            card = self.card(turn.card)
            ctx.emit(
                ev.CardEmpireEnded(
                    rule=rule(f"events.{card.kind}"),
                    cites=(rule("events.minor-empire.scored-after"),)
                    if card.kind == "minor-empire"
                    else (),
                    seat=turn.seat,
                    card=card.id,
                    unused=turn.pool,
                )
            )
            return
        resources = sum(
            1
            for land in turn.lands
            if ctx.state.land(land).owner == turn.seat and self.tables.board.lands[land].resource
        )
        due = min(resources // 2, ctx.state.supply.get("monuments", 0))
        ctx.emit(
            ev.ExpansionEnded(
                rule=rule("monuments.count"), seat=turn.seat, monuments=due, unused=turn.pool
            )
        )

    def do_build_monument(self, ctx: Ctx, seat: int, command: Command) -> None:
        ctx.emit(
            ev.MonumentBuilt(
                rule=rule("monuments.placement"), seat=seat, land=str(command.arg("land"))
            )
        )

    # running on by itself

    def proceed(self, ctx: Ctx) -> None:
        for _ in range(1000):
            if not self.step(ctx):
                return
        raise RuntimeError("the rules did not come to rest")

    def step(self, ctx: Ctx) -> bool:
        """One thing that needs nobody's choice; False when a seat must act or the game is over."""
        state = ctx.state
        if state.stage is Stage.OVER:
            return False
        if state.stage is Stage.DRAWING:
            return self.drawing_step(ctx)
        if state.stage is Stage.MONUMENTS:
            return self.monument_step(ctx)
        turn = state.turn
        if turn is None:
            if SIMULTANEOUS in state.options and state.call_index >= len(
                calling_order(self.tables, state.epoch)
            ):
                return self.next_round(ctx)
            return self.call_next(ctx)
        if turn.pending is not None:
            card = self.card(turn.pending)
            if len(turn.picks) >= PICKS[card.kind] or not self.target_options(state, card):
                self.resolve_card(ctx)
                return True
            return False
        if SIMULTANEOUS in state.options:
            return self.round_step(ctx)
        if turn.expanding and list(self.listed(state, turn.seat)) == [Command.of("end_expansion")]:
            self.end_expansion(ctx)
            return True
        return False

    def drawing_step(self, ctx: Ctx) -> bool:
        state = ctx.state
        drawing = state.drawing
        assert drawing is not None
        if len(drawing.holders) == len(state.players):
            for card, seat in sorted(drawing.holders.items()):
                ctx.emit(
                    ev.EmpireCardLearned(
                        rule=rule("empires.passed-unseen"),
                        seat=seat,
                        card=card,
                        visibility=private_to(seat, redacted={"seat": seat}),
                    )
                )
            ctx.emit(ev.EmpireCardsHandedOut(rule=rule("empires.unused"), epoch=state.epoch))
            return True
        current = drawer(state)
        if current is None:
            return False
        seat = current
        if drawing.drawn is None:
            card = ctx.chance.pick(sorted(drawing.deck))
            ctx.emit(
                ev.EmpireCardDrawn(
                    rule=rule("empires.draw"),
                    seat=seat,
                    card=card,
                    visibility=private_to(seat, redacted={"seat": seat}),
                    draws=ctx.chance.take_draws(),
                )
            )
            return True
        options = list(self.listed(state, seat))
        if len(options) == 1:  # the last drawer has no choice (ah2001.empires.last-drawer)
            command = options[0]
            to = seat if command.type == "keep_empire" else int(command.arg("to"))
            ctx.emit(
                ev.EmpireCardGiven(
                    rule=rule("empires.last-drawer"),
                    from_seat=seat,
                    to_seat=to,
                    card=drawing.drawn,
                    visibility=private_to(seat, redacted={"from_seat": seat, "to_seat": to}),
                )
            )
            return True
        return False

    def call_next(self, ctx: Ctx) -> bool:
        state = ctx.state
        order = calling_order(self.tables, state.epoch)
        if state.call_index >= len(order):
            self.end_epoch(ctx)
            return True
        spec = order[state.call_index]
        holder = state.holders.get(spec.card)
        if holder is None:
            ctx.emit(ev.EmpireSkipped(rule=rule("epoch.call-order"), empire=spec.id))
            return True
        self.begin_turn(ctx, holder, spec)
        return True

    def begin_turn(self, ctx: Ctx, seat: int, spec: EmpireStats) -> None:
        board = self.tables.board
        wanted = tuple(sorted(board.navigation(spec.navigation)))
        if NAVAL_CONTROL in ctx.state.options:
            self.reclaim_fleets(ctx, len(wanted))
        state = ctx.state
        armies = pool_size(self.tables, state, seat, spec.strength)
        fleets = wanted[: state.supply.get("counters", 0)]
        capital = spec.capital and state.supply.get("capitals_and_cities", 0) > 0
        ctx.emit(
            ev.TurnBegan(
                rule=rule("epoch.call-order"),
                cites=(
                    rule("empires.card"),
                    rule("turn.army-pool"),
                    rule("turn.capital"),
                    rule("turn.fleets"),
                ),
                seat=seat,
                empire=spec.id,
                armies=armies,
                capital=capital,
                fleets=fleets,
            )
        )
        if NAVAL_CONTROL in ctx.state.options:
            self.fight_for_seas(ctx, seat)

    def reclaim_fleets(self, ctx: Ctx, wanted: int) -> None:
        """Fleets with armies leave the board, the oldest epoch's first, until the Active
        Empire has its fleet counters (ah2001.option.naval-control reading: within an epoch,
        in the seas' alphabetical order)."""
        missing = wanted - ctx.state.supply.get("counters", 0)
        if missing <= 0 or not ctx.state.seas:
            return
        oldest = sorted(ctx.state.seas, key=lambda w: (ctx.state.seas[w].figure, w))
        ctx.emit(
            ev.FleetsReclaimed(rule=rule("option.naval-control"), waters=tuple(oldest[:missing]))
        )

    def fight_for_seas(self, ctx: Ctx, seat: int) -> None:
        """Each fleet placed in a sea another player's fleet holds fights it once, two dice
        against one, before any expansion; a tie sinks both."""
        turn = ctx.state.turn
        assert turn is not None
        for water in turn.fleets:
            held = ctx.state.seas.get(water)
            if held is None or held.owner == seat:
                continue
            attack = ctx.chance.dice(2)
            defence = ctx.chance.dice(1)
            a, d = max(attack), max(defence)
            result = "defender_lost" if a > d else "attacker_lost" if a < d else "both_lost"
            ctx.emit(
                ev.NavalBattleFought(
                    rule=rule("option.naval-control"),
                    cites=(rule("combat.dice"), rule("combat.tie")),
                    seat=seat,
                    water=water,
                    defender=held.owner,
                    attack_dice=attack,
                    defence_dice=defence,
                    result=result,
                    draws=ctx.chance.take_draws(),
                )
            )

    def place_start(self, ctx: Ctx, seat: int, start_land: str) -> None:
        """ah2001.turn.start-land: the capital and first army; an army and fort there go."""
        state = ctx.state
        assert state.turn is not None
        capital = state.turn.capital
        cell = ctx.state.land(start_land)
        if cell.owner is not None or cell.buildings & {"fort", "city", "capital"}:
            ctx.emit(
                ev.StartLandCleared(
                    rule=rule("turn.start-land"),
                    land=start_land,
                    owner=cell.owner,
                    fort="fort" in cell.buildings,
                )
            )
        ctx.emit(
            ev.ArmyPlaced(
                rule=rule("turn.start-land"),
                seat=seat,
                land=start_land,
                figure=state.turn.figure or state.epoch,
                capital=capital,
            )
        )

    def monument_step(self, ctx: Ctx) -> bool:
        turn = ctx.state.turn
        assert turn is not None
        if turn.monuments_due <= 0 or ctx.state.supply.get("monuments", 0) <= 0:
            if SIMULTANEOUS in ctx.state.options:
                ctx.emit(ev.MonumentsDone(rule=rule("variant.monuments-at-once"), seat=turn.seat))
            else:
                self.score_turn(ctx)
            return True
        sites = monument_sites(self.tables, ctx.state)
        if not sites:
            ctx.emit(
                ev.MonumentsUnbuilt(
                    rule=rule("monuments.supply"), seat=turn.seat, count=turn.monuments_due
                )
            )
            return True
        if len(sites) == 1:
            ctx.emit(
                ev.MonumentBuilt(rule=rule("monuments.placement"), seat=turn.seat, land=sites[0])
            )
            return True
        return False

    def points_now(self, state: Ah2001State, seat: int) -> dict[str, int]:
        """What `seat` scores now for all its pieces (ah2001.scoring.*), held seas included."""
        board = self.tables.board
        armies = {land: cell.owner for land, cell in state.lands.items() if cell.owner is not None}
        points = turn_score(
            self.tables.victory_points,
            state.epoch,
            seat,
            armies,
            {land: board.lands[land].area for land in armies},
            {land: cell.buildings for land, cell in state.lands.items()},
        )
        seas = sum(1 for held in state.seas.values() if held.owner == seat)
        if seas:
            points = {**points, "seas": seas}
        return points

    def levels_cited(self, state: Ah2001State, seat: int) -> tuple[str, ...]:
        """The levels of control `seat` scores now (ah2001.scoring.presence, .dominance,
        .control), each cited once, weakest first."""
        board = self.tables.board
        armies = {land: cell.owner for land, cell in state.lands.items() if cell.owner is not None}
        levels = set(
            area_levels(seat, armies, {land: board.lands[land].area for land in armies}).values()
        )
        return tuple(rule(LEVEL_RULES[level]) for level in sorted(levels))

    def score_turn(self, ctx: Ctx) -> None:
        turn = ctx.state.turn
        assert turn is not None
        points = self.points_now(ctx.state, turn.seat)
        before = ctx.state.players[turn.seat].points
        lap = (before + sum(points.values())) // 100 > before // 100
        ctx.emit(
            ev.TurnScored(
                rule=rule("scoring.when"),
                cites=(
                    rule("turn.clean-up"),
                    rule("scoring.table"),
                    *self.levels_cited(ctx.state, turn.seat),
                    rule("scoring.buildings"),
                    *((rule("scoring.track"),) if lap else ()),
                ),
                seat=turn.seat,
                points=points,
                total=sum(points.values()),
            )
        )

    def end_epoch(self, ctx: Ctx) -> None:
        state = ctx.state
        if NO_PRE_EMINENCE not in state.options and state.markers:
            leader = pre_eminent([p.points for p in state.players])
            if leader is not None:
                ctx.emit(
                    ev.PreEminenceTaken(
                        rule=rule("between.pre-eminence"),
                        seat=leader,
                        marker=state.markers[0],
                        visibility=private_to(redacted={"seat": leader}),
                    )
                )
        if ctx.state.epoch < 7:
            order = draw_order(records(self.tables, ctx.state))
            ctx.emit(
                ev.EpochBegan(
                    rule=rule("between.draw-order"), epoch=ctx.state.epoch + 1, order=order
                )
            )
            return
        final = records(self.tables, ctx.state)
        markers = tuple(sum(p.pre_eminence) for p in ctx.state.players)
        totals = tuple(r.points + m for r, m in zip(final, markers, strict=True))
        ranked = final_ranking(
            [
                Record(t, r.strengths, r.called, m)
                for t, r, m in zip(totals, final, markers, strict=True)
            ]
        )
        ctx.emit(
            ev.GameEnded(
                rule=rule("winning.most-points"),
                cites=(
                    rule("winning.pre-eminence"),
                    rule("winning.tie.strength"),
                    rule("winning.tie.pre-eminence"),
                    rule("winning.tie.last-epoch"),
                ),
                markers=markers,
                points=totals,
                ranking=ranked,
            )
        )

    # simultaneous empires (the variant: domain.hotw.editions.ah2001.simultaneous)

    def round_actions(self, state: Ah2001State, seat: int) -> Iterator[Command]:
        return sim.round_actions(self, state, seat)

    def round_step(self, ctx: Ctx) -> bool:
        return sim.round_step(self, ctx)

    def next_round(self, ctx: Ctx) -> bool:
        return sim.next_round(self, ctx)

    def monuments_at_once(self, ctx: Ctx) -> None:
        sim.monuments_at_once(self, ctx)

    def held_by_turn(self, state: Ah2001State, land: str) -> bool:
        return sim.held_by_turn(state, land)

    def holds_any(self, state: Ah2001State) -> bool:
        return sim.holds_any(state)

    def do_end_round(self, ctx: Ctx, seat: int, command: Command) -> None:
        sim.end_round(ctx)

    def do_terminate_empire(self, ctx: Ctx, seat: int, command: Command) -> None:
        sim.terminate(self, ctx, sim.active_slot(ctx.state))

    # folding and reading

    def evolve(self, state: Ah2001State, event: Event) -> Ah2001State:
        return ev.evolve(self.tables, state, event)

    def is_over(self, state: Ah2001State) -> bool:
        return state.stage is Stage.OVER

    def event_types(self) -> tuple[type[Event], ...]:
        return ev.event_types()

    def command_schemas(self) -> tuple[CommandSpec, ...]:
        lands = tuple(sorted(self.tables.board.lands))
        waters = tuple(sorted(self.tables.board.waters))
        cards = tuple(sorted(c.id for c in self.tables.events))
        return (
            CommandSpec(
                "build_fort",
                "Exchange a pool army for a fort.",
                (ArgSpec("land", str, "A land id.", allowed=lands),),
            ),
            CommandSpec(
                "build_monument",
                "Place a monument earned this turn.",
                (ArgSpec("land", str, "A land id.", allowed=lands),),
            ),
            CommandSpec("end_expansion", "Stop expanding."),
            CommandSpec("begin_expansion", "Play no more Event cards: place the first army."),
            CommandSpec(
                "play_event",
                "Play an Event card from the hand before the first army.",
                (ArgSpec("card", str, "An Event card id.", allowed=cards),),
            ),
            CommandSpec(
                "reallocate_fleet",
                "Reallocation: turn a fleet into a coin.",
                (ArgSpec("water", str, "A sea or ocean id.", allowed=waters),),
            ),
            CommandSpec(
                "man_fleet",
                "Naval Control option: put an army from the pool on the Empire's fleet in a sea; "
                "the fleet stays after the turn and scores the sea.",
                (ArgSpec("water", str, "A sea id.", allowed=waters),),
            ),
            CommandSpec(
                "choose_target",
                "Name a land, area or sea for the Event card being played.",
                (ArgSpec("target", str, "A land, area or sea id."),),
            ),
            CommandSpec("stop_targeting", "Name no more targets for the card (`up to` cards)."),
            CommandSpec(
                "recover_army", "Spend a coin: an army lost in combat returns to the pool."
            ),
            CommandSpec("buy_fort", "Spend a coin on a fort for the pool."),
            CommandSpec("keep_empire", "Keep the Empire card drawn."),
            CommandSpec(
                "end_round",
                "Simultaneous empires: end this Empire's start, or its move in this round.",
            ),
            CommandSpec(
                "terminate_empire",
                "Simultaneous empires: end this Empire's expansion and count the epoch's points.",
            ),
            CommandSpec(
                "pass_empire",
                "Give the Empire card drawn to a player without one.",
                (ArgSpec("to", int, "A seat.", minimum=0),),
            ),
            CommandSpec(
                "place_army",
                "Place an army from the pool (combat if another player's army is there).",
                (
                    ArgSpec("land", str, "A land id.", allowed=lands),
                    ArgSpec(
                        "via",
                        str,
                        "`land` (from an adjacent land) or `sea` (over fleets).",
                        allowed=("land", "sea"),
                    ),
                ),
            ),
        )

    def view(self, state: Ah2001State, viewer: int | None) -> dict[str, Any]:
        drawing = state.drawing
        handed_out = state.stage is not Stage.DRAWING
        return {
            "epoch": state.epoch,
            "stage": state.stage.value,
            "players": [
                {
                    "seat": seat,
                    "name": p.name,
                    "points": p.points,
                    "hand": list(p.hand) if seat == viewer else None,
                    "hand_count": len(p.hand),
                    "empires": list(p.empires),
                    "pre_eminence_markers": len(p.pre_eminence),
                    "pre_eminence": sum(p.pre_eminence) if state.stage is Stage.OVER else None,
                }
                for seat, p in enumerate(state.players)
            ],
            "lands": {
                land: {
                    "owner": c.owner,
                    "figure": c.figure,
                    "armies": c.armies if c.owner is not None else 0,
                    "buildings": sorted(c.buildings),
                }
                for land, c in sorted(state.lands.items())
            },
            "drawing": None
            if drawing is None
            else {
                "order": list(drawing.order),
                "position": drawing.position,
                "cards_left": len(drawing.deck),
                "drawn": drawing.drawn if viewer == drawer(state) else None,
                "holding": sorted(set(drawing.holders.values())),
            },
            "my_empire": next(
                (card for card, seat in state.holders.items() if seat == viewer and handed_out),
                None,
            ),
            "turn": None
            if state.turn is None
            else {
                "seat": state.turn.seat,
                "empire": state.turn.empire,
                "pool": state.turn.pool,
                "fleets": list(state.turn.fleets),
                "lands": list(state.turn.lands),
                "monuments_due": state.turn.monuments_due,
                "card_empire": state.turn.card,
                "pending": state.turn.pending,
                "picks": list(state.turn.picks),
            },
            "seas": {
                water: {"owner": held.owner, "figure": held.figure}
                for water, held in sorted(state.seas.items())
            },
            "empires": [
                {
                    "seat": t.seat,
                    "empire": t.empire,
                    "card_empire": t.card,
                    "pool": t.pool,
                    "started": t.started,
                    "terminated": t.terminated,
                }
                for t in state.parked
            ],
            "options": sorted(state.options),
            "supply": dict(state.supply),
            "markers_left": len(state.markers),
            "awaiting": sorted(self.awaited_seats(state)),
            "result": None if state.result is None else [list(g) for g in state.result],
        }

    def strategy(self) -> Any:
        from domain.hotw.editions.ah2001.strategy import Ah2001Strategy

        return Ah2001Strategy(self)

    def names(self) -> Mapping[str, str]:
        known: Mapping[str, str] | None = getattr(self, "_ah_names", None)
        if known is None:
            tables = self.tables
            found = {land.id: land.name for land in tables.board.lands.values()}
            found |= {water.id: water.name for water in tables.board.waters.values()}
            found |= {
                land.area: land.area.replace("-", " ").title()
                for land in tables.board.lands.values()
                if land.area
            }
            found |= {empire.id: empire.name for empire in tables.empires}
            found |= {empire.card: empire.name for empire in tables.empires}
            found |= {card.id: card.name for card in tables.events}
            known = self._ah_names = found
        return known

    def card_texts(self) -> Mapping[str, str]:
        names = self.names()
        texts: dict[str, str] = {}
        for e in self.tables.empires:
            start = names.get(e.start_land, e.start_land)
            texts[e.card] = (
                f"Empire of Epoch {e.epoch}: {e.name}, strength {e.strength}, starts in {start}"
                + (", with a capital" if e.capital else "")
                + (f", leader {e.leader}" if e.leader else "")
            )
        for c in self.tables.events:
            deck = "Greater" if c.deck == "greater" else "Lesser"
            epochs = sorted(c.epochs)
            when = (
                "any Epoch"
                if len(epochs) == 7
                else f"Epoch {epochs[0]}"
                if len(epochs) == 1
                else f"Epochs {epochs[0]} to {epochs[-1]}"
            )
            kind = c.kind.replace("_", " ").replace("-", " ")
            texts[c.id] = f"{deck} Event ({kind}), played in {when}" + (
                ", before the first army" if c.before_first_army else ""
            )
        return texts

    def draw_board(self, state: Ah2001State, viewer: int | None) -> str:
        from domain.hotw.editions.ah2001.drawing import table_svg

        return table_svg(self.tables.board, self.view(state, viewer))

    def summary(self, state: Ah2001State) -> dict[str, Any]:
        return {
            "epoch": state.epoch,
            "stage": state.stage.value,
            "points": [p.points for p in state.players],
            "awaiting": sorted(self.awaited_seats(state)),
        }

    def result(self, state: Ah2001State) -> dict[str, Any]:
        """Final points (pre-eminence added) and the ranking with the values that broke ties;
        before the end, the standing as it would be now."""
        standing = records(self.tables, state)
        ranking = state.result or final_ranking(standing)
        scores = [p.points for p in state.players]
        rows = []
        place = 1
        for group in ranking:
            for seat in group:
                rows.append(
                    {
                        "seat": seat,
                        "place": place,
                        "score": scores[seat],
                        "tie_break": {
                            "combined_strength": sum(standing[seat].strengths),
                            "pre_eminence": standing[seat].pre_eminence,
                            "epoch_seven_strength": (standing[seat].strengths or (0,))[-1],
                        },
                    }
                )
            place += len(group)
        return {
            "scores": scores,
            "ranking": rows,
            "tie_breaks": [
                "most Victory Points (pre-eminence markers added)",
                "lower combined strength of the seven Empires",
                "more pre-eminence points",
                "lower strength in Epoch VII",
            ],
            "details": {"final": state.result is not None, "winners": list(ranking[0])},
        }

    def encode_state(self, state: Ah2001State) -> Any:
        return codec.encode(state)

    def decode_state(self, data: Any) -> Ah2001State:
        decoded: Ah2001State = codec.decode(Ah2001State, data)
        return decoded
