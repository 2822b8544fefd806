"""The game-agnostic kernel: a game is its setup, its version, its chance cursor and the
ruleset's state. `start`, `decide`, `fold` and `replay` work for every ruleset alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from domain.core.chance import Chance, script_problems
from domain.core.errors import (
    GameOver,
    IllegalAction,
    NotYourTurn,
    RulesetRevisionMismatch,
    RuleViolation,
)
from domain.core.frozen import built, evolved
from domain.core.game import (
    KERNEL_EVENTS,
    ChanceScripted,
    CommandMisused,
    Game,
    GameCreated,
    PositionLoaded,
    SeedRevealed,
    setup_of,
)
from domain.core.messages import (
    SYSTEM,
    WORKER,
    Actor,
    Command,
    Event,
    Recorded,
    plain_value,
    private_to,
)
from domain.core.ruleset import Decision, Ruleset
from domain.core.seated import clock_awaits, clocked, is_over, seat_rule, seating_decision
from domain.core.seating import (
    SEATING_COMMANDS,
    SEATING_EVENTS,
    Timepiece,
    clock_after_command,
    instant_ms,
    seating_after,
)
from domain.core.table import (
    ADMIN,
    TABLE_COMMANDS,
    ActionsUndone,
    GameRewound,
    Proposal,
    RewindAnswered,
    RewindProposed,
    UndoStep,
    is_barrier,
    is_skipped,
    skipped_ranges,
)
from domain.core.undo import decide_table, scope_key

S = TypeVar("S")

__all__ = [
    "KERNEL_EVENTS",
    "ChanceScripted",
    "CommandMisused",
    "Game",
    "GameCreated",
    "NeedsEarlierBase",
    "PositionLoaded",
    "SeedRevealed",
    "setup_of",
]


def creation_events(
    ruleset: Ruleset[S],
    players: tuple[str, ...],
    options: Mapping[str, Any],
    seed_commitment: str,
    chance: Chance,
) -> list[Event]:
    """The events that create a game: GameCreated, then the ruleset's setting up."""
    ruleset.check_players(players)
    chosen = ruleset.check_options(options)
    created = GameCreated(
        rule=ruleset.setup_rule,
        cites=ruleset.setup_cites,
        ruleset=ruleset.name,
        players=tuple(players),
        options=chosen,
        seed_commitment=seed_commitment,
        revision=ruleset.revision,
        pack_digest=ruleset.pack_digest,
    )
    setup = setup_of(created)
    game = Game(setup, 1, 0, ruleset.initial_state(setup))
    events: list[Event] = [created, *ruleset.set_up(game.state, chance)]
    _require_draws_recorded(chance)
    return events


def position_events(
    ruleset: Ruleset[S],
    players: tuple[str, ...],
    options: Mapping[str, Any],
    seed_commitment: str,
    state: Any,
    source_game: str,
    script: Sequence[tuple[int, int]] | None = None,
) -> list[Event]:
    """The events that create a sandbox game: GameCreated, then the position it starts from,
    then (a what-if) the script its chance follows instead of the committed seed."""
    ruleset.check_players(players)
    created = GameCreated(
        rule=ruleset.setup_rule,
        ruleset=ruleset.name,
        players=tuple(players),
        options=ruleset.check_options(options),
        seed_commitment=seed_commitment,
        revision=ruleset.revision,
        pack_digest=ruleset.pack_digest,
    )
    loaded = PositionLoaded(
        rule=ruleset.setup_rule,
        state=state,
        source_game=source_game,
        visibility=private_to(redacted={"source_game": source_game}),
    )
    if script is None:
        return [created, loaded]
    problems = script_problems(script)
    if problems:
        raise ValueError(f"not a chance script: {'; '.join(problems)}")
    scripted = ChanceScripted(
        rule=ruleset.chance_rule or ruleset.setup_rule,
        script=tuple((int(n), int(result)) for n, result in script),
    )
    return [created, loaded, scripted]


def decide(
    ruleset: Ruleset[S], game: Game[S], actor: Actor, command: Command, chance: Chance
) -> list[Event]:
    """Check a command against the rules and return the events it produces.

    Seats may only play what `legal_actions` lists for them; the system may only run the
    command the ruleset says is due.
    """
    return decision(ruleset, game, actor, command, chance).events


def decision(
    ruleset: Ruleset[S],
    game: Game[S],
    actor: Actor,
    command: Command,
    chance: Chance,
    timepiece: Timepiece | None = None,
) -> Decision[S]:
    """`decide`, with the ruleset's state after the events when it has it at hand (for
    `fold_decided`)."""
    if command.type in TABLE_COMMANDS:
        return Decision(decide_table(ruleset, game, actor, command))
    if command.type in SEATING_COMMANDS:
        return Decision(seating_decision(ruleset, game, actor, command, timepiece))
    if actor == ADMIN:
        raise IllegalAction(
            "the admin does not play; it may only order a rewind",
            ruleset.undo_rule or ruleset.turn_rule,
        )
    if is_over(ruleset, game):
        raise GameOver("the game is over", ruleset.end_rule)
    if game.seating is not None and not game.seating.started:
        raise IllegalAction(
            "the game has not started: seats are still open",
            seat_rule(ruleset),
            {"open_seats": list(game.seating.open_seats)},
        )
    if actor in (SYSTEM, WORKER):
        decided = _decide_system(ruleset, game, command, chance)
    else:
        decided = _decide_for_seat(ruleset, game, int(actor), command, chance)
    _require_draws_recorded(chance)
    return decided


def _decide_for_seat(
    ruleset: Ruleset[S], game: Game[S], seat: int, command: Command, chance: Chance
) -> Decision[S]:
    if seat not in ruleset.awaited_seats(game.state):
        raise NotYourTurn(
            f"seat {seat} may not act now",
            ruleset.out_of_turn_rule(command),
            {"awaited": sorted(ruleset.awaited_seats(game.state))},
        )
    if not ruleset.is_legal(game.state, seat, command):
        refusal = ruleset.refusal(game.state, seat, command)
        if not isinstance(refusal, RuleViolation):
            raise CommandMisused("a refusal must be a RuleViolation")
        raise refusal
    return ruleset.decision(game.state, seat, command, chance)


def _decide_system(
    ruleset: Ruleset[S], game: Game[S], command: Command, chance: Chance
) -> Decision[S]:
    due = ruleset.system_action(game.state)
    if due is None or due != command:
        raise NotYourTurn(
            "no such system step is due now",
            ruleset.turn_rule,
            {"due": due.as_dict() if due else None},
        )
    return ruleset.system_decision(game.state, command, chance)


def _require_draws_recorded(chance: Chance) -> None:
    if chance.untaken:
        raise CommandMisused(f"{chance.untaken} chance draw(s) not recorded in any event")


def fold(ruleset: Ruleset[S], game: Game[S] | None, recorded: Recorded) -> Game[S]:
    """Apply one recorded event to a game (None before the game exists).

    Undos and rewinds cannot be folded onto the game they take back: `replay` handles them.
    """
    ev = recorded.event
    if _is_kernel_event(ev):
        return _fold_kernel_event(ruleset, game, recorded)
    if game is None:
        raise CommandMisused("a game's first event must be GameCreated")
    return _folded(ruleset, game, recorded, ruleset.evolve(game.state, ev))


def _folded(ruleset: Ruleset[S], game: Game[S], recorded: Recorded, state: S) -> Game[S]:
    """The game after a ruleset event, given the ruleset's state after it."""
    undoable, barrier, last = _undo_bookkeeping(ruleset, game, recorded)
    created = game.created_through
    if recorded.version == created + 1 and recorded.actor == SYSTEM and not any(last):
        created = recorded.version
    draws = game.draws + len(recorded.event.draws)
    after = _next_game(game, recorded.version, draws, state, undoable, barrier, last, created)
    return clocked(ruleset, after, game.last_commands != last, recorded)


def _next_game(
    game: Game[S],
    version: int,
    draws: int,
    state: S,
    undoable: tuple[UndoStep, ...],
    barrier: str,
    last: tuple[int, ...],
    created: int,
) -> Game[S]:
    """The game after ruleset events: what changed, and the rest kept (no rewind proposal
    outlives a played event)."""
    return built(
        Game,
        {
            "setup": game.setup,
            "version": version,
            "draws": draws,
            "state": state,
            "seed_revealed": game.seed_revealed,
            "undoable": undoable,
            "barrier_command": barrier,
            "proposal": None,
            "last_commands": last,
            "created_through": created,
            "creation_command": game.creation_command,
            "chance_script": game.chance_script,
            "seating": game.seating,
        },
    )


def _fold_kernel_event(ruleset: Ruleset[S], game: Game[S] | None, recorded: Recorded) -> Game[S]:
    ev = recorded.event
    if isinstance(ev, GameCreated):
        if ev.revision != ruleset.revision:
            raise RulesetRevisionMismatch(
                f"a game of {ev.ruleset} revision {ev.revision} folded with revision "
                f"{ruleset.revision}'s rules (bind them with at_revision({ev.revision}))"
            )
        setup = setup_of(ev)
        players = len(setup.players)
        return Game(
            setup,
            recorded.version,
            0,
            ruleset.initial_state(setup),
            last_commands=(0,) * players,
            created_through=recorded.version,
        )
    if game is None:
        raise CommandMisused("a game's first event must be GameCreated")
    draws = game.draws + len(ev.draws)
    if isinstance(ev, SeedRevealed):
        return replace(
            game,
            version=recorded.version,
            draws=draws,
            seed_revealed=ev.seed,
            undoable=(),
            proposal=None,
        )
    if isinstance(ev, PositionLoaded):
        state = ruleset.decode_state(plain_value(ev.state))
        return replace(game, version=recorded.version, draws=draws, state=state, undoable=())
    if isinstance(ev, ChanceScripted):
        if game.draws or any(game.last_commands) or game.chance_script is not None:
            raise CommandMisused("only a sandbox, before its first play, takes scripted chance")
        script = tuple((int(n), int(result)) for n, result in ev.script)
        return replace(game, version=recorded.version, chance_script=script)
    if isinstance(ev, SEATING_EVENTS):
        seating = seating_after(game.seating, len(game.setup.players), ev)
        if recorded.recorded_at and seating.clock is not None:
            at_ms = instant_ms(recorded.recorded_at)
            awaits = clock_awaits(ruleset, game)
            seating = clock_after_command(seating, None, at_ms, awaits)
        return replace(game, version=recorded.version, seating=seating, undoable=())
    if isinstance(ev, RewindProposed):
        proposal = Proposal(ev.seat, ev.to_version, frozenset({ev.seat}))
        return replace(game, version=recorded.version, proposal=proposal)
    if isinstance(ev, RewindAnswered):
        answered: Proposal | None = game.proposal
        if answered is not None and ev.accepted:
            answered = replace(answered, accepted=answered.accepted | {ev.seat})
        else:
            answered = None
        return replace(game, version=recorded.version, proposal=answered)
    return replace(game, version=recorded.version, proposal=None)  # ActionsUndone, GameRewound


_KERNEL_AND_TABLE_EVENTS = (
    GameCreated,
    SeedRevealed,
    PositionLoaded,
    ChanceScripted,
    ActionsUndone,
    GameRewound,
    RewindProposed,
    RewindAnswered,
    *SEATING_EVENTS,
)
_KERNEL_KINDS: dict[type[Event], bool] = {}
"""Whether each event type seen is one of `_KERNEL_AND_TABLE_EVENTS` (or a subclass): asked of
every event folded, and a dictionary answers it for a fraction of `isinstance` against the
tuple."""


def _is_kernel_event(ev: Event) -> bool:
    kind = type(ev)
    known = _KERNEL_KINDS.get(kind)
    if known is None:
        known = _KERNEL_KINDS[kind] = issubclass(kind, _KERNEL_AND_TABLE_EVENTS)
    return known


def _undo_bookkeeping(
    ruleset: Ruleset[S], game: Game[S], recorded: Recorded
) -> tuple[tuple[UndoStep, ...], str, tuple[int, ...]]:
    """What may be undone after this event: a seat's commands within one turn, back to the
    last chance outcome or hidden-information reveal (contracts §7)."""
    actor, command_id, version = recorded.actor, recorded.command_id, recorded.version
    last = game.last_commands
    if not isinstance(actor, int):
        return (), "", last
    undoable, barrier = game.undoable, game.barrier_command
    this = command_key(actor, command_id)
    top = undoable[-1] if undoable else None
    continues_top = top is not None and top.command_id == command_id and top.seat == actor
    if not continues_top and this != barrier and 0 <= actor < len(last):
        last = (*last[:actor], version, *last[actor + 1 :])
    if this == barrier or is_barrier(recorded):
        return (), this, last
    if top is not None and continues_top:
        extended = UndoStep(top.seat, command_id, top.from_version, version, top.scope)
        return (*undoable[:-1], extended), "", last
    scope = scope_key(ruleset, game.state)
    kept = undoable if top is not None and top.scope == scope else ()
    return (*kept, UndoStep(actor, command_id, version, version, scope)), "", last


def command_key(actor: Actor, command_id: str) -> str:
    """A command's identity in the game: its actor and its id (two seats may give one id, such
    as an idempotency key each chose; neither holds a space)."""
    return f"{actor} {command_id}"


def fold_decided(
    ruleset: Ruleset[S], game: Game[S], recorded: Sequence[Recorded], state: S | None
) -> Game[S]:
    """Fold one command's recorded events onto the game they were decided on, taking the
    ruleset's state after them from its `Decision` instead of evolving it again (None: fold).
    The undo bookkeeping reads the state only at a command's first event: the state decided
    on."""
    if state is None or any(
        _is_kernel_event(r.event)
        or r.command_id != recorded[0].command_id
        or r.actor != recorded[0].actor
        for r in recorded
    ):
        return replay(ruleset, recorded, game)
    if isinstance(recorded[0].actor, int):
        return _folded_command(ruleset, game, recorded, state)
    before = game.state
    for r in recorded:
        game = _folded(ruleset, game, r, before)
    return evolved(game, state=state)


def _folded_command(
    ruleset: Ruleset[S], game: Game[S], run: Sequence[Recorded], state: S
) -> Game[S]:
    """The game after a seat command's ruleset events (`run`: one command id, in order), given
    the ruleset's state after them: what `_folded` gives event by event, with the undo
    bookkeeping done once. The command's first event opens or extends an undo step (or hits a
    barrier), and each later one only extends that step to its version, unless it is a barrier
    itself."""
    first = run[0]
    undoable, barrier, last = _undo_bookkeeping(ruleset, game, first)
    draws = game.draws + len(first.event.draws)
    if len(run) > 1:
        final = run[-1]
        this = command_key(first.actor, first.command_id)
        later_barrier = False
        for recorded in run[1:]:
            draws += len(recorded.event.draws)
            later_barrier = later_barrier or is_barrier(recorded)
        if barrier != this and later_barrier:
            undoable, barrier = (), this
        elif undoable:
            top = undoable[-1]
            extended = UndoStep(
                top.seat, first.command_id, top.from_version, final.version, top.scope
            )
            undoable = (*undoable[:-1], extended)
    after = _next_game(
        game, run[-1].version, draws, state, undoable, barrier, last, game.created_through
    )
    return clocked(ruleset, after, True, first)


class NeedsEarlierBase(Exception):
    """The events take back versions already folded into the base game: replay from before
    `version` instead."""

    def __init__(self, version: int) -> None:
        super().__init__(f"replay must start before version {version}")
        self.version = version


def replay(ruleset: Ruleset[S], events: Iterable[Recorded], game: Game[S] | None = None) -> Game[S]:
    """Fold a sequence of recorded events, from the start or onto `game`, skipping the ranges
    that undos and rewinds took back (the log keeps them). A seat's command is folded in one go:
    its events through the ruleset, then the kernel's bookkeeping once."""
    log = events if isinstance(events, list | tuple) else list(events)
    ranges = skipped_ranges(log)
    if ranges and game is not None:
        earliest = min(low for low, _ in ranges)
        if earliest <= game.version:
            raise NeedsEarlierBase(earliest)
    kept = [r for r in log if not is_skipped(r.version, ranges)] if ranges else log
    evolve = ruleset.evolve
    at, end = 0, len(kept)
    while at < end:
        recorded = kept[at]
        actor, event = recorded.actor, recorded.event
        if game is None or not isinstance(actor, int) or _is_kernel_event(event):
            game = fold(ruleset, game, recorded)
            at += 1
            continue
        state = evolve(game.state, event)
        command_id = recorded.command_id
        after = at + 1
        while after < end:
            following = kept[after]
            if (
                following.command_id != command_id
                or following.actor != actor
                or _is_kernel_event(following.event)
            ):
                break
            state = evolve(state, following.event)
            after += 1
        game = _folded_command(ruleset, game, kept[at:after], state)
        at = after
    if game is None:
        raise CommandMisused("no events to replay")
    return game


def fold_in_history(
    ruleset: Ruleset[S], game: Game[S] | None, history: Sequence[Recorded]
) -> Game[S]:
    """`fold` of the last event of `history` (every event up to it, in order) onto `game`, the
    game after the others: an undo or a rewind, which cannot be folded onto the game it takes
    back, replays the history instead (reading a log event by event, as a verifier does)."""
    recorded = history[-1]
    if isinstance(recorded.event, ActionsUndone | GameRewound):
        return replay(ruleset, history)
    return fold(ruleset, game, recorded)
