"""The History of the World rules engine as a kernel Ruleset: shared by the editions, which
declare their names, options and rule ids and override what differs (e.g. `resolve_invasion`).
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from domain.core.chance import Chance
from domain.core.codec import Codec
from domain.core.errors import RuleViolation
from domain.core.messages import Command, Event
from domain.core.narration import Namer, plain_words
from domain.core.ruleset import CommandSpec, Decision, Ruleset, Setup
from domain.hotw.editions.hotw_2024 import model
from domain.hotw.editions.hotw_2024.commands import command_specs
from domain.hotw.editions.hotw_2024.evolve import FOLDS, evolve
from domain.hotw.editions.hotw_2024.model import (
    FLEET,
    GREAT_WALL,
    HotwState,
    Player,
    Stage,
    Variant,
)
from domain.hotw.editions.hotw_2024.narration import TELLERS, names_of
from domain.hotw.editions.hotw_2024.pack import HotwPack
from domain.hotw.editions.hotw_2024.revisions import cards_at
from domain.hotw.editions.hotw_2024.rules import actions, endgame, organization
from domain.hotw.editions.hotw_2024.rules.conquest import invade_with_conquest
from domain.hotw.editions.hotw_2024.rules.context import Ctx, Invader
from domain.hotw.editions.hotw_2024.rules.invasion import invade_with_dice, invade_without_dice
from domain.hotw.editions.hotw_2024.views import result_of, summary_of, view_of
from domain.hotw.provenance import provenance_of

if TYPE_CHECKING:
    from domain.hotw.editions.hotw_2024.strategy import HotwStrategy

CLOSE_EPOCH = "close_epoch"
CODEC = Codec(typing.get_args(model.Task), vars(model))
"""The state's JSON form: its agenda's tasks are told apart by name."""


class HotwRuleset(Ruleset[HotwState]):
    """History of the World: every rule of the base game; editions subclass it."""

    pack: HotwPack
    variant_options: ClassVar[Mapping[str, Variant]] = {}
    """The edition's boolean options that switch on a shared variant rule, by option name."""

    def __init__(self, pack: Any = None) -> None:
        super().__init__(pack)
        self._names: Mapping[str, str] | None = None

    def pack_at(self, revision: int) -> HotwPack:
        """The pack as a game of `revision` reads it: the cards' effects as they were before
        every later revision that changed them (data/<pack>/revisions.yaml)."""
        return replace(self.pack, cards=cards_at(self.pack.cards, revision, self.pack.earlier))

    # --- creation -----------------------------------------------------------------------

    def initial_state(self, setup: Setup) -> HotwState:
        shared = self.pack.cards.pieces.shared
        supply = {
            "capital": shared.capitals,
            "city": shared.cities,
            "monument": shared.monuments,
            "fort": shared.forts,
            FLEET: shared.fleets,
            GREAT_WALL: shared.great_wall_forts,
        }
        people = self.pack.cards.pieces.per_player.people
        return HotwState(
            epoch=0,
            stage=Stage.SETUP,
            players=tuple(Player(name=name, supply=people) for name in setup.players),
            dice=bool(setup.options.get("dice", True)),
            options=frozenset(
                variant
                for option, variant in self.variant_options.items()
                if setup.options.get(option)
            ),
            supply=supply,
        )

    def set_up(self, state: HotwState, chance: Chance) -> list[Event]:
        ctx = Ctx(self, state, chance)
        organization.set_up(ctx)
        actions.proceed(ctx)
        return ctx.events

    # --- play ---------------------------------------------------------------------------

    def undo_scope(self, state: HotwState) -> tuple[int, str, int, int]:
        """A seat's undo stays within its own player turn (or organization step)."""
        return (state.epoch, state.stage.value, state.turn_index, state.current_seat or -1)

    def awaited_seats(self, state: HotwState) -> frozenset[int]:
        return actions.awaited_seats(self.pack, state)

    def legal_actions(self, state: HotwState, seat: int) -> Iterable[Command]:
        return actions.legal_actions(self.pack, state, seat)

    def is_legal(self, state: HotwState, seat: int, command: Command) -> bool:
        return any(action == command for action in actions.listed_actions(self.pack, state, seat))

    def decide(self, state: HotwState, seat: int, command: Command, chance: Chance) -> list[Event]:
        return self.decision(state, seat, command, chance).events

    def decision(
        self, state: HotwState, seat: int, command: Command, chance: Chance
    ) -> Decision[HotwState]:
        ctx = Ctx(self, state, chance)
        actions.apply_command(ctx, seat, command)
        actions.proceed(ctx)
        return Decision(ctx.events, ctx.state)

    def evolve(self, state: HotwState, event: Event) -> HotwState:
        return evolve(self.pack, state, event)

    def event_types(self) -> tuple[type[Event], ...]:
        """The family's vocabulary: every event the chapters declare."""
        return FOLDS.event_types()

    def out_of_turn_rule(self, command: Command) -> str:
        """Honors are never played in another player's turn (honors.play.not-others-turn)."""
        if command.type == "play_honor":
            return self.pack.edition.cite("honors.play.not-others-turn")
        return self.turn_rule

    def refusal(self, state: HotwState, seat: int, command: Command) -> RuleViolation:
        refusal = actions.why_not(self.pack, state, seat, command)
        if refusal is not None:
            cite = self.pack.edition.cite
            refusal.rule = cite(refusal.rule)
            if "cites" in refusal.context:
                refusal.context = {
                    **refusal.context,
                    "cites": [cite(key) for key in refusal.context["cites"]],
                }
            return refusal
        return RuleViolation(
            f"{command.type!r} is not a legal action for seat {seat} now",
            self.turn_rule,
            {"command": command.as_dict()},
        )

    def system_action(self, state: HotwState) -> Command | None:
        """Closing an epoch (and, after Epoch V, the Endgame) is the system's step."""
        if state.stage is Stage.EPOCH_CLOSING:
            return Command.of(CLOSE_EPOCH, epoch=state.epoch)
        return None

    def decide_system(self, state: HotwState, command: Command, chance: Chance) -> list[Event]:
        return self.system_decision(state, command, chance).events

    def system_decision(
        self, state: HotwState, command: Command, chance: Chance
    ) -> Decision[HotwState]:
        ctx = Ctx(self, state, chance)
        if state.epoch < len(self.pack.cards.empires_by_epoch):
            organization.begin_epoch(ctx, state.epoch + 1)
        else:
            endgame.begin_endgame(ctx)
        actions.proceed(ctx)
        return Decision(ctx.events, ctx.state)

    def is_over(self, state: HotwState) -> bool:
        return state.stage is Stage.OVER

    # --- replaceable rules ----------------------------------------------------------------

    def resolve_invasion(self, ctx: Ctx, land: str, invader: Invader) -> None:
        """Settle an invasion (p6), or by Option 3's rules when it is in force."""
        if ctx.state.has_option(Variant.INVASION_AND_CONQUEST):
            invade_with_conquest(ctx, land, invader)
        elif ctx.state.dice:
            invade_with_dice(ctx, land, invader)
        else:
            invade_without_dice(ctx, land, invader)

    # --- views and snapshots ----------------------------------------------------------------

    def view(self, state: HotwState, viewer: int | None) -> dict[str, Any]:
        return view_of(self.pack, state, viewer)

    def summary(self, state: HotwState) -> dict[str, Any]:
        return summary_of(self.pack, state)

    def result(self, state: HotwState) -> dict[str, Any]:
        """Final gold, ranking and tie-breaks (p9 Winning)."""
        return result_of(self.pack, state)

    def encode_state(self, state: HotwState) -> Any:
        encoded: dict[str, Any] = CODEC.encode(state)
        return encoded

    def decode_state(self, data: Any) -> HotwState:
        state: HotwState = CODEC.decode(HotwState, data)
        return state

    # --- hooks for the tools around the rules ------------------------------------------------

    def invariant_failures(self, state: HotwState) -> list[str]:
        from domain.hotw.editions.hotw_2024.invariants import invariant_failures

        return invariant_failures(self.pack, state)

    def draw_board(self, state: HotwState, viewer: int | None) -> str:
        from domain.hotw.editions.hotw_2024.drawing import table_svg

        return table_svg(self.pack.board, self.view(state, viewer))

    def strategy(self) -> HotwStrategy:
        from domain.hotw.editions.hotw_2024.strategy import HotwStrategy

        return HotwStrategy(self)

    def names(self) -> Mapping[str, str]:
        known = self._names
        if known is None:
            known = self._names = names_of(self.pack)
        return known

    def empires_in_play(self, state: HotwState) -> Mapping[int, str]:
        """The turn's Empire (of a card with two, the one being played), once its card is
        revealed."""
        turn = state.turn
        if turn is None or turn.card in state.unrevealed:
            return {}
        try:
            specs = self.pack.cards.empire(turn.card).empires
        except KeyError:
            return {}
        if not specs:
            return {}
        return {turn.seat: specs[min(turn.empire_index, len(specs) - 1)].name}

    def narrate(
        self,
        event: Mapping[str, Any],
        players: Sequence[str],
        empires: Mapping[int, str] | None = None,
    ) -> str:
        namer = Namer(players, self.names(), empires=empires)
        return plain_words(event, players, self.names(), TELLERS, namer)

    def action_words(
        self, state: HotwState, command: Mapping[str, Any], players: Sequence[str]
    ) -> tuple[str, str]:
        """An Empire card's button says what it brings (its people and start land)."""
        words, short = super().action_words(state, command, players)
        if command.get("type") == "choose_empire_card":
            from domain.hotw.editions.hotw_2024.narration import empire_card_brief

            brief = empire_card_brief(self.pack, self.names(), str(command.get("card")))
            if brief:
                return f"{words} ({brief})", f"{short} ({brief})"
        return words, short

    def card_texts(self) -> Mapping[str, str]:
        from domain.hotw.editions.hotw_2024.narration import card_texts

        return card_texts(self.pack, self.names())

    def data_used(self, event_type: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        return provenance_of(self.pack, event_type, data)

    def command_schemas(self) -> tuple[CommandSpec, ...]:
        """Each command as its chapter declares it (domain/hotw/editions/hotw_2024/commands.py)."""
        return command_specs(self.pack)
