"""Honors (p2, p10): awarding them onto the Honor track, and who may play which, and when."""

from __future__ import annotations

from domain.hotw.cards import Cards, Honor, Phase
from domain.hotw.events import GoldCollected, HonorAwarded
from domain.hotw.model import HotwState, Player
from domain.hotw.rules.context import Ctx

EMPTY_STACK_RULE = "honors.track.empty-stack"


def award_honor(ctx: Ctx, seat: int, rule: str) -> None:
    """Flip the top of `seat`'s Honor stack onto track space 1, pushing the others along; one
    pushed off space 3 drops into the Empire pool (honors.track.award). With an empty
    stack the player collects one gold instead (honors.track.empty-stack)."""
    player = ctx.state.players[seat]
    if not player.honor_stack:
        ctx.emit(
            GoldCollected(rule=ctx.cite(EMPTY_STACK_RULE), seat=seat, amount=1, reason="honor")
        )
        return
    ctx.emit(HonorAwarded(rule=ctx.cite(rule), seat=seat, honor=player.honor_stack[0]))


def honor_track_full(player: Player, spaces: int) -> bool:
    return len(player.honor_track) >= spaces


def playable_honors(player: Player) -> tuple[str, ...]:
    """Honors on the Honor track or in the Empire pool (general.honors.playable-from)."""
    seen: list[str] = []
    for honor in player.face_up_honors:
        if honor not in seen:
            seen.append(honor)
    return tuple(seen)


def honors_for_phase(cards: Cards, player: Player, phase: Phase) -> tuple[str, ...]:
    """Expand: the coin Honors, for their effect (expand.honors). Revenue: all of them,
    the coinless for their effect, the others for gold (revenue.honors.*)."""
    honors = playable_honors(player)
    if phase is Phase.EXPAND:
        return tuple(h for h in honors if cards.honor(h).shows_coins)
    if phase is Phase.REVENUE:
        return honors
    return ()


def endgame_effect_honors(cards: Cards, player: Player) -> tuple[str, ...]:
    """The face-up coinless Honors a player must still play for their effect (p9 Endgame)."""
    return tuple(h for h in playable_honors(player) if not cards.honor(h).shows_coins)


def plays_for_gold(honor: Honor, phase: Phase | None) -> bool:
    """A coin Honor pays its coins in Raise revenue and the Endgame (phase None)."""
    return honor.shows_coins and phase is not Phase.EXPAND


def seats_with_endgame_honors(cards: Cards, state: HotwState) -> tuple[int, ...]:
    return tuple(
        seat for seat in state.endgame_order if endgame_effect_honors(cards, state.players[seat])
    )
