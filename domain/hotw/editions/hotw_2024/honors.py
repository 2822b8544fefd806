"""Honors (p2, p10): awarding them onto the Honor track, and who may play which, and when."""

from __future__ import annotations

from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.changes import with_player
from domain.hotw.editions.hotw_2024.cards import Cards, Honor, Phase
from domain.hotw.editions.hotw_2024.context import (
    COMMANDS,
    FOLDS,
    Arg,
    Ctx,
    HotwEvent,
    cited,
    honors,
    refused,
)
from domain.hotw.editions.hotw_2024.gold import collect_gold
from domain.hotw.editions.hotw_2024.model import (
    EffectTask,
    HotwState,
    Player,
    Stage,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack

EMPTY_STACK_RULE = "hotw24.honors.track.empty-stack"


def award_honor(ctx: Ctx, seat: int, rule: str, also: tuple[str, ...] = ()) -> None:
    """Flip the top of `seat`'s Honor stack onto track space 1, pushing the others along; one
    pushed off space 3 drops into the Empire pool (honors.track.award). With an empty
    stack the player collects one gold instead (honors.track.empty-stack)."""
    player = ctx.state.players[seat]
    if not player.honor_stack:
        collect_gold(ctx, seat, 1, EMPTY_STACK_RULE, "honor", also)
        return
    ctx.emit(
        HonorAwarded(
            rule=rule,
            cites=tuple(("hotw24.honors.track.award", *also)),
            seat=seat,
            honor=player.honor_stack[0],
        )
    )


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


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class HonorTurnedUp(HotwEvent):
    """The top Honor of the stack is turned face up onto space 1 of the Honor track (setup)."""

    REVEALS_HIDDEN = True

    seat: int
    honor: str


@event
class HonorAwarded(HotwEvent):
    REVEALS_HIDDEN = True

    seat: int
    honor: str


@event
class HonorPlayed(HotwEvent):
    seat: int
    honor: str
    for_effect: bool
    endgame: bool = False


@FOLDS.handles(HonorTurnedUp)
@FOLDS.handles(HonorAwarded)
def _honor_awarded(pack: HotwPack, state: HotwState, e: HonorAwarded) -> HotwState:
    player = state.players[e.seat]
    stack = tuple(h for h in player.honor_stack if h != e.honor)
    track = (e.honor, *player.honor_track)
    pool = player.pool_honors
    spaces = pack.edition.honor_track_spaces
    if len(track) > spaces:
        track, pool = track[:spaces], (*pool, *track[spaces:])
    return with_player(state, e.seat, honor_stack=stack, honor_track=track, pool_honors=pool)


@FOLDS.handles(HonorPlayed)
def _honor_played(pack: HotwPack, state: HotwState, e: HonorPlayed) -> HotwState:
    player = state.players[e.seat]
    if e.honor in player.honor_track:
        track = list(player.honor_track)
        track.remove(e.honor)
        state = with_player(state, e.seat, honor_track=tuple(track))
    else:
        pool = list(player.pool_honors)
        pool.remove(e.honor)
        state = with_player(state, e.seat, pool_honors=tuple(pool))
    state = with_player(state, e.seat, honor_stack=(*state.players[e.seat].honor_stack, e.honor))
    if e.for_effect:
        task = EffectTask(e.seat, "honor", e.honor, endgame=e.endgame)
        state = evolved(state, agenda=(*state.agenda, task))
    return state


# --- commands: playing an Honor ----------------------------------------------------------------


def why_not_play_honor(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation:
    honor = str(command.arg("honor"))
    phase = state.turn.phase if state.turn else None
    if phase is Phase.REVEAL:
        return refused(
            "Honors may not be played in the Reveal the Event phase",
            "hotw24.reveal.no-honor-play",
            command,
            ("hotw24.events.honors",),
        )
    if honor not in state.players[seat].face_up_honors:
        return refused(
            "only Honors on the Honor track or in the Empire pool",
            "hotw24.general.honors.playable-from",
            command,
        )
    if phase is Phase.EXPAND:
        return refused(
            "only Honors that show coins are played in Expand", "hotw24.expand.honors", command
        )
    return refused(
        "Honors are played in Expand the Empire and Raise revenue",
        "hotw24.honors.play.not-others-turn",
        command,
        ("hotw24.general.honors.who-and-when",),
    )


@COMMANDS.declares(
    "play_honor",
    "Play one of your Honors.",
    Arg("honor", "An Honor id.", honors),
    why_not=why_not_play_honor,
)
def play_honor(ctx: Ctx, seat: int, command: Command) -> None:
    """Expand: a coin Honor for its effect. Revenue: coinless for effect, coins for gold.
    Endgame: coinless for their effect on Friendly lands (endgame.honors)."""
    honor_id = str(command.arg("honor"))
    honor = ctx.cards.honor(honor_id)
    if ctx.state.stage is Stage.ENDGAME:
        ctx.emit(
            HonorPlayed(
                rule="hotw24.endgame.honors",
                cites=cited("hotw24.honors.play.endgame"),
                seat=seat,
                honor=honor_id,
                for_effect=True,
                endgame=True,
            )
        )
        return
    phase = ctx.turn.phase
    if phase is Phase.REVENUE and honor.shows_coins:
        rule = "hotw24.revenue.honors.coins"
        ctx.emit(HonorPlayed(rule=rule, seat=seat, honor=honor_id, for_effect=False))
        collect_gold(ctx, seat, honor.coins, rule, f"honor:{honor_id}")
        return
    rule = "hotw24.expand.honors" if phase is Phase.EXPAND else "hotw24.revenue.honors.no-coins"
    ctx.emit(HonorPlayed(rule=rule, seat=seat, honor=honor_id, for_effect=True))
