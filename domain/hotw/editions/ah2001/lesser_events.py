"""Chapter IV of the Avalon Hill 2001 rules, the Event cards that name targets (Lesser Events
and the Greater cards of that kind): the player names lands, areas or a sea one by one (how
many: the data pack's `targets`), then the card acts - Astronomy's fleet, Treachery's land,
Disaster, Famine, Pestilence, the Black Death and the Plague striking armies, Migrants landing,
the Civil War, Barbarians and the Jewish Revolt attacking with a far epoch's army
(ah2001.events.lesser-kinds, ah2001.events.far-epoch).

The cards, each cited by the clause of its kind (`TARGET_CARDS`)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.changes import with_cell, with_turn
from domain.hotw.editions.ah2001.combat import (
    DEFENDER_LOSSES,
    Approach,
    Edge,
    Via,
    defence_dice,
    fight_round,
    fights_on,
    over_the_wall,
)
from domain.hotw.editions.ah2001.context import (
    COMMANDS,
    FOLDS,
    Ah2001Event,
    Ctx,
    card,
    far_epoch,
    with_supply,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Cell,
)
from domain.hotw.editions.ah2001.revisions import MIGRANTS_PLACE_TWO, PESTILENCE_ANY_LAND
from domain.hotw.editions.ah2001.sack import sack_on_entry
from domain.hotw.editions.ah2001.tables import Ah2001Tables, EventCardKind
from domain.hotw.refusals import refused

TARGET_CARDS = {
    "astronomy": "ah2001.events.astronomy",
    "treachery": "ah2001.events.treachery",
    "disaster": "ah2001.events.disaster",
    "famine": "ah2001.events.famine",
    "pestilence": "ah2001.events.pestilence",
    "black-death": "ah2001.events.black-death",
    "plague": "ah2001.events.plague",
    "migrants": "ah2001.events.migrants",
    "civil-war": "ah2001.events.civil-war",
    "barbarians": "ah2001.events.barbarians",
    "jewish-revolt": "ah2001.events.jewish-revolt",
}
"""The clause of each kind of card this chapter plays out, by kind."""


def target_options(tables: Ah2001Tables, state: Ah2001State, played: EventCardKind) -> list[str]:
    """What the pending card may name next (its text's choices)."""
    turn = state.turn
    assert turn is not None
    board = tables.board
    taken = set(turn.picks)
    kind = played.kind
    if kind == "astronomy":
        if state.supply.get("counters", 0) <= 0:
            return []
        return sorted(
            w.id for w in board.waters.values() if w.kind == "sea" and w.id not in turn.fleets
        )
    if kind == "treachery":
        return sorted(land for land, c in state.lands.items() if c.owner not in (None, turn.seat))
    if kind == "disaster":
        return sorted(
            land
            for land, c in state.lands.items()
            if "monument" in c.buildings and land not in taken
        )
    if kind == "famine":
        return sorted(tables.victory_points.scores)
    if kind == "pestilence":
        if tables.since(PESTILENCE_ANY_LAND):
            return sorted(board.lands)
        return sorted(land for land, c in state.lands.items() if c.owner is not None)
    if kind == "black-death":
        if not turn.picks:
            return sorted(tables.victory_points.scores)
        return sorted(adjacent_areas(tables, turn.picks[0]))
    if kind == "plague":
        return plague_options(tables, state, taken)
    if kind == "civil-war":
        return civil_war_options(state, turn.seat, turn.picks)
    if kind == "barbarians":
        return barbarian_options(tables, state, turn.seat, turn.picks)
    if kind == "migrants":
        area = str(played.effect["area"])
        return sorted(
            land.id
            for land in board.lands.values()
            if land.area == area and state.land(land.id).owner is None and land.id not in taken
        )
    return []


def plague_options(tables: Ah2001Tables, state: Ah2001State, taken: set[str]) -> list[str]:
    """Any occupied land first; then an occupied land next to the last army it killed."""
    turn = state.turn
    assert turn is not None
    if not turn.picks:
        return sorted(land for land, c in state.lands.items() if c.owner is not None)
    last = turn.picks[-1]
    return sorted(
        land
        for land in tables.board.adjacent(last)
        if state.land(land).owner is not None and land not in taken
    )


def civil_war_options(state: Ah2001State, seat: int, picks: tuple[str, ...]) -> list[str]:
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


def barbarian_options(
    tables: Ah2001Tables, state: Ah2001State, seat: int, picks: tuple[str, ...]
) -> list[str]:
    """First a barren land next to an enemy army; then, one by one, the enemy lands next
    to it, until they are all conquered."""
    board = tables.board

    def enemies_next_to(barren: str) -> list[str]:
        return sorted(
            land for land in board.adjacent(barren) if state.land(land).owner not in (None, seat)
        )

    if not picks:
        return sorted(
            land.id for land in board.lands.values() if land.barren and enemies_next_to(land.id)
        )
    return enemies_next_to(picks[0])


def adjacent_areas(tables: Ah2001Tables, area: str) -> set[str]:
    board = tables.board
    found: set[str] = set()
    for land in board.lands.values():
        if land.area != area:
            continue
        for other in board.adjacent(land.id):
            other_area = board.lands[other].area
            if other_area is not None and other_area != area:
                found.add(other_area)
    return found


def targeting_actions(tables: Ah2001Tables, state: Ah2001State) -> Iterator[Command]:
    """The pending card's next target; an `up to` card may stop early."""
    turn = state.turn
    assert turn is not None and turn.pending is not None
    pending = card(tables, turn.pending)
    options = target_options(tables, state, pending)
    for target in options:
        yield Command.of("choose_target", target=target)
    if may_stop(tables, state, pending, len(options)):
        yield Command.of("stop_targeting")


def may_stop(tables: Ah2001Tables, state: Ah2001State, pending: EventCardKind, left: int) -> bool:
    """An `up to` card may stop early. Migrants, from revision 11, "Place two armies ... These
    armies must occupy vacant Lands": they stop short only when fewer vacant lands are left
    in the area than armies still to place (ah2001.events.migrants)."""
    if pending.kind not in tables.targets.up_to:
        return False
    if pending.kind == "migrants" and tables.since(MIGRANTS_PLACE_TWO):
        turn = state.turn
        assert turn is not None
        limit = tables.targets.limit(pending.kind) or 0
        return left < limit - len(turn.picks)
    return True


def targeting_step(ctx: Ctx) -> bool:
    """The pending card acts once it has all its targets or none is left to name; False while
    its player must name one."""
    turn = ctx.state.turn
    assert turn is not None and turn.pending is not None
    pending = card(ctx.tables, turn.pending)
    limit = ctx.tables.targets.limit(pending.kind)
    done = limit is not None and len(turn.picks) >= limit
    if done or not target_options(ctx.tables, ctx.state, pending):
        resolve_card(ctx)
        return True
    return False


def why_not_choose(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused("not a target this card may name now", "ah2001.events.lesser-kinds", command)


def why_not_stop(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    turn = state.turn
    pending = turn.pending if turn is not None and turn.seat == seat else None
    if pending is not None and card(tables, pending).kind == "migrants":
        return refused(
            "Migrants place two armies while vacant lands of the area are left",
            "ah2001.events.migrants",
            command,
        )
    return refused("this card names all its targets", "ah2001.events.lesser-kinds", command)


@COMMANDS.declares(
    "choose_target",
    "Name a land, area or sea for the Event card being played.",
    Arg("target", "A land, area or sea id."),
    why_not=why_not_choose,
)
def choose_target(ctx: Ctx, seat: int, command: Command) -> None:
    turn = ctx.state.turn
    assert turn is not None and turn.pending is not None
    pending = card(ctx.tables, turn.pending)
    target = str(command.arg("target"))
    ctx.emit(
        TargetChosen(rule=TARGET_CARDS[pending.kind], seat=seat, card=turn.pending, target=target)
    )
    if pending.kind == "plague":
        plague_strikes(ctx, pending, target)
    if pending.kind == "barbarians" and len(turn.picks) > 0:
        barbarians_attack(ctx, seat, pending, turn.picks[0], target)


@COMMANDS.declares(
    "stop_targeting",
    "Name no more targets for the card (`up to` cards).",
    why_not=why_not_stop,
)
def stop_targeting(ctx: Ctx, seat: int, command: Command) -> None:
    resolve_card(ctx)


def plague_strikes(ctx: Ctx, played: EventCardKind, land: str) -> None:
    """ah2001.events.plague: four dice for the first army, three for each one after; the
    chain stops at the first army that survives."""
    first = len(ctx.state.turn.picks) == 1 if ctx.state.turn else True
    dice = int(played.effect["first_dice" if first else "spread_dice"])
    roll = ctx.chance.dice(dice)
    died = 1 in roll
    ctx.emit(
        ArmiesStruck(
            rule="ah2001.events.plague",
            card=played.id,
            rolls=(roll,),
            lands=(land,),
            destroyed=(land,) if died else (),
            draws=ctx.chance.take_draws(),
        )
    )
    if not died:
        card_done(ctx, played)


def barbarians_attack(ctx: Ctx, seat: int, played: EventCardKind, barren: str, land: str) -> None:
    """ah2001.events.barbarians: a new far-epoch army attacks out of the barren land with
    the normal dice; the first defeat ends the invasion."""
    board = ctx.tables.board
    way = Approach(
        Via.LAND,
        strait=land in board.lands[barren].straits,
        great_wall=over_the_wall(ctx.tables, barren, land),
    )
    dice = ctx.tables.combat.revolt_attack
    revolt(ctx, seat, land, key="ah2001.events.barbarians", dice=dice, way=way)
    if ctx.state.land(land).owner != seat:
        card_done(ctx, played)


def card_done(ctx: Ctx, played: EventCardKind) -> None:
    turn = ctx.state.turn
    assert turn is not None
    ctx.emit(CardResolved(rule=TARGET_CARDS[played.kind], seat=turn.seat, card=played.id))


def resolve_card(ctx: Ctx) -> None:
    """The pending card acts on the targets chosen."""
    state = ctx.state
    turn = state.turn
    assert turn is not None and turn.pending is not None
    pending = card(ctx.tables, turn.pending)
    picks = turn.picks
    key = TARGET_CARDS[pending.kind]
    if pending.kind == "astronomy" and picks:
        ctx.emit(FleetAdded(rule=key, seat=turn.seat, water=picks[0]))
    elif pending.kind == "treachery" and picks:
        ctx.emit(TreacheryNamed(rule=key, seat=turn.seat, land=picks[0]))
    elif pending.kind == "disaster" and picks:
        ctx.emit(MonumentsDestroyed(rule=key, lands=tuple(picks)))
    elif pending.kind == "migrants" and picks:
        figure = int(pending.effect.get("figures_epoch") or 1)
        ctx.emit(ArmiesLanded(rule=key, seat=turn.seat, lands=tuple(picks), figure=figure))
    elif pending.kind in ("famine", "pestilence", "black-death") and picks:
        strike(ctx, pending, picks)
    elif pending.kind == "civil-war":
        for land in picks:
            revolt(ctx, turn.seat, land, key=key, dice=ctx.tables.combat.revolt_attack)
    ctx.emit(CardResolved(rule=key, seat=turn.seat, card=pending.id))


def strike(ctx: Ctx, played: EventCardKind, picks: tuple[str, ...]) -> None:
    """Each army named rolls its dice; any 1 destroys it with its fort."""
    state = ctx.state
    board = ctx.tables.board
    dice: dict[str, int] = {}
    if played.kind == "pestilence":
        dice[picks[0]] = int(played.effect["first_dice"])
        for other in sorted(board.adjacent(picks[0])):
            dice.setdefault(other, int(played.effect["adjacent_dice"]))
    else:
        for land in sorted(state.lands):
            if board.lands[land].area in picks:
                dice[land] = int(played.effect["dice"])
    lands = tuple(land for land in sorted(dice) if state.land(land).owner is not None)
    rolls = tuple(ctx.chance.dice(dice[land]) for land in lands)
    destroyed = tuple(land for land, roll in zip(lands, rolls, strict=True) if 1 in roll)
    ctx.emit(
        ArmiesStruck(
            rule=TARGET_CARDS[played.kind],
            card=played.id,
            rolls=rolls,
            lands=lands,
            destroyed=destroyed,
            draws=ctx.chance.take_draws(),
        )
    )


def revolt(
    ctx: Ctx, seat: int, land: str, *, key: str, dice: int, way: Approach | None = None
) -> None:
    """A far epoch's army of the player's colour attacks `land` (Jewish Revolt, Civil War,
    Barbarians): `dice` for the attacker, one die for the defender - more over Difficult
    Terrain only when the attack comes `way` (never for the revolts) - a fort still counts;
    an empty land (or the player's own army there) is simply taken."""
    figure = far_epoch(ctx.tables, ctx.state.epoch)
    bonus = Edge(no_terrain_penalty=way is None)
    terrain = frozenset({ctx.tables.board.lands[land].terrain})
    defending, defence_rule = defence_dice(
        ctx.tables.combat, terrain, way or Approach(Via.LAND), bonus
    )
    while True:
        cell = ctx.state.land(land)
        if cell.owner is None or cell.owner == seat:
            ctx.emit(
                RevoltFought(
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
            if cell.owner is None:
                sack_on_entry(ctx, land)
            return
        attack = ctx.chance.dice(dice)
        defence = ctx.chance.dice(defending)
        fought = fight_round(ctx.tables.combat, attack, defence, cell.buildings, bonus)
        cites = ("ah2001.combat.dice", "ah2001.combat.fort", "ah2001.events.far-epoch")
        ctx.emit(
            RevoltFought(
                rule=key,
                cites=tuple(dict.fromkeys((*cites, defence_rule))),
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
        if not fights_on(ctx, land, fought):
            return


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class TargetChosen(Ah2001Event):
    seat: int
    card: str
    target: str


@FOLDS.handles(TargetChosen)
def _target(t: Ah2001Tables, s: Ah2001State, e: TargetChosen) -> Ah2001State:
    assert s.turn is not None
    return with_turn(s, picks=(*s.turn.picks, e.target))


@event
class CardResolved(Ah2001Event):
    """The card's targets are chosen (or the player chose no more): it has acted."""

    seat: int
    card: str


@FOLDS.handles(CardResolved)
def _resolved(t: Ah2001Tables, s: Ah2001State, e: CardResolved) -> Ah2001State:
    return with_turn(s, pending=None, picks=())


@event
class ArmiesStruck(Ah2001Event):
    """Famine, Pestilence, Black Death: each army named rolls; a 1 destroys it and its fort."""

    card: str
    rolls: tuple[tuple[int, ...], ...]
    lands: tuple[str, ...]
    destroyed: tuple[str, ...]


@FOLDS.handles(ArmiesStruck)
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


@FOLDS.handles(MonumentsDestroyed)
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


@FOLDS.handles(ArmiesLanded)
def _landed(t: Ah2001Tables, s: Ah2001State, e: ArmiesLanded) -> Ah2001State:
    for land in e.lands:
        s = with_cell(s, land, Cell(e.seat, e.figure, s.land(land).buildings))
    return s


@event
class FleetAdded(Ah2001Event):
    """Astronomy: one more fleet, in a sea."""

    seat: int
    water: str


@FOLDS.handles(FleetAdded)
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


@FOLDS.handles(RevoltFought)
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


@FOLDS.handles(TreacheryNamed)
def _treachery(t: Ah2001Tables, s: Ah2001State, e: TreacheryNamed) -> Ah2001State:
    return with_turn(s, treachery=e.land)
