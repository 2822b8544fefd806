"""The Patchistory rules as a kernel Ruleset: a thin class over the rulebook's chapters
(setup, rounds, auction, patching, workers, diplomacy, management and construction,
trade_routes, movement, negotiation_and_war, production, vote, eras), each owning its commands,
their legality, its events with their folds, its decisions and its refusals. The views, the
drawing, the invariants and the bot's strategy read the state beside them.

Commands that a seat decides are listed by `legal_actions`; whatever follows from them without
a choice (drawing Tiles, production, upkeep, scoring) is played on at once by `proceed`, in the
same command's events. Sealed choices (the 2-player Auction, Negotiation, War, the Vote) use the
kernel's simultaneous turn model; the last seat's sealed command reveals them all."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from domain.core.chance import Chance
from domain.core.errors import IllegalAction, RuleViolation
from domain.core.frozen import evolved
from domain.core.messages import Command, Event
from domain.core.ruleset import CommandSpec, Decision, Ruleset, Setup
from domain.core.turns import Sequential, Simultaneous, TurnModel, TurnTaking
from domain.patchistory import (
    auction,
    diplomacy,
    drawing,
    eras,
    invariants,
    management,
    movement,
    narration,
    negotiation_and_war,
    patching,
    production,
    rounds,
    setup,
    view,
    vote,
    workers,
)
from domain.patchistory.context import COMMANDS, FOLDS, Ctx
from domain.patchistory.model import PState, decode, encode
from domain.patchistory.pack import PatchPack
from domain.patchistory.revisions import REVISIONS
from domain.patchistory.strategy import PatchStrategy

Lister = Callable[[PatchPack, PState, int], Iterator[Command]]

CHAPTERS = (
    "auction",
    "patching",
    "workers",
    "diplomacy",
    "management",
    "movement",
    "negotiation_and_war",
    "production",
    "vote",
)
"""The chapters that declare commands, in the order of the Round (the order the API lists
their commands in)."""

IN_PHASE: dict[str, Lister] = {
    "vasco": auction.vasco_actions,
    "auction": auction.bid_actions,
    "auction-sealed": auction.sealed_bid_actions,
    "patching": patching.patch_actions,
    "diplomacy": diplomacy.diplomacy_actions,
    "management": management.management_actions,
    "movement": movement.movement_actions,
    "negotiation": negotiation_and_war.side_actions,
    "war": negotiation_and_war.strength_actions,
    "chichen": production.chichen_actions,
    "vote-card": vote.card_actions,
    "vote": vote.vote_actions,
}
"""What a seat may do in each phase, by the chapter it belongs to."""

AWAITED: dict[str, Lister] = {
    "place-new": workers.placing_actions,
    "return": workers.placing_actions,
    "aid": diplomacy.answer_actions,
    "alliance-propose": negotiation_and_war.propose_actions,
    "alliance-accept": negotiation_and_war.accept_actions,
    "stealth": negotiation_and_war.stealth_actions,
    "war-order": negotiation_and_war.war_order_actions,
}
"""What a seat may answer to each decision the rules wait for."""

LISTED: dict[tuple[str, str], Callable[[PatchPack, PState, int, Command], bool]] = {
    ("patching", "patch"): patching.is_listed_patch,
    ("patching", "forfeit_tile"): patching.is_listed_forfeit,
    ("management", "end_management"): management.is_listed_end,
    ("movement", "move_worker"): movement.is_listed_move,
    ("movement", "end_movement"): movement.is_listed_end,
}
"""Whether a phase's lister (`IN_PHASE`, no decision awaited) lists a command of one type,
answered without listing the others: each is the lister's own condition for that command."""


class PatchistoryRuleset(TurnTaking[PState], Ruleset[PState]):
    revisions = REVISIONS
    seat_rule = "patchistory.table.seats"

    def pack_at(self, revision: int) -> PatchPack:
        """The same pack, answering the revision gates of the decisions for `revision`."""
        return evolved(self.pack, revision=revision)

    pack: PatchPack
    in_turn: Sequential[PState] = rounds.IN_TURN
    at_once: Simultaneous[PState] = rounds.AT_ONCE

    # --- creation -----------------------------------------------------------------------------

    def initial_state(self, setup_: Setup) -> PState:
        return setup.initial_state(setup_)

    def set_up(self, state: PState, chance: Chance) -> list[Event]:
        ctx = Ctx(self.pack, state, chance)
        setup.set_up(ctx)
        proceed(ctx)
        return ctx.events

    # --- the kernel's functions -----------------------------------------------------------------

    def turn_model(self, state: PState) -> TurnModel[PState] | None:
        return rounds.turn_model(state)

    def legal_actions(self, state: PState, seat: int) -> Iterable[Command]:
        return list(self.listed(state, seat))

    def is_legal(self, state: PState, seat: int, command: Command) -> bool:
        """Whether `listed` would list `command`: by the command's own test where its chapter
        has one for the phase (a placement by its refusal, rather than listing every square
        and layer), else by walking the list until it is found."""
        if seat not in self.awaited_seats(state):
            return False
        test = None if state.pending else LISTED.get((state.phase, command.type))
        if test is not None:
            return test(self.pack, state, seat, command)
        return any(action == command for action in self.listed(state, seat))

    def listed(self, state: PState, seat: int) -> Iterator[Command]:
        if seat not in self.awaited_seats(state):
            return iter(())
        pending = state.pending[0].kind if state.pending else None
        lister = IN_PHASE.get(state.phase) if pending is None else AWAITED.get(pending)
        return iter(()) if lister is None else lister(self.pack, state, seat)

    def event_types(self) -> tuple[type[Event], ...]:
        return FOLDS.event_types()

    def command_schemas(self) -> tuple[CommandSpec, ...]:
        declared = sorted(
            enumerate(COMMANDS.declared().values()),
            key=lambda item: (CHAPTERS.index(item[1].chapter), item[0]),
        )
        return tuple(d.spec(self.pack) for _, d in declared)

    def out_of_turn_rule(self, command: Command) -> str:
        """A bid from a player whose bid stands is the rule's own refusal."""
        if command.type == "bid":
            return auction.NOT_BEATEN
        return self.turn_rule

    def refusal(self, state: PState, seat: int, command: Command) -> RuleViolation:
        """The rule a command breaks, as precisely as its chapter tells (`why_not`), else the
        turn's."""
        found = COMMANDS.why_not(self.pack, state, seat, command)
        if found is not None:
            return found
        return IllegalAction(
            f"{command.type!r} is not a legal action for seat {seat} now ({state.phase})",
            self.turn_rule,
            {"command": command.as_dict(), "phase": state.phase},
        )

    def decide(self, state: PState, seat: int, command: Command, chance: Chance) -> list[Event]:
        return self.decision(state, seat, command, chance).events

    def decision(
        self, state: PState, seat: int, command: Command, chance: Chance
    ) -> Decision[PState]:
        ctx = Ctx(self.pack, state, chance)
        COMMANDS.play(ctx, seat, command)
        proceed(ctx)
        return Decision(ctx.events, ctx.state)

    def evolve(self, state: PState, event: Event) -> PState:
        return FOLDS.evolve(self.pack, state, event)

    def is_over(self, state: PState) -> bool:
        return state.phase == "over"

    def result(self, state: PState) -> dict[str, Any]:
        return eras.result(state)

    def summary(self, state: PState) -> dict[str, Any]:
        return {
            "era": state.era,
            "round": state.round,
            "phase": state.phase,
            "start_player": state.start,
            "awaiting": sorted(self.awaited_seats(state)),
        }

    def encode_state(self, state: PState) -> Any:
        return encode(state)

    def decode_state(self, data: Any) -> PState:
        return decode(PState, data)

    def invariant_failures(self, state: PState) -> list[str]:
        return invariants.failures(self.pack, state)

    def view(self, state: PState, viewer: int | None) -> dict[str, Any]:
        return view.view(self.pack, state, viewer)

    def draw_board(self, state: PState, viewer: int | None) -> str | None:
        return drawing.table_svg(self.pack, state, viewer)

    def names(self) -> Mapping[str, str]:
        known: Mapping[str, str] | None = getattr(self, "_names", None)
        if known is None:
            known = narration.names_of(self.pack)
            self._names = known
        return known

    def card_texts(self) -> Mapping[str, str]:
        return narration.card_texts(self.pack)

    def narrate(
        self,
        event: Mapping[str, Any],
        players: Sequence[str],
        empires: Mapping[int, str] | None = None,
    ) -> str:
        return narration.narrate(self, event, players)

    def data_words(self, event: Mapping[str, Any], players: Sequence[str]) -> list[dict[str, str]]:
        return narration.data_words(self, event, players)

    def action_words(
        self, state: PState, command: Mapping[str, Any], players: Sequence[str]
    ) -> tuple[str, str]:
        return narration.action_words(self, state, command, players)

    def strategy(self) -> Any:
        return PatchStrategy(self)


# --- playing on --------------------------------------------------------------------------------

AFTER_TURNS: dict[str, Callable[[Ctx], None]] = {
    "vasco": auction.begin_auction,
    "auction": auction.close_auction,
    "diplomacy": management.begin_management,
    "management": movement.begin_movement,
    "movement": negotiation_and_war.begin_conflicts,
    "chichen": vote.begin_vote,
}
"""What follows a phase played in turn once nobody is left to act."""

AFTER_SEALS: dict[str, Callable[[Ctx], None]] = {
    "negotiation": negotiation_and_war.next_conflict,
    "war": negotiation_and_war.next_conflict,
    "vote-card": vote.next_vote,
    "vote": vote.next_vote,
    "auction-sealed": patching.begin_patching,
}
"""What follows a sealed step once it is revealed."""


def proceed(ctx: Ctx) -> None:
    """Play on whatever follows without a choice, until a seat must decide or the game ends."""
    while True:
        state = ctx.state
        if state.phase == "over" or state.pending:
            return
        phase = state.phase
        if phase == "patching":
            if state.won:
                return
            if not patching.after_patching(ctx):
                diplomacy.begin_diplomacy(ctx)
            return
        if phase == "first-workers":
            diplomacy.begin_diplomacy(ctx)
            return
        if phase in AFTER_TURNS:
            if state.turn >= 0:
                return
            AFTER_TURNS[phase](ctx)
            continue
        if phase in rounds.SEALED_PHASES:
            if state.sealing:
                return
            AFTER_SEALS[phase](ctx)
            continue
        if phase == "conflicts":
            negotiation_and_war.next_conflict(ctx)
            continue
        return
