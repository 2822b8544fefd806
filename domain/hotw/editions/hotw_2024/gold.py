"""The Gold track (p2): collecting gold, and who has most or least gold."""

from __future__ import annotations

from domain.core.messages import event
from domain.hotw.editions.hotw_2024.context import (
    FOLDS,
    Ctx,
    HotwEvent,
    with_gold,
)
from domain.hotw.editions.hotw_2024.model import (
    HotwState,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack


def collect_gold(
    ctx: Ctx, seat: int, amount: int, rule: str, reason: str = "", also: tuple[str, ...] = ()
) -> None:
    """Move `seat`'s chest `amount` spaces on (general.gold.track), into a further circuit
    past the last space (general.gold.wrap); nothing for 0. `also`: the other rules that
    decided the amount."""
    if amount <= 0:
        return
    keys = ["hotw24.general.gold.track", *also]
    spaces = ctx.pack.cards.pieces.gold_track_spaces
    before = ctx.state.players[seat].gold
    if circuits(before + amount, spaces) > circuits(before, spaces):
        keys.append("hotw24.general.gold.wrap")
    ctx.emit(
        GoldCollected(
            rule=rule,
            cites=tuple(key for key in dict.fromkeys(keys) if key != rule),
            seat=seat,
            amount=amount,
            reason=reason,
        )
    )


def most_gold(state: HotwState) -> int:
    """The seat with most gold: highest total, the topmost chest of a shared space first
    (general.gold.stacking)."""
    return state.gold_order()[0]


def has_most_gold(state: HotwState, seat: int) -> bool:
    return most_gold(state) == seat


def least_gold_first(state: HotwState) -> tuple[int, ...]:
    """Seats from least gold to most (organization.empire-cards.choice)."""
    return tuple(reversed(state.gold_order()))


def track_space(gold: int, spaces: int) -> int:
    """The space a chest stands on; past 100 it starts another circuit
    (general.gold.wrap)."""
    return (gold - 1) % spaces + 1 if gold > 0 else 0


def circuits(gold: int, spaces: int) -> int:
    return (gold - 1) // spaces if gold > 0 else 0


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class GoldCollected(HotwEvent):
    seat: int
    amount: int
    reason: str = ""


@FOLDS.handles(GoldCollected)
def _gold_collected(pack: HotwPack, state: HotwState, e: GoldCollected) -> HotwState:
    return with_gold(state, e.seat, e.amount)
