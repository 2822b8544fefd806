"""A Brief History of the World as a kernel Ruleset: setup, Organisation and Allocation (sealed,
simultaneous choices of Empire and Event cards), the Empire turns (establishing, expansion,
invasion with the Invasion dial, overruns, surrender, reduction, forts, monuments, Features,
Event cards and their Event Empires, reorganising, collecting gold), the Conclusion (the Gold
track's stacks, Bonus tokens) and the end. Every event cites its rule (`brief.*`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.catalogue import RulesCatalogue
from domain.core.chance import Chance
from domain.core.errors import IllegalAction, RuleViolation
from domain.core.folds import Working
from domain.core.messages import Command, Event, private_to
from domain.core.narration import SEAT_KEYS, SEATS_KEYS, Namer, action_words, listed, plain_words
from domain.core.ruleset import ArgSpec, CommandSpec, Ruleset, Setup
from domain.core.turns import Sequential, Simultaneous, TurnModel, TurnTaking
from domain.hotw import codec
from domain.hotw.editions.brief2009 import events as ev
from domain.hotw.editions.brief2009.gold import collection, separated
from domain.hotw.editions.brief2009.invasion import (
    attack_dice,
    defence_dice,
    invasion_points,
    points_needed,
    reduce,
)
from domain.hotw.editions.brief2009.model import (
    BriefState,
    Colour,
    Force,
    Phase,
    Player,
    Stage,
)
from domain.hotw.editions.brief2009.tables import BriefTables, EventCard
from domain.hotw.provenance import ids_in, item

if TYPE_CHECKING:
    from domain.hotw.editions.brief2009.strategy import BriefStrategy

KINDS = ("empire", "event")
NOBODY = private_to()


@dataclass(frozen=True)
class BriefPack:
    """What the ruleset is built with: the pack's tables and the rules catalogue."""

    tables: BriefTables
    rules: RulesCatalogue
    ruleset: str = "brief-2009"


def rule(key: str) -> str:
    return f"brief.{key}"


FEATURE_RULES = {
    "fear": "features.fear",
    "atlantic-crossing": "features.atlantic-crossing",
    "preserve-monuments": "features.france",
    "influence": "features.united-states",
}


def feature_rule(feature: str) -> str:
    return rule(FEATURE_RULES[feature])


class Ctx(Working[BriefTables, BriefState]):
    """The decide-side working state of one command (`Working`)."""

    folds = ev.FOLDS


def colour_count(players: int) -> int:
    """brief.two-player.colours: two players take two colours each."""
    return players if players >= 3 else players * 2


def by_gold(state: BriefState, richest_first: bool) -> tuple[int, ...]:
    """The colours in gold order (after the Conclusion no two share a space; colour order
    settles any tie)."""
    sign = -1 if richest_first else 1
    return tuple(sorted(range(len(state.colours)), key=lambda c: (sign * state.colours[c].gold, c)))


# --- the turn models ---------------------------------------------------------------------------


def _choosers(state: BriefState) -> set[int]:
    allocation = state.allocation
    if allocation is None or state.stage is not Stage.ALLOCATING:
        return set()
    return {state.owner(allocation.picker(kind)) for kind in KINDS}


def _sealed(state: BriefState) -> Mapping[int, tuple[str, ...]]:
    """The seats whose every choice of this round is sealed (the middle player makes two)."""
    allocation = state.allocation
    if allocation is None:
        return {}
    done: dict[int, tuple[str, ...]] = {}
    for seat in _choosers(state):
        owed = [k for k in KINDS if state.owner(allocation.picker(k)) == seat]
        if all(k in allocation.chosen for k in owed):
            done[seat] = tuple(owed)
    return done


def _round(state: BriefState) -> tuple[int, int]:
    return (state.epoch, state.allocation.round if state.allocation is not None else -1)


def _turn_seat(state: BriefState) -> int | None:
    if state.stage is Stage.TURNS and state.turn is not None:
        return state.owner(state.turn.colour)
    return None


def _bonus_seat(state: BriefState) -> int | None:
    bonus = state.bonus
    if state.stage is Stage.BONUS and bonus is not None and bonus.position < len(bonus.order):
        return state.owner(bonus.order[bonus.position])
    return None


def _turn_key(state: BriefState) -> tuple[int, int, str]:
    return (state.epoch, state.call_index, state.stage.value)


SELECTION: Simultaneous[BriefState] = Simultaneous(
    seats=_choosers, sealed=_sealed, order=lambda s: sorted(_choosers(s)), round=_round
)
"""brief.organisation.simultaneous: the round's two choosers seal their choices at once; the
last choice passes the cards on."""
TURNS: Sequential[BriefState] = Sequential(_turn_seat, turn=_turn_key)
BONUS: Sequential[BriefState] = Sequential(_bonus_seat, turn=_turn_key)


# --- the ruleset ---------------------------------------------------------------------------


class BriefRuleset(TurnTaking[BriefState], Ruleset[BriefState]):
    pack: BriefPack
    view_schema = "schemas.brief_view:VIEW"

    @property
    def tables(self) -> BriefTables:
        return self.pack.tables

    # creation

    def initial_state(self, setup: Setup) -> BriefState:
        numbers = self.tables.numbers
        colours = colour_count(len(setup.players))
        armies = numbers.supply["armies_per_colour"]
        return BriefState(
            epoch=0,
            stage=Stage.ALLOCATING,
            players=tuple(Player(name) for name in setup.players),
            colours=tuple(
                Colour(seat=c % len(setup.players), gold=0, supply=armies) for c in range(colours)
            ),
            supply={k: v for k, v in numbers.supply.items() if k != "armies_per_colour"},
        )

    def set_up(self, state: BriefState, chance: Chance) -> list[Event]:
        ctx = Ctx(self.tables, state, chance)
        count = len(state.colours)
        first = chance.below(count)
        gold = [0] * count
        for place in range(count):
            gold[(first + place) % count] = place + 1
        ctx.emit(
            ev.StartingPlayerDrawn(
                rule=rule("setup.starting-player"),
                cites=(
                    rule("setup.gold-markers"),
                    *((rule("two-player.colours"),) if count > len(state.players) else ()),
                ),
                first=first,
                gold=tuple(gold),
                draws=chance.take_draws(),
            )
        )
        starters = tuple(self.tables.starter(kind).id for kind in ("leader", "weaponry"))
        ctx.emit(ev.StarterCardsDealt(rule=rule("setup.leader-weaponry"), cards=starters))
        tokens = chance.shuffled([t.id for t in self.tables.bonus_tokens])
        per = self.tables.numbers.bonus_per_epoch
        spaces = tuple(tuple(tokens[i * per : (i + 1) * per]) for i in range(len(tokens) // per))
        ctx.emit(
            ev.BonusTokensShuffled(
                rule=rule("setup.bonus-tokens"),
                cites=(rule("setup.hidden"),),
                spaces=spaces,
                visibility=private_to(redacted={"count": len(tokens)}),
                draws=chance.take_draws(),
            )
        )
        self.begin_epoch(ctx, 1)
        self.proceed(ctx)
        return ctx.events

    # whose move

    def turn_model(self, state: BriefState) -> TurnModel[BriefState] | None:
        if state.stage is Stage.ALLOCATING:
            return SELECTION
        if state.stage is Stage.TURNS:
            return TURNS
        if state.stage is Stage.BONUS:
            return BONUS
        return None

    def legal_actions(self, state: BriefState, seat: int) -> Iterable[Command]:
        return list(self.listed(state, seat))

    def is_legal(self, state: BriefState, seat: int, command: Command) -> bool:
        return command in self.listed(state, seat)

    def listed(self, state: BriefState, seat: int) -> Iterator[Command]:
        if seat not in self.awaited_seats(state):
            return
        if state.stage is Stage.ALLOCATING:
            allocation = state.allocation
            assert allocation is not None
            for kind in KINDS:
                if state.owner(allocation.picker(kind)) == seat and kind not in allocation.chosen:
                    for card in sorted(set(allocation.pools.get(kind, ()))):
                        yield Command.of(f"select_{kind}_card", card=card)
            return
        if state.stage is Stage.BONUS:
            assert state.bonus is not None
            for token in sorted(set(state.bonus.offered)):
                yield Command.of("keep_bonus_token", token=token)
            return
        turn = state.turn
        assert turn is not None
        force = turn.active
        if force is not None and force.stopped:
            for land in self.monument_sites(state):
                yield Command.of("build_monument", land=land)
            return
        if turn.invasion is not None:
            assert force is not None
            if force.dial < self.tables.numbers.dial_max and force.array > 0:
                yield Command.of("continue_invasion")
            yield Command.of("abandon_invasion")
            return
        if turn.overrun is not None:
            for land, _ in self.overrun_targets(state):
                yield Command.of("overrun", land=land)
            yield Command.of("end_overrun")
            return
        for card, target in self.playable(state, seat):
            yield Command.of("play_event", card=card, target=target)
        if force is None:
            yield Command.of("establish")
            return
        if force.array > 0:
            for land, via, _ in self.expansion_targets(state):
                yield Command.of("expand", land=land, via=via)
            if state.supply.get("forts", 0) > 0:
                for land in force.lands:
                    if "fort" not in state.land(land).buildings:
                        yield Command.of("build_fort", land=land)
        yield Command.of("end_expansion")

    # --- what the rules allow now ---------------------------------------------------------

    def sources(self, state: BriefState) -> list[str]:
        """The lands the active Empire expands from (brief.features.united-states: not from
        its influence areas unless Astronomy was played)."""
        turn = state.turn
        assert turn is not None and turn.active is not None
        force = turn.active
        lands = list(force.lands)
        if force.feature == "influence" and not turn.astronomy:
            home = self.tables.features["influence"].effect["home_area"]
            lands = [land for land in lands if self.tables.board.lands[land].area == home]
        return lands

    def expansion_targets(self, state: BriefState) -> Iterator[tuple[str, str, bool]]:
        """(land, via, Atlantic crossing) for every land the active Empire may expand into:
        next to its armies (straits included) or across its fleets' waters; never a barren
        land or one where its colour stands (brief.expand.*)."""
        turn = state.turn
        assert turn is not None and turn.active is not None
        force = turn.active
        board = self.tables.board
        sources = self.sources(state)
        overland: set[str] = set()
        for land in sources:
            overland |= board.adjacent(land)
        waters = board.navigation(turn.fleets)
        by_sea = set(board.fleet_reach(sources, waters)) if waters else set()
        crossing: set[str] = set()
        if force.feature == "atlantic-crossing":
            effect = self.tables.features["atlantic-crossing"].effect
            without = set(board.fleet_reach(sources, waters - {str(effect["ocean"])}))
            crossing = by_sea - without
            if turn.crossings >= int(effect["crossings"]):
                by_sea, crossing = without, set()
        seat = state.owner(turn.colour)
        for land in sorted(overland | by_sea):
            cell = state.land(land)
            if board.lands[land].barren or (cell.colour == turn.colour and cell.standing):
                continue
            hostile = cell.colour is not None and state.owner(cell.colour) != seat
            if hostile and land in overland:
                yield land, "land", False
            if hostile and land in by_sea:
                yield land, "sea", land in crossing
            if not hostile:
                by_land = land in overland
                yield land, "land" if by_land else "sea", not by_land and land in crossing

    def overrun_targets(self, state: BriefState) -> list[tuple[str, int]]:
        """brief.overrun.*: lands bordering the land captured last (no strait, no sea), held
        by the same defender, without a fort, that the points left pay for."""
        turn = state.turn
        assert turn is not None and turn.overrun is not None and turn.active is not None
        if turn.active.array <= 0:
            return []
        overrun = turn.overrun
        board = self.tables.board
        found = []
        for land in sorted(board.lands[overrun.land].neighbours):
            cell = state.land(land)
            if cell.colour != overrun.defender or "fort" in cell.buildings:
                continue
            if board.lands[land].barren:
                continue
            cost = points_needed(self.tables.numbers, board.lands[land].terrain)
            if cost <= overrun.points:
                found.append((land, cost))
        return found

    def monument_sites(self, state: BriefState) -> list[str]:
        """brief.monuments.priority: lands of the active Empire without a monument - those
        with a capital, else a city, else a resource symbol."""
        turn = state.turn
        assert turn is not None and turn.active is not None
        if state.supply.get("monuments", 0) <= 0:
            return []
        lands = [
            land
            for land in turn.active.lands
            if state.land(land).colour == turn.colour
            and "monument" not in state.land(land).buildings
        ]
        for tier in (
            [land for land in lands if "capital" in state.land(land).buildings],
            [land for land in lands if "city" in state.land(land).buildings],
            [land for land in lands if self.tables.board.lands[land].resource],
        ):
            if tier:
                return sorted(tier)
        return []

    def playable(self, state: BriefState, seat: int) -> Iterator[tuple[str, str]]:
        """(card, target) for each Event card the player may play now (brief.events.*): one
        active at a time, not mid-invasion or during overruns, in its Epoch (or later for
        black cards and Israel), red ones before the Empire is established, with gold enough."""
        turn = state.turn
        assert turn is not None
        force = turn.active
        if force is not None and force.event:
            return
        gold = state.colours[turn.colour].gold
        for card_id in sorted(set(state.players[seat].hand)):
            card = self.tables.card(card_id)
            if not card.playable_in(state.epoch) or card.price > gold:
                continue
            if card.at_turn_start and turn.phase is not Phase.OPENING:
                continue
            for target in self.card_targets(state, card):
                yield card_id, target

    def card_targets(self, state: BriefState, card: EventCard) -> list[str]:
        turn = state.turn
        assert turn is not None
        board = self.tables.board
        seat = state.owner(turn.colour)
        if card.kind == "leader":
            return [] if turn.leader else [""]
        if card.kind == "weaponry":
            return [] if turn.weaponry else [""]
        if card.kind == "astronomy":
            if state.supply.get("fleets", 0) <= 0:
                return []
            return sorted(w for w in board.waters if w not in turn.fleets)
        if card.raises_empire and state.colours[turn.colour].supply <= 0:
            return []  # brief.events.supply-armies: no army to raise it with
        if card.kind in ("kingdom", "minor-empire"):
            assert card.land is not None
            cell = state.land(card.land)
            return [] if (cell.colour == turn.colour and cell.standing) else [card.land]
        if card.kind == "barbarians":
            return sorted(
                land.id
                for land in board.lands.values()
                if land.barren
                and not (state.land(land.id).colour == turn.colour and state.land(land.id).standing)
            )
        if card.kind == "civil-war":
            return sorted(
                land
                for land, cell in state.lands.items()
                if cell.colour is not None
                and state.owner(cell.colour) != seat
                and not cell.standing
                and not cell.buildings & {"capital", "fort"}
                and not board.lands[land].barren
            )
        return []

    def refusal(self, state: BriefState, seat: int, command: Command) -> RuleViolation:
        why = {
            "select_empire_card": (
                "choose one of the Empire cards in front of you",
                "organisation.empire-cards",
            ),
            "select_event_card": (
                "choose one of the Event cards in front of you",
                "organisation.event-cards",
            ),
            "establish": ("the Empire is established once, after any red cards", "establish.array"),
            "play_event": (
                "an Event card is played in its Epoch (black: or later; red: before establishing), "
                "with gold enough, one active at a time, never mid-invasion or during overruns",
                "events.one-active",
            ),
            "expand": (
                "an Array army goes next to a standing army of the Empire or across its fleets, "
                "never into a barren land or where its colour stands",
                "expand.adjacent",
            ),
            "continue_invasion": (
                "the dial goes to +3 at most, each step an Array army",
                "invasion.dial-max",
            ),
            "abandon_invasion": ("no invasion is waiting", "invasion.abandon"),
            "overrun": (
                "an overrun takes a land of the same defender next to the last one, without a "
                "fort, that the points left pay for",
                "overrun.same-defender",
            ),
            "end_overrun": ("no overrun is under way", "overrun.points"),
            "build_fort": (
                "a fort costs an Array army, in a land of the Empire without one",
                "forts.build",
            ),
            "end_expansion": ("the active Empire has already stopped", "expand.end"),
            "build_monument": ("a monument goes where the priority says", "monuments.priority"),
            "keep_bonus_token": (
                "keep one of the Bonus tokens in front of you",
                "conclusion.bonus-first",
            ),
        }
        message, key = why.get(
            command.type, (f"{command.type!r} is not a legal action now", "table.procedure")
        )
        key = self.refusal_rule(state, command) or key
        return IllegalAction(message, rule(key), {"command": command.as_dict()})

    def refusal_rule(self, state: BriefState, command: Command) -> str | None:
        """The rule a refused expansion or Event card breaks, where one says more."""
        turn = state.turn
        if state.stage is not Stage.TURNS or turn is None:
            return None
        if command.type == "play_event":
            if turn.invasion is not None or turn.overrun is not None:
                return "events.not-mid-invasion"
            if turn.active is not None and turn.active.event:
                return "events.one-active"
            card = self.tables.events_by_id.get(str(command.arg("card")))
            if card is not None and card.at_turn_start and turn.phase is Phase.EXPANDING:
                return "events.red"
        if command.type == "expand":
            land = self.tables.board.lands.get(str(command.arg("land")))
            if land is not None and land.barren:
                return "expand.barren"
            cell = state.land(land.id) if land is not None else None
            if cell is not None and cell.colour == turn.colour and cell.standing:
                return "expand.one-army"
        return None

    # --- deciding ---------------------------------------------------------------------------

    def decide(self, state: BriefState, seat: int, command: Command, chance: Chance) -> list[Event]:
        ctx = Ctx(self.tables, state, chance)
        getattr(self, f"do_{command.type}")(ctx, seat, command)
        self.proceed(ctx)
        return ctx.events

    def do_select_empire_card(self, ctx: Ctx, seat: int, command: Command) -> None:
        self.choose(ctx, seat, "empire", str(command.arg("card")))

    def do_select_event_card(self, ctx: Ctx, seat: int, command: Command) -> None:
        self.choose(ctx, seat, "event", str(command.arg("card")))

    def choose(self, ctx: Ctx, seat: int, kind: str, card: str) -> None:
        allocation = ctx.state.allocation
        assert allocation is not None
        colour = allocation.picker(kind)
        middle = allocation.picker("empire") == allocation.picker("event")
        ctx.emit(
            ev.CardChosen(
                rule=rule(f"organisation.{kind}-cards"),
                cites=(
                    rule("organisation.simultaneous"),
                    *((rule("organisation.middle-player"),) if middle else ()),
                ),
                seat=seat,
                colour=colour,
                kind=kind,
                card=card,
                visibility=SELECTION.sealed_visibility(seat, colour=colour, kind=kind),
            )
        )

    def do_keep_bonus_token(self, ctx: Ctx, seat: int, command: Command) -> None:
        bonus = ctx.state.bonus
        assert bonus is not None
        colour = bonus.order[bonus.position]
        key = "conclusion.bonus-first" if bonus.position == 0 else "conclusion.bonus-second"
        self.keep_token(ctx, colour, str(command.arg("token")), key)

    def keep_token(self, ctx: Ctx, colour: int, token: str, key: str) -> None:
        seat = ctx.state.owner(colour)
        ctx.emit(
            ev.BonusTokenKept(
                rule=rule(key),
                cites=(rule("conclusion.hidden"),),
                colour=colour,
                token=token,
                visibility=private_to(seat, redacted={"colour": colour}),
            )
        )
        bonus = ctx.state.bonus
        assert bonus is not None
        if bonus.offered and bonus.position < len(bonus.order):
            self.offer(ctx, bonus.order[bonus.position], bonus.offered)

    def offer(self, ctx: Ctx, colour: int, tokens: tuple[str, ...]) -> None:
        seat = ctx.state.owner(colour)
        first = ctx.state.bonus is not None and ctx.state.bonus.position == 0
        ctx.emit(
            ev.BonusTokensOffered(
                rule=rule("conclusion.bonus-first" if first else "conclusion.bonus-second"),
                colour=colour,
                tokens=tokens,
                visibility=private_to(seat, redacted={"colour": colour, "count": len(tokens)}),
            )
        )

    def do_establish(self, ctx: Ctx, seat: int, command: Command) -> None:
        state = ctx.state
        turn = state.turn
        assert turn is not None
        spec = self.tables.empire(turn.empire)
        cell = state.land(spec.start_land)
        removed = tuple(sorted(cell.buildings))
        available = state.colours[turn.colour].supply + (1 if cell.colour == turn.colour else 0)
        armies = min(spec.strength, available)
        counters = state.supply.get("capitals_and_cities", 0)
        counters += sum(b in ("capital", "city") for b in removed)
        fleets = spec.fleets[: state.supply.get("fleets", 0)]
        ctx.emit(
            ev.EmpireEstablished(
                rule=rule("establish.array"),
                cites=(
                    rule("turns.steps"),
                    rule("establish.start-army"),
                    rule("establish.clear-start-land"),
                    *((rule("establish.capital"),) if spec.capital else ()),
                    *((rule("establish.fleets"),) if fleets else ()),
                    *(
                        (
                            rule("establish.feature"),
                            rule("features.use"),
                            feature_rule(spec.feature),
                        )
                        if spec.feature
                        else ()
                    ),
                ),
                colour=turn.colour,
                empire=spec.id,
                land=spec.start_land,
                removed_colour=cell.colour,
                removed=removed,
                armies=armies,
                capital=spec.capital and counters > 0 and armies > 0,
                fleets=fleets,
            )
        )

    def do_play_event(self, ctx: Ctx, seat: int, command: Command) -> None:
        state = ctx.state
        turn = state.turn
        assert turn is not None
        card = self.tables.card(str(command.arg("card")))
        target = str(command.arg("target"))
        key = "events.israel" if card.id == "israel" else f"events.{card.kind}"
        timing = "events.red" if card.at_turn_start else "events.black"
        ctx.emit(
            ev.EventCardPlayed(
                rule=rule(key),
                cites=(
                    rule("events.any-number"),
                    rule(timing),
                    rule("events.price"),
                    rule("events.discard"),
                ),
                seat=seat,
                colour=turn.colour,
                card=card.id,
                price=card.price,
                target=target,
            )
        )
        if card.raises_empire:
            self.raise_empire(ctx, card, target)

    def raise_empire(self, ctx: Ctx, card: EventCard, land: str) -> None:
        """brief.events.event-empire: the card's armies from the supply, one standing in its
        land, the others in its own Array."""
        state = ctx.state
        turn = state.turn
        assert turn is not None
        cell = state.land(land)
        removed = () if card.kind == "civil-war" else tuple(sorted(cell.buildings))
        available = state.colours[turn.colour].supply + (1 if cell.colour == turn.colour else 0)
        armies = min(card.armies, available)
        counters = state.supply.get("capitals_and_cities", 0)
        counters += sum(b in ("capital", "city") for b in removed)
        ctx.emit(
            ev.EventEmpireRaised(
                rule=rule("events.event-empire"),
                cites=(rule("events.supply-armies"), rule(f"events.{card.kind}")),
                colour=turn.colour,
                card=card.id,
                land=land,
                removed_colour=cell.colour,
                removed=removed,
                armies=armies,
                capital=card.capital and counters > 0 and armies > 0,
                barbarian=not card.capital,
            )
        )

    def do_expand(self, ctx: Ctx, seat: int, command: Command) -> None:
        state = ctx.state
        turn = state.turn
        assert turn is not None
        land, via = str(command.arg("land")), str(command.arg("via"))
        crossing = (land, via, True) in set(self.expansion_targets(state))
        cell = state.land(land)
        how = rule("expand.fleets" if via == "sea" else "expand.adjacent")
        cites = (rule("features.atlantic-crossing"),) if crossing else ()
        if via == "land" and self.across_strait(state, land):
            cites = (rule("expand.straits"), *cites)
        if cell.colour is None:
            ctx.emit(
                ev.ArmyExpanded(
                    rule=rule("expand.empty"),
                    cites=(how, *cites),
                    colour=turn.colour,
                    land=land,
                    via=via,
                    crossing=crossing,
                )
            )
            return
        if state.owner(cell.colour) == seat:
            two = cell.colour != turn.colour
            ctx.emit(
                ev.Surrendered(
                    rule=rule("two-player.surrender" if two else "surrender.own"),
                    cites=(how, *cites),
                    colour=turn.colour,
                    land=land,
                    from_colour=cell.colour,
                    via=via,
                    crossing=crossing,
                )
            )
            self.reduce(ctx, land, "surrender")
            return
        self.invade(ctx, land, via, continued=False, crossing=crossing)

    def across_strait(self, state: BriefState, land: str) -> bool:
        """Whether `land` is next to the active Empire only across a strait."""
        board = self.tables.board
        sources = self.sources(state)
        return not any(land in board.lands[s].neighbours for s in sources) and any(
            land in board.lands[s].straits for s in sources
        )

    def invade(self, ctx: Ctx, land: str, via: str, *, continued: bool, crossing: bool) -> None:
        """brief.invasion.*: the attacker's dice, then the defender's; the highest of each;
        points = the difference (the dial and a Leader added to the attacker); 1 point takes
        clear land, 2 mountain or forest."""
        state = ctx.state
        turn = state.turn
        assert turn is not None and turn.active is not None
        force = turn.active
        numbers = self.tables.numbers
        cell = state.land(land)
        defender = cell.colour if turn.invasion is None else turn.invasion.defender
        assert defender is not None
        by_sea = via == "sea"
        attack = ctx.chance.dice(attack_dice(numbers, by_sea=by_sea, weaponry=turn.weaponry))
        dial = force.dial + 1 if continued else force.dial
        leader = 1 if turn.leader else 0
        needed = points_needed(numbers, self.tables.board.lands[land].terrain)
        fear = 0
        if force.feature == "fear":
            fear = int(self.tables.features["fear"].effect["extra_points"])
        sure = False
        if force.feature == "atlantic-crossing" and by_sea:
            faces = self.tables.features["atlantic-crossing"].effect["sure_faces"]
            sure = max(attack) in set(faces)
        fort = "fort" in cell.buildings
        defence: tuple[int, ...] = ()
        if sure:
            points = needed
        else:
            defence = ctx.chance.dice(defence_dice(numbers, fort=fort))
            points = invasion_points(attack, defence, dial + leader)
        success = points >= needed
        terrain = "invasion.difficult" if needed > numbers.clear_points else "invasion.clear"
        cites = [rule("invasion.dice"), rule("invasion.highest-die"), rule(terrain)]
        cites += [rule("invasion.fleet-penalty")] if by_sea else []
        cites += [rule("invasion.fort")] if fort else []
        cites += [rule("invasion.continue"), rule("invasion.dial-max")] if continued else []
        cites += [rule("events.leader")] if leader else []
        cites += [rule("events.weaponry")] if turn.weaponry else []
        cites += [rule("features.fear")] if fear and success else []
        cites += [rule("features.atlantic-crossing")] if sure or crossing else []
        ctx.emit(
            ev.InvasionRolled(
                rule=rule("invasion.success-reset" if success else "invasion.points"),
                cites=tuple(cites),
                colour=turn.colour,
                land=land,
                defender=defender,
                via=via,
                continued=continued,
                crossing=crossing,
                attack=attack,
                defence=defence,
                dial=dial,
                leader=leader,
                points=points,
                needed=needed,
                fear=fear if success else 0,
                success=success,
                sure=sure,
                draws=ctx.chance.take_draws(),
            )
        )
        if success:
            self.reduce(ctx, land, "invasion")

    def reduce(self, ctx: Ctx, land: str, how: str) -> None:
        """brief.reduction.*, on taking control of `land` (`how`: invasion, overrun or
        surrender); a barbarian Empire earns gold for each reduction."""
        state = ctx.state
        turn = state.turn
        assert turn is not None and turn.active is not None
        force = turn.active
        france = self.tables.features.get("preserve-monuments")
        spare = force.feature == "preserve-monuments" or (
            france is not None and land == france.effect.get("land")
        )
        reduction = reduce(state.land(land).buildings, spare_monument=spare)
        if not reduction.reductions and not reduction.removed:
            return
        gold = 0
        if force.barbarian:
            gold = reduction.reductions * self.tables.numbers.gold["barbarian_reduction"]
        cites = [rule(k) for k in reduction.rules[1:]]
        cites += [rule("reduction.when")] if how != "invasion" else []
        cites += [rule("reduction.barbarian-gold")] if gold else []
        cites += [rule("features.france")] if spare and "monument" in reduction.buildings else []
        ctx.emit(
            ev.LandReduced(
                rule=rule(reduction.rules[0]),
                cites=tuple(cites),
                colour=turn.colour,
                land=land,
                buildings=tuple(sorted(reduction.buildings)),
                removed=reduction.removed,
                reductions=reduction.reductions,
                gold=gold,
            )
        )

    def do_continue_invasion(self, ctx: Ctx, seat: int, command: Command) -> None:
        turn = ctx.state.turn
        assert turn is not None and turn.invasion is not None
        self.invade(ctx, turn.invasion.land, turn.invasion.via, continued=True, crossing=False)

    def do_abandon_invasion(self, ctx: Ctx, seat: int, command: Command) -> None:
        turn = ctx.state.turn
        assert turn is not None and turn.invasion is not None
        ctx.emit(
            ev.InvasionAbandoned(
                rule=rule("invasion.abandon"), colour=turn.colour, land=turn.invasion.land
            )
        )

    def do_overrun(self, ctx: Ctx, seat: int, command: Command) -> None:
        turn = ctx.state.turn
        assert turn is not None and turn.overrun is not None
        land = str(command.arg("land"))
        cost = dict(self.overrun_targets(ctx.state))[land]
        ctx.emit(
            ev.LandOverrun(
                rule=rule("overrun.points"),
                cites=(
                    rule("overrun.cost"),
                    rule("overrun.same-defender"),
                    rule("overrun.adjacent"),
                    rule("overrun.no-fort"),
                ),
                colour=turn.colour,
                land=land,
                defender=turn.overrun.defender,
                cost=cost,
            )
        )
        self.reduce(ctx, land, "overrun")

    def do_end_overrun(self, ctx: Ctx, seat: int, command: Command) -> None:
        self.end_overrun(ctx)

    def end_overrun(self, ctx: Ctx) -> None:
        turn = ctx.state.turn
        assert turn is not None and turn.overrun is not None
        ctx.emit(
            ev.OverrunEnded(
                rule=rule("overrun.points"),
                cites=(rule("overrun.no-sea"), rule("overrun.no-fleet")),
                colour=turn.colour,
                unused=turn.overrun.points,
            )
        )

    def do_build_fort(self, ctx: Ctx, seat: int, command: Command) -> None:
        turn = ctx.state.turn
        assert turn is not None
        ctx.emit(
            ev.FortBuilt(
                rule=rule("forts.build"),
                cites=(rule("forts.one-per-land"), rule("forts.permanent")),
                colour=turn.colour,
                land=str(command.arg("land")),
            )
        )

    def do_end_expansion(self, ctx: Ctx, seat: int, command: Command) -> None:
        state = ctx.state
        turn = state.turn
        assert turn is not None and turn.active is not None
        force = turn.active
        board = self.tables.board
        resources = sum(
            1
            for land in force.lands
            if state.land(land).colour == turn.colour and board.lands[land].resource
        )
        ctx.emit(
            ev.ExpansionStopped(
                rule=rule("expand.end"),
                cites=(rule("monuments.count"),),
                colour=turn.colour,
                card=force.card,
                returned=force.array,
                resources=resources,
                monuments=resources // 2,
            )
        )

    def do_build_monument(self, ctx: Ctx, seat: int, command: Command) -> None:
        turn = ctx.state.turn
        assert turn is not None
        ctx.emit(
            ev.MonumentBuilt(
                rule=rule("monuments.priority"),
                cites=(rule("monuments.count"), rule("monuments.one-per-land")),
                colour=turn.colour,
                land=str(command.arg("land")),
            )
        )

    # --- running on by itself ---------------------------------------------------------------

    def proceed(self, ctx: Ctx) -> None:
        for _ in range(10_000):
            if not self.step(ctx):
                return
        raise RuntimeError("the rules did not come to rest")

    def step(self, ctx: Ctx) -> bool:
        """One thing that needs nobody's choice; False when a seat must act or the game is over."""
        state = ctx.state
        if state.stage is Stage.ALLOCATING:
            return self.allocation_step(ctx)
        if state.stage is Stage.BONUS:
            return self.bonus_step(ctx)
        if state.stage is not Stage.TURNS:
            return False
        turn = state.turn
        if turn is None:
            self.call_next(ctx)
            return True
        force = turn.active
        if turn.overrun is not None and not self.overrun_targets(state):
            self.end_overrun(ctx)
            return True
        if force is not None and force.stopped:
            if turn.monuments_due > 0:
                sites = self.monument_sites(state)
                if not sites:
                    ctx.emit(
                        ev.MonumentsUnbuilt(
                            rule=rule("monuments.priority"),
                            colour=turn.colour,
                            count=turn.monuments_due,
                        )
                    )
                    return True
                if len(sites) == 1:
                    ctx.emit(
                        ev.MonumentBuilt(
                            rule=rule("monuments.priority"),
                            cites=(rule("monuments.count"),),
                            colour=turn.colour,
                            land=sites[0],
                        )
                    )
                    return True
                return False
            self.finish(ctx, force)
            return True
        return False

    def allocation_step(self, ctx: Ctx) -> bool:
        state = ctx.state
        allocation = state.allocation
        if allocation is None:
            return False
        for kind in KINDS:
            pool = allocation.pools.get(kind, ())
            if kind not in allocation.chosen and len(pool) == 1:
                colour = allocation.picker(kind)
                ctx.emit(
                    ev.LastCardTaken(
                        rule=rule("organisation.last-card"),
                        colour=colour,
                        kind=kind,
                        card=pool[0],
                        visibility=private_to(
                            state.owner(colour), redacted={"colour": colour, "kind": kind}
                        ),
                    )
                )
                return True
        if not all(kind in allocation.chosen for kind in KINDS):
            return False
        remaining = {
            kind: tuple(c for c in allocation.pools[kind] if c != allocation.chosen[kind])
            for kind in KINDS
        }
        ctx.emit(
            ev.AllocationRoundEnded(rule=rule("organisation.simultaneous"), round=allocation.round)
        )
        following = ctx.state.allocation
        if following is not None:
            for kind in KINDS:
                self.pass_cards(ctx, kind, following.picker(kind), remaining[kind])
        return True

    def pass_cards(
        self, ctx: Ctx, kind: str, colour: int, cards: tuple[str, ...], first: bool = False
    ) -> None:
        key = "organisation.empire-cards" if kind == "empire" else "organisation.event-cards"
        ctx.emit(
            ev.CardsPassed(
                rule=rule("organisation.set-out" if first else key),
                cites=(rule(key),) if first else (),
                colour=colour,
                kind=kind,
                cards=tuple(sorted(cards)),
                visibility=private_to(
                    ctx.state.owner(colour),
                    redacted={"colour": colour, "kind": kind, "count": len(cards)},
                ),
                draws=ctx.chance.take_draws(),
            )
        )

    def begin_epoch(self, ctx: Ctx, epoch: int) -> None:
        tables = self.tables
        values = tuple((area, tables.area(area).value(epoch)) for area in tables.spiral)
        ctx.emit(
            ev.EpochBegan(
                rule=rule("organisation.area-values"),
                cites=(rule("epoch.phases"),),
                epoch=epoch,
                area_values=values,
            )
        )
        poorest, richest = by_gold(ctx.state, False), by_gold(ctx.state, True)
        ctx.emit(
            ev.AllocationBegan(
                rule=rule("organisation.simultaneous"),
                cites=(rule("organisation.empire-cards"), rule("organisation.event-cards")),
                empire_order=poorest,
                event_order=richest,
            )
        )
        count = len(ctx.state.colours)
        empires = ctx.chance.shuffled([e.id for e in tables.empires_by_epoch[epoch]])[:count]
        self.pass_cards(ctx, "empire", poorest[0], empires, first=True)
        cards = ctx.chance.shuffled(list(tables.deck_by_epoch[epoch]))[:count]
        self.pass_cards(ctx, "event", richest[0], cards, first=True)

    def call_next(self, ctx: Ctx) -> None:
        state = ctx.state
        order = self.tables.empires_by_epoch[state.epoch]
        if state.call_index >= len(order):
            self.end_epoch(ctx)
            return
        spec = order[state.call_index]
        holders = [c for c, colour in enumerate(state.colours) if colour.empire == spec.id]
        if not holders:
            ctx.emit(
                ev.EmpireSkipped(
                    rule=rule("turns.skipped"), cites=(rule("turns.order"),), empire=spec.id
                )
            )
            return
        ctx.emit(
            ev.TurnBegan(
                rule=rule("turns.declare"),
                cites=(rule("turns.order"),),
                colour=holders[0],
                empire=spec.id,
            )
        )

    def finish(self, ctx: Ctx, force: Force) -> None:
        """An Event Empire's armies resign (brief.events.resigned-after); the Empire
        reorganises and its colour collects gold (brief.reorganise.*, brief.gold.*)."""
        state = ctx.state
        turn = state.turn
        assert turn is not None
        if force.event:
            ctx.emit(
                ev.EventEmpireResigned(
                    rule=rule("events.resigned-after"),
                    colour=turn.colour,
                    card=force.card,
                    lands=tuple(
                        land for land in force.lands if state.land(land).colour == turn.colour
                    ),
                )
            )
            return
        standing = tuple(
            sorted(
                land
                for land, cell in state.lands.items()
                if cell.colour == turn.colour and cell.standing
            )
        )
        ctx.emit(
            ev.EmpireReorganised(
                rule=rule("reorganise.resign"),
                cites=(rule("reorganise.fleets"), rule("reorganise.discard")),
                colour=turn.colour,
                empire=turn.empire,
                fleets=turn.fleets,
                lands=standing,
            )
        )
        self.collect(ctx, turn.colour)

    def collect(self, ctx: Ctx, colour: int) -> None:
        state = ctx.state
        board = self.tables.board
        armies = {land: c.colour for land, c in state.lands.items() if c.colour is not None}
        items = collection(
            colour,
            armies,
            {land: c.buildings for land, c in state.lands.items()},
            {land: board.lands[land].area for land in armies},
            self.tables.spiral,
            state.area_values,
            self.tables.numbers.gold,
        )
        ctx.emit(
            ev.GoldCollected(
                rule=rule("gold.spiral"),
                cites=self.gold_cites(state, colour, items),
                colour=colour,
                items=tuple(items),
                total=sum(gold for _, gold in items),
            )
        )

    def gold_cites(
        self, state: BriefState, colour: int, items: list[tuple[str, int]]
    ) -> tuple[str, ...]:
        """The clauses a collection applies: buildings paid, each level of control reached
        (presence, dominance, mastery), a marker ending on an occupied space (stacked) or
        passing the end of the track (on round)."""
        gold = self.tables.numbers.gold
        levels = {gold[name]: name for name in ("presence", "dominance", "mastery")}
        cites: list[str] = []
        if any(what in gold for what, _ in items):
            cites.append(rule("gold.buildings"))
        reached = {
            levels[paid // state.area_values[what]]
            for what, paid in items
            if what not in gold and state.area_values.get(what)
        }
        cites += [
            rule(f"gold.{name}") for name in ("presence", "dominance", "mastery") if name in reached
        ]
        before = state.colours[colour].gold
        after = before + sum(paid for _, paid in items)
        others = {c.gold for i, c in enumerate(state.colours) if i != colour}
        if after != before and after in others:
            cites.append(rule("gold.stack"))
        if after // gold["track"] > before // gold["track"]:
            cites.append(rule("gold.past-100"))
        return tuple(cites)

    def end_epoch(self, ctx: Ctx) -> None:
        state = ctx.state
        for seat, player in enumerate(state.players):
            red = tuple(
                card
                for card in player.hand
                if (spec := self.tables.events_by_id.get(card)) is not None
                and spec.timing == "red"
                and not spec.later_epochs
                and spec.epoch <= state.epoch
            )
            if red:
                ctx.emit(
                    ev.RedCardsDiscarded(
                        rule=rule("events.red"),
                        seat=seat,
                        cards=red,
                        visibility=private_to(seat, redacted={"seat": seat, "count": len(red)}),
                    )
                )
        colours = ctx.state.colours
        moves = separated([c.gold for c in colours], [c.arrived for c in colours])
        ctx.emit(ev.GoldTrackAdjusted(rule=rule("conclusion.adjust"), moves=tuple(moves)))
        order = by_gold(ctx.state, True)[: self.tables.numbers.bonus_per_epoch]
        ctx.emit(
            ev.BonusDrawBegan(rule=rule("conclusion.bonus-first"), epoch=state.epoch, order=order)
        )
        self.offer(ctx, order[0], ctx.state.bonus_spaces[state.epoch - 1])

    def bonus_step(self, ctx: Ctx) -> bool:
        state = ctx.state
        bonus = state.bonus
        assert bonus is not None
        if bonus.offered and bonus.position < len(bonus.order):
            if len(bonus.offered) > 1:
                return False
            colour = bonus.order[bonus.position]
            self.keep_token(ctx, colour, bonus.offered[0], "conclusion.bonus-second")
            return True
        ctx.emit(ev.BonusDrawEnded(rule=rule("conclusion.bonus-second"), epoch=state.epoch))
        if state.epoch < self.tables.numbers.epochs:
            self.begin_epoch(ctx, state.epoch + 1)
        else:
            self.end_game(ctx)
        return True

    def end_game(self, ctx: Ctx) -> None:
        state = ctx.state
        tokens = tuple(c.bonus for c in state.colours)
        values = tuple(sum(self.tables.token(t).value for t in held) for held in tokens)
        ctx.emit(
            ev.BonusTokensRevealed(
                rule=rule("end.reveal-bonus"),
                cites=(rule("end.after-epoch-6"),),
                tokens=tokens,
                values=values,
            )
        )
        gold = tuple(c.gold + v for c, v in zip(state.colours, values, strict=True))
        scores = tuple(
            sum(gold[c] for c in state.colours_of(seat)) for seat in range(len(state.players))
        )
        ranking = ranked(scores)
        two = len(state.colours) > len(state.players)
        ctx.emit(
            ev.GameEnded(
                rule=rule("end.most-gold"),
                cites=(
                    rule("object.most-gold"),
                    rule("end.ties"),
                    *((rule("two-player.combined-gold"),) if two else ()),
                ),
                gold=gold,
                scores=scores,
                ranking=ranking,
            )
        )

    # --- folding and reading ------------------------------------------------------------------

    def evolve(self, state: BriefState, event: Event) -> BriefState:
        return ev.evolve(self.tables, state, event)

    def is_over(self, state: BriefState) -> bool:
        return state.stage is Stage.OVER

    def event_types(self) -> tuple[type[Event], ...]:
        return ev.event_types()

    def encode_state(self, state: BriefState) -> Any:
        return codec.encode(state)

    def decode_state(self, data: Any) -> BriefState:
        decoded: BriefState = codec.decode(BriefState, data)
        return decoded

    def summary(self, state: BriefState) -> dict[str, Any]:
        return {
            "epoch": state.epoch,
            "stage": state.stage.value,
            "gold": [c.gold for c in state.colours],
            "awaiting": sorted(self.awaited_seats(state)),
        }

    def result(self, state: BriefState) -> dict[str, Any]:
        """Each player's gold (Bonus tokens added at the end; both colours' in the two-player
        variant); ties share a place (brief.end.ties)."""
        if state.final:
            scores = list(state.final)
        else:
            scores = [
                sum(state.colours[c].gold for c in state.colours_of(seat))
                for seat in range(len(state.players))
            ]
        ranking = state.result or ranked(tuple(scores))
        rows = []
        place = 1
        for group in ranking:
            for seat in group:
                rows.append({"seat": seat, "place": place, "score": scores[seat], "tie_break": {}})
            place += len(group)
        return {
            "scores": scores,
            "ranking": rows,
            "tie_breaks": [],
            "details": {"final": state.result is not None, "winners": list(ranking[0])},
        }

    def data_used(self, event_type: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The lands, waters, Empire and Event cards and Bonus tokens an event names, each
        printed in the manual or reconstructed (its entry's provenance)."""
        tables = self.tables
        board = tables.board
        found: list[dict[str, Any]] = []
        seen: set[tuple[str, str]] = set()

        def add(what: str, entry_id: str, name: str, provenance: str) -> None:
            if (what, entry_id) not in seen:
                seen.add((what, entry_id))
                found.append(item(what, entry_id, name, provenance))

        for value in ids_in(data, ("land", "lands", "target")):
            if value in board.lands:
                land = board.lands[value]
                add("land", value, land.name, land.provenance)
        for value in ids_in(data, ("target", "fleets")):
            if value in board.waters:
                water = board.waters[value]
                add("water", value, water.name, water.provenance)
        for value in ids_in(data, ("empire", "card", "cards")):
            if value in tables.events_by_id:
                card = tables.events_by_id[value]
                add("event card", value, card.name, card.provenance)
            elif any(e.id == value for e in tables.empires):
                empire = tables.empire(value)
                add("empire card", value, empire.name, empire.provenance)
        for value in ids_in(data, ("token", "tokens")):
            if any(t.id == value for t in tables.bonus_tokens):
                add("bonus token", value, value, tables.token(value).provenance)
        return found

    def strategy(self) -> BriefStrategy:
        from domain.hotw.editions.brief2009.strategy import BriefStrategy

        return BriefStrategy(self)

    def names(self) -> Mapping[str, str]:
        tables = self.tables
        found: dict[str, str] = {land.id: land.name for land in tables.board.lands.values()}
        found |= {water.id: water.name for water in tables.board.waters.values()}
        found |= {area.id: area.name for area in tables.areas}
        found |= {empire.id: empire.name for empire in tables.empires}
        found |= {card.id: card.name for card in tables.events}
        found |= {
            token.id: f"Bonus token {token.id.rsplit('-', 1)[-1].lstrip('0')}"
            for token in tables.bonus_tokens
        }
        return found

    def view(self, state: BriefState, viewer: int | None) -> dict[str, Any]:
        return seat_view(self, state, viewer)

    def card_texts(self) -> Mapping[str, str]:
        names = self.names()
        texts: dict[str, str] = {}
        for e in self.tables.empires:
            texts[e.id] = (
                f"Empire of Epoch {e.epoch} (called {e.order}): strength {e.strength}, starts in "
                f"{names.get(e.start_land, e.start_land)}"
                + (", with a capital" if e.capital else "")
                + (f", fleets in {listed([names.get(f, f) for f in e.fleets])}" if e.fleets else "")
                + (f"; Feature: {e.feature.replace('-', ' ')}" if e.feature else "")
            )
        for c in self.tables.events:
            timing = (
                "red: play it at the start of a turn of its Epoch, or discard it"
                if c.timing == "red"
                else "black: play it any time in a turn of its Epoch or later"
            )
            line = f"Event of Epoch {c.epoch}, {timing}; price {c.price} gold"
            if c.armies:
                where = names.get(c.land, c.land) if c.land else "a land"
                line += f"; raises {c.armies} armies in {where}"
            texts[c.id] = line
        for token in self.tables.bonus_tokens:
            texts[token.id] = (
                "Bonus token: kept face down; its gold is added to yours at the end of the game"
            )
        return texts

    def draw_board(self, state: BriefState, viewer: int | None) -> str:
        from domain.hotw.editions.brief2009.drawing import table_svg

        return table_svg(self.tables.board, self.view(state, viewer), self.names())

    def narrate(self, event: Mapping[str, Any], players: Sequence[str]) -> str:
        return plain_words(event, players, self.names(), None, brief_namer(players, self.names()))

    def action_words(
        self, state: BriefState, command: Mapping[str, Any], players: Sequence[str]
    ) -> tuple[str, str]:
        return action_words(command, brief_namer(players, self.names()))

    def invariant_failures(self, state: BriefState) -> list[str]:
        return invariant_failures(self.tables, state)

    def command_schemas(self) -> tuple[CommandSpec, ...]:
        return command_specs(self.tables)


BRIEF_COLOUR_KEYS = frozenset(
    {"first", "order", "empire_order", "event_order", "defender", "colour", "from_colour",
     "removed_colour", "chooser"}
)  # fmt: skip
"""Brief's events name colours (a player's set of pieces; two each in the two-player game)."""


class BriefNamer(Namer):
    def field(self, key: str, value: Any) -> str:
        if key in BRIEF_COLOUR_KEYS and isinstance(value, int) and not isinstance(value, bool):
            return self.colour(value)
        if (
            key in BRIEF_COLOUR_KEYS
            and isinstance(value, list | tuple)
            and all(isinstance(v, int) for v in value)
        ):
            return listed([self.colour(v) for v in value]) if value else "none"
        return super().field(key, value)


def brief_namer(players: Sequence[str], names: Mapping[str, str]) -> Namer:
    return BriefNamer(players, names, SEAT_KEYS - BRIEF_COLOUR_KEYS, SEATS_KEYS - BRIEF_COLOUR_KEYS)


def ranked(scores: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """brief.end.most-gold and .ties: best first, equal scores sharing a place."""
    groups: list[list[int]] = []
    for seat in sorted(range(len(scores)), key=lambda s: (-scores[s], s)):
        if groups and scores[groups[-1][0]] == scores[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return tuple(tuple(g) for g in groups)


def command_specs(tables: BriefTables) -> tuple[CommandSpec, ...]:
    lands = tuple(sorted(tables.board.lands))
    cards = tuple(sorted(c.id for c in tables.events))
    empires = tuple(sorted(e.id for e in tables.empires))
    tokens = tuple(sorted(t.id for t in tables.bonus_tokens))
    targets = ("", *sorted({*tables.board.lands, *tables.board.waters}))
    land = (ArgSpec("land", str, "A land id.", allowed=lands),)
    return (
        CommandSpec(
            "select_empire_card",
            "Keep one of the Empire cards in front of you (the rest pass on, sealed).",
            (ArgSpec("card", str, "An Empire card id.", allowed=empires),),
        ),
        CommandSpec(
            "select_event_card",
            "Keep one of the Event cards in front of you (the rest pass on, sealed).",
            (ArgSpec("card", str, "An Event card id.", allowed=cards),),
        ),
        CommandSpec("establish", "Establish the Empire: Array, start-land army, capital, fleets."),
        CommandSpec(
            "play_event",
            "Play an Event card from your hand, paying its gold.",
            (
                ArgSpec("card", str, "An Event card id.", allowed=cards),
                ArgSpec(
                    "target",
                    str,
                    "The land (Civil War, Barbarians, Kingdoms, Minor Empires) or water "
                    "(Astronomy) it names; empty for none.",
                    allowed=targets,
                ),
            ),
        ),
        CommandSpec(
            "expand",
            "Move an Array army into a land: empty, a surrender, or an invasion (dice).",
            (
                *land,
                ArgSpec(
                    "via",
                    str,
                    "`land` (bordering or across a strait) or `sea` (across a fleet's water).",
                    allowed=("land", "sea"),
                ),
            ),
        ),
        CommandSpec("continue_invasion", "Spend an Array army: the dial +1, roll again."),
        CommandSpec("abandon_invasion", "Give the invasion up (the dial back to 0)."),
        CommandSpec("overrun", "Spend unused invasion points on a bordering land.", land),
        CommandSpec("end_overrun", "Spend no more invasion points."),
        CommandSpec("build_fort", "Spend an Array army on a fort.", land),
        CommandSpec("end_expansion", "Stop the active Empire (Event Empire or the called one)."),
        CommandSpec("build_monument", "Place a monument the Empire earned.", land),
        CommandSpec(
            "keep_bonus_token",
            "Keep one of the Bonus tokens in front of you (the rest pass on).",
            (ArgSpec("token", str, "A Bonus token id.", allowed=tokens),),
        ),
    )


def seat_view(rules: BriefRuleset, state: BriefState, viewer: int | None) -> dict[str, Any]:
    """The table as `viewer` sees it: another player's cards, Bonus tokens, sealed choices and
    the cards in front of another chooser are hidden (null, or counted)."""
    allocation = state.allocation
    turn = state.turn
    bonus = state.bonus

    def mine(colour: int) -> bool:
        return viewer is not None and state.owner(colour) == viewer

    return {
        "epoch": state.epoch,
        "stage": state.stage.value,
        "players": [
            {
                "seat": seat,
                "name": p.name,
                "colours": list(state.colours_of(seat)),
                "hand": list(p.hand) if seat == viewer else None,
                "hand_count": len(p.hand),
            }
            for seat, p in enumerate(state.players)
        ],
        "colours": [
            {
                "colour": c,
                "seat": colour.seat,
                "gold": colour.gold,
                "arrived": colour.arrived,
                "track_space": colour.gold % rules.tables.numbers.gold["track"],
                "stacked_on": sum(
                    1
                    for other in state.colours
                    if other.gold == colour.gold and other.arrived < colour.arrived
                ),
                "supply": colour.supply,
                "empire": colour.empire if mine(c) else None,
                "bonus": list(colour.bonus) if mine(c) or state.stage is Stage.OVER else None,
                "bonus_count": len(colour.bonus),
            }
            for c, colour in enumerate(state.colours)
        ],
        "lands": {
            land: {"colour": c.colour, "standing": c.standing, "buildings": sorted(c.buildings)}
            for land, c in sorted(state.lands.items())
        },
        "area_values": dict(state.area_values),
        "call_index": state.call_index,
        "allocation": None
        if allocation is None
        else {
            "round": allocation.round,
            "empire_order": list(allocation.empire_order),
            "event_order": list(allocation.event_order),
            "choosers": {kind: allocation.picker(kind) for kind in KINDS},
            "pile": {
                kind: list(allocation.pools.get(kind, ()))
                for kind in KINDS
                if mine(allocation.picker(kind))
            },
            "kept": {
                kind: card
                for kind, card in allocation.chosen.items()
                if mine(allocation.picker(kind))
            },
            "sealed": sorted(_sealed(state)),
        },
        "turn": None
        if turn is None
        else {
            "colour": turn.colour,
            "empire": turn.empire,
            "phase": turn.phase.value,
            "forces": [
                {
                    "raised_by": f.card,
                    "event": f.event,
                    "array": f.array,
                    "dial": f.dial,
                    "barbarian": f.barbarian,
                    "feature": f.feature,
                    "lands": list(f.lands),
                    "stopped": f.stopped,
                }
                for f in turn.forces
            ],
            "fleets": list(turn.fleets),
            "leader": turn.leader,
            "weaponry": turn.weaponry,
            "astronomy": turn.astronomy,
            "crossings": turn.crossings,
            "invasion": None
            if turn.invasion is None
            else {
                "land": turn.invasion.land,
                "defender": turn.invasion.defender,
                "via": turn.invasion.via,
            },
            "overrun": None
            if turn.overrun is None
            else {
                "land": turn.overrun.land,
                "defender": turn.overrun.defender,
                "points": turn.overrun.points,
            },
            "monuments_due": turn.monuments_due,
        },
        "bonus": None
        if bonus is None
        else {
            "order": list(bonus.order),
            "position": bonus.position,
            "offered": list(bonus.offered)
            if bonus.position < len(bonus.order) and mine(bonus.order[bonus.position])
            else None,
            "offered_count": len(bonus.offered),
        },
        "bonus_tokens_left": sum(len(space) for space in state.bonus_spaces),
        "supply": dict(state.supply),
        "awaiting": sorted(rules.awaited_seats(state)),
        "final": list(state.final) if state.final else None,
        "result": None if state.result is None else [list(g) for g in state.result],
    }


def invariant_failures(tables: BriefTables, state: BriefState) -> list[str]:
    """Armies, buildings and fleets conserved; standing armies only the active Empires';
    gold never negative."""
    failures: list[str] = []
    turn = state.turn
    per_colour = tables.numbers.supply["armies_per_colour"]
    for c, colour in enumerate(state.colours):
        placed = sum(1 for cell in state.lands.values() if cell.colour == c)
        held = 0
        if turn is not None and turn.colour == c:
            held = sum(f.array for f in turn.forces) + (1 if turn.invasion is not None else 0)
        if placed + colour.supply + held != per_colour:
            failures.append(
                f"colour {c}: {placed} placed + {colour.supply} in supply + {held} in Arrays "
                f"is not {per_colour}"
            )
        if colour.gold < 0:
            failures.append(f"colour {c} has {colour.gold} gold")
    buildings = [b for cell in state.lands.values() for b in cell.buildings]
    totals = tables.numbers.supply
    for key, kinds in (
        ("capitals_and_cities", ("capital", "city")),
        ("monuments", ("monument",)),
        ("forts", ("fort",)),
    ):
        out = sum(b in kinds for b in buildings)
        if out + state.supply.get(key, 0) != totals[key]:
            failures.append(
                f"{key}: {out} on the board + {state.supply.get(key)} is not {totals[key]}"
            )
    fleets = len(turn.fleets) if turn is not None else 0
    if fleets + state.supply.get("fleets", 0) != totals["fleets"]:
        failures.append(
            f"fleets: {fleets} out + {state.supply.get('fleets')} is not {totals['fleets']}"
        )
    standing = {land for land, cell in state.lands.items() if cell.standing}
    active = {land for f in (turn.forces if turn else ()) for land in f.lands}
    if standing - active:
        failures.append(f"standing armies outside an active Empire: {sorted(standing - active)}")
    for land in standing:
        if turn is None or state.land(land).colour != turn.colour:
            failures.append(f"{land}: a standing army of another colour than the active one")
    return failures
