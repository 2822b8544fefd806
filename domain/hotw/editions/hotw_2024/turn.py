"""Player turns (p4-p9): the six phases A-F in order, what each does on its own when it
begins, and what closes it. The player's own moves within a phase are in `actions`. A
barbarian Empire starts with no buildings (hotw24.empires.barbarian.no-buildings)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.errors import RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, event
from domain.hotw.changes import added, with_player, with_turn
from domain.hotw.editions.hotw_2024.cards import Phase
from domain.hotw.editions.hotw_2024.context import (
    COMMANDS,
    FOLDS,
    Arg,
    Ctx,
    HotwEvent,
    any_area_tokens,
    cited,
    refused,
)
from domain.hotw.editions.hotw_2024.effects import EventConcluded
from domain.hotw.editions.hotw_2024.establish import establish_entry, no_entry
from domain.hotw.editions.hotw_2024.expand import (
    PoolCleared,
    expansion_actions,
)
from domain.hotw.editions.hotw_2024.gold import collect_gold, has_most_gold
from domain.hotw.editions.hotw_2024.honors import (
    award_honor,
    honor_track_full,
    honors_for_phase,
)
from domain.hotw.editions.hotw_2024.invasion import (
    LeaderRemoved,
    remove_invasion_modifier,
)
from domain.hotw.editions.hotw_2024.model import (
    FLEET,
    Control,
    HotwState,
    LandState,
    Stage,
    Turn,
)
from domain.hotw.editions.hotw_2024.monuments import monuments_entry
from domain.hotw.editions.hotw_2024.pack import HotwPack
from domain.hotw.editions.hotw_2024.reveal import carry_out_later_event, reveal_entry
from domain.hotw.editions.hotw_2024.revenue import revenue_cites, revenue_items

UNCITED_RULES = ("hotw24.empires.barbarian.no-buildings",)
"""The clauses this module decides that no event or refusal carries."""

MOST_GOLD = ("hotw24.honors.award.most-gold", "hotw24.general.gold.stacking")
"""The rules that decide who holds the most gold when concluding a turn."""


def begin_turn(ctx: Ctx) -> None:
    """Turns follow the chronological numbers of the chosen Empire cards (turn.order);
    under Option 2 a card chosen in secret is shown as its turn comes (option2.secret)."""
    state = ctx.state
    card = state.turn_order[state.turn_index]
    seat = state.empire_choices[card]
    if card in state.unrevealed:
        ctx.emit(EmpireCardRevealed(rule="hotw24.option2.secret", seat=seat, card=card))
    ctx.emit(
        TurnBegan(rule="hotw24.turn.order", cites=cited("hotw24.turn.terms"), seat=seat, card=card)
    )
    begin_phase(ctx, Phase(ctx.pack.edition.phases[0]))


def next_turn_or_epoch_end(ctx: Ctx) -> None:
    state = ctx.state
    if state.turn_index < len(state.turn_order):
        begin_turn(ctx)
    else:
        ctx.emit(EpochEnded(rule="hotw24.turn.epoch-end", epoch=state.epoch))


def begin_phase(ctx: Ctx, phase: Phase, empire_index: int | None = None) -> None:
    index = ctx.turn.empire_index if empire_index is None else empire_index
    ctx.emit(
        PhaseBegan(rule="hotw24.turn.phases", seat=ctx.seat, phase=phase.value, empire_index=index)
    )
    ENTRIES[phase](ctx)
    if phase is not Phase.REVEAL:
        carry_out_later_event(ctx, phase)


def next_phase(ctx: Ctx, after: Phase) -> Phase:
    """The phase after `after` in the edition's order of a turn (turn.phases)."""
    phases = ctx.pack.edition.phases
    return Phase(phases[phases.index(after.value) + 1])


def has_player_part(pack: HotwPack, state: HotwState) -> bool:
    turn = state.turn
    assert turn is not None
    if turn.phase is Phase.REVEAL:
        return turn.event_expand
    return turn.phase in pack.edition.player_phases


def end_phase(ctx: Ctx) -> None:
    """Close the current phase and open the next (turn.phases)."""
    EXITS[ctx.turn.phase](ctx)


# --- A. reveal the event ----------------------------------------------------------------------


def reveal_exit(ctx: Ctx) -> None:
    """events.lay-down: before establishing, the Event's armies become garrisons, its
    fleets leave the map and its unused pieces return to the supply."""
    remove_invasion_modifier(ctx)
    turn = ctx.turn
    armies = tuple(sorted(ctx.state.lands_of(turn.seat, standing=True)))
    pool = turn.event_pool
    if armies or turn.event_fleets or pool.people or pool.fleets or turn.event_expand:
        ctx.emit(
            EventConcluded(
                rule="hotw24.events.lay-down",
                cites=cited("hotw24.events.revenue"),
                seat=turn.seat,
                card=turn.event_card or "",
                lands=armies,
                waters=turn.event_fleets,
                people=pool.people,
                fleets=pool.fleets,
            )
        )
    begin_phase(ctx, next_phase(ctx, Phase.REVEAL), 0)


# --- B. establish the empire ------------------------------------------------------------------


def establish_exit(ctx: Ctx) -> None:
    begin_phase(ctx, next_phase(ctx, Phase.ESTABLISH))


# --- C. expand the empire (the moves are in actions) ------------------------------------------


def expand_exit(ctx: Ctx) -> None:
    """expand.end: pieces left in the pool are removed (empires.great-wall.unplaced);
    a Leader used in the phase leaves the game (leader.spent); an Invasion modifier
    counter comes off (option3.modifier)."""
    remove_invasion_modifier(ctx)
    turn = ctx.turn
    pool = turn.pool
    if pool.people or pool.fleets or pool.great_wall_forts:
        rule = (
            "hotw24.empires.great-wall.unplaced" if pool.great_wall_forts else "hotw24.expand.end"
        )
        ctx.emit(
            PoolCleared(
                rule=rule,
                seat=turn.seat,
                people=pool.people,
                fleets=pool.fleets,
                great_wall_forts=pool.great_wall_forts,
            )
        )
    if turn.leader_active:
        ctx.emit(LeaderRemoved(rule="hotw24.leader.spent", seat=turn.seat))
    begin_phase(ctx, next_phase(ctx, Phase.EXPAND))


# --- D. build monuments -----------------------------------------------------------------------


def monuments_exit(ctx: Ctx) -> None:
    begin_phase(ctx, next_phase(ctx, Phase.MONUMENTS))


# --- E. raise revenue -------------------------------------------------------------------------


def revenue_entry(ctx: Ctx) -> None:
    """revenue.scope: buildings in Empire lands anywhere, lands in active areas."""
    seat = ctx.seat
    for gold, rule, reason in revenue_items(ctx.pack, ctx.state, seat, None, standing=True):
        collect_gold(ctx, seat, gold, rule, reason, revenue_cites(rule, standing=True))


def revenue_exit(ctx: Ctx) -> None:
    """After the Incas' revenue their armies are laid down and the Aztecs are established
    (empires.incas-aztecs); otherwise the turn concludes."""
    turn = ctx.turn
    card = ctx.cards.empire(turn.card)
    if turn.empire_index + 1 < len(card.empires):
        lay_down_and_remove_fleets(ctx, "hotw24.empires.incas-aztecs")
        begin_phase(ctx, Phase.ESTABLISH, turn.empire_index + 1)
    else:
        begin_phase(ctx, next_phase(ctx, Phase.REVENUE))


# --- F. conclude the turn ---------------------------------------------------------------------


def lay_down_and_remove_fleets(ctx: Ctx, rule: str | None = None) -> None:
    turn = ctx.turn
    armies = tuple(sorted(ctx.state.lands_of(turn.seat, standing=True)))
    if armies:
        ctx.emit(
            ArmiesLaidDown(
                rule=rule or "hotw24.conclude.lay-down",
                cites=cited(
                    "hotw24.general.people.laid-down", "hotw24.general.people.army-or-garrison"
                ),
                seat=turn.seat,
                lands=armies,
            )
        )
    if turn.fleets:
        ctx.emit(
            FleetsRemoved(
                rule=rule or "hotw24.conclude.fleets",
                cites=cited("hotw24.fleets.removed-at-conclude"),
                seat=turn.seat,
                waters=turn.fleets,
            )
        )


def conclude_entry(ctx: Ctx) -> None:
    lay_down_and_remove_fleets(ctx)


def conclude_exit(ctx: Ctx) -> None:
    """conclude.most-gold-honor / .track-full, then the next turn."""
    seat = ctx.seat
    if has_most_gold(ctx.state, seat):
        if honor_track_full(ctx.state.players[seat], ctx.pack.edition.honor_track_spaces):
            collect_gold(ctx, seat, 1, "hotw24.conclude.track-full", "most-gold", MOST_GOLD)
        else:
            award_honor(ctx, seat, "hotw24.conclude.most-gold-honor", MOST_GOLD)
    ctx.emit(TurnEnded(rule="hotw24.conclude.cards-stay", seat=seat, card=ctx.turn.card))
    next_turn_or_epoch_end(ctx)


ENTRIES = {
    Phase.REVEAL: reveal_entry,
    Phase.ESTABLISH: establish_entry,
    Phase.EXPAND: no_entry,
    Phase.MONUMENTS: monuments_entry,
    Phase.REVENUE: revenue_entry,
    Phase.CONCLUDE: conclude_entry,
}
EXITS = {
    Phase.REVEAL: reveal_exit,
    Phase.ESTABLISH: establish_exit,
    Phase.EXPAND: expand_exit,
    Phase.MONUMENTS: monuments_exit,
    Phase.REVENUE: revenue_exit,
    Phase.CONCLUDE: conclude_exit,
}


def control_is(state: HotwState, land: str, seat: int, control: Control) -> bool:
    return state.control_of(land, seat) is control


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class EmpireCardRevealed(HotwEvent):
    """Option 2: a secretly chosen Empire card is shown as its turn comes."""

    REVEALS_HIDDEN = True

    seat: int
    card: str


@event
class EpochEnded(HotwEvent):
    epoch: int


@event
class TurnBegan(HotwEvent):
    seat: int
    card: str


@event
class PhaseBegan(HotwEvent):
    seat: int
    phase: str
    empire_index: int = 0


@event
class AreaTokenPlayed(HotwEvent):
    REVEALS_HIDDEN = True

    seat: int
    token: str


@event
class ArmiesLaidDown(HotwEvent):
    seat: int
    lands: tuple[str, ...]


@event
class FleetsRemoved(HotwEvent):
    seat: int
    waters: tuple[str, ...]


@event
class TurnEnded(HotwEvent):
    seat: int
    card: str


@FOLDS.handles(EmpireCardRevealed)
def _empire_revealed(pack: HotwPack, state: HotwState, e: EmpireCardRevealed) -> HotwState:
    return evolved(state, unrevealed=state.unrevealed - {e.card})


@FOLDS.handles(EpochEnded)
def _epoch_ended(pack: HotwPack, state: HotwState, e: EpochEnded) -> HotwState:
    return evolved(state, stage=Stage.EPOCH_CLOSING, turn=None)


@FOLDS.handles(TurnBegan)
def _turn_began(pack: HotwPack, state: HotwState, e: TurnBegan) -> HotwState:
    event_card = state.players[e.seat].event_card
    return evolved(state, turn=Turn(seat=e.seat, card=e.card, event_card=event_card))


@FOLDS.handles(PhaseBegan)
def _phase(pack: HotwPack, state: HotwState, e: PhaseBegan) -> HotwState:
    return with_turn(state, phase=Phase(e.phase), empire_index=e.empire_index)


@FOLDS.handles(AreaTokenPlayed)
def _token_played(pack: HotwPack, state: HotwState, e: AreaTokenPlayed) -> HotwState:
    tokens = list(state.players[e.seat].area_tokens)
    tokens.remove(e.token)
    return with_player(state, e.seat, area_tokens=tuple(tokens))


@FOLDS.handles(ArmiesLaidDown)
def _laid_down(pack: HotwPack, state: HotwState, e: ArmiesLaidDown) -> HotwState:
    lands = dict(state.lands)
    for land in e.lands:
        current = lands[land]
        lands[land] = LandState(current.owner, False, current.buildings, current.great_wall)
    return evolved(state, lands=lands)


@FOLDS.handles(FleetsRemoved)
def _fleets_removed(pack: HotwPack, state: HotwState, e: FleetsRemoved) -> HotwState:
    state = evolved(state, supply=added(state.supply, **{FLEET: len(e.waters)}))
    return with_turn(state, fleets=())


@FOLDS.handles(TurnEnded)
def _turn_ended(pack: HotwPack, state: HotwState, e: TurnEnded) -> HotwState:
    return evolved(state, turn=None, turn_index=state.turn_index + 1)


# --- commands: ending a phase, and playing an Area token in Conclude the turn ------------------


def turn_actions(pack: HotwPack, state: HotwState, seat: int) -> Iterator[Command]:
    """What the player may do in the phase of its turn."""
    current = state.turn
    assert current is not None
    phase = current.phase
    if phase is Phase.REVEAL or phase is Phase.EXPAND:
        if phase is Phase.REVEAL and not current.event_expand:
            return
        yield from expansion_actions(pack, state, seat)
    elif phase is Phase.REVENUE:
        for honor in honors_for_phase(pack.cards, state.players[seat], Phase.REVENUE):
            yield Command.of("play_honor", honor=honor)
        if not state.players[seat].pool_honors:
            yield Command.of("end_phase")
    elif phase is Phase.CONCLUDE:
        for token in sorted(set(state.players[seat].area_tokens)):
            yield Command.of("play_area_token", token=token)
        yield Command.of("end_phase")


def token_areas(pack: HotwPack, token: str) -> list[str]:
    """The area an Area token names, or both areas of a Paired Area token (Option 4)."""
    paired = pack.board.paired_area_tokens.get(token)
    if paired is not None:
        return list(paired.areas)
    return [pack.board.area_tokens[token].area]


def why_not_end_phase(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation:
    phase = state.turn.phase if state.turn else None
    if phase is Phase.EXPAND:
        return refused("people pieces remain in the Empire pool", "hotw24.expand.end", command)
    if phase is Phase.REVENUE:
        return refused(
            "Honors in the Empire pool must be played first",
            "hotw24.revenue.honors.pool-deadline",
            command,
        )
    return refused("this phase runs by itself", "hotw24.turn.phases", command)


def why_not_play_area_token(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation:
    return refused(
        "Area tokens are played in Conclude the turn", "hotw24.conclude.area-tokens", command
    )


@COMMANDS.declares("end_phase", "End the current phase of your turn.", why_not=why_not_end_phase)
def do_end_phase(ctx: Ctx, seat: int, command: Command) -> None:
    end_phase(ctx)


@COMMANDS.declares(
    "play_area_token",
    "Conclude the turn: play one of your Area tokens.",
    Arg("token", "An Area token id (or a Paired Area token's).", any_area_tokens),
    why_not=why_not_play_area_token,
)
def play_area_token(ctx: Ctx, seat: int, command: Command) -> None:
    """conclude.area-tokens: building and land gold in the token's area, counted on
    Friendly lands; the token leaves the game (conclude.area-token-spent). A Paired Area
    token pays in both its areas (option4.play)."""
    token = str(command.arg("token"))
    paired = token in ctx.board.paired_area_tokens
    spent = "hotw24.option4.play" if paired else "hotw24.conclude.area-token-spent"
    ctx.emit(AreaTokenPlayed(rule=spent, seat=seat, token=token))
    areas = token_areas(ctx.pack, token)
    for gold, rule, reason in revenue_items(ctx.pack, ctx.state, seat, areas, standing=False):
        also = revenue_cites(rule, standing=False)
        rule = "hotw24.conclude.area-tokens" if rule == "hotw24.revenue.buildings" else rule
        collect_gold(ctx, seat, gold, rule, f"token:{reason}", also)
