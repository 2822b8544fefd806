"""Chapter IV of the Avalon Hill 2001 rules, Playing Event Cards, with the Greater and Lesser
Event cards that give the Active Empire something for its turn: up to two cards playable in
the epoch, never two of the same, before the first army (ah2001.events.two-per-turn, .epochs,
.before-first-army); Coins (ah2001.events.coins: a fort, or an army saved); Reallocation's
fleets turned to coins; the Minor Empires and the Crusade that expand as an Empire of their own
(ah2001.events.minor-empire, .crusade); a Kingdom's army. The cards that name targets:
`lesser_events`.

Greater Event cards (ah2001.events.greater-kinds) that act through the turn: Engineering
(ah2001.events.engineering), Population Explosion (ah2001.events.population-explosion) and Civil
Service's coins (ah2001.events.civil-service); a Minor Empire's points are scored after its
Active Empire's (ah2001.events.minor-empire.scored-after)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.changes import with_cell, with_player, with_turn
from domain.hotw.editions.ah2001.combat import COMBAT_CARDS
from domain.hotw.editions.ah2001.context import (
    COMMANDS,
    FOLDS,
    Ah2001Event,
    Ctx,
    card,
    empire,
    far_epoch,
    in_turn,
    with_supply,
)
from domain.hotw.editions.ah2001.lesser_events import TARGET_CARDS, revolt
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Cell,
    Turn,
)
from domain.hotw.editions.ah2001.revisions import COINS_TAKE_COUNTERS
from domain.hotw.editions.ah2001.tables import Ah2001Tables, EventCardKind
from domain.hotw.editions.ah2001.turn import place_start, pool_size
from domain.hotw.refusals import refused

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
        "allies",
    }
)
"""The kinds of card a player plays (the others act by themselves)."""


EVENT_CARDS = {
    "reallocation": "ah2001.events.reallocation",
    "minor-empire": "ah2001.events.minor-empire",
    "kingdom": "ah2001.events.kingdom",
    "crusade": "ah2001.events.crusade",
    "engineering": "ah2001.events.engineering",
    "allies": "ah2001.events.allies",
    "population-explosion": "ah2001.events.population-explosion",
    "civil-service": "ah2001.events.civil-service",
    **COMBAT_CARDS,
    **TARGET_CARDS,
}
"""The clause of each kind of card (each Coins card by its own name), by kind."""
DECKS = {"greater": "ah2001.events.greater-kinds", "lesser": "ah2001.events.lesser-kinds"}
"""The clause that lists the kinds of each deck."""


def card_rule(played: EventCardKind) -> str:
    """The clause a card plays by: a Coins card's own, any other card its kind's."""
    return EVENT_CARDS[played.id if played.kind == "coins" else played.kind]


def playable(tables: Ah2001Tables, state: Ah2001State, card_id: str) -> str | None:
    """The clause that keeps the Active Empire from playing `card_id` now (None: it may)."""
    turn = state.turn
    assert turn is not None
    if turn.expanding:
        return "ah2001.events.before-first-army"
    if card_id not in state.players[turn.seat].hand:
        return "ah2001.events.two-per-turn"
    if not card(tables, card_id).playable_in(state.epoch):
        return "ah2001.events.epochs"
    if len(turn.played) >= tables.cards_per_turn or card_id in turn.played:
        return "ah2001.events.two-per-turn"
    if card(tables, card_id).kind not in PLAYABLE_KINDS:
        return "ah2001.events.two-per-turn"
    return None


def card_actions(tables: Ah2001Tables, state: Ah2001State, seat: int) -> Iterator[Command]:
    """ah2001.events.two-per-turn: before the first army, up to two cards playable in this
    epoch, never two of the same; Reallocation's fleets to coins; then the expansion."""
    turn = state.turn
    assert turn is not None
    if len(turn.played) < tables.cards_per_turn:
        for card_id in sorted(set(state.players[seat].hand) - set(turn.played)):
            if playable(tables, state, card_id) is None:
                yield Command.of("play_event", card=card_id)
    if turn.reallocating:
        for water in turn.fleets:
            yield Command.of("reallocate_fleet", water=water)
    yield Command.of("begin_expansion")


def why_not_play(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    key = "ah2001.events.two-per-turn"
    if in_turn(state, seat):
        if state.turn is not None and state.turn.expanding:
            key = "ah2001.events.before-first-army"
        else:
            card_id = str(command.arg("card"))
            in_hand = card_id in state.players[seat].hand
            if in_hand and playable(tables, state, card_id) == "ah2001.events.epochs":
                key = "ah2001.events.epochs"
    return refused(
        "up to two Event cards, playable in this epoch, not two of the same, before the first army",
        key,
        command,
    )


@COMMANDS.declares(
    "play_event",
    "Play an Event card from the hand before the first army.",
    Arg("card", "An Event card id.", ids=lambda t: tuple(sorted(c.id for c in t.events))),
    why_not=why_not_play,
)
def play_event(ctx: Ctx, seat: int, command: Command) -> None:
    played = card(ctx.tables, str(command.arg("card")))
    turn = ctx.state.turn
    assert turn is not None
    spec = empire(ctx.tables, turn.empire)
    coins = int(played.effect.get("coins", 0))
    if played.id == "civil-service":
        coins += (1 if spec.capital else 0) + (1 if spec.navigation else 0)
    if ctx.tables.since(COINS_TAKE_COUNTERS):
        coins = min(coins, ctx.state.supply.get("counters", 0))  # ah2001.components.coin-fleet
    forts = int(played.effect.get("forts", 0)) if spec.capital else 0
    ctx.emit(
        EventCardPlayed(
            rule=card_rule(played),
            cites=(
                "ah2001.events.two-per-turn",
                "ah2001.events.epochs",
                "ah2001.events.active-empire",
                DECKS[played.deck],
                *(("ah2001.events.coins",) if coins else ()),
            ),
            seat=seat,
            card=played.id,
            coins=coins,
            forts=forts,
        )
    )
    card_acts(ctx, seat, played)


def card_acts(ctx: Ctx, seat: int, played: EventCardKind) -> None:
    """What a card played does at once: a revolt, a card's own Empire, a Kingdom's army."""
    if played.kind == "jewish-revolt":
        land = str(played.effect["land"])
        dice = int(played.effect["attack_dice"])
        revolt(ctx, seat, land, key="ah2001.events.jewish-revolt", dice=dice)
    if played.kind == "minor-empire":
        minor_empire_begins(ctx, seat, played)
    if played.kind == "crusade":
        armies = pool_size(ctx.tables, ctx.state, seat, int(played.effect["armies"]), 1)
        ctx.emit(
            CardEmpireBegan(
                rule="ah2001.events.crusade",
                seat=seat,
                card=played.id,
                armies=armies,
                figure=int(played.effect["figures_epoch"]),
                capital=False,
                fleets=(),
                at_sea=str(played.effect["water"]),
                bonus=True,
            )
        )
    if played.kind == "kingdom":
        ctx.emit(
            KingdomPlaced(
                rule="ah2001.events.kingdom",
                cites=("ah2001.events.far-epoch",),
                seat=seat,
                land=str(played.effect["land"]),
                figure=int(played.effect["figures_epoch"]),
            )
        )


def minor_empire_begins(ctx: Ctx, seat: int, played: EventCardKind) -> None:
    """ah2001.events.minor-empire: its own pool, figures, fleets and capital, placed in its
    start land; untouched by the turn's other card (.unaffected)."""
    effect = played.effect
    figure = int(effect.get("figures_epoch") or far_epoch(ctx.tables, ctx.state.epoch))
    supply = ctx.state.supply
    fleets = tuple(sorted(ctx.tables.board.navigation(effect["navigation"])))
    ctx.emit(
        CardEmpireBegan(
            rule="ah2001.events.minor-empire",
            cites=("ah2001.events.minor-empire.unaffected", "ah2001.events.far-epoch"),
            seat=seat,
            card=played.id,
            armies=pool_size(ctx.tables, ctx.state, seat, int(effect["strength"]), figure),
            figure=figure,
            capital=bool(effect["capital"]) and supply.get("capitals_and_cities", 0) > 0,
            fleets=fleets[: supply.get("counters", 0)],
        )
    )
    if ctx.state.turn is not None and ctx.state.turn.pool > 0:
        place_start(ctx, seat, str(effect["start_land"]))


def crusaders_take(ctx: Ctx, played: EventCardKind, land: str) -> None:
    """ah2001.events.crusade: Palestine taken by the Crusaders gets a fort and a city."""
    if played.kind != "crusade" or land != played.effect["land"]:
        return
    have = ctx.state.land(land).buildings
    fort = "fort" not in have and ctx.state.supply.get("forts", 0) > 0
    city = not have & {"city", "capital"} and ctx.state.supply.get("capitals_and_cities", 0) > 0
    if fort or city:
        ctx.emit(CrusadersFortified(rule="ah2001.events.crusade", land=land, fort=fort, city=city))


def why_not_reallocate(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused("Reallocation turns fleets into coins", "ah2001.events.reallocation", command)


@COMMANDS.declares(
    "reallocate_fleet",
    "Reallocation: turn a fleet into a coin.",
    Arg("water", "A sea or ocean id.", ids=lambda t: tuple(sorted(t.board.waters))),
    why_not=why_not_reallocate,
)
def reallocate_fleet(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(
        FleetReallocated(
            rule="ah2001.events.reallocation", seat=seat, water=str(command.arg("water"))
        )
    )


def why_not_begin(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused("the expansion has begun", "ah2001.events.before-first-army", command)


@COMMANDS.declares(
    "begin_expansion",
    "Play no more Event cards: place the first army.",
    why_not=why_not_begin,
)
def begin_expansion(ctx: Ctx, seat: int, command: Command) -> None:
    ctx.emit(ExpansionBegan(rule="ah2001.events.before-first-army", seat=seat))
    turn = ctx.state.turn
    assert turn is not None
    if turn.pool > 0:
        place_start(ctx, seat, empire(ctx.tables, turn.empire).start_land)


# --- coins ------------------------------------------------------------------------------------


def coin_actions(state: Ah2001State) -> Iterator[Command]:
    """ah2001.events.coins: a coin saves an army lost in combat, or buys a fort."""
    turn = state.turn
    assert turn is not None
    if turn.coins > 0 and turn.lost > 0:
        yield Command.of("recover_army")
    if turn.coins > 0 and state.supply.get("forts", 0) > turn.free_forts:
        yield Command.of("buy_fort")


def spend_coin(ctx: Ctx, seat: int, *, for_fort: bool) -> None:
    """ah2001.events.coins: a coin buys a fort, or saves an army from the pool."""
    key = "ah2001.events.coins.buy-fort" if for_fort else "ah2001.events.coins.save-army"
    ctx.emit(CoinSpent(rule=key, cites=("ah2001.events.coins",), seat=seat, for_fort=for_fort))


def why_not_recover(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "a coin returns an army lost in combat", "ah2001.events.coins.save-army", command
    )


def why_not_buy(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused("a coin buys a fort", "ah2001.events.coins.buy-fort", command)


@COMMANDS.declares(
    "recover_army",
    "Spend a coin: an army lost in combat returns to the pool.",
    why_not=why_not_recover,
)
def recover_army(ctx: Ctx, seat: int, command: Command) -> None:
    spend_coin(ctx, seat, for_fort=False)


@COMMANDS.declares("buy_fort", "Spend a coin on a fort for the pool.", why_not=why_not_buy)
def buy_fort(ctx: Ctx, seat: int, command: Command) -> None:
    spend_coin(ctx, seat, for_fort=True)


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


EDGE_CARDS = {
    "leader": "leader",
    "weaponry": "weaponry",
    "siegecraft": "siegecraft",
    "elite-troops": "elite_troops",
    "naval-power": "naval_power",
}
"""The cards whose edge in combat lasts the turn, and the turn's flag each sets."""


@event
class EventCardPlayed(Ah2001Event):
    """A card from the hand, before the first army: what it gives the Active Empire."""

    REVEALS_HIDDEN = True

    seat: int
    card: str
    coins: int = 0
    forts: int = 0


@FOLDS.handles(EventCardPlayed)
def _card_played(t: Ah2001Tables, s: Ah2001State, e: EventCardPlayed) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    player = s.players[e.seat]
    hand = list(player.hand)
    hand.remove(e.card)
    s = with_player(s, e.seat, hand=tuple(hand), played_cards=(*player.played_cards, e.card))
    (card,) = t.events_by_id.get(e.card, ())
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
    if card.kind == "allies":
        changes["allied_coins"] = turn.allied_coins + e.coins
    if card.kind in t.targets.kinds:
        changes["pending"] = card.id
        changes["picks"] = ()
    if t.since(COINS_TAKE_COUNTERS):
        return with_supply(with_turn(s, **changes), counters=-e.coins)
    return with_turn(s, **changes)


@event
class FleetReallocated(Ah2001Event):
    """Reallocation: a fleet taken off and turned into a coin."""

    seat: int
    water: str


@FOLDS.handles(FleetReallocated)
def _reallocated(t: Ah2001Tables, s: Ah2001State, e: FleetReallocated) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    fleets = tuple(w for w in turn.fleets if w != e.water)
    return with_turn(s, fleets=fleets, coins=turn.coins + 1)


@event
class ExpansionBegan(Ah2001Event):
    seat: int


@FOLDS.handles(ExpansionBegan)
def _expansion_began(t: Ah2001Tables, s: Ah2001State, e: ExpansionBegan) -> Ah2001State:
    return with_turn(s, expanding=True, reallocating=False)


@event
class CoinSpent(Ah2001Event):
    """A coin returns a lost army to the pool (`for_fort` false) or buys a fort for the pool."""

    seat: int
    for_fort: bool


@FOLDS.handles(CoinSpent)
def _coin(t: Ah2001Tables, s: Ah2001State, e: CoinSpent) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    if t.since(COINS_TAKE_COUNTERS):
        s = with_supply(s, counters=1)  # the coin's counter goes back to the supply
    allied = allied_coin_spent(turn, e.for_fort)
    spent = {"coins": turn.coins - 1, "allied_coins": turn.allied_coins - allied}
    if e.for_fort:
        return with_turn(s, **spent, free_forts=turn.free_forts + 1)
    return with_turn(
        s, **spent, lost=turn.lost - 1, pool=turn.pool + 1, allied=turn.allied + allied
    )


def allied_coin_spent(turn: Turn, for_fort: bool) -> int:
    """ah2001.events.allies reading: whether the coin spent is one of Allies' (1) or another
    card's (0): a fort takes an Allies coin first, an army saved another card's coin first,
    so the player keeps the freest coins and armies."""
    others = turn.coins - turn.allied_coins
    if for_fort:
        return 1 if turn.allied_coins > 0 else 0
    return 0 if others > 0 else 1


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


@FOLDS.handles(CardEmpireBegan)
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


@FOLDS.handles(CardEmpireEnded)
def _card_empire_ended(t: Ah2001Tables, s: Ah2001State, e: CardEmpireEnded) -> Ah2001State:
    side = s.turn
    assert side is not None and side.outer is not None
    coins = side.coins if t.since(COINS_TAKE_COUNTERS) else 0
    return with_supply(evolved(s, turn=side.outer), counters=len(side.fleets) + coins)


@event
class KingdomPlaced(Ah2001Event):
    """A Kingdom's army (a far epoch's figure) and a city; any army and fort there go."""

    seat: int
    land: str
    figure: int


@FOLDS.handles(KingdomPlaced)
def _kingdom(t: Ah2001Tables, s: Ah2001State, e: KingdomPlaced) -> Ah2001State:
    cell = s.land(e.land)
    fort = "fort" in cell.buildings
    city = "city" not in cell.buildings and "capital" not in cell.buildings
    buildings = (cell.buildings - {"fort"}) | ({"city"} if city else set())
    s = with_supply(s, forts=1 if fort else 0, capitals_and_cities=-1 if city else 0)
    return with_cell(s, e.land, Cell(e.seat, e.figure, frozenset(buildings)))


@event
class CrusadersFortified(Ah2001Event):
    """The Crusaders took Palestine: a fort and a city are placed there."""

    land: str
    fort: bool
    city: bool


@FOLDS.handles(CrusadersFortified)
def _fortified(t: Ah2001Tables, s: Ah2001State, e: CrusadersFortified) -> Ah2001State:
    cell = s.land(e.land)
    added = ({"fort"} if e.fort else set()) | ({"city"} if e.city else set())
    s = with_supply(s, forts=-1 if e.fort else 0, capitals_and_cities=-1 if e.city else 0)
    return with_cell(s, e.land, evolved(cell, buildings=cell.buildings | added))
