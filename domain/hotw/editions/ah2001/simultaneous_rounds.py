"""The simultaneous-empires variant of the Avalon Hill 2001 rules, its rounds (option
`simultaneous_empires`; shared/rules/hotw-variant-simultaneous-empires.txt, rules 1-5, 8-10).

The epoch's Empires are called in their chronological order to play their cards and place their
start (rules 1-2, ah2001.variant.start); each then waits in a slot of `Ah2001State.parked`.
Rounds follow (ah2001.variant.rounds): the next Empire that can still expand becomes the active
`turn`, makes at most ONE expansion attempt, may fortify and reinforce, and ends its move
(`end_round`) or its expansion (`terminate_empire`, ah2001.variant.terminate, which counts its
player's points for the epoch) (rules 3-5, 9). An Empire with no land left may only attack back
into its start land (rule 8, ah2001.variant.no-lands-left); a Minor Empire takes a slot of its
own and ends no later than its main Empire (rule 10, ah2001.variant.minor-empire).

The variant as a whole: ah2001.variant.simultaneous."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.core.ruleset import OptionSpec
from domain.hotw.changes import with_player, with_turn
from domain.hotw.editions.ah2001.building import fort_actions
from domain.hotw.editions.ah2001.context import (
    COMMANDS,
    FOLDS,
    NAVAL_CONTROL,
    SIMULTANEOUS,
    Ah2001Event,
    Ctx,
    card,
    empire,
    held_by_turn,
    holds_any,
    with_supply,
)
from domain.hotw.editions.ah2001.event_cards import coin_actions
from domain.hotw.editions.ah2001.expansion import may_enter, targets
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Turn,
)
from domain.hotw.editions.ah2001.optional import naval_actions
from domain.hotw.editions.ah2001.pre_eminence import end_epoch
from domain.hotw.editions.ah2001.revisions import (
    COINS_TAKE_COUNTERS,
    LOST_LANDS_NOT_HELD,
    MINOR_BEFORE_OR_AFTER,
    POINTS_ONCE_PER_EPOCH,
    TERMINATION_CHOSEN,
)
from domain.hotw.editions.ah2001.scoring import points_now
from domain.hotw.editions.ah2001.tables import Ah2001Tables
from domain.hotw.refusals import refused

VARIANT = OptionSpec(
    SIMULTANEOUS,
    bool,
    False,
    "Variant: the epoch's Empires play pseudo-simultaneously, one expansion attempt "
    "each per round (the Simultaneous Empires variant)",
    rule="ah2001.variant.simultaneous",
)
"""The Simultaneous Empires variant, as the game's option."""


def active_slot(state: Ah2001State) -> int:
    assert state.slot is not None
    return state.slot


def start_land_of(tables: Ah2001Tables, turn: Turn) -> str | None:
    if turn.card is not None:
        land = card(tables, turn.card).effect.get("start_land")
        return None if land is None else str(land)
    return empire(tables, turn.empire).start_land


def round_actions(tables: Ah2001Tables, state: Ah2001State, seat: int) -> Iterator[Command]:
    """The active Empire's move: before its rounds (its start) only reinforcing its start land;
    in a round one attempt at most (rule 3; only its start land once it holds no land, rule 8),
    reinforcements and forts at any time, then `end_round` or `terminate_empire` (rule 9)."""
    turn = state.turn
    assert turn is not None
    may_attempt = turn.started and not turn.attempted
    if turn.pool > 0:
        if turn.started and not holds_any(state):
            start = start_land_of(tables, turn)
            if start is not None and may_attempt and may_enter(state, start):
                yield Command.of("place_army", land=start, via="land")
        else:
            for land, via in targets(tables, state):
                if (held_by_turn(state, land) or may_attempt) and may_enter(state, land):
                    yield Command.of("place_army", land=land, via=via.value)
    yield from fort_actions(tables, state, seat)
    free = turn.free_armies > 0
    if free and NAVAL_CONTROL in state.options and turn.card is None and may_attempt:
        yield from naval_actions(tables, state)
    yield from coin_actions(state)
    if may_attempt and main_moves_later(tables, state) is not None:
        yield Command.of("move_after_main")
    yield Command.of("end_round")
    if turn.started:
        yield Command.of("terminate_empire")


def main_moves_later(tables: Ah2001Tables, state: Ah2001State) -> int | None:
    """The slot of the active Minor Empire's main Empire, if it has still to move this round
    and the Minor may wait for it (rule 10, from revision 10)."""
    turn = state.turn
    if not tables.since(MINOR_BEFORE_OR_AFTER) or turn is None or turn.card is None:
        return None
    if turn.order or state.slot is None:
        return None
    return next(
        (
            slot
            for slot, waiting in enumerate(state.parked)
            if slot > state.slot
            and waiting.seat == turn.seat
            and waiting.card is None
            and not waiting.terminated
        ),
        None,
    )


def why_not_move_after_main(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "only a Minor Empire yet to move, whose main Empire moves later this round",
        "ah2001.variant.minor-empire",
        command,
    )


@COMMANDS.declares(
    "move_after_main",
    "Simultaneous empires: this Minor Empire makes its attempt after its main Empire's move.",
    why_not=why_not_move_after_main,
)
def move_after_main(ctx: Ctx, seat: int, command: Command) -> None:
    turn = ctx.state.turn
    assert turn is not None
    ctx.emit(
        MinorEmpireWaits(
            rule="ah2001.variant.minor-empire", seat=seat, empire=turn.empire, card=turn.card
        )
    )
    park(ctx)


def why_not_end_round(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "only with simultaneous empires, once the start is placed", "ah2001.variant.rounds", command
    )


def why_not_terminate(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "only with simultaneous empires, in an Empire's round", "ah2001.variant.terminate", command
    )


@COMMANDS.declares(
    "end_round",
    "Simultaneous empires: end this Empire's start, or its move in this round.",
    why_not=why_not_end_round,
)
def end_round(ctx: Ctx, seat: int, command: Command) -> None:
    turn = ctx.state.turn
    assert turn is not None
    if (
        ctx.tables.since(TERMINATION_CHOSEN)
        and turn.started
        and turn.pool > 0
        and not expansion_left(ctx.tables, ctx.state)
    ):
        terminate(ctx, active_slot(ctx.state))
        return
    park(ctx)


def expansion_left(tables: Ah2001Tables, state: Ah2001State) -> bool:
    """Whether the active Empire has any expansion left to attempt in a round (rule 9: with
    none, a pass ends it; its remaining strength could only fortify)."""
    turn = state.turn
    assert turn is not None
    if not holds_any(state):
        return start_land_of(tables, turn) is not None
    if any(not held_by_turn(state, land) for land, _ in targets(tables, state)):
        return True
    naval = NAVAL_CONTROL in state.options and turn.card is None
    return naval and any(True for _ in naval_actions(tables, state))


@COMMANDS.declares(
    "terminate_empire",
    "Simultaneous empires: end this Empire's expansion and count the epoch's points.",
    why_not=why_not_terminate,
)
def terminate_empire(ctx: Ctx, seat: int, command: Command) -> None:
    terminate(ctx, active_slot(ctx.state))


def round_step(ctx: Ctx) -> bool:
    """An Empire whose strength is spent ends its start, or its expansion (rule 9: it must
    count its points as soon as its strength points run out)."""
    turn = ctx.state.turn
    assert turn is not None
    if not turn.expanding or turn.pending is not None:
        return False
    if turn.pool > 0 or turn.free_forts > 0 or (turn.coins > 0 and turn.lost > 0):
        return False
    if not turn.started:
        park(ctx)
    else:
        terminate(ctx, active_slot(ctx.state))
    return True


def next_round(ctx: Ctx) -> bool:
    """The next Empire in calling order (cycling) that can still expand becomes active; one
    without strength left is terminated (rule 5); when every Empire has ended, so does the
    epoch. Before revision 9, a round in which no Empire attempted anything ended every
    Empire's expansion; since, only its player or its spent strength ends it."""
    state = ctx.state
    parked = state.parked
    live = [i for i, t in enumerate(parked) if not t.terminated]
    if not live:
        end_epoch(ctx)
        return True
    if not ctx.tables.since(TERMINATION_CHOSEN) and all(parked[i].idle for i in live):
        terminate(ctx, live[0])
        return True
    waiting_minor = minor_after(ctx.tables, state)
    if waiting_minor is not None:
        minor = parked[waiting_minor]
        ctx.emit(
            EmpireActivated(
                rule="ah2001.variant.minor-empire",
                seat=minor.seat,
                empire=minor.empire,
                slot=waiting_minor,
            )
        )
        return True
    count = len(parked)
    for k in range(count):
        slot = (state.cursor + k) % count
        waiting = parked[slot]
        if waiting.terminated:
            continue
        if waiting.pool <= 0 and waiting.free_forts <= 0:
            terminate(ctx, slot)
            return True
        ctx.emit(
            EmpireActivated(
                rule="ah2001.variant.rounds", seat=waiting.seat, empire=waiting.empire, slot=slot
            )
        )
        return True
    raise AssertionError("a live Empire was not found")


def minor_after(tables: Ah2001Tables, state: Ah2001State) -> int | None:
    """The slot of a Minor Empire waiting for its main Empire, which has just moved."""
    if not tables.since(MINOR_BEFORE_OR_AFTER) or state.cursor == 0:
        return None
    main = state.parked[(state.cursor - 1) % len(state.parked)]
    if main.card is not None:
        return None
    return next(
        (
            slot
            for slot, waiting in enumerate(state.parked)
            if waiting.seat == main.seat and waiting.order == "waiting" and not waiting.terminated
        ),
        None,
    )


def park(ctx: Ctx) -> None:
    turn = ctx.state.turn
    assert turn is not None
    key = "ah2001.variant.rounds" if turn.started else "ah2001.variant.start"
    ctx.emit(EmpireParked(rule=key, seat=turn.seat, empire=turn.empire, card=turn.card))


def terminate(ctx: Ctx, slot: int) -> None:
    """Rule 9: the Empire expands no further; a main Empire's player counts the epoch's points
    (its Minor Empire ends with it, rule 10); a Minor Empire ending alone counts nothing."""
    state = ctx.state
    active = state.turn if state.slot == slot else None
    ending = active or state.parked[slot]
    if ending.card is not None:
        ctx.emit(ended_counting_nothing("ah2001.variant.minor-empire", ending, slot))
        return
    for other, waiting in enumerate(state.parked):
        mine = waiting.seat == ending.seat and waiting.card is not None
        if other != slot and mine and not waiting.terminated:
            ctx.emit(ended_counting_nothing("ah2001.variant.minor-empire", waiting, other))
    if ctx.tables.since(POINTS_ONCE_PER_EPOCH) and another_empire_expands(state, slot):
        ctx.emit(ended_counting_nothing("ah2001.variant.terminate", ending, slot))
        return
    points = points_now(ctx.tables, ctx.state, ending.seat)
    ctx.emit(
        EmpireTerminated(
            rule="ah2001.variant.terminate",
            cites=("ah2001.scoring.table", "ah2001.scoring.buildings"),
            seat=ending.seat,
            empire=ending.empire,
            slot=slot,
            points=points,
            total=sum(points.values()),
        )
    )


def ended_counting_nothing(rule: str, empire: Turn, slot: int) -> EmpireTerminated:
    """An Empire (or Minor Empire: its `card`) ends without counting points."""
    return EmpireTerminated(
        rule=rule,
        seat=empire.seat,
        empire=empire.empire,
        slot=slot,
        points={},
        total=0,
        card=empire.card,
    )


def another_empire_expands(state: Ah2001State, slot: int) -> bool:
    """Whether the player of the Empire in `slot` holds another main Empire this epoch that
    has not terminated (rule 9: "he may only count victory points once per epoch": the
    points are counted when the last of them ends)."""
    ending = state.turn if state.slot == slot and state.turn is not None else state.parked[slot]
    return any(
        other != slot
        and waiting.seat == ending.seat
        and waiting.card is None
        and not waiting.terminated
        for other, waiting in enumerate(state.parked)
    )


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class EmpireParked(Ah2001Event):
    """The active Empire's move is over: it waits in its slot for its next round (a Minor
    Empire started inside its player's turn hands the turn back to the main Empire)."""

    seat: int
    empire: str
    card: str | None = None


@FOLDS.handles(EmpireParked)
def _parked(t: Ah2001Tables, s: Ah2001State, e: EmpireParked) -> Ah2001State:
    turn = s.turn
    assert turn is not None
    idle = turn.started and not turn.attempted
    waiting = evolved(turn, started=True, attempted=False, outer=None, idle=idle)
    if s.slot is not None:
        parked = list(s.parked)
        cursor = s.slot + 1
        if turn.order == "after":  # the round goes on after its main Empire
            waiting, cursor = evolved(waiting, order=""), s.cursor
        parked[s.slot] = waiting
        return evolved(s, parked=tuple(parked), turn=None, slot=None, cursor=cursor)
    if turn.outer is not None:
        return evolved(s, parked=(*s.parked, waiting), turn=turn.outer)
    return evolved(s, parked=(*s.parked, waiting), turn=None, call_index=s.call_index + 1)


@event
class MinorEmpireWaits(Ah2001Event):
    """Simultaneous empires: the Minor Empire will make its attempt of this round right after
    its main Empire's move (rule 10)."""

    seat: int
    empire: str
    card: str | None = None


@FOLDS.handles(MinorEmpireWaits)
def _minor_waits(t: Ah2001Tables, s: Ah2001State, e: MinorEmpireWaits) -> Ah2001State:
    return with_turn(s, order="waiting")


@event
class EmpireActivated(Ah2001Event):
    """The next Empire in the calling order that can still expand makes its round's move."""

    seat: int
    empire: str
    slot: int


@FOLDS.handles(EmpireActivated)
def _activated(t: Ah2001Tables, s: Ah2001State, e: EmpireActivated) -> Ah2001State:
    turn = s.parked[e.slot]
    if turn.order == "waiting":
        turn = evolved(turn, order="after")
    if t.since(LOST_LANDS_NOT_HELD):
        figure = turn.figure or s.epoch
        held = tuple(
            land
            for land in turn.lands
            if s.land(land).owner == turn.seat and s.land(land).figure == figure
        )
        turn = evolved(turn, lands=held)
    return evolved(s, turn=turn, slot=e.slot)


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


@FOLDS.handles(EmpireTerminated)
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
        cursor = s.cursor if ending.order == "after" else e.slot + 1
        return evolved(s, turn=None, slot=None, cursor=cursor)
    return evolved(s, cursor=max(s.cursor, e.slot + 1))
