"""The events of A Brief History of the World, and how each changes the state (never checks,
never draws). Stored as `brief.<Name>`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.core.folds import Folds
from domain.core.frozen import evolved
from domain.core.messages import Event, event
from domain.core.turns import SealedCommand
from domain.hotw.changes import added, with_cell, with_item, with_player, with_turn
from domain.hotw.editions.brief2009.model import (
    Allocation,
    BonusDraw,
    BriefState,
    Cell,
    Force,
    Invasion,
    Overrun,
    Phase,
    Stage,
    Turn,
)
from domain.hotw.editions.brief2009.tables import BriefTables


@dataclass(frozen=True, kw_only=True, slots=True)
class BriefEvent(Event):
    FAMILY = "brief"


FOLDS: Folds[BriefTables, BriefState] = Folds()
handles = FOLDS.handles
evolve = FOLDS.evolve
event_types = FOLDS.event_types


# --- small changes ---------------------------------------------------------------------------


def with_colour(state: BriefState, colour: int, **changes: Any) -> BriefState:
    return evolved(state, colours=with_item(state.colours, colour, **changes))


def with_gold(state: BriefState, colour: int, delta: int) -> BriefState:
    """brief.gold.stack: a marker that moves arrives on top of whatever stands there."""
    if delta == 0:
        return state
    moved = with_colour(
        state, colour, gold=state.colours[colour].gold + delta, arrived=state.moves + 1
    )
    return evolved(moved, moves=state.moves + 1)


def with_supply_of(state: BriefState, colour: int, delta: int) -> BriefState:
    return with_colour(state, colour, supply=state.colours[colour].supply + delta)


def with_shared(state: BriefState, **deltas: int) -> BriefState:
    return evolved(state, supply=added(state.supply, **deltas))


def with_force(state: BriefState, **changes: Any) -> BriefState:
    turn = state.turn
    assert turn is not None and turn.forces
    forces = (*turn.forces[:-1], evolved(turn.forces[-1], **changes))
    return with_turn(state, forces=forces)


def returned(buildings: tuple[str, ...]) -> dict[str, int]:
    """The shared supply's keys for pieces going back to it."""
    deltas: dict[str, int] = {}
    for kind in buildings:
        key = {"capital": "capitals_and_cities", "city": "capitals_and_cities"}.get(kind)
        key = key or {"monument": "monuments", "fort": "forts"}[kind]
        deltas[key] = deltas.get(key, 0) + 1
    return deltas


def cleared(
    state: BriefState, land: str, colour: int | None, buildings: tuple[str, ...]
) -> BriefState:
    """Whatever stood in `land` goes: its army to its colour's supply, the buildings named to
    the shared supply (the others stay)."""
    cell = state.land(land)
    if colour is not None:
        state = with_supply_of(state, colour, 1)
    state = with_shared(state, **returned(buildings))
    return with_cell(state, land, Cell(buildings=cell.buildings - set(buildings)))


def stand(state: BriefState, land: str, colour: int, *extra: str) -> BriefState:
    """An army of `colour` stands in `land` (keeping the buildings there)."""
    cell = state.land(land)
    return with_cell(state, land, Cell(colour, True, cell.buildings | set(extra)))


def joined(state: BriefState, land: str) -> BriefState:
    turn = state.turn
    assert turn is not None and turn.forces
    force = turn.forces[-1]
    return with_force(state, lands=(*force.lands, land))


# --- setting up ------------------------------------------------------------------------------


@event
class StartingPlayerDrawn(BriefEvent):
    """The starting colour, and each colour's first space on the Gold track."""

    first: int
    gold: tuple[int, ...]


@handles(StartingPlayerDrawn)
def _starting(t: BriefTables, s: BriefState, e: StartingPlayerDrawn) -> BriefState:
    for offset in range(len(e.gold)):
        colour = (e.first + offset) % len(e.gold)
        s = with_gold(s, colour, e.gold[colour] - s.colours[colour].gold)
    return s


@event
class StarterCardsDealt(BriefEvent):
    """Every player's Leader and Weaponry card (dealt face up: all hold the same pair)."""

    cards: tuple[str, ...]


@handles(StarterCardsDealt)
def _starters(t: BriefTables, s: BriefState, e: StarterCardsDealt) -> BriefState:
    for seat, player in enumerate(s.players):
        s = with_player(s, seat, hand=(*player.hand, *e.cards))
    return s


@event
class BonusTokensShuffled(BriefEvent):
    spaces: tuple[tuple[str, ...], ...]


@handles(BonusTokensShuffled)
def _shuffled(t: BriefTables, s: BriefState, e: BonusTokensShuffled) -> BriefState:
    return evolved(s, bonus_spaces=tuple(tuple(x) for x in e.spaces))


# --- Organisation and Allocation --------------------------------------------------------------


@event
class EpochBegan(BriefEvent):
    """A new Epoch, its Area value tiles face up."""

    epoch: int
    area_values: tuple[tuple[str, int], ...]


@handles(EpochBegan)
def _epoch(t: BriefTables, s: BriefState, e: EpochBegan) -> BriefState:
    return evolved(
        s,
        epoch=e.epoch,
        stage=Stage.ALLOCATING,
        area_values=dict(e.area_values),
        call_index=0,
        turn=None,
    )


@event
class AllocationBegan(BriefEvent):
    """The two orders of the selection: least gold first for Empire cards, most for Event."""

    empire_order: tuple[int, ...]
    event_order: tuple[int, ...]


@handles(AllocationBegan)
def _allocation(t: BriefTables, s: BriefState, e: AllocationBegan) -> BriefState:
    allocation = Allocation(0, tuple(e.empire_order), tuple(e.event_order), {}, {})
    return evolved(s, allocation=allocation)


@event
class CardsPassed(BriefEvent):
    """The cards of one kind reach the colour that chooses from them next (set out at random
    for the first chooser)."""

    kind: str
    colour: int
    cards: tuple[str, ...]


@handles(CardsPassed)
def _passed(t: BriefTables, s: BriefState, e: CardsPassed) -> BriefState:
    assert s.allocation is not None
    pools = {**s.allocation.pools, e.kind: tuple(e.cards)}
    return evolved(s, allocation=evolved(s.allocation, pools=pools))


@event
class CardChosen(BriefEvent, SealedCommand):
    """A colour's sealed choice of one card of the pile in front of it."""

    seat: int
    colour: int
    kind: str
    card: str


@event
class LastCardTaken(BriefEvent):
    """The last colour of an order takes the one card left."""

    colour: int
    kind: str
    card: str


def _chosen(t: BriefTables, s: BriefState, e: CardChosen | LastCardTaken) -> BriefState:
    assert s.allocation is not None
    chosen = {**s.allocation.chosen, e.kind: e.card}
    return evolved(s, allocation=evolved(s.allocation, chosen=chosen))


handles(CardChosen)(_chosen)
handles(LastCardTaken)(_chosen)


@event
class AllocationRoundEnded(BriefEvent):
    """Both choices of a round are made: each chooser keeps its card, the rest pass on."""

    round: int


@handles(AllocationRoundEnded)
def _round_ended(t: BriefTables, s: BriefState, e: AllocationRoundEnded) -> BriefState:
    allocation = s.allocation
    assert allocation is not None
    for kind, card in sorted(allocation.chosen.items()):
        colour = allocation.picker(kind)
        if kind == "empire":
            s = with_colour(s, colour, empire=card)
        else:
            seat = s.owner(colour)
            s = with_player(s, seat, hand=(*s.players[seat].hand, card))
    if allocation.round + 1 >= len(s.colours):
        return evolved(s, allocation=None, stage=Stage.TURNS)
    following = evolved(allocation, round=allocation.round + 1, pools={}, chosen={})
    return evolved(s, allocation=following)


# --- Empire turns ------------------------------------------------------------------------------


@event
class EmpireSkipped(BriefEvent):
    empire: str


@handles(EmpireSkipped)
def _skipped(t: BriefTables, s: BriefState, e: EmpireSkipped) -> BriefState:
    return evolved(s, call_index=s.call_index + 1)


@event
class TurnBegan(BriefEvent):
    """The holder of the called Empire card declares it."""

    REVEALS_HIDDEN = True

    colour: int
    empire: str


@handles(TurnBegan)
def _turn(t: BriefTables, s: BriefState, e: TurnBegan) -> BriefState:
    return evolved(s, call_index=s.call_index + 1, turn=Turn(e.colour, e.empire))


@event
class EventCardPlayed(BriefEvent):
    seat: int
    colour: int
    card: str
    price: int
    target: str


@handles(EventCardPlayed)
def _played(t: BriefTables, s: BriefState, e: EventCardPlayed) -> BriefState:
    hand = list(s.players[e.seat].hand)
    hand.remove(e.card)
    s = with_player(s, e.seat, hand=tuple(hand))
    s = with_gold(s, e.colour, -e.price)
    kind = t.card(e.card).kind
    if kind == "leader":
        return with_turn(s, leader=True)
    if kind == "weaponry":
        return with_turn(s, weaponry=True)
    if kind == "astronomy":
        turn = s.turn
        assert turn is not None
        s = with_shared(s, fleets=-1)
        return with_turn(s, astronomy=True, fleets=(*turn.fleets, e.target))
    return s


@event
class EventEmpireRaised(BriefEvent):
    """An Event card's Empire: its army stands in its land (what stood there gone), the rest of
    the armies it brings from the supply wait in its own Array."""

    colour: int
    card: str
    land: str
    removed_colour: int | None
    removed: tuple[str, ...]
    armies: int
    capital: bool
    barbarian: bool


@handles(EventEmpireRaised)
def _raised(t: BriefTables, s: BriefState, e: EventEmpireRaised) -> BriefState:
    s = cleared(s, e.land, e.removed_colour, e.removed)
    s = with_supply_of(s, e.colour, -e.armies)
    lands: tuple[str, ...] = ()
    if e.armies:
        s = stand(s, e.land, e.colour, *(("capital",) if e.capital else ()))
        s = with_shared(s, capitals_and_cities=-1) if e.capital else s
        lands = (e.land,)
    force = Force(e.card, True, max(0, e.armies - 1), e.barbarian, None, 0, lands)
    assert s.turn is not None
    return with_turn(s, forces=(*s.turn.forces, force))


@event
class EmpireEstablished(BriefEvent):
    """The Array filled with the Empire's strength, its army in the start land (what stood
    there gone), its capital and fleets placed, the dial at 0."""

    colour: int
    empire: str
    land: str
    removed_colour: int | None
    removed: tuple[str, ...]
    armies: int
    capital: bool
    fleets: tuple[str, ...]


@handles(EmpireEstablished)
def _established(t: BriefTables, s: BriefState, e: EmpireEstablished) -> BriefState:
    spec = t.empire(e.empire)
    s = cleared(s, e.land, e.removed_colour, e.removed)
    s = with_supply_of(s, e.colour, -e.armies)
    lands: tuple[str, ...] = ()
    if e.armies:
        s = stand(s, e.land, e.colour, *(("capital",) if e.capital else ()))
        s = with_shared(s, capitals_and_cities=-1) if e.capital else s
        lands = (e.land,)
    s = with_shared(s, fleets=-len(e.fleets))
    force = Force(e.empire, False, max(0, e.armies - 1), spec.barbarian, spec.feature, 0, lands)
    assert s.turn is not None
    return with_turn(s, phase=Phase.EXPANDING, forces=(force,), fleets=(*s.turn.fleets, *e.fleets))


@event
class ArmyExpanded(BriefEvent):
    """An Array army into an empty land."""

    colour: int
    land: str
    via: str
    crossing: bool = False


@handles(ArmyExpanded)
def _expanded(t: BriefTables, s: BriefState, e: ArmyExpanded) -> BriefState:
    turn = s.turn
    assert turn is not None and turn.active is not None
    s = with_force(s, array=turn.active.array - 1)
    s = with_turn(s, crossings=turn.crossings + int(e.crossing))
    return joined(stand(s, e.land, e.colour), e.land)


@event
class Surrendered(BriefEvent):
    """An Array army onto a resigned army of the player's own: no roll, the resigned army goes."""

    colour: int
    land: str
    from_colour: int
    via: str
    crossing: bool = False


@handles(Surrendered)
def _surrendered(t: BriefTables, s: BriefState, e: Surrendered) -> BriefState:
    turn = s.turn
    assert turn is not None and turn.active is not None
    s = with_force(s, array=turn.active.array - 1)
    s = with_turn(s, crossings=turn.crossings + int(e.crossing))
    s = with_supply_of(s, e.from_colour, 1)
    return joined(stand(s, e.land, e.colour), e.land)


@event
class InvasionRolled(BriefEvent):
    """One roll of an invasion: both sides' dice, the dial, the points and the outcome."""

    colour: int
    land: str
    defender: int
    via: str
    continued: bool
    crossing: bool
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    dial: int
    leader: int
    points: int
    needed: int
    fear: int
    success: bool
    sure: bool = False
    """The Vikings' 5 or 6 from the sea: taken outright, the defender does not roll."""


@handles(InvasionRolled)
def _rolled(t: BriefTables, s: BriefState, e: InvasionRolled) -> BriefState:
    turn = s.turn
    assert turn is not None and turn.active is not None
    s = with_force(s, array=turn.active.array - 1, dial=e.dial)
    if e.continued:
        s = with_supply_of(s, e.colour, 1)  # the army spent on the dial
    else:
        s = with_turn(s, crossings=turn.crossings + int(e.crossing))
    if not e.success:
        return with_turn(s, invasion=Invasion(e.land, e.defender, e.via))
    s = with_supply_of(s, e.defender, 1)
    s = joined(stand(s, e.land, e.colour), e.land)
    s = with_force(s, dial=0)
    unused = 0 if e.sure else e.points - e.needed + e.fear
    overrun = Overrun(e.land, e.defender, unused) if unused > 0 else None
    return with_turn(s, invasion=None, weaponry=False, overrun=overrun)


@event
class InvasionAbandoned(BriefEvent):
    colour: int
    land: str


@handles(InvasionAbandoned)
def _abandoned(t: BriefTables, s: BriefState, e: InvasionAbandoned) -> BriefState:
    s = with_supply_of(s, e.colour, 1)
    s = with_force(s, dial=0)
    return with_turn(s, invasion=None, weaponry=False)


@event
class LandReduced(BriefEvent):
    """Taking control of a land reduces what stands in it; a barbarian Empire earns gold."""

    colour: int
    land: str
    buildings: tuple[str, ...]
    removed: tuple[str, ...]
    reductions: int
    gold: int


@handles(LandReduced)
def _reduced(t: BriefTables, s: BriefState, e: LandReduced) -> BriefState:
    cell = s.land(e.land)
    s = with_cell(s, e.land, Cell(cell.colour, cell.standing, frozenset(e.buildings)))
    s = with_shared(s, **returned(e.removed))
    return with_gold(s, e.colour, e.gold)


@event
class LandOverrun(BriefEvent):
    colour: int
    land: str
    defender: int
    cost: int


@handles(LandOverrun)
def _overrun(t: BriefTables, s: BriefState, e: LandOverrun) -> BriefState:
    turn = s.turn
    assert turn is not None and turn.active is not None and turn.overrun is not None
    s = with_force(s, array=turn.active.array - 1)
    s = with_supply_of(s, e.defender, 1)
    s = joined(stand(s, e.land, e.colour), e.land)
    overrun = Overrun(e.land, e.defender, turn.overrun.points - e.cost)
    return with_turn(s, overrun=overrun)


@event
class OverrunEnded(BriefEvent):
    colour: int
    unused: int


@handles(OverrunEnded)
def _overrun_ended(t: BriefTables, s: BriefState, e: OverrunEnded) -> BriefState:
    return with_turn(s, overrun=None)


@event
class FortBuilt(BriefEvent):
    colour: int
    land: str


@handles(FortBuilt)
def _fort(t: BriefTables, s: BriefState, e: FortBuilt) -> BriefState:
    assert s.turn is not None and s.turn.active is not None
    s = with_force(s, array=s.turn.active.array - 1)
    s = with_supply_of(s, e.colour, 1)
    s = with_shared(s, forts=-1)
    cell = s.land(e.land)
    return with_cell(s, e.land, evolved(cell, buildings=cell.buildings | {"fort"}))


@event
class ExpansionStopped(BriefEvent):
    """The active Empire stops: the Array's armies go back, its monuments are counted."""

    colour: int
    card: str
    returned: int
    resources: int
    monuments: int


@handles(ExpansionStopped)
def _stopped(t: BriefTables, s: BriefState, e: ExpansionStopped) -> BriefState:
    s = with_supply_of(s, e.colour, e.returned)
    s = with_force(s, array=0, stopped=True)
    return with_turn(s, monuments_due=e.monuments)


@event
class MonumentBuilt(BriefEvent):
    colour: int
    land: str


@handles(MonumentBuilt)
def _monument(t: BriefTables, s: BriefState, e: MonumentBuilt) -> BriefState:
    turn = s.turn
    assert turn is not None
    cell = s.land(e.land)
    s = with_cell(s, e.land, evolved(cell, buildings=cell.buildings | {"monument"}))
    s = with_shared(s, monuments=-1)
    return with_turn(s, monuments_due=turn.monuments_due - 1)


@event
class MonumentsUnbuilt(BriefEvent):
    """Monuments earned with no land (or no piece in the supply) to put them in."""

    colour: int
    count: int


@handles(MonumentsUnbuilt)
def _unbuilt(t: BriefTables, s: BriefState, e: MonumentsUnbuilt) -> BriefState:
    return with_turn(s, monuments_due=0)


def resigned(s: BriefState, lands: tuple[str, ...]) -> BriefState:
    for land in lands:
        cell = s.land(land)
        s = with_cell(s, land, evolved(cell, standing=False))
    return s


@event
class EventEmpireResigned(BriefEvent):
    """An Event Empire is resolved: its armies lie down."""

    colour: int
    card: str
    lands: tuple[str, ...]


@handles(EventEmpireResigned)
def _event_resigned(t: BriefTables, s: BriefState, e: EventEmpireResigned) -> BriefState:
    s = resigned(s, e.lands)
    assert s.turn is not None
    return with_turn(s, forces=s.turn.forces[:-1])


@event
class EmpireReorganised(BriefEvent):
    """Fleets removed, every standing army resigned, the Empire card discarded."""

    colour: int
    empire: str
    fleets: tuple[str, ...]
    lands: tuple[str, ...]


@handles(EmpireReorganised)
def _reorganised(t: BriefTables, s: BriefState, e: EmpireReorganised) -> BriefState:
    s = resigned(s, e.lands)
    s = with_shared(s, fleets=len(e.fleets))
    s = with_colour(s, e.colour, empire=None)
    return with_turn(s, forces=(), fleets=())


@event
class GoldCollected(BriefEvent):
    """The colour's gold for buildings, then Area by Area along the spiral."""

    colour: int
    items: tuple[tuple[str, int], ...]
    total: int


@handles(GoldCollected)
def _collected(t: BriefTables, s: BriefState, e: GoldCollected) -> BriefState:
    return evolved(with_gold(s, e.colour, e.total), turn=None)


@event
class RedCardsDiscarded(BriefEvent):
    """Red cards of the Epoch never played are discarded unseen."""

    seat: int
    cards: tuple[str, ...]


@handles(RedCardsDiscarded)
def _discarded(t: BriefTables, s: BriefState, e: RedCardsDiscarded) -> BriefState:
    hand = list(s.players[e.seat].hand)
    for card in e.cards:
        hand.remove(card)
    return with_player(s, e.seat, hand=tuple(hand))


# --- Conclusion -------------------------------------------------------------------------------


@event
class GoldTrackAdjusted(BriefEvent):
    """Stacked markers moved forward: (colour, from, to)."""

    moves: tuple[tuple[int, int, int], ...]


@handles(GoldTrackAdjusted)
def _adjusted(t: BriefTables, s: BriefState, e: GoldTrackAdjusted) -> BriefState:
    for colour, old, new in e.moves:
        s = with_gold(s, colour, new - old)
    return s


@event
class BonusDrawBegan(BriefEvent):
    """The richest colours, in order, who take the Epoch's Bonus tokens."""

    epoch: int
    order: tuple[int, ...]


@handles(BonusDrawBegan)
def _bonus_began(t: BriefTables, s: BriefState, e: BonusDrawBegan) -> BriefState:
    return evolved(s, stage=Stage.BONUS, bonus=BonusDraw(tuple(e.order)))


@event
class BonusTokensOffered(BriefEvent):
    colour: int
    tokens: tuple[str, ...]


@handles(BonusTokensOffered)
def _offered(t: BriefTables, s: BriefState, e: BonusTokensOffered) -> BriefState:
    assert s.bonus is not None
    return evolved(s, bonus=evolved(s.bonus, offered=tuple(e.tokens)))


@event
class BonusTokenKept(BriefEvent):
    colour: int
    token: str


@handles(BonusTokenKept)
def _kept(t: BriefTables, s: BriefState, e: BonusTokenKept) -> BriefState:
    bonus = s.bonus
    assert bonus is not None
    s = with_colour(s, e.colour, bonus=(*s.colours[e.colour].bonus, e.token))
    offered = tuple(x for x in bonus.offered if x != e.token)
    return evolved(s, bonus=evolved(bonus, offered=offered, position=bonus.position + 1))


@event
class BonusDrawEnded(BriefEvent):
    epoch: int


@handles(BonusDrawEnded)
def _bonus_ended(t: BriefTables, s: BriefState, e: BonusDrawEnded) -> BriefState:
    spaces = tuple(() if i == e.epoch - 1 else x for i, x in enumerate(s.bonus_spaces))
    return evolved(s, bonus=None, bonus_spaces=spaces)


@event
class BonusTokensRevealed(BriefEvent):
    REVEALS_HIDDEN = True

    tokens: tuple[tuple[str, ...], ...]
    values: tuple[int, ...]


@handles(BonusTokensRevealed)
def _revealed(t: BriefTables, s: BriefState, e: BonusTokensRevealed) -> BriefState:
    return s


@event
class GameEnded(BriefEvent):
    """Each colour's gold with its Bonus tokens, each player's total, and the ranking (tied
    players share a place)."""

    gold: tuple[int, ...]
    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]


@handles(GameEnded)
def _ended(t: BriefTables, s: BriefState, e: GameEnded) -> BriefState:
    return evolved(
        s,
        stage=Stage.OVER,
        final=tuple(e.scores),
        result=tuple(tuple(g) for g in e.ranking),
    )
