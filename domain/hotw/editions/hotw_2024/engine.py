"""History of the World (Rio Grande Games, 2024) as a kernel Ruleset: one thin class over the
rulebook's chapters - `organization` (setting up and Epoch organization), `card_selection`
(Options 1-2), the player turn (`turn`, `actions`) with its phases `reveal`, `establish`,
`expand`, `invasion` (with dice and without), `conquest` (Option 3), `buildings`, `monuments`,
`revenue` and `gold`, the cards' `effects` and `honors`, and the `endgame`. Each chapter declares
its commands (`context.COMMANDS`), their legality and refusals, and its events with their folds
(`context.FOLDS`). The four optional rules (p11-p12) are boolean options, off by default, in any
combination except Option 3 without dice.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from domain.core.chance import Chance
from domain.core.codec import Codec
from domain.core.errors import InvalidOptions, RuleViolation
from domain.core.messages import Command, Event
from domain.core.narration import Namer, plain_words
from domain.core.ruleset import (
    CommandSpec,
    Decision,
    OptionSpec,
    Ruleset,
    Setup,
    register_ruleset,
)
from domain.hotw.editions.hotw_2024 import actions, endgame, model, organization
from domain.hotw.editions.hotw_2024.conquest import invade_with_conquest
from domain.hotw.editions.hotw_2024.context import FOLDS, Ctx, Invader, command_specs
from domain.hotw.editions.hotw_2024.invasion import invade_with_dice, invade_without_dice
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
from domain.hotw.editions.hotw_2024.revisions import REVISIONS, cards_at
from domain.hotw.editions.hotw_2024.view import result_of, summary_of, view_of
from domain.hotw.provenance import provenance_of

UNCITED_RULES = ("hotw24.components.board",)
"""The clauses this module decides that no event or refusal carries."""

if TYPE_CHECKING:
    from domain.hotw.editions.hotw_2024.strategy import HotwStrategy

CLOSE_EPOCH = "close_epoch"
CODEC = Codec(typing.get_args(model.Task), vars(model))
"""The state's JSON form: its agenda's tasks are told apart by name."""


class Option(StrEnum):
    """The four optional rules of the 2024 rulebook (p11-p12), each a shared variant rule."""

    EVENT_CARD_SELECTION = Variant.EVENT_CARD_SELECTION.value
    HIDDEN_EMPIRE_CARDS = Variant.HIDDEN_EMPIRE_CARDS.value
    INVASION_AND_CONQUEST = Variant.INVASION_AND_CONQUEST.value
    PAIRED_AREA_TOKENS = Variant.PAIRED_AREA_TOKENS.value


@register_ruleset
class Hotw2024(Ruleset[HotwState]):
    """History of the World, Rio Grande Games 2024: its name, options and rule ids, and the
    kernel's hooks, each handed to the chapter that owns it."""

    pack: HotwPack
    name = "hotw-2024"
    title = "History of the World (Rio Grande Games, 2024)"
    player_counts = (3, 4, 5, 6)
    """hotw24.setup.player-count (reading: the text is silent; 3-6 as the other editions)."""
    options = (
        OptionSpec(
            "dice",
            bool,
            True,
            "Play invasions with dice, or without them; every player uses the same system",
            rule="hotw24.setup.dice",
        ),
        OptionSpec(
            Option.EVENT_CARD_SELECTION.value,
            bool,
            False,
            "Option 1: the player with most gold takes the Event cards, secretly keeps one and "
            "passes the rest down the gold order",
        ),
        OptionSpec(
            Option.HIDDEN_EMPIRE_CARDS.value,
            bool,
            False,
            "Option 2: the player with least gold takes the Empire cards, secretly keeps one and "
            "passes the rest up the gold order; each stays secret until its turn",
        ),
        OptionSpec(
            Option.INVASION_AND_CONQUEST.value,
            bool,
            False,
            "Option 3: the Enemy's dice depend on terrain and forts, ties go to the Empire, "
            "frustrated invasions may go on with the Invasion modifier, successes earn conquest "
            "points; only with dice",
        ),
        OptionSpec(
            Option.PAIRED_AREA_TOKENS.value,
            bool,
            False,
            "Option 4: each player secretly holds one Paired Area token, played in any Conclude "
            "the turn phase for gold in both its areas",
        ),
    )
    variant_options: ClassVar[Mapping[str, Variant]] = {
        option.value: Variant(option.value) for option in Option
    }
    """The boolean options that switch on a variant rule, by option name."""
    data_pack = "hotw-2024"
    """The map (hotw24.components.board), cards, pieces and numbers: data/hotw-2024/."""
    turn_rule = "hotw24.turn.current-player-only"
    end_rule = "hotw24.winning.most-gold"
    setup_rule = "hotw24.setup.player-count"
    setup_cites = (
        "hotw24.setup.player-set",
        "hotw24.setup.leader",
        "hotw24.setup.arctic",
        "hotw24.setup.area-tokens",
        "hotw24.setup.dice",
        "hotw24.setup.options",
    )
    options_rule = "hotw24.options"
    chance_rule = "hotw24.table.chance"
    undo_rule = "hotw24.table.undo-and-rewind"
    seat_rule = "hotw24.table.seats"
    revisions = REVISIONS

    def __init__(self, pack: Any = None) -> None:
        super().__init__(pack)
        self._names: Mapping[str, str] | None = None

    def pack_at(self, revision: int) -> HotwPack:
        """The pack as a game of `revision` reads it: the cards' effects as they were before
        every later revision that changed them (data/<pack>/revisions.yaml)."""
        return replace(self.pack, cards=cards_at(self.pack.cards, revision, self.pack.earlier))

    def check_option_combination(self, options: Mapping[str, Any]) -> None:
        """hotw24.option3.dice: Option 3 gives its rules for play with dice only."""
        if options.get(Option.INVASION_AND_CONQUEST.value) and not options.get("dice", True):
            raise InvalidOptions(
                "option 'invasion_and_conquest' needs dice: Option 3 gives invasion and "
                "conquest rules only for play with dice",
                "hotw24.option3.dice",
                {"options": {Option.INVASION_AND_CONQUEST.value: True, "dice": False}},
            )

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
        return FOLDS.evolve(self.pack, state, event)

    def event_types(self) -> tuple[type[Event], ...]:
        """The family's vocabulary: every event the chapters declare."""
        return FOLDS.event_types()

    def out_of_turn_rule(self, command: Command) -> str:
        """Honors are never played in another player's turn."""
        if command.type == "play_honor":
            return "hotw24.honors.play.not-others-turn"
        return self.turn_rule

    def refusal(self, state: HotwState, seat: int, command: Command) -> RuleViolation:
        refusal = actions.why_not(self.pack, state, seat, command)
        if refusal is not None:
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
        """Each command as its chapter declares it (`context.COMMANDS`)."""
        return command_specs(self.pack)
