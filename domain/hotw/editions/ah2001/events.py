"""The events of an Avalon Hill 2001 game, and how each changes the state (never checks,
never draws). Stored as `ah2001.<Name>`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.core.folds import Folds
from domain.core.frozen import evolved
from domain.core.messages import Event, event
from domain.hotw.changes import added, with_cell, with_player, with_turn
from domain.hotw.editions.ah2001.model import Ah2001State, Cell, Drawing, SeaHeld, Stage, Turn
from domain.hotw.editions.ah2001.revisions import COINS_TAKE_COUNTERS
from domain.hotw.editions.ah2001.tables import Ah2001Tables


@dataclass(frozen=True, kw_only=True, slots=True)
class Ah2001Event(Event):
    FAMILY = "ah2001"


FOLDS: Folds[Ah2001Tables, Ah2001State] = Folds()
handles = FOLDS.handles
evolve = FOLDS.evolve
event_types = FOLDS.event_types


def with_supply(state: Ah2001State, **deltas: int) -> Ah2001State:
    return evolved(state, supply=added(state.supply, **deltas))


# --- setting up and drawing Empire cards ---------------------------------------------------


@event
class DrawOrderRolled(Ah2001Event):
    """Epoch I: each player's two dice, and the drawing order they give."""

    rolls: tuple[tuple[int, ...], ...]
    order: tuple[int, ...]


@handles(DrawOrderRolled)
def _draw_order(t: Ah2001Tables, s: Ah2001State, e: DrawOrderRolled) -> Ah2001State:
    return evolved(s, first_order=tuple(e.order))


@event
class EventCardsDealt(Ah2001Event):
    seat: int
    cards: tuple[str, ...]


@handles(EventCardsDealt)
def _dealt(t: Ah2001Tables, s: Ah2001State, e: EventCardsDealt) -> Ah2001State:
    return with_player(s, e.seat, hand=tuple(e.cards))


@event
class MarkersShuffled(Ah2001Event):
    markers: tuple[int, ...]


@handles(MarkersShuffled)
def _markers(t: Ah2001Tables, s: Ah2001State, e: MarkersShuffled) -> Ah2001State:
    return evolved(s, markers=tuple(e.markers))


@event
class EpochBegan(Ah2001Event):
    epoch: int
    order: tuple[int, ...]
    """The drawing order for this epoch's Empire cards."""


@handles(EpochBegan)
def _epoch(t: Ah2001Tables, s: Ah2001State, e: EpochBegan) -> Ah2001State:
    cards = tuple(dict.fromkeys(x.card for x in t.empires_by_epoch[e.epoch]))
    drawing = Drawing(order=tuple(e.order), deck=cards, holders={})
    return evolved(
        s,
        epoch=e.epoch,
        stage=Stage.DRAWING,
        drawing=drawing,
        holders={},
        call_index=0,
        turn=None,
        parked=(),
        slot=None,
        cursor=0,
    )


@event
class EmpireCardDrawn(Ah2001Event):
    REVEALS_HIDDEN = True

    seat: int
    card: str


@handles(EmpireCardDrawn)
def _drawn(t: Ah2001Tables, s: Ah2001State, e: EmpireCardDrawn) -> Ah2001State:
    assert s.drawing is not None
    deck = tuple(c for c in s.drawing.deck if c != e.card)
    return evolved(s, drawing=evolved(s.drawing, deck=deck, drawn=e.card))


@event
class EmpireCardGiven(Ah2001Event):
    """The drawer keeps the card (`to_seat` is the drawer) or passes it on unseen."""

    from_seat: int
    to_seat: int
    card: str


@handles(EmpireCardGiven)
def _given(t: Ah2001Tables, s: Ah2001State, e: EmpireCardGiven) -> Ah2001State:
    assert s.drawing is not None
    holders = {**s.drawing.holders, e.card: e.to_seat}
    drawing = evolved(s.drawing, holders=holders, drawn=None, position=s.drawing.position + 1)
    return evolved(s, drawing=drawing)


@event
class EmpireCardLearned(Ah2001Event):
    """Once every card is handed out, a player given a card may look at it."""

    REVEALS_HIDDEN = True

    seat: int
    card: str


@handles(EmpireCardLearned)
def _learned(t: Ah2001Tables, s: Ah2001State, e: EmpireCardLearned) -> Ah2001State:
    return s


@event
class EmpireCardsHandedOut(Ah2001Event):
    epoch: int


@handles(EmpireCardsHandedOut)
def _handed_out(t: Ah2001Tables, s: Ah2001State, e: EmpireCardsHandedOut) -> Ah2001State:
    assert s.drawing is not None
    return evolved(s, holders=dict(s.drawing.holders), drawing=None, stage=Stage.TURNS)


# --- Event cards and coins (Chapter IV) ----------------------------------------------------


EDGE_CARDS = {
    "leader": "leader",
    "weaponry": "weaponry",
    "siegecraft": "siegecraft",
    "elite-troops": "elite_troops",
    "naval-power": "naval_power",
}


@event
class EventCardPlayed(Ah2001Event):
    """A card from the hand, before the first army: what it gives the Active Empire."""

    REVEALS_HIDDEN = True

    seat: int
    card: str
    coins: int = 0
    forts: int = 0


@handles(EventCardPlayed)
def _card_played(t: Ah2001Tables, s: Ah2001State, e: EventCardPlayed) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    player = s.players[e.seat]
    hand = list(player.hand)
    hand.remove(e.card)
    s = with_player(s, e.seat, hand=tuple(hand), played_cards=(*player.played_cards, e.card))
    (card,) = [c for c in t.events if c.id == e.card]
    changes: dict[str, Any] = {
        "played": (*turn.played, e.card),
        "coins": turn.coins + e.coins,
        "free_forts": turn.free_forts + e.forts,
    }
    if card.kind in EDGE_CARDS:
        changes[EDGE_CARDS[card.kind]] = True
    if card.kind == "expert-troops":
        changes["expert"] = turn.expert | {str(card.effect["terrain"])}
    if card.kind == "jihad":
        changes["jihad_losses"] = 0
    if card.kind == "reallocation":
        changes["reallocating"] = True
    if card.kind in TARGETED:
        changes["pending"] = card.id
        changes["picks"] = ()
    if t.since(COINS_TAKE_COUNTERS):
        return with_supply(with_turn(s, **changes), counters=-e.coins)
    return with_turn(s, **changes)


TARGETED = frozenset(
    {
        "astronomy",
        "treachery",
        "disaster",
        "famine",
        "pestilence",
        "black-death",
        "migrants",
        "civil-war",
        "barbarians",
        "plague",
    }
)
"""Cards whose player chooses lands, areas or a sea before they act."""


@event
class TargetChosen(Ah2001Event):
    seat: int
    card: str
    target: str


@handles(TargetChosen)
def _target(t: Ah2001Tables, s: Ah2001State, e: TargetChosen) -> Ah2001State:
    assert s.turn is not None
    return with_turn(s, picks=(*s.turn.picks, e.target))


@event
class CardResolved(Ah2001Event):
    """The card's targets are chosen (or the player chose no more): it has acted."""

    seat: int
    card: str


@handles(CardResolved)
def _resolved(t: Ah2001Tables, s: Ah2001State, e: CardResolved) -> Ah2001State:
    return with_turn(s, pending=None, picks=())


@event
class ArmiesStruck(Ah2001Event):
    """Famine, Pestilence, Black Death: each army named rolls; a 1 destroys it and its fort."""

    card: str
    rolls: tuple[tuple[int, ...], ...]
    lands: tuple[str, ...]
    destroyed: tuple[str, ...]


@handles(ArmiesStruck)
def _struck(t: Ah2001Tables, s: Ah2001State, e: ArmiesStruck) -> Ah2001State:
    for land in e.destroyed:
        cell = s.land(land)
        fort = "fort" in cell.buildings
        s = with_supply(s, forts=1 if fort else 0)
        s = with_cell(s, land, Cell(None, 0, cell.buildings - {"fort"}))
    return s


@event
class MonumentsDestroyed(Ah2001Event):
    """Disaster: monuments, cities and forts go; a capital becomes a city."""

    lands: tuple[str, ...]


@handles(MonumentsDestroyed)
def _disaster(t: Ah2001Tables, s: Ah2001State, e: MonumentsDestroyed) -> Ah2001State:
    for land in e.lands:
        cell = s.land(land)
        freed = 1 if "city" in cell.buildings else 0
        after = cell.buildings - {"monument", "city", "fort"}
        if "capital" in after:
            after = (after - {"capital"}) | {"city"}
        s = with_supply(
            s, monuments=1, forts=1 if "fort" in cell.buildings else 0, capitals_and_cities=freed
        )
        s = with_cell(s, land, evolved(cell, buildings=frozenset(after)))
    return s


@event
class ArmiesLanded(Ah2001Event):
    """Migrants: armies of a far epoch in vacant lands, the player's colour."""

    seat: int
    lands: tuple[str, ...]
    figure: int


@handles(ArmiesLanded)
def _landed(t: Ah2001Tables, s: Ah2001State, e: ArmiesLanded) -> Ah2001State:
    for land in e.lands:
        s = with_cell(s, land, Cell(e.seat, e.figure, s.land(land).buildings))
    return s


@event
class FleetAdded(Ah2001Event):
    """Astronomy: one more fleet, in a sea."""

    seat: int
    water: str


@handles(FleetAdded)
def _fleet_added(t: Ah2001Tables, s: Ah2001State, e: FleetAdded) -> Ah2001State:
    assert s.turn is not None
    return with_supply(with_turn(s, fleets=(*s.turn.fleets, e.water)), counters=-1)


@event
class RevoltFought(Ah2001Event):
    """Jewish Revolt: a far epoch's army of the player's colour attacks the land's army with
    three dice and no Difficult Terrain penalty (a fort still counts)."""

    seat: int
    land: str
    figure: int
    defender: int | None
    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    result: str


@handles(RevoltFought)
def _revolt(t: Ah2001Tables, s: Ah2001State, e: RevoltFought) -> Ah2001State:
    cell = s.land(e.land)
    if e.result in ("fort_lost", "fort_and_attacker_lost", "fort_and_defender_lost"):
        s = with_supply(s, forts=1)
        cell = evolved(cell, buildings=cell.buildings - {"fort"})
    if e.result in DEFENDER_LOSSES and cell.armies > 1:
        cell = evolved(cell, armies=cell.armies - 1)
    elif e.result == "both_lost":
        cell = Cell(None, 0, cell.buildings)
    elif e.result in ("defender_lost", "fort_and_defender_lost", "unopposed"):
        cell = Cell(e.seat, e.figure, cell.buildings)
    return with_cell(s, e.land, cell)


@event
class TreacheryNamed(Ah2001Event):
    seat: int
    land: str


@handles(TreacheryNamed)
def _treachery(t: Ah2001Tables, s: Ah2001State, e: TreacheryNamed) -> Ah2001State:
    return with_turn(s, treachery=e.land)


@event
class KingdomPlaced(Ah2001Event):
    """A Kingdom's army (a far epoch's figure) and a city; any army and fort there go."""

    seat: int
    land: str
    figure: int


@handles(KingdomPlaced)
def _kingdom(t: Ah2001Tables, s: Ah2001State, e: KingdomPlaced) -> Ah2001State:
    cell = s.land(e.land)
    fort = "fort" in cell.buildings
    city = "city" not in cell.buildings and "capital" not in cell.buildings
    buildings = (cell.buildings - {"fort"}) | ({"city"} if city else set())
    s = with_supply(s, forts=1 if fort else 0, capitals_and_cities=-1 if city else 0)
    return with_cell(s, e.land, Cell(e.seat, e.figure, frozenset(buildings)))


@event
class FleetReallocated(Ah2001Event):
    """Reallocation: a fleet taken off and turned into a coin."""

    seat: int
    water: str


@handles(FleetReallocated)
def _reallocated(t: Ah2001Tables, s: Ah2001State, e: FleetReallocated) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    fleets = tuple(w for w in turn.fleets if w != e.water)
    return with_turn(s, fleets=fleets, coins=turn.coins + 1)


@event
class ExpansionBegan(Ah2001Event):
    seat: int


@handles(ExpansionBegan)
def _expansion_began(t: Ah2001Tables, s: Ah2001State, e: ExpansionBegan) -> Ah2001State:
    return with_turn(s, expanding=True, reallocating=False)


@event
class CoinSpent(Ah2001Event):
    """A coin returns a lost army to the pool (`for_fort` false) or buys a fort for the pool."""

    seat: int
    for_fort: bool


@handles(CoinSpent)
def _coin(t: Ah2001Tables, s: Ah2001State, e: CoinSpent) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    if t.since(COINS_TAKE_COUNTERS):
        s = with_supply(s, counters=1)  # the coin's counter goes back to the supply
    if e.for_fort:
        return with_turn(s, coins=turn.coins - 1, free_forts=turn.free_forts + 1)
    return with_turn(s, coins=turn.coins - 1, lost=turn.lost - 1, pool=turn.pool + 1)


@event
class CardEmpireBegan(Ah2001Event):
    """A Minor Empire or the Crusaders take the stage: the Active Empire's turn is set aside
    while they place and expand with their own pool, figures, fleets and capital."""

    seat: int
    card: str
    armies: int
    figure: int
    capital: bool
    fleets: tuple[str, ...]
    at_sea: str | None = None
    bonus: bool = False
    """The Crusade's +1 to each die."""


@handles(CardEmpireBegan)
def _card_empire(t: Ah2001Tables, s: Ah2001State, e: CardEmpireBegan) -> Ah2001State:
    outer = s.turn
    assert outer is not None
    side = Turn(
        e.seat,
        outer.empire,
        pool=e.armies,
        capital=e.capital,
        fleets=tuple(e.fleets),
        expanding=True,
        weaponry=e.bonus,
        figure=e.figure,
        card=e.card,
        at_sea=e.at_sea,
        outer=outer,
    )
    return with_supply(
        evolved(s, turn=side),
        counters=-len(e.fleets),
        capitals_and_cities=-1 if e.capital else 0,
    )


@event
class CardEmpireEnded(Ah2001Event):
    """The card's Empire has expanded: its fleets leave, the Active Empire's turn resumes
    (it is scored with all the player's pieces at the end of that turn)."""

    seat: int
    card: str
    unused: int


@handles(CardEmpireEnded)
def _card_empire_ended(t: Ah2001Tables, s: Ah2001State, e: CardEmpireEnded) -> Ah2001State:
    side = s.turn
    assert side is not None and side.outer is not None
    coins = side.coins if t.since(COINS_TAKE_COUNTERS) else 0
    return with_supply(evolved(s, turn=side.outer), counters=len(side.fleets) + coins)


@event
class CrusadersFortified(Ah2001Event):
    """The Crusaders took Palestine: a fort and a city are placed there."""

    land: str
    fort: bool
    city: bool


@handles(CrusadersFortified)
def _fortified(t: Ah2001Tables, s: Ah2001State, e: CrusadersFortified) -> Ah2001State:
    cell = s.land(e.land)
    added = ({"fort"} if e.fort else set()) | ({"city"} if e.city else set())
    s = with_supply(s, forts=-1 if e.fort else 0, capitals_and_cities=-1 if e.city else 0)
    return with_cell(s, e.land, evolved(cell, buildings=cell.buildings | added))


@event
class FleetsReclaimed(Ah2001Event):
    """Too few fleet counters for the Active Empire: fleets with armies leave the board, the
    oldest epoch's first (ah2001.option.naval-control)."""

    waters: tuple[str, ...]


@handles(FleetsReclaimed)
def _reclaimed(t: Ah2001Tables, s: Ah2001State, e: FleetsReclaimed) -> Ah2001State:
    seas = {w: h for w, h in s.seas.items() if w not in e.waters}
    return with_supply(evolved(s, seas=seas), counters=len(e.waters))


@event
class NavalBattleFought(Ah2001Event):
    """The Active Empire's fleet entering a sea held by another player's fleet fights it, two
    dice against one, before any expansion (ah2001.option.naval-control)."""

    seat: int
    water: str
    defender: int
    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    result: str


@handles(NavalBattleFought)
def _naval_battle(t: Ah2001Tables, s: Ah2001State, e: NavalBattleFought) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    if e.result in ("defender_lost", "both_lost"):
        s = with_supply(
            evolved(s, seas={w: h for w, h in s.seas.items() if w != e.water}), counters=1
        )
    if e.result in ("attacker_lost", "both_lost"):
        fleets = tuple(w for w in turn.fleets if w != e.water)
        s = with_supply(with_turn(s, fleets=fleets), counters=1)
    return s


@event
class FleetManned(Ah2001Event):
    """An army from the pool goes onto the Active Empire's fleet in a sea: the fleet stays
    after the turn and holds the sea (ah2001.option.naval-control)."""

    seat: int
    water: str
    figure: int


@handles(FleetManned)
def _manned(t: Ah2001Tables, s: Ah2001State, e: FleetManned) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    relieved = 1 if e.water in s.seas else 0  # the player's own older fleet there goes home
    seas = {**s.seas, e.water: SeaHeld(e.seat, e.figure)}
    s = with_turn(s, pool=turn.pool - 1, manned=(*turn.manned, e.water))
    return with_supply(evolved(s, seas=seas), counters=relieved)


# --- simultaneous empires (the variant) ----------------------------------------------------


@event
class EmpireParked(Ah2001Event):
    """The active Empire's move is over: it waits in its slot for its next round (a Minor
    Empire started inside its player's turn hands the turn back to the main Empire)."""

    seat: int
    empire: str
    card: str | None = None


@handles(EmpireParked)
def _parked(t: Ah2001Tables, s: Ah2001State, e: EmpireParked) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    idle = turn.started and not turn.attempted
    waiting = evolved(turn, started=True, attempted=False, outer=None, idle=idle)
    if s.slot is not None:
        parked = list(s.parked)
        parked[s.slot] = waiting
        return evolved(s, parked=tuple(parked), turn=None, slot=None, cursor=s.slot + 1)
    if turn.outer is not None:
        return evolved(s, parked=(*s.parked, waiting), turn=turn.outer)
    return evolved(s, parked=(*s.parked, waiting), turn=None, call_index=s.call_index + 1)


@event
class EmpireActivated(Ah2001Event):
    """The next Empire in the calling order that can still expand makes its round's move."""

    seat: int
    empire: str
    slot: int


@handles(EmpireActivated)
def _activated(t: Ah2001Tables, s: Ah2001State, e: EmpireActivated) -> Ah2001State:
    return evolved(s, turn=s.parked[e.slot], slot=e.slot)


@event
class EmpireTerminated(Ah2001Event):
    """An Empire's expansion ends (declared, or its strength spent): its fleets leave and,
    for a main Empire, its player counts the epoch's points for all of its pieces."""

    seat: int
    empire: str
    slot: int
    points: Mapping[str, int]
    total: int
    card: str | None = None


@handles(EmpireTerminated)
def _terminated(t: Ah2001Tables, s: Ah2001State, e: EmpireTerminated) -> Ah2001State:
    active = s.slot == e.slot and s.turn is not None
    ending = s.turn if active else s.parked[e.slot]
    assert ending is not None
    parked = list(s.parked)
    parked[e.slot] = evolved(ending, terminated=True, pool=0, attempted=False)
    s = with_supply(
        evolved(s, parked=tuple(parked)),
        counters=len(ending.fleets)
        - len(ending.manned)
        + (ending.coins if t.since(COINS_TAKE_COUNTERS) else 0),
    )
    s = with_player(s, e.seat, points=s.players[e.seat].points + e.total)
    if active:
        return evolved(s, turn=None, slot=None, cursor=e.slot + 1)
    return evolved(s, cursor=max(s.cursor, e.slot + 1))


@event
class ExpansionAttempted(Ah2001Event):
    """Simultaneous empires: the active Empire makes its round's one expansion attempt (into a
    land, or onto a sea with a fleet); win or lose, it attempts no other this round."""

    seat: int
    target: str


@handles(ExpansionAttempted)
def _attempted(t: Ah2001Tables, s: Ah2001State, e: ExpansionAttempted) -> Ah2001State:
    return with_turn(s, attempted=True)


@event
class MonumentsEarned(Ah2001Event):
    """Simultaneous empires: the Empire has just taken the second land of a new pair of
    resource symbols, and builds the monument at once."""

    seat: int
    count: int


@handles(MonumentsEarned)
def _earned(t: Ah2001Tables, s: Ah2001State, e: MonumentsEarned) -> Ah2001State:
    return with_turn(evolved(s, stage=Stage.MONUMENTS), monuments_due=e.count)


@event
class MonumentsDone(Ah2001Event):
    seat: int


@handles(MonumentsDone)
def _monuments_done(t: Ah2001Tables, s: Ah2001State, e: MonumentsDone) -> Ah2001State:
    return with_turn(evolved(s, stage=Stage.TURNS), monuments_due=0)


# --- calling Empires and their turns -------------------------------------------------------


@event
class EmpireSkipped(Ah2001Event):
    empire: str


@handles(EmpireSkipped)
def _skipped(t: Ah2001Tables, s: Ah2001State, e: EmpireSkipped) -> Ah2001State:
    return evolved(s, call_index=s.call_index + 1)


@event
class TurnBegan(Ah2001Event):
    """The holder turns the called Empire's card over; its army pool, capital and fleets."""

    REVEALS_HIDDEN = True

    seat: int
    empire: str
    armies: int
    capital: bool
    fleets: tuple[str, ...]


@handles(TurnBegan)
def _turn(t: Ah2001Tables, s: Ah2001State, e: TurnBegan) -> Ah2001State:
    (spec,) = [x for x in t.empires if x.id == e.empire]
    player = s.players[e.seat]
    s = with_player(
        s, e.seat, empires=(*player.empires, e.empire), called=(*player.called, spec.number)
    )
    turn = Turn(e.seat, e.empire, pool=e.armies, capital=e.capital, fleets=tuple(e.fleets))
    return with_supply(
        evolved(s, turn=turn),
        counters=-len(e.fleets),
        capitals_and_cities=-1 if e.capital else 0,
    )


@event
class StartLandCleared(Ah2001Event):
    land: str
    owner: int | None
    fort: bool


@handles(StartLandCleared)
def _cleared(t: Ah2001Tables, s: Ah2001State, e: StartLandCleared) -> Ah2001State:
    cell = s.land(e.land)
    kept = cell.buildings - {"fort", "city", "capital"}
    freed = len(cell.buildings & {"city", "capital"})
    s = with_supply(s, forts=1 if e.fort else 0, capitals_and_cities=freed)
    return with_cell(s, e.land, Cell(None, 0, kept))


@event
class ArmyPlaced(Ah2001Event):
    """An army from the pool claims a land (empty, or its own colour's, replaced); with the
    first army the capital goes down too."""

    seat: int
    land: str
    figure: int
    capital: bool = False
    replaced: bool = False
    stacked: bool = False
    """Another army joins the Empire's own (ah2001.option.multiple-armies)."""


@handles(ArmyPlaced)
def _placed(t: Ah2001Tables, s: Ah2001State, e: ArmyPlaced) -> Ah2001State:
    cell = s.land(e.land)
    buildings = cell.buildings | ({"capital"} if e.capital else set())
    armies = cell.armies + 1 if e.stacked else 1
    s = with_cell(s, e.land, Cell(e.seat, e.figure, frozenset(buildings), armies))
    assert s.turn is not None
    lands = s.turn.lands if e.land in s.turn.lands else (*s.turn.lands, e.land)
    return with_turn(s, pool=s.turn.pool - 1, lands=lands, capital=s.turn.capital and not e.capital)


@event
class BattleFought(Ah2001Event):
    """One round of combat for a land: both sides' dice and what it removed."""

    seat: int
    land: str
    defender: int
    via: str
    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    attack: int
    defence: int
    result: str
    first_round: bool = True
    leader_killed: bool = False


ATTACKER_LOSSES = ("attacker_lost", "both_lost", "fort_and_attacker_lost")
DEFENDER_LOSSES = ("defender_lost", "fort_and_defender_lost", "both_lost")
"""Results that cost the defender an army (one of several, with multiple armies)."""


@handles(BattleFought)
def _battle(t: Ah2001Tables, s: Ah2001State, e: BattleFought) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    cell = s.land(e.land)
    if e.first_round:
        s = with_turn(s, pool=turn.pool - 1)
    if e.leader_killed:
        s = with_turn(s, leader=False)
    if e.result in ATTACKER_LOSSES:
        jihad = turn.jihad_losses
        s = with_turn(
            s,
            lost=turn.lost + 1,
            elite_troops=False,
            jihad_losses=None if jihad is None else jihad + 1,
        )
    if e.result in ("fort_lost", "fort_and_attacker_lost", "fort_and_defender_lost"):
        s = with_supply(s, forts=1)
        cell = evolved(cell, buildings=cell.buildings - {"fort"})
    if e.result in DEFENDER_LOSSES and cell.armies > 1:
        cell = evolved(cell, armies=cell.armies - 1)
    elif e.result == "both_lost":
        cell = Cell(None, 0, cell.buildings)
    elif e.result in DEFENDER_LOSSES:
        cell = Cell(e.seat, turn.figure or s.epoch, cell.buildings)
        s = with_turn(s, lands=(*turn.lands, e.land))
    return with_cell(s, e.land, cell)


@event
class LandSacked(Ah2001Event):
    land: str
    buildings: tuple[str, ...]


@handles(LandSacked)
def _sacked(t: Ah2001Tables, s: Ah2001State, e: LandSacked) -> Ah2001State:
    cell = s.land(e.land)
    freed = len(cell.buildings & {"capital", "city"}) - len(set(e.buildings) & {"capital", "city"})
    s = with_supply(s, capitals_and_cities=freed)
    return with_cell(s, e.land, evolved(cell, buildings=frozenset(e.buildings)))


@event
class FortBuilt(Ah2001Event):
    seat: int
    land: str


@handles(FortBuilt)
def _fort(t: Ah2001Tables, s: Ah2001State, e: FortBuilt) -> Ah2001State:
    cell = s.land(e.land)
    s = with_cell(s, e.land, evolved(cell, buildings=cell.buildings | {"fort"}))
    turn = s.turn
    assert turn is not None
    if turn.free_forts > 0:
        return with_supply(with_turn(s, free_forts=turn.free_forts - 1), forts=-1)
    return with_supply(with_turn(s, pool=turn.pool - 1), forts=-1)


@event
class ExpansionEnded(Ah2001Event):
    seat: int
    monuments: int
    unused: int


@handles(ExpansionEnded)
def _expansion_ended(t: Ah2001Tables, s: Ah2001State, e: ExpansionEnded) -> Ah2001State:
    return with_turn(evolved(s, stage=Stage.MONUMENTS), pool=0, monuments_due=e.monuments)


@event
class MonumentBuilt(Ah2001Event):
    seat: int
    land: str


@handles(MonumentBuilt)
def _monument(t: Ah2001Tables, s: Ah2001State, e: MonumentBuilt) -> Ah2001State:
    cell = s.land(e.land)
    s = with_cell(s, e.land, evolved(cell, buildings=cell.buildings | {"monument"}))
    assert s.turn is not None
    turn = s.turn
    changes = {"monuments_due": turn.monuments_due - 1, "monuments_built": turn.monuments_built + 1}
    return with_supply(with_turn(s, **changes), monuments=-1)


@event
class MonumentsUnbuilt(Ah2001Event):
    seat: int
    count: int


@handles(MonumentsUnbuilt)
def _unbuilt(t: Ah2001Tables, s: Ah2001State, e: MonumentsUnbuilt) -> Ah2001State:
    assert s.turn is not None
    return with_turn(s, monuments_due=0, monuments_built=s.turn.monuments_built + e.count)


@event
class TurnScored(Ah2001Event):
    """Clean-up (the fleets leave the board) and the player's score for all its pieces."""

    seat: int
    points: Mapping[str, int]
    total: int


@handles(TurnScored)
def _scored(t: Ah2001Tables, s: Ah2001State, e: TurnScored) -> Ah2001State:
    assert s.turn is not None
    coins = s.turn.coins if t.since(COINS_TAKE_COUNTERS) else 0
    s = with_supply(s, counters=len(s.turn.fleets) - len(s.turn.manned) + coins)
    s = with_player(s, e.seat, points=s.players[e.seat].points + e.total)
    return evolved(s, turn=None, stage=Stage.TURNS, call_index=s.call_index + 1)


@event
class PreEminenceTaken(Ah2001Event):
    seat: int
    marker: int


@handles(PreEminenceTaken)
def _pre_eminence(t: Ah2001Tables, s: Ah2001State, e: PreEminenceTaken) -> Ah2001State:
    player = s.players[e.seat]
    s = with_player(s, e.seat, pre_eminence=(*player.pre_eminence, e.marker))
    return evolved(s, markers=s.markers[1:])


@event
class GameEnded(Ah2001Event):
    REVEALS_HIDDEN = True

    markers: tuple[int, ...]
    """Each player's pre-eminence points, added to the score."""
    points: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]


@handles(GameEnded)
def _ended(t: Ah2001Tables, s: Ah2001State, e: GameEnded) -> Ah2001State:
    players = tuple(
        evolved(p, points=points) for p, points in zip(s.players, e.points, strict=True)
    )
    ranking = tuple(tuple(group) for group in e.ranking)
    return evolved(s, players=players, stage=Stage.OVER, result=ranking, turn=None)
