"""A Brief History of the World as a kernel Ruleset: a thin class over the rulebook's chapters -
`setup`, `organisation` (Organisation and Allocation), `establishing` (the Empire turns and
establishing), `expansion`, `invasion` (with the Invasion dial and reduction), `overruns`,
`building` (forts and monuments), `event_cards` (Events), `reorganising`, `gold`, `conclusion`
(and the end) and `two_players`. Each chapter declares its commands (`context.COMMANDS`), their
legality and refusals, and its events with their folds (`context.FOLDS`). Every event cites its
rule (`brief.*`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from domain.core.catalogue import RulesCatalogue
from domain.core.chance import Chance
from domain.core.errors import RuleViolation
from domain.core.messages import Command, Event
from domain.core.narration import (
    SEAT_KEYS,
    SEATS_KEYS,
    Namer,
    action_words,
    fields_in_words,
    listed,
    plain_words,
)
from domain.core.ruleset import CommandSpec, Ruleset, Setup
from domain.core.turns import Sequential, TurnModel, TurnTaking
from domain.hotw import codec
from domain.hotw.editions.brief2009 import events, view
from domain.hotw.editions.brief2009.building import monument_actions, monument_step
from domain.hotw.editions.brief2009.conclusion import BONUS, bonus_actions, bonus_step
from domain.hotw.editions.brief2009.context import COMMANDS, Ctx
from domain.hotw.editions.brief2009.establishing import call_next
from domain.hotw.editions.brief2009.event_cards import event_actions
from domain.hotw.editions.brief2009.expansion import expansion_actions
from domain.hotw.editions.brief2009.invasion import invasion_actions
from domain.hotw.editions.brief2009.model import BriefState, Stage
from domain.hotw.editions.brief2009.organisation import (
    SELECTION,
    allocation_actions,
    allocation_step,
    begin_epoch,
)
from domain.hotw.editions.brief2009.overruns import overrun_actions, overrun_step
from domain.hotw.editions.brief2009.reorganising import finish
from domain.hotw.editions.brief2009.revisions import REVISIONS
from domain.hotw.editions.brief2009.setup import initial_state, set_up
from domain.hotw.editions.brief2009.tables import BriefTables
from domain.hotw.refusals import refused

if TYPE_CHECKING:
    from domain.hotw.editions.brief2009.strategy import BriefStrategy


@dataclass(frozen=True)
class BriefPack:
    """What the ruleset is built with: the pack's tables and the rules catalogue."""

    tables: BriefTables
    rules: RulesCatalogue
    ruleset: str = "brief-2009"


def _turn_seat(state: BriefState) -> int | None:
    if state.stage is Stage.TURNS and state.turn is not None:
        return state.owner(state.turn.colour)
    return None


def _turn_key(state: BriefState) -> tuple[int, int, str]:
    return (state.epoch, state.call_index, state.stage.value)


TURNS: Sequential[BriefState] = Sequential(_turn_seat, turn=_turn_key)
"""The Empire turns: the called Empire's player acts alone."""


class BriefRuleset(TurnTaking[BriefState], Ruleset[BriefState]):
    pack: BriefPack

    revisions = REVISIONS

    @property
    def tables(self) -> BriefTables:
        return self.pack.tables

    def pack_at(self, revision: int) -> BriefPack:
        """The same pack, its tables answering the revision gates for `revision`."""
        return replace(self.pack, tables=replace(self.pack.tables, revision=revision))

    # creation

    def initial_state(self, setup: Setup) -> BriefState:
        return initial_state(self.tables, setup)

    def set_up(self, state: BriefState, chance: Chance) -> list[Event]:
        ctx = Ctx(self.tables, state, chance)
        set_up(ctx)
        begin_epoch(ctx, 1)
        self.proceed(ctx)
        return ctx.events

    # whose move, and what it may do

    def turn_model(self, state: BriefState) -> TurnModel[BriefState] | None:
        if state.stage is Stage.ALLOCATING:
            return SELECTION
        if state.stage is Stage.TURNS:
            return TURNS
        if state.stage is Stage.BONUS:
            return BONUS
        return None

    def legal_actions(self, state: BriefState, seat: int) -> Iterable[Command]:
        return list(self.listed(state, seat))

    def is_legal(self, state: BriefState, seat: int, command: Command) -> bool:
        return command in self.listed(state, seat)

    def listed(self, state: BriefState, seat: int) -> Iterator[Command]:
        """The seat's legal actions: each chapter lists its own, by the stage of the turn."""
        if seat not in self.awaited_seats(state):
            return
        if state.stage is Stage.ALLOCATING:
            yield from allocation_actions(state, seat)
            return
        if state.stage is Stage.BONUS:
            yield from bonus_actions(state)
            return
        turn = state.turn
        assert turn is not None
        force = turn.active
        if force is not None and force.stopped:
            yield from monument_actions(self.tables, state)
        elif turn.invasion is not None:
            yield from invasion_actions(self.tables, state)
        elif turn.overrun is not None:
            yield from overrun_actions(self.tables, state)
        else:
            yield from event_actions(self.tables, state, seat)
            if force is None:
                yield Command.of("establish")
            else:
                yield from expansion_actions(self.tables, state)

    def refusal(self, state: BriefState, seat: int, command: Command) -> RuleViolation:
        """The refusal of the chapter declaring the command; else the table's general one."""
        return COMMANDS.why_not(self.tables, state, seat, command) or refused(
            f"{command.type!r} is not a legal action now", "brief.table.procedure", command
        )

    # deciding, and running on by itself

    def decide(self, state: BriefState, seat: int, command: Command, chance: Chance) -> list[Event]:
        ctx = Ctx(self.tables, state, chance)
        COMMANDS.play(ctx, seat, command)
        self.proceed(ctx)
        return ctx.events

    def proceed(self, ctx: Ctx) -> None:
        for _ in range(10_000):
            if not self.step(ctx):
                return
        raise RuntimeError("the rules did not come to rest")

    def step(self, ctx: Ctx) -> bool:
        """One thing that needs nobody's choice; False when a seat must act or the game is over."""
        state = ctx.state
        if state.stage is Stage.ALLOCATING:
            return allocation_step(ctx)
        if state.stage is Stage.BONUS:
            return bonus_step(ctx)
        if state.stage is not Stage.TURNS:
            return False
        turn = state.turn
        if turn is None:
            call_next(ctx)
            return True
        force = turn.active
        if turn.overrun is not None and overrun_step(ctx):
            return True
        if force is not None and force.stopped:
            if turn.monuments_due > 0:
                return monument_step(ctx)
            finish(ctx, force)
            return True
        return False

    # folding and reading

    def evolve(self, state: BriefState, event: Event) -> BriefState:
        return events.evolve(self.tables, state, event)

    def is_over(self, state: BriefState) -> bool:
        return state.stage is Stage.OVER

    def event_types(self) -> tuple[type[Event], ...]:
        return events.event_types()

    def encode_state(self, state: BriefState) -> Any:
        return codec.encode(state)

    def decode_state(self, data: Any) -> BriefState:
        decoded: BriefState = codec.decode(BriefState, data)
        return decoded

    def summary(self, state: BriefState) -> dict[str, Any]:
        return {
            "epoch": state.epoch,
            "stage": state.stage.value,
            "gold": [c.gold for c in state.colours],
            "awaiting": sorted(self.awaited_seats(state)),
        }

    def result(self, state: BriefState) -> dict[str, Any]:
        return view.result(state)

    def data_used(self, event_type: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        return view.data_used(self.tables, data)

    def strategy(self) -> BriefStrategy:
        from domain.hotw.editions.brief2009.strategy import BriefStrategy

        return BriefStrategy(self)

    def names(self) -> Mapping[str, str]:
        tables = self.tables
        found: dict[str, str] = {land.id: land.name for land in tables.board.lands.values()}
        found |= {water.id: water.name for water in tables.board.waters.values()}
        found |= {area.id: area.name for area in tables.areas}
        found |= {empire.id: empire.name for empire in tables.empires}
        found |= {card.id: card.name for card in tables.events}
        found |= {
            token.id: f"Bonus token {token.id.rsplit('-', 1)[-1].lstrip('0')}"
            for token in tables.bonus_tokens
        }
        return found

    def view(self, state: BriefState, viewer: int | None) -> dict[str, Any]:
        return view.seat_view(self.tables, state, viewer, self.awaited_seats(state))

    def card_texts(self) -> Mapping[str, str]:
        names = self.names()
        texts: dict[str, str] = {}
        for e in self.tables.empires:
            texts[e.id] = (
                f"{names.get(e.id, e.id)}, Empire of Epoch {e.epoch}, the {ordinal(e.order)} "
                f"called: strength {e.strength}, starts in "
                f"{names.get(e.start_land, e.start_land)}"
                + (", with a capital" if e.capital else "")
                + (f", fleets in {listed([names.get(f, f) for f in e.fleets])}" if e.fleets else "")
                + (
                    f"; Feature: {names.get(e.feature, e.feature.replace('-', ' '))}"
                    if e.feature
                    else ""
                )
            )
        for c in self.tables.events:
            timing = (
                "red: play it at the start of a turn of its Epoch, or discard it"
                if c.timing == "red"
                else "black: play it any time in a turn of its Epoch or later"
            )
            line = f"Event of Epoch {c.epoch}, {timing}; price {c.price} gold"
            if c.armies:
                where = names.get(c.land, c.land) if c.land else "a land"
                line += f"; raises {c.armies} armies in {where}"
            texts[c.id] = line
        for token in self.tables.bonus_tokens:
            texts[token.id] = (
                "Bonus token: kept face down; its gold is added to yours at the end of the game"
            )
        return texts

    def draw_board(self, state: BriefState, viewer: int | None) -> str:
        from domain.hotw.editions.brief2009.drawing import table_svg

        return table_svg(self.tables.board, self.view(state, viewer), self.names())

    def empires_in_play(self, state: BriefState) -> Mapping[int, str]:
        """By colour: the called Empire, or the Event Empire a card raised while it plays."""
        turn = state.turn
        if turn is None:
            return {}
        active = turn.active
        empire = active.card if active is not None else turn.empire
        return {turn.colour: self.names().get(empire, empire)}

    def narrate(
        self,
        event: Mapping[str, Any],
        players: Sequence[str],
        empires: Mapping[int, str] | None = None,
    ) -> str:
        from domain.hotw.editions.brief2009.narration import TELLERS

        namer = brief_namer(players, self.names(), empires)
        return plain_words(event, players, self.names(), TELLERS, namer)

    def data_words(self, event: Mapping[str, Any], players: Sequence[str]) -> list[dict[str, str]]:
        return fields_in_words(event, brief_namer(players, self.names()))

    def action_words(
        self, state: BriefState, command: Mapping[str, Any], players: Sequence[str]
    ) -> tuple[str, str]:
        return action_words(command, brief_namer(players, self.names()))

    def invariant_failures(self, state: BriefState) -> list[str]:
        return view.invariant_failures(self.tables, state)

    def command_schemas(self) -> tuple[CommandSpec, ...]:
        return COMMANDS.specs(self.tables)


def ordinal(n: int) -> str:
    """`1st`, `2nd`, `3rd`, `7th`, `11th`, `22nd`."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


BRIEF_COLOUR_KEYS = frozenset(
    {"first", "order", "empire_order", "event_order", "defender", "colour", "from_colour",
     "removed_colour", "chooser"}
)  # fmt: skip
"""Brief's events name colours (a player's set of pieces; two each in the two-player game)."""


class BriefNamer(Namer):
    def field(self, key: str, value: Any) -> str:
        if key in BRIEF_COLOUR_KEYS and isinstance(value, int) and not isinstance(value, bool):
            return self.colour(value)
        if (
            key in BRIEF_COLOUR_KEYS
            and isinstance(value, list | tuple)
            and all(isinstance(v, int) for v in value)
        ):
            return listed([self.colour(v) for v in value]) if value else "none"
        return super().field(key, value)


def brief_namer(
    players: Sequence[str], names: Mapping[str, str], empires: Mapping[int, str] | None = None
) -> Namer:
    return BriefNamer(
        players, names, SEAT_KEYS - BRIEF_COLOUR_KEYS, SEATS_KEYS - BRIEF_COLOUR_KEYS, empires
    )
