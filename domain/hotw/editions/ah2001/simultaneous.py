"""The simultaneous-empires variant of the Avalon Hill 2001 rules (option
`simultaneous_empires`; shared/rules/hotw-variant-simultaneous-empires.txt, rules 1-10).

The epoch's Empires are called in their chronological order to play their cards and place their
start (rules 1-2); each then waits in a slot of `Ah2001State.parked`. Rounds follow: the next
Empire that can still expand becomes the active `turn`, makes at most ONE expansion attempt,
may fortify and reinforce, and ends its move (`end_round`) or its expansion
(`terminate_empire`, which counts its player's points for the epoch) (rules 3-5, 9). Monuments
are built as each pair of resource lands completes (rule 7); an Empire with no land left may only
attack back into its start land (rule 8); a Minor Empire takes a slot of its own and ends no
later than its main Empire (rule 10)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from domain.core.messages import Command
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.model import Ah2001State, Turn

if TYPE_CHECKING:
    from domain.hotw.editions.ah2001.engine import Ah2001Ruleset, Ctx


def rule(key: str) -> str:
    return f"ah2001.{key}"


def held_by_turn(state: Ah2001State, land: str) -> bool:
    """Whether the active Empire's own army stands in `land`."""
    turn = state.turn
    return turn is not None and land in turn.lands and state.land(land).owner == turn.seat


def holds_any(state: Ah2001State) -> bool:
    turn = state.turn
    return turn is not None and any(state.land(land).owner == turn.seat for land in turn.lands)


def active_slot(state: Ah2001State) -> int:
    assert state.slot is not None
    return state.slot


def start_land_of(rules: Ah2001Ruleset, turn: Turn) -> str | None:
    if turn.card is not None:
        land = rules.card(turn.card).effect.get("start_land")
        return None if land is None else str(land)
    from domain.hotw.editions.ah2001.engine import empire

    return empire(rules.tables, turn.empire).start_land


def round_actions(rules: Ah2001Ruleset, state: Ah2001State, seat: int) -> Iterator[Command]:
    """The active Empire's move: before its rounds (its start) only reinforcing its start land;
    in a round one attempt at most (rule 3; only its start land once it holds no land, rule 8),
    reinforcements and forts at any time, then `end_round` or `terminate_empire` (rule 9)."""
    from domain.hotw.editions.ah2001.engine import NAVAL_CONTROL, STACK, targets

    turn = state.turn
    assert turn is not None
    may_attempt = turn.started and not turn.attempted
    if turn.pool > 0:
        if turn.started and not holds_any(state):
            start = start_land_of(rules, turn)
            if start is not None and may_attempt:
                yield Command.of("place_army", land=start, via="land")
        else:
            for land, via in targets(rules.tables, state):
                if held_by_turn(state, land) or may_attempt:
                    yield Command.of("place_army", land=land, via=via.value)
    if (turn.pool > 0 or turn.free_forts > 0) and state.supply.get("forts", 0) > 0:
        for land in turn.lands:
            cell = state.land(land)
            if cell.owner == seat and "fort" not in cell.buildings and cell.armies < STACK:
                yield Command.of("build_fort", land=land)
    if turn.pool > 0 and NAVAL_CONTROL in state.options and turn.card is None and may_attempt:
        for water in turn.fleets:
            if rules.tables.board.waters[water].kind == "sea" and water not in turn.manned:
                yield Command.of("man_fleet", water=water)
    if turn.coins > 0 and turn.lost > 0:
        yield Command.of("recover_army")
    if turn.coins > 0 and state.supply.get("forts", 0) > turn.free_forts:
        yield Command.of("buy_fort")
    yield Command.of("end_round")
    if turn.started:
        yield Command.of("terminate_empire")


def round_step(rules: Ah2001Ruleset, ctx: Ctx) -> bool:
    """An Empire whose strength is spent ends its start, or its expansion (rule 9: it must
    count its points as soon as its strength points run out)."""
    turn = ctx.state.turn
    assert turn is not None
    if not turn.expanding or turn.pending is not None:
        return False
    if turn.pool > 0 or turn.free_forts > 0 or (turn.coins > 0 and turn.lost > 0):
        return False
    if not turn.started:
        end_round(ctx)
    else:
        terminate(rules, ctx, active_slot(ctx.state))
    return True


def next_round(rules: Ah2001Ruleset, ctx: Ctx) -> bool:
    """The next Empire in calling order (cycling) that can still expand becomes active; one
    without strength left is terminated (rule 5); when every Empire has ended, so does the
    epoch. A round in which no Empire attempted anything ends every Empire's expansion
    (ah2001.variant.rounds reading: nothing is left to play)."""
    state = ctx.state
    parked = state.parked
    live = [i for i, t in enumerate(parked) if not t.terminated]
    if not live:
        rules.end_epoch(ctx)
        return True
    if all(parked[i].idle for i in live):
        terminate(rules, ctx, live[0])
        return True
    count = len(parked)
    for k in range(count):
        slot = (state.cursor + k) % count
        waiting = parked[slot]
        if waiting.terminated:
            continue
        if waiting.pool <= 0 and waiting.free_forts <= 0:
            terminate(rules, ctx, slot)
            return True
        ctx.emit(
            ev.EmpireActivated(
                rule=rule("variant.rounds"), seat=waiting.seat, empire=waiting.empire, slot=slot
            )
        )
        return True
    raise AssertionError("a live Empire was not found")


def end_round(ctx: Ctx) -> None:
    turn = ctx.state.turn
    assert turn is not None
    key = "variant.rounds" if turn.started else "variant.start"
    ctx.emit(ev.EmpireParked(rule=rule(key), seat=turn.seat, empire=turn.empire, card=turn.card))


def terminate(rules: Ah2001Ruleset, ctx: Ctx, slot: int) -> None:
    """Rule 9: the Empire expands no further; a main Empire's player counts the epoch's points
    (its Minor Empire ends with it, rule 10); a Minor Empire ending alone counts nothing."""
    state = ctx.state
    active = state.turn if state.slot == slot else None
    ending = active or state.parked[slot]
    if ending.card is not None:
        ctx.emit(
            ev.EmpireTerminated(
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
                ev.EmpireTerminated(
                    rule=rule("variant.minor-empire"),
                    seat=waiting.seat,
                    empire=waiting.empire,
                    slot=other,
                    points={},
                    total=0,
                    card=waiting.card,
                )
            )
    points = rules.points_now(ctx.state, ending.seat)
    ctx.emit(
        ev.EmpireTerminated(
            rule=rule("variant.terminate"),
            cites=(rule("scoring.table"), rule("scoring.buildings")),
            seat=ending.seat,
            empire=ending.empire,
            slot=slot,
            points=points,
            total=sum(points.values()),
        )
    )


def monuments_at_once(rules: Ah2001Ruleset, ctx: Ctx) -> None:
    """Rule 7: as soon as a new pair of resource lands is complete, its monument is built."""
    turn = ctx.state.turn
    assert turn is not None
    resources = sum(
        1
        for land in turn.lands
        if ctx.state.land(land).owner == turn.seat and rules.tables.board.lands[land].resource
    )
    due = min(resources // 2 - turn.monuments_built, ctx.state.supply.get("monuments", 0))
    if due > 0:
        ctx.emit(
            ev.MonumentsEarned(rule=rule("variant.monuments-at-once"), seat=turn.seat, count=due)
        )
