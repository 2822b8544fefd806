"""How a one-move-ahead bot values History of the World moves (`domain.core.strategy.Strategy`).

Each candidate is played on the position with the ruleset's own `decide` and `evolve` (states
are immutable, so nothing is copied or undone), then the result is valued for the seat as

    gold + the revenue its Empire would raise if phase E came now (while its turn is before
    phase E) + what the Endgame pays for what it still holds (1 per Area token, 1 for the Leader)

A move that invades with dice (an army, or an Event's army, placed in an Enemy land) is played
again with dice that make the invasion succeed and with dice that frustrate it, weighted by the
exact chance of success (two or three Empire dice, one or two Enemy dice, a tie settled by the
terrain); no other seat command draws chance, and a scripted source (ones) stands in should one
ever do. Equal values are broken by a small positional preference (lands held in active areas,
room to expand, the strongest Empire card, an Area token of an area where the seat holds lands,
the Leader kept).

The strategy plays on what its seat may know: the seat's view over HTTP, rebuilt into a state
(`hotw_2024.view`), and in-process the state cut down to that same view (its agenda
kept). Pure: no I/O, no randomness (the bot breaks remaining ties with its own generator).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol

from domain.core.chance import Chance
from domain.core.frozen import evolved
from domain.core.messages import Command, Event
from domain.core.strategy import Lookahead
from domain.hotw.editions.hotw_2024.cards import Building, Phase
from domain.hotw.editions.hotw_2024.events import InvasionFrustrated, InvasionSucceeded
from domain.hotw.editions.hotw_2024.expand import active_fleets, army_targets
from domain.hotw.editions.hotw_2024.model import HotwState, Stage
from domain.hotw.editions.hotw_2024.pack import HotwPack
from domain.hotw.editions.hotw_2024.revenue import revenue_items
from domain.hotw.editions.hotw_2024.view import state_from_view

REVENUE_TO_COME = frozenset({Phase.ESTABLISH, Phase.EXPAND, Phase.MONUMENTS})
"""Phases of a seat's own turn before its Empire raises revenue (phase E)."""
INVASIONS = (InvasionSucceeded, InvasionFrustrated)


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


class Rules(Protocol):
    """What the strategy reads of the ruleset (`engine.Hotw2024`)."""

    @property
    def pack(self) -> HotwPack: ...

    def view(self, state: HotwState, viewer: int | None) -> dict[str, Any]: ...

    def decide(
        self, state: HotwState, seat: int, command: Command, chance: Chance
    ) -> list[Event]: ...

    def evolve(self, state: HotwState, event: Event) -> HotwState: ...


class HotwStrategy:
    """The greedy evaluation of History of the World, for one bound ruleset of the family."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.ahead = Lookahead(rules)
        self.pack: HotwPack = rules.pack

    # --- what the seat may know -----------------------------------------------------------

    def position(self, given: Any, seat: int) -> HotwState:
        """A domain state is first cut down to the seat's view (no other seat's Event card or
        Area tokens, no Honor stack order), keeping its agenda, whose details are public but
        only summarised in the view; a view (or the `/state` answer) is rebuilt into a state."""
        if isinstance(given, HotwState):
            seen = state_from_view(self.pack, self.rules.view(given, seat))
            return evolved(seen, agenda=given.agenda, endgame_order=given.endgame_order)
        if isinstance(given, Mapping):
            return state_from_view(self.pack, given)
        raise TypeError(f"not a History of the World position: {type(given).__name__}")

    # --- looking one move ahead -------------------------------------------------------------

    def outcomes(
        self, state: HotwState, seat: int, command: Command
    ) -> list[tuple[float, HotwState]]:
        """(probability, state after) for the move. A move that invades with dice is played
        again with dice that make the invasion succeed and dice that frustrate it, weighted by
        the exact chance."""
        played = self.ahead.play(state, seat, command, ())
        if played is None:
            return []
        after, events = played
        invasion = next((e for e in events if isinstance(e, INVASIONS) and e.empire_dice), None)
        if invasion is None:
            return [(1.0, after)]
        empire_dice, enemy_dice = len(invasion.empire_dice), len(invasion.enemy_dice)
        clear = self.pack.board.lands[invasion.land].is_clear
        chance = invasion_success_chance(empire_dice, enemy_dice, clear)
        dice = (empire_dice, enemy_dice)
        return self.ahead.won_or_lost(state, seat, command, dice, chance, after)

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
