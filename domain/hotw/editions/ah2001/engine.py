"""The Avalon Hill 2001 rules as a kernel Ruleset: a thin class over the rulebook's chapters -
`setup` (Chapter II), `empires` (III, drawing Empire cards and calling them), `turn`,
`event_cards` and `lesser_events` (IV), `expansion`, `combat` (with attacking from the sea),
`sack`, `building` (forts and monuments) (V), `scoring` (VI), `pre_eminence` (VII), `optional`
(the Optional Rules) and the simultaneous-empires variant (`simultaneous`,
`simultaneous_rounds`). Each chapter declares its commands (`context.COMMANDS`), their legality
and refusals, and its events with their folds (`context.FOLDS`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

from domain.core.catalogue import RulesCatalogue
from domain.core.chance import Chance
from domain.core.errors import RuleViolation
from domain.core.messages import Command, Event
from domain.core.narration import Namer, plain_words
from domain.core.ruleset import CommandSpec, Ruleset, Setup
from domain.hotw import codec
from domain.hotw.editions.ah2001 import events, view, words
from domain.hotw.editions.ah2001.building import monument_actions, monument_step
from domain.hotw.editions.ah2001.context import COMMANDS, SIMULTANEOUS, Ctx
from domain.hotw.editions.ah2001.empires import (
    call_next,
    calling_order,
    drawer,
    drawing_actions,
    drawing_step,
    reclaim_choice,
)
from domain.hotw.editions.ah2001.event_cards import card_actions
from domain.hotw.editions.ah2001.expansion import end_expansion, expansion_actions, may_place_army
from domain.hotw.editions.ah2001.invariants import invariant_failures
from domain.hotw.editions.ah2001.lesser_events import targeting_actions, targeting_step
from domain.hotw.editions.ah2001.model import Ah2001State, Stage
from domain.hotw.editions.ah2001.optional import reclaim_actions
from domain.hotw.editions.ah2001.revisions import REVISIONS
from domain.hotw.editions.ah2001.setup import initial_state, set_up
from domain.hotw.editions.ah2001.simultaneous_rounds import next_round, round_actions, round_step
from domain.hotw.editions.ah2001.tables import Ah2001Tables
from domain.hotw.refusals import refused

END_EXPANSION = Command.of("end_expansion")


@dataclass(frozen=True)
class Ah2001Pack:
    """What the ruleset is built with: the printed tables, the board and the catalogue."""

    tables: Ah2001Tables
    rules: RulesCatalogue
    ruleset: str = "hotw-ah2001"


class Ah2001Ruleset(Ruleset[Ah2001State]):
    pack: Ah2001Pack

    revisions = REVISIONS

    @property
    def tables(self) -> Ah2001Tables:
        return self.pack.tables

    def pack_at(self, revision: int) -> Ah2001Pack:
        """The same pack, its tables answering the revision gates of the folds for `revision`."""
        return replace(self.pack, tables=replace(self.pack.tables, revision=revision))

    # creation

    def initial_state(self, setup: Setup) -> Ah2001State:
        return initial_state(self.tables, setup)

    def set_up(self, state: Ah2001State, chance: Chance) -> list[Event]:
        ctx = Ctx(self.tables, state, chance)
        set_up(ctx)
        self.proceed(ctx)
        return ctx.events

    # whose move, and what it may do

    def awaited_seats(self, state: Ah2001State) -> frozenset[int]:
        if state.stage is Stage.DRAWING:
            seat = drawer(state)
            return frozenset() if seat is None else frozenset({seat})
        if state.turn is not None and state.stage in (Stage.TURNS, Stage.MONUMENTS):
            return frozenset({state.turn.seat})
        seat, _ = reclaim_choice(self.tables, state)
        return frozenset() if seat < 0 else frozenset({seat})

    def undo_scope(self, state: Ah2001State) -> Any:
        """A seat undoes within one Empire's move: its turn (the epoch's calling position) and,
        with simultaneous empires, the one round's move of one Empire."""
        awaited = tuple(sorted(self.awaited_seats(state)))
        return (awaited, state.epoch, state.call_index, state.slot, state.cursor)

    def legal_actions(self, state: Ah2001State, seat: int) -> Iterable[Command]:
        return list(self.listed(state, seat))

    def listed(self, state: Ah2001State, seat: int) -> Iterator[Command]:
        """The seat's legal actions: each chapter lists its own, by the stage of the turn."""
        if seat not in self.awaited_seats(state):
            return iter(())
        if state.stage is Stage.DRAWING:
            return drawing_actions(state, seat)
        turn = state.turn
        if turn is None:
            return reclaim_actions(reclaim_choice(self.tables, state)[1])
        if state.stage is Stage.MONUMENTS:
            return monument_actions(self.tables, state)
        if turn.pending is not None:
            return targeting_actions(self.tables, state)
        if not turn.expanding:
            return card_actions(self.tables, state, seat)
        if SIMULTANEOUS in state.options:
            return round_actions(self.tables, state, seat)
        return expansion_actions(self.tables, state, seat)

    def is_legal(self, state: Ah2001State, seat: int, command: Command) -> bool:
        """Whether `listed` would list `command`: an army's placement by its own test, rather
        than by listing every land the Empire could reach; anything else by the list."""
        if command.type == "place_army" and self.expanding_alone(state, seat):
            return may_place_army(self.tables, state, command)
        return command in self.listed(state, seat)

    def expanding_alone(self, state: Ah2001State, seat: int) -> bool:
        """Whether `listed` would give the seat the expansion's actions (one Empire at a time)."""
        turn = state.turn
        return (
            seat in self.awaited_seats(state)
            and state.stage is Stage.TURNS
            and turn is not None
            and turn.pending is None
            and turn.expanding
            and SIMULTANEOUS not in state.options
        )

    def refusal(self, state: Ah2001State, seat: int, command: Command) -> RuleViolation:
        """The refusal of the chapter declaring the command; else the turn's general one."""
        return COMMANDS.why_not(self.tables, state, seat, command) or refused(
            f"{command.type!r} is not a legal action now", "ah2001.turn.parts", command
        )

    # deciding, and running on by itself

    def decide(
        self, state: Ah2001State, seat: int, command: Command, chance: Chance
    ) -> list[Event]:
        ctx = Ctx(self.tables, state, chance)
        COMMANDS.play(ctx, seat, command)
        self.proceed(ctx)
        return ctx.events

    def proceed(self, ctx: Ctx) -> None:
        for _ in range(1000):
            if not self.step(ctx):
                return
        raise RuntimeError("the rules did not come to rest")

    def step(self, ctx: Ctx) -> bool:
        """One thing that needs nobody's choice; False when a seat must act or the game is over."""
        state = ctx.state
        if state.stage is Stage.OVER:
            return False
        if state.stage is Stage.DRAWING:
            return drawing_step(ctx)
        if state.stage is Stage.MONUMENTS:
            return monument_step(ctx)
        turn = state.turn
        if turn is None:
            if SIMULTANEOUS in state.options and state.call_index >= len(
                calling_order(self.tables, state.epoch)
            ):
                return next_round(ctx)
            return call_next(ctx)
        if turn.pending is not None:
            return targeting_step(ctx)
        if SIMULTANEOUS in state.options:
            return round_step(ctx)
        if turn.expanding and self.nothing_left_but_to_end(state, turn.seat):
            end_expansion(ctx)
            return True
        return False

    def nothing_left_but_to_end(self, state: Ah2001State, seat: int) -> bool:
        """The Empire can do nothing more than end its expansion (read no further than the
        second action listed)."""
        return list(islice(self.listed(state, seat), 2)) == [END_EXPANSION]

    def invariant_failures(self, state: Ah2001State) -> list[str]:
        return invariant_failures(self.tables, state)

    # folding and reading

    def evolve(self, state: Ah2001State, event: Event) -> Ah2001State:
        return events.evolve(self.tables, state, event)

    def is_over(self, state: Ah2001State) -> bool:
        return state.stage is Stage.OVER

    def event_types(self) -> tuple[type[Event], ...]:
        return events.event_types()

    def command_schemas(self) -> tuple[CommandSpec, ...]:
        return COMMANDS.specs(self.tables)

    def view(self, state: Ah2001State, viewer: int | None) -> dict[str, Any]:
        return view.view(state, viewer, self.awaited_seats(state))

    def strategy(self) -> Any:
        from domain.hotw.editions.ah2001.strategy import Ah2001Strategy

        return Ah2001Strategy(self)

    def names(self) -> Mapping[str, str]:
        known: Mapping[str, str] | None = getattr(self, "_ah_names", None)
        if known is None:
            tables = self.tables
            found = {land.id: land.name for land in tables.board.lands.values()}
            found |= {water.id: water.name for water in tables.board.waters.values()}
            found |= {
                land.area: land.area.replace("-", " ").title()
                for land in tables.board.lands.values()
                if land.area
            }
            found |= {empire.id: empire.name for empire in tables.empires}
            found |= {empire.card: empire.name for empire in tables.empires}
            found |= {card.id: card.name for card in tables.events}
            known = self._ah_names = found
        return known

    def empires_in_play(self, state: Ah2001State) -> Mapping[int, str]:
        """The Active Empire (or the card's Empire playing in its turn: the Crusaders, a
        Minor Empire), by its name."""
        turn = state.turn
        if turn is None:
            return {}
        names = self.names()
        return {turn.seat: names.get(turn.card or turn.empire, turn.card or turn.empire)}

    def narrate(
        self,
        event: Mapping[str, Any],
        players: Sequence[str],
        empires: Mapping[int, str] | None = None,
    ) -> str:
        from domain.hotw.editions.ah2001.narration import TELLERS

        namer = Namer(players, self.names(), empires=empires)
        return plain_words(event, players, self.names(), {**TELLERS, **words.TELLERS}, namer)

    def action_words(
        self, state: Ah2001State, command: Mapping[str, Any], players: Sequence[str]
    ) -> tuple[str, str]:
        """Keeping or passing the Empire card drawn names the card (the drawer has seen it),
        with its strength and start land."""
        own = words.action_words(command, Namer(players, self.names()))
        if own is not None:
            return own
        said, short = super().action_words(state, command, players)
        kind = command.get("type")
        drawing = state.drawing
        drawn = drawing.drawn if drawing is not None else None
        if kind not in ("keep_empire", "pass_empire") or drawn is None:
            return said, short
        stats = [e for e in self.tables.empires if drawn in (e.card, e.id)]
        names = self.names()
        card = names.get(drawn, drawn)
        if stats:
            start = names.get(stats[0].start_land, stats[0].start_land)
            card += f" (strength {stats[0].strength}, starts in {start})"
        if kind == "keep_empire":
            return f"Keep the Empire card {card}", card
        to = Namer(players, names).seat(command.get("to"))
        return f"Pass the Empire card {card} to {to}", f"{card} to {to}"

    def card_texts(self) -> Mapping[str, str]:
        names = self.names()
        texts: dict[str, str] = {}
        for e in self.tables.empires:
            start = names.get(e.start_land, e.start_land)
            texts[e.card] = (
                f"Empire of Epoch {e.epoch}: {e.name}, strength {e.strength}, starts in {start}"
                + (", with a capital" if e.capital else "")
                + (f", leader {e.leader}" if e.leader else "")
            )
        for c in self.tables.events:
            deck = "Greater" if c.deck == "greater" else "Lesser"
            epochs = sorted(c.epochs)
            when = (
                "any Epoch"
                if len(epochs) == self.tables.epochs
                else f"Epoch {epochs[0]}"
                if len(epochs) == 1
                else f"Epochs {epochs[0]} to {epochs[-1]}"
            )
            entry = self.pack.rules.get(f"ah2001.events.{c.id}") or self.pack.rules.get(
                f"ah2001.events.{c.kind}"
            )
            does = f": {entry.text}" if entry is not None else ""
            effect = c.effect
            if "strength" in effect and "start_land" in effect:
                start = names.get(str(effect["start_land"]), str(effect["start_land"]))
                does += f" {c.name}: strength {effect['strength']}, starts in {start}."
            elif "land" in effect or "area" in effect:
                where = str(effect.get("land") or effect.get("area"))
                does += f" Here: {names.get(where, where.replace('-', ' ').title())}."
            texts[c.id] = (
                f"{deck} Event, played in {when}"
                + (", before the first army" if c.before_first_army else "")
                + does
            )
        return texts

    def draw_board(self, state: Ah2001State, viewer: int | None) -> str:
        from domain.hotw.editions.ah2001.drawing import table_svg

        return table_svg(self.tables.board, self.view(state, viewer))

    def summary(self, state: Ah2001State) -> dict[str, Any]:
        return {
            "epoch": state.epoch,
            "stage": state.stage.value,
            "points": [p.points for p in state.players],
            "awaiting": sorted(self.awaited_seats(state)),
        }

    def result(self, state: Ah2001State) -> dict[str, Any]:
        return view.result(self.tables, state)

    def encode_state(self, state: Ah2001State) -> Any:
        return codec.encode(state)

    def decode_state(self, data: Any) -> Ah2001State:
        decoded: Ah2001State = codec.decode(Ah2001State, data)
        return decoded
