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
from domain.hotw.changes import with_player
from domain.hotw.editions.ah2001.building import fort_actions
from domain.hotw.editions.ah2001.context import (
    COMMANDS,
    FOLDS,
    NAVAL_CONTROL,
    Ah2001Event,
    Ctx,
    card,
    empire,
    held_by_turn,
    holds_any,
    refused,
    rule,
    with_supply,
)
from domain.hotw.editions.ah2001.event_cards import coin_actions
from domain.hotw.editions.ah2001.expansion import targets
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Turn,
)
from domain.hotw.editions.ah2001.optional import naval_actions
from domain.hotw.editions.ah2001.pre_eminence import end_epoch
from domain.hotw.editions.ah2001.revisions import COINS_TAKE_COUNTERS
from domain.hotw.editions.ah2001.scoring import points_now
from domain.hotw.editions.ah2001.tables import Ah2001Tables


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
            if start is not None and may_attempt:
                yield Command.of("place_army", land=start, via="land")
        else:
            for land, via in targets(tables, state):
                if held_by_turn(state, land) or may_attempt:
                    yield Command.of("place_army", land=land, via=via.value)
    yield from fort_actions(tables, state, seat)
    if turn.pool > 0 and NAVAL_CONTROL in state.options and turn.card is None and may_attempt:
        yield from naval_actions(tables, state)
    yield from coin_actions(state)
    yield Command.of("end_round")
    if turn.started:
        yield Command.of("terminate_empire")


def why_not_end_round(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "only with simultaneous empires, once the start is placed", "variant.rounds", command
    )


def why_not_terminate(
    tables: Ah2001Tables, state: Ah2001State, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "only with simultaneous empires, in an Empire's round", "variant.terminate", command
    )


@COMMANDS.declares(
    "end_round",
    "Simultaneous empires: end this Empire's start, or its move in this round.",
    why_not=why_not_end_round,
)
def end_round(ctx: Ctx, seat: int, command: Command) -> None:
    park(ctx)


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
    epoch. A round in which no Empire attempted anything ends every Empire's expansion
    (ah2001.variant.rounds reading: nothing is left to play)."""
    state = ctx.state
    parked = state.parked
    live = [i for i, t in enumerate(parked) if not t.terminated]
    if not live:
        end_epoch(ctx)
        return True
    if all(parked[i].idle for i in live):
        terminate(ctx, live[0])
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
                rule=rule("variant.rounds"), seat=waiting.seat, empire=waiting.empire, slot=slot
            )
        )
        return True
    raise AssertionError("a live Empire was not found")


def park(ctx: Ctx) -> None:
    turn = ctx.state.turn
    assert turn is not None
    key = "variant.rounds" if turn.started else "variant.start"
    ctx.emit(EmpireParked(rule=rule(key), seat=turn.seat, empire=turn.empire, card=turn.card))


def terminate(ctx: Ctx, slot: int) -> None:
    """Rule 9: the Empire expands no further; a main Empire's player counts the epoch's points
    (its Minor Empire ends with it, rule 10); a Minor Empire ending alone counts nothing."""
    state = ctx.state
    active = state.turn if state.slot == slot else None
    ending = active or state.parked[slot]
    if ending.card is not None:
        ctx.emit(
            EmpireTerminated(
                rule=rule("variant.minor-empire"),
                seat=ending.seat,
                empire=ending.empire,
                slot=slot,
                points={},
                total=0,
                card=ending.card,
            )
        )
        return
    for other, waiting in enumerate(state.parked):
        mine = waiting.seat == ending.seat and waiting.card is not None
        if other != slot and mine and not waiting.terminated:
            ctx.emit(
                EmpireTerminated(
                    rule=rule("variant.minor-empire"),
                    seat=waiting.seat,
                    empire=waiting.empire,
                    slot=other,
                    points={},
                    total=0,
                    card=waiting.card,
                )
            )
    points = points_now(ctx.tables, ctx.state, ending.seat)
    ctx.emit(
        EmpireTerminated(
            rule=rule("variant.terminate"),
            cites=(rule("scoring.table"), rule("scoring.buildings")),
            seat=ending.seat,
            empire=ending.empire,
            slot=slot,
            points=points,
            total=sum(points.values()),
        )
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


@FOLDS.handles(EmpireActivated)
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
        return evolved(s, turn=None, slot=None, cursor=e.slot + 1)
    return evolved(s, cursor=max(s.cursor, e.slot + 1))
