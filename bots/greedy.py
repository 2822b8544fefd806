"""A greedy History of the World bot: it takes the legal action that brings its seat the most
gold, looking one move ahead.

Each candidate is played on the position with the ruleset's own `decide` and `evolve` (states
are immutable, so nothing is copied or undone), then the result is valued for the seat as

    gold + the revenue its Empire would raise if phase E came now (while its turn is before
    phase E) + what the Endgame pays for what it still holds (1 per Area token, 1 for the Leader)

and the move's score is the change of that value. A move that invades with dice (an army, or an
Event's army, placed in an Enemy land) is played again with dice that make the invasion succeed
and with dice that frustrate it, weighted by the exact chance of success (two or three Empire
dice, one or two Enemy dice, a tie settled by the terrain); no other seat command draws chance,
and a scripted source (ones) stands in should one ever do. Equal scores are broken by a small
positional preference (lands held in active areas, room to expand, the strongest Empire card,
an Area token of an area where the seat holds lands, the Leader kept), then by the bot's seeded
random generator.

The bot plays on what its seat may know: the seat's view over HTTP, rebuilt into a state
(`bots.hotw_view`), and in-process the state cut down to that same view (its agenda kept).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from bots.base import as_commands
from bots.hotw_view import state_from_view
from domain.core.chance import Chance
from domain.core.frozen import evolved
from domain.core.messages import Command, Event
from domain.core.ruleset import Ruleset
from domain.hotw.cards import Building, Phase
from domain.hotw.events import InvasionFrustrated, InvasionSucceeded
from domain.hotw.model import HotwState, Stage
from domain.hotw.pack import HotwPack
from domain.hotw.rules.expand import active_fleets, army_targets
from domain.hotw.rules.revenue import revenue_items

REVENUE_TO_COME = frozenset({Phase.ESTABLISH, Phase.EXPAND, Phase.MONUMENTS})
"""Phases of a seat's own turn before its Empire raises revenue (phase E)."""
EPSILON = 1e-6
INVASIONS = (InvasionSucceeded, InvasionFrustrated)


class ScriptedFaces:
    """A chance source rolling the die faces it is given, in order, then ones."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self.faces = list(faces)
        self.start: int | None = None

    def value(self, k: int) -> int:
        if self.start is None:
            self.start = k
        index = k - self.start
        return self.faces[index] - 1 if index < len(self.faces) else 0


@cache
def invasion_success_chance(empire_dice: int, enemy_dice: int, clear: bool) -> float:
    """p6: the highest die of each side; the higher wins, a tie goes to the terrain."""
    wins = 0
    total = 0
    for roll in itertools.product(range(1, 7), repeat=empire_dice + enemy_dice):
        empire, enemy = max(roll[:empire_dice]), max(roll[empire_dice:])
        total += 1
        wins += empire > enemy or (empire == enemy and clear)
    return wins / total


class GreedyBot:
    name = "greedy"

    def __init__(self, rules: Ruleset[Any], rng: random.Random | int | str | None = None) -> None:
        if not isinstance(rules.pack, HotwPack):
            raise TypeError(f"the greedy bot plays History of the World, not {rules.name}")
        self.rules = rules
        self.pack: HotwPack = rules.pack
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    # --- the interface ----------------------------------------------------------------------

    def choose(self, position: Any, actions: Iterable[Any], seat: int) -> Command:
        commands = as_commands(actions)
        if len(commands) == 1:
            return commands[0]
        scored = self.scores(self.state_of(position, seat), commands, seat)
        best_gold = max(gold for gold, _ in scored.values())
        near = {c: tie for c, (gold, tie) in scored.items() if gold >= best_gold - EPSILON}
        best_tie = max(near.values())
        top = [c for c in commands if c in near and near[c] >= best_tie - EPSILON]
        return top[0] if len(top) == 1 else self.rng.choice(top)

    def state_of(self, position: Any, seat: int) -> HotwState:
        """What `seat` may know of the position, as a state to simulate on. A domain state is
        first cut down to the seat's view (so the bot plays on the same facts in-process as
        over HTTP: no other seat's Event card or Area tokens, no Honor stack order), keeping
        its agenda, whose details are public but only summarised in the view."""
        if isinstance(position, HotwState):
            seen = state_from_view(self.pack, self.rules.view(position, seat))
            return evolved(seen, agenda=position.agenda, endgame_order=position.endgame_order)
        if isinstance(position, Mapping):
            return state_from_view(self.pack, position)
        raise TypeError(f"not a History of the World position: {type(position).__name__}")

    def scores(
        self, state: HotwState, commands: Iterable[Command], seat: int
    ) -> dict[Command, tuple[float, float]]:
        """Each command's (expected gold, tie-break preference) for `seat`."""
        before = self.value(state, seat)
        scored = {}
        for command in commands:
            outcomes = self.outcomes(state, seat, command)
            if not outcomes:  # the simulation could not be run: neutral
                scored[command] = (0.0, self.preference(state, state, seat, command))
                continue
            gold = sum(p * (self.value(after, seat) - before) for p, after in outcomes)
            likely = max(outcomes, key=lambda o: o[0])[1]
            preference = self.preference(state, likely, seat, command)
            scored[command] = (round(gold, 6), round(preference, 6))
        return scored

    def expected_gold(self, position: Any, seat: int, command: Command) -> float:
        """The gold `command` is expected to bring `seat` (this turn's revenue included)."""
        state = self.state_of(position, seat)
        return self.scores(state, [command], seat)[command][0]

    # --- looking one move ahead -----------------------------------------------------------

    def outcomes(
        self, state: HotwState, seat: int, command: Command
    ) -> list[tuple[float, HotwState]]:
        """(probability, state after) for the move. A move that invades with dice (an army,
        or an Event's army, placed in an Enemy land) is played again with dice that make the
        invasion succeed and dice that frustrate it, weighted by the exact chance."""
        played = self.play(state, seat, command, ())
        if played is None:
            return []
        after, events = played
        invasion = next((e for e in events if isinstance(e, INVASIONS) and e.empire_dice), None)
        if invasion is None:
            return [(1.0, after)]
        empire_dice, enemy_dice = len(invasion.empire_dice), len(invasion.enemy_dice)
        clear = self.pack.board.lands[invasion.land].is_clear
        chance = invasion_success_chance(empire_dice, enemy_dice, clear)
        succeeds = self.play(state, seat, command, (6,) * empire_dice + (1,) * enemy_dice)
        fails = self.play(state, seat, command, (1,) * empire_dice + (6,) * enemy_dice)
        if succeeds is None or fails is None:
            return [(1.0, after)]
        return [(chance, succeeds[0]), (1.0 - chance, fails[0])]

    def play(
        self, state: HotwState, seat: int, command: Command, faces: tuple[int, ...]
    ) -> tuple[HotwState, list[Event]] | None:
        try:
            events = self.rules.decide(state, seat, command, Chance(ScriptedFaces(faces), 0))
            for event in events:
                state = self.rules.evolve(state, event)
        except Exception:  # a view-rebuilt state may lack what a rare choice needs
            return None
        return state, events

    # --- valuing a position -----------------------------------------------------------------

    def value(self, state: HotwState, seat: int) -> float:
        player = state.players[seat]
        value = player.gold
        if state.stage is not Stage.OVER:
            value += len(player.area_tokens) + (1 if player.leader else 0)
        turn = state.turn
        if (
            state.stage is Stage.TURNS
            and turn is not None
            and turn.seat == seat
            and turn.phase in REVENUE_TO_COME
        ):
            value += sum(gold for gold, _, _ in revenue_items(self.pack, state, seat, None, True))
        return value

    def preference(self, before: HotwState, after: HotwState, seat: int, command: Command) -> float:
        """Breaks ties between moves worth the same gold now (higher is preferred)."""
        kind = command.type
        if kind == "choose_empire_card":
            card = self.pack.cards.empire(str(command.arg("card")))
            return float(
                sum(
                    spec.people
                    + spec.fleets
                    + sum(2 if b is Building.CAPITAL else 1 for b in spec.starting_buildings)
                    for spec in card.empires
                )
            )
        if kind == "choose_area_token":
            area = self.pack.board.area_tokens[str(command.arg("token"))].area
            lands = self.pack.board.lands_in_area(area)
            mine = sum(1 for land in lands if before.land(land).owner == seat)
            return mine + (1.0 if area in before.active_areas else 0.0)
        if kind == "use_leader":
            return -1.0
        board = self.pack.board
        held = 0.0  # lands held, those in active areas counting most
        for land, value in after.lands.items():
            if value.owner == seat:
                held += 1.0 if board.area_of(land) in after.active_areas else 0.2
        turn = after.turn
        room = 0.0
        if turn is not None and turn.seat == seat:
            room = 0.05 * len(army_targets(board, after, seat, active_fleets(turn)))
        return held + room
