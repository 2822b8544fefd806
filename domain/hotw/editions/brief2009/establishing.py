"""Empire turns and Establishing an Empire in A Brief History of the World: the Epoch's Empires
are called in order (brief.turns.order; an Empire nobody holds is skipped, brief.turns.skipped;
its holder declares it, brief.turns.declare); the Empire is established once, after any red
cards (brief.turns.steps): its Array from the colour's supply (brief.establish.array), its
start land cleared (brief.establish.clear-start-land) for its first army
(brief.establish.start-army), its capital (brief.establish.capital), fleets
(brief.establish.fleets) and Feature (brief.establish.feature, brief.features.use)."""

from __future__ import annotations

from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.changes import added
from domain.hotw.editions.brief2009.conclusion import end_epoch
from domain.hotw.editions.brief2009.context import (
    COMMANDS,
    FOLDS,
    BriefEvent,
    Ctx,
    placed,
)
from domain.hotw.editions.brief2009.event_cards import discard_red
from domain.hotw.editions.brief2009.expansion import FEATURES as EXPANSION_FEATURES
from domain.hotw.editions.brief2009.invasion import FEATURES as INVASION_FEATURES
from domain.hotw.editions.brief2009.model import (
    BriefState,
    Force,
    Phase,
    Turn,
)
from domain.hotw.editions.brief2009.revisions import RED_CARDS_AT_TURN_START
from domain.hotw.editions.brief2009.tables import BriefTables
from domain.hotw.refusals import refused

FEATURE_RULES = {**EXPANSION_FEATURES, **INVASION_FEATURES}
"""The clause of each Empire feature, by feature."""


def call_next(ctx: Ctx) -> None:
    state = ctx.state
    order = ctx.tables.empires_by_epoch[state.epoch]
    if state.call_index >= len(order):
        end_epoch(ctx)
        return
    spec = order[state.call_index]
    holders = [c for c, colour in enumerate(state.colours) if colour.empire == spec.id]
    if not holders:
        ctx.emit(
            EmpireSkipped(rule="brief.turns.skipped", cites=("brief.turns.order",), empire=spec.id)
        )
        return
    ctx.emit(
        TurnBegan(
            rule="brief.turns.declare",
            cites=("brief.turns.order",),
            colour=holders[0],
            empire=spec.id,
        )
    )


def why_not_establish(
    tables: BriefTables, state: BriefState, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "the Empire is established once, after any red cards", "brief.establish.array", command
    )


@COMMANDS.declares(
    "establish",
    "Establish the Empire: Array, start-land army, capital, fleets.",
    why_not=why_not_establish,
)
def establish(ctx: Ctx, seat: int, command: Command) -> None:
    state = ctx.state
    turn = state.turn
    assert turn is not None
    spec = ctx.tables.empire(turn.empire)
    cell = state.land(spec.start_land)
    removed = tuple(sorted(cell.buildings))
    available = state.colours[turn.colour].supply + (1 if cell.colour == turn.colour else 0)
    armies = min(spec.strength, available)
    counters = state.supply.get("capitals_and_cities", 0)
    counters += sum(b in ("capital", "city") for b in removed)
    fleets = spec.fleets[: state.supply.get("fleets", 0)]
    feature = (
        ("brief.establish.feature", "brief.features.use", FEATURE_RULES[spec.feature])
        if spec.feature
        else ()
    )
    ctx.emit(
        EmpireEstablished(
            rule="brief.establish.array",
            cites=(
                "brief.turns.steps",
                "brief.establish.start-army",
                "brief.establish.clear-start-land",
                *(("brief.establish.capital",) if spec.capital else ()),
                *(("brief.establish.fleets",) if fleets else ()),
                *feature,
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
    if ctx.tables.since(RED_CARDS_AT_TURN_START):
        discard_red(ctx, (seat,))


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class EmpireSkipped(BriefEvent):
    empire: str


@FOLDS.handles(EmpireSkipped)
def _skipped(t: BriefTables, s: BriefState, e: EmpireSkipped) -> BriefState:
    return evolved(s, call_index=s.call_index + 1)


@event
class TurnBegan(BriefEvent):
    """The holder of the called Empire card declares it."""

    REVEALS_HIDDEN = True

    colour: int
    empire: str


@FOLDS.handles(TurnBegan)
def _turn(t: BriefTables, s: BriefState, e: TurnBegan) -> BriefState:
    return evolved(s, call_index=s.call_index + 1, turn=Turn(e.colour, e.empire))


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


@FOLDS.handles(EmpireEstablished)
def _established(t: BriefTables, s: BriefState, e: EmpireEstablished) -> BriefState:
    spec = t.empire(e.empire)
    s = placed(s, e.land, e.colour, (e.removed_colour, e.removed), e.armies, e.capital)
    lands = (e.land,) if e.armies else ()
    force = Force(e.empire, False, max(0, e.armies - 1), spec.barbarian, spec.feature, 0, lands)
    turn = s.turn
    assert turn is not None
    turn = evolved(turn, phase=Phase.EXPANDING, forces=(force,), fleets=(*turn.fleets, *e.fleets))
    return evolved(s, supply=added(s.supply, fleets=-len(e.fleets)), turn=turn)
