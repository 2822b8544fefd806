"""The Optional Rules for Advanced Players of the Avalon Hill 2001 rules: no pre-eminence
markers (ah2001.option.no-pre-eminence, read at the end of an epoch), Minor Empires dealt to
every player (ah2001.option.minor-empires, read at the deal), Multiple Armies in a land
(ah2001.option.multiple-armies) and Naval Control of the seas (ah2001.option.naval-control:
manned fleets stay, score and fight other fleets)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.declare import Arg
from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.core.ruleset import OptionSpec
from domain.hotw.changes import with_turn
from domain.hotw.editions.ah2001.context import (
    COMMANDS,
    FOLDS,
    MINOR_EMPIRES,
    MULTIPLE_ARMIES,
    NAVAL_CONTROL,
    NO_PRE_EMINENCE,
    SIMULTANEOUS,
    Ah2001Event,
    Ctx,
    with_supply,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    SeaHeld,
)
from domain.hotw.editions.ah2001.simultaneous import attempted
from domain.hotw.editions.ah2001.tables import Ah2001Tables
from domain.hotw.refusals import refused

OPTIONS = (
    OptionSpec(
        NO_PRE_EMINENCE,
        bool,
        False,
        "Optional rule: no pre-eminence markers are awarded",
        rule="ah2001.option.no-pre-eminence",
    ),
    OptionSpec(
        MINOR_EMPIRES,
        bool,
        False,
        "Optional rule: every player is dealt one Minor Empire card and two other Greater Events",
        rule="ah2001.option.minor-empires",
    ),
    OptionSpec(
        MULTIPLE_ARMIES,
        bool,
        False,
        "Optional rule: up to three figures of a player in a land - three armies, or two "
        "and a fort; the extra figures only absorb losses",
        rule="ah2001.option.multiple-armies",
    ),
    OptionSpec(
        NAVAL_CONTROL,
        bool,
        False,
        "Optional rule: an Active Empire may put pool armies on its fleets in seas; those "
        "fleets stay, score one point per sea and must be fought by other players' fleets",
        rule="ah2001.option.naval-control",
    ),
)
"""The Optional Rules for Advanced Players, as the game's options."""


def stack(tables: Ah2001Tables) -> int:
    """ah2001.option.multiple-armies: how many figures of a player a land holds, a fort
    counted."""
    return tables.stack


def naval_actions(tables: Ah2001Tables, state: Ah2001State) -> Iterator[Command]:
    """With Naval Control an army from the pool goes onto one of the Active Empire's fleets in
    a sea (never an ocean), once per fleet."""
    turn = state.turn
    assert turn is not None
    for water in turn.fleets:
        if tables.board.waters[water].kind == "sea" and water not in turn.manned:
            yield Command.of("man_fleet", water=water)


def why_not_man(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "with Naval Control an army from the pool goes onto one of the Active Empire's "
        "fleets in a sea (not an ocean), once",
        "ah2001.option.naval-control",
        command,
    )


@COMMANDS.declares(
    "man_fleet",
    "Naval Control option: put an army from the pool on the Empire's fleet in a sea; "
    "the fleet stays after the turn and scores the sea.",
    Arg("water", "A sea id.", ids=lambda t: tuple(sorted(t.board.waters))),
    why_not=why_not_man,
)
def man_fleet(ctx: Ctx, seat: int, command: Command) -> None:
    water = str(command.arg("water"))
    if SIMULTANEOUS in ctx.state.options:
        attempted(ctx, seat, water)
    ctx.emit(
        FleetManned(
            rule="ah2001.option.naval-control",
            seat=seat,
            water=str(command.arg("water")),
            figure=ctx.state.epoch,
        )
    )


def reclaim_fleets(ctx: Ctx, wanted: int) -> None:
    """Fleets with armies leave the board, the oldest epoch's first, until the Active
    Empire has its fleet counters (before revision 11: within an epoch, in the seas'
    alphabetical order)."""
    missing = wanted - ctx.state.supply.get("counters", 0)
    if missing <= 0 or not ctx.state.seas:
        return
    oldest = sorted(ctx.state.seas, key=lambda w: (ctx.state.seas[w].figure, w))
    ctx.emit(FleetsReclaimed(rule="ah2001.option.naval-control", waters=tuple(oldest[:missing])))


def oldest_fleets(state: Ah2001State) -> tuple[str, ...]:
    """The seas held by the fleets with armies of the oldest epoch that has any."""
    if not state.seas:
        return ()
    oldest = min(held.figure for held in state.seas.values())
    return tuple(sorted(w for w, held in state.seas.items() if held.figure == oldest))


def fleets_to_choose(state: Ah2001State, wanted: int) -> tuple[str, ...]:
    """The fleets the Active Empire chooses among, one at a time, to get the `wanted` fleet
    counters it lacks (from revision 11): those of the oldest epoch, when that epoch holds more
    fleets than counters are still missing (empty: nothing to choose)."""
    missing = wanted - state.supply.get("counters", 0)
    oldest = oldest_fleets(state)
    return oldest if 0 < missing < len(oldest) else ()


def reclaim_whole_epochs(ctx: Ctx, wanted: int) -> bool:
    """ah2001.option.naval-control from revision 11: "fleets with armies are removed from the
    board starting with the oldest Epoch first": every fleet of each oldest epoch that must
    go, all of them, leaves; False when the Active Empire must now choose within an epoch
    (`reclaim_fleet`)."""
    while True:
        missing = wanted - ctx.state.supply.get("counters", 0)
        oldest = oldest_fleets(ctx.state)
        if missing <= 0 or not oldest:
            return True
        if len(oldest) > missing:
            return False
        ctx.emit(FleetsReclaimed(rule="ah2001.option.naval-control", waters=oldest))


def reclaim_actions(choices: tuple[str, ...]) -> Iterator[Command]:
    for water in choices:
        yield Command.of("reclaim_fleet", water=water)


def why_not_reclaim(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "the Active Empire short of fleet counters takes a fleet with an army of the oldest "
        "epoch that has any, when that epoch holds more than it needs",
        "ah2001.option.naval-control",
        command,
    )


@COMMANDS.declares(
    "reclaim_fleet",
    "Naval Control option: take back this fleet with an army, of the oldest epoch, for a "
    "fleet counter the Empire lacks.",
    Arg("water", "A sea id.", ids=lambda t: tuple(sorted(t.board.waters))),
    why_not=why_not_reclaim,
)
def reclaim_fleet(ctx: Ctx, seat: int, command: Command) -> None:
    water = str(command.arg("water"))
    ctx.emit(FleetReclaimed(rule="ah2001.option.naval-control", seat=seat, water=water))


def fight_for_seas(ctx: Ctx, seat: int) -> None:
    """Each fleet placed in a sea another player's fleet holds fights it once, two dice
    against one, before any expansion; a tie sinks both."""
    turn = ctx.state.turn
    assert turn is not None
    attacking, defending = ctx.tables.combat.naval_attack, ctx.tables.combat.naval_defence
    for water in turn.fleets:
        held = ctx.state.seas.get(water)
        if held is None or held.owner == seat:
            continue
        attack = ctx.chance.dice(attacking)
        defence = ctx.chance.dice(defending)
        a, d = max(attack), max(defence)
        result = "defender_lost" if a > d else "attacker_lost" if a < d else "both_lost"
        ctx.emit(
            NavalBattleFought(
                rule="ah2001.option.naval-control",
                cites=("ah2001.combat.dice", "ah2001.combat.tie"),
                seat=seat,
                water=water,
                defender=held.owner,
                attack_dice=attack,
                defence_dice=defence,
                result=result,
                draws=ctx.chance.take_draws(),
            )
        )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class FleetsReclaimed(Ah2001Event):
    """Too few fleet counters for the Active Empire: fleets with armies leave the board, the
    oldest epoch's first (ah2001.option.naval-control)."""

    waters: tuple[str, ...]


@FOLDS.handles(FleetsReclaimed)
def _reclaimed(t: Ah2001Tables, s: Ah2001State, e: FleetsReclaimed) -> Ah2001State:
    seas = {w: h for w, h in s.seas.items() if w not in e.waters}
    return with_supply(evolved(s, seas=seas), counters=len(e.waters))


@event
class FleetReclaimed(Ah2001Event):
    """The Active Empire, short of fleet counters, chose this fleet with an army (of the
    oldest epoch that has any) to leave the board (ah2001.option.naval-control, from
    revision 11)."""

    seat: int
    water: str


@FOLDS.handles(FleetReclaimed)
def _reclaimed_one(t: Ah2001Tables, s: Ah2001State, e: FleetReclaimed) -> Ah2001State:
    seas = {w: h for w, h in s.seas.items() if w != e.water}
    return with_supply(evolved(s, seas=seas), counters=1)


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


@FOLDS.handles(NavalBattleFought)
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


@FOLDS.handles(FleetManned)
def _manned(t: Ah2001Tables, s: Ah2001State, e: FleetManned) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    relieved = 1 if e.water in s.seas else 0  # the player's own older fleet there goes home
    seas = {**s.seas, e.water: SeaHeld(e.seat, e.figure)}
    s = with_turn(s, pool=turn.pool - 1, manned=(*turn.manned, e.water))
    return with_supply(evolved(s, seas=seas), counters=relieved)
