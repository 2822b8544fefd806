"""The simultaneous-empires variant of the Avalon Hill 2001 rules (option
`simultaneous_empires`; shared/rules/hotw-variant-simultaneous-empires.txt), what it changes in
an Empire's own move: one expansion attempt per round (rule 6, ah2001.variant.one-attempt) and
each monument built as soon as its pair of resource lands is complete (rule 7,
ah2001.variant.monuments-at-once). The rounds themselves: `simultaneous_rounds`."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.changes import with_turn
from domain.hotw.editions.ah2001.context import (
    FOLDS,
    Ah2001Event,
    Ctx,
)
from domain.hotw.editions.ah2001.model import (
    Ah2001State,
    Stage,
)
from domain.hotw.editions.ah2001.tables import Ah2001Tables


def attempted(ctx: Ctx, seat: int, target: str) -> None:
    """Rule 6: the Empire makes its one attempt of the round at `target`."""
    ctx.emit(ExpansionAttempted(rule="ah2001.variant.one-attempt", seat=seat, target=target))


def monuments_at_once(ctx: Ctx) -> None:
    """Rule 7: as soon as a new pair of resource lands is complete, its monument is built."""
    turn = ctx.state.turn
    assert turn is not None
    resources = sum(
        1
        for land in turn.lands
        if ctx.state.land(land).owner == turn.seat and ctx.tables.board.lands[land].resource
    )
    due = min(
        resources // ctx.tables.resources_per_monument - turn.monuments_built,
        ctx.state.supply.get("monuments", 0),
    )
    if due > 0:
        ctx.emit(
            MonumentsEarned(rule="ah2001.variant.monuments-at-once", seat=turn.seat, count=due)
        )


def monuments_done(ctx: Ctx) -> None:
    """Rule 7: the monuments earned are built; the Empire's move goes on."""
    turn = ctx.state.turn
    assert turn is not None
    ctx.emit(MonumentsDone(rule="ah2001.variant.monuments-at-once", seat=turn.seat))


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class ExpansionAttempted(Ah2001Event):
    """Simultaneous empires: the active Empire makes its round's one expansion attempt (into a
    land, or onto a sea with a fleet); win or lose, it attempts no other this round."""

    seat: int
    target: str


@FOLDS.handles(ExpansionAttempted)
def _attempted(t: Ah2001Tables, s: Ah2001State, e: ExpansionAttempted) -> Ah2001State:
    return with_turn(s, attempted=True)


@event
class MonumentsEarned(Ah2001Event):
    """Simultaneous empires: the Empire has just taken the second land of a new pair of
    resource symbols, and builds the monument at once."""

    seat: int
    count: int


@FOLDS.handles(MonumentsEarned)
def _earned(t: Ah2001Tables, s: Ah2001State, e: MonumentsEarned) -> Ah2001State:
    return with_turn(evolved(s, stage=Stage.MONUMENTS), monuments_due=e.count)


@event
class MonumentsDone(Ah2001Event):
    seat: int


@FOLDS.handles(MonumentsDone)
def _monuments_done(t: Ah2001Tables, s: Ah2001State, e: MonumentsDone) -> Ah2001State:
    return with_turn(evolved(s, stage=Stage.TURNS), monuments_due=0)
