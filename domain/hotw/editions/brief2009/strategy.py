"""How a one-move-ahead bot values A Brief History of the World moves
(`domain.core.strategy.Strategy`).

Each candidate is played on the position with the ruleset's own `decide` and `evolve`, then the
result is valued for the seat as

    its colours' gold + the gold its colour would collect if its Empire turn ended now (while
    it is that colour's turn) + the values of the Bonus tokens it holds (it has seen them)

A move that rolls an invasion (an expansion against another player's army, or continuing one)
is played again with dice that make it succeed and with dice that make it fail, weighted by the
exact chance of success (the attacker's and defender's dice, the dial and a Leader, the points
the terrain needs, the Vikings' sure 5 or 6 from the sea). Equal values are broken by a small
preference: armies on the board, the stronger Empire card, the cheaper Event card.

The strategy plays on what its seat may know: the seat's view, rebuilt into a state (hidden
cards, tokens and piles left out), and in-process the state cut down to that same view. Pure.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol

from domain.core.chance import Chance
from domain.core.messages import Command, Event
from domain.core.strategy import Lookahead
from domain.hotw.editions.brief2009.events import InvasionRolled
from domain.hotw.editions.brief2009.gold import collection, friends_of
from domain.hotw.editions.brief2009.model import (
    Allocation,
    BonusDraw,
    BriefState,
    Cell,
    Colour,
    Force,
    Invasion,
    Overrun,
    Phase,
    Player,
    Stage,
    Turn,
)
from domain.hotw.editions.brief2009.tables import BriefTables


class Rules(Protocol):
    """What the strategy reads of the ruleset (`engine.BriefRuleset`)."""

    @property
    def tables(self) -> BriefTables: ...

    def view(self, state: BriefState, viewer: int | None) -> dict[str, Any]: ...

    def decide(
        self, state: BriefState, seat: int, command: Command, chance: Chance
    ) -> list[Event]: ...

    def evolve(self, state: BriefState, event: Event) -> BriefState: ...


HIDDEN = "?"
"""Stands in for a card or token the seat may not see (a count in its view)."""


@cache
def success_chance(attack: int, defence: int, bonus: int, needed: int, sure: bool) -> float:
    """The chance that the attacker's highest die plus `bonus` beats the defender's highest by
    `needed` (or, `sure`, that the attacker's highest is 5 or 6)."""
    wins = total = 0
    for roll in itertools.product(range(1, 7), repeat=attack + defence):
        high = max(roll[:attack])
        low = max(roll[attack:]) if defence else 0
        total += 1
        wins += (sure and high >= 5) or high + bonus - low >= needed
    return wins / total


def state_from_view(tables: BriefTables, view: Mapping[str, Any]) -> BriefState:
    """A state holding exactly what `view` shows (another player's cards, tokens and piles
    left out); the `/state` answer (the view under `state`) is taken too."""
    if "view" in view and "epoch" not in view:
        view = view["view"]
    elif "state" in view and "epoch" not in view:
        view = view["state"]
    allocation = view["allocation"]
    turn = view["turn"]
    bonus = view["bonus"]
    colours = tuple(
        Colour(
            seat=c["seat"],
            gold=c["gold"],
            arrived=c["arrived"],
            supply=c["supply"],
            empire=c["empire"],
            bonus=tuple(c["bonus"]) if c["bonus"] is not None else (HIDDEN,) * c["bonus_count"],
        )
        for c in view["colours"]
    )
    per = tables.numbers.bonus_per_epoch
    left = view["bonus_tokens_left"] // per
    spaces = ((),) * (tables.numbers.epochs - left) + ((HIDDEN,) * per,) * left
    return BriefState(
        epoch=view["epoch"],
        stage=Stage(view["stage"]),
        players=tuple(
            Player(
                p["name"],
                tuple(p["hand"]) if p["hand"] is not None else (HIDDEN,) * p["hand_count"],
            )
            for p in view["players"]
        ),
        colours=colours,
        lands={
            land: Cell(c["colour"], c["standing"], frozenset(c["buildings"]))
            for land, c in view["lands"].items()
        },
        area_values=dict(view["area_values"]),
        allocation=None
        if allocation is None
        else Allocation(
            allocation["round"],
            tuple(allocation["empire_order"]),
            tuple(allocation["event_order"]),
            {k: tuple(v) for k, v in allocation["pile"].items()},
            _kept(view, allocation),
        ),
        call_index=view["call_index"],
        turn=None if turn is None else _turn(turn),
        bonus_spaces=spaces,
        bonus=None
        if bonus is None
        else BonusDraw(
            tuple(bonus["order"]),
            bonus["position"],
            tuple(bonus["offered"])
            if bonus["offered"] is not None
            else (HIDDEN,) * bonus["offered_count"],
        ),
        supply=dict(view["supply"]),
        moves=max((c.arrived for c in colours), default=0),
        result=None if view["result"] is None else tuple(tuple(g) for g in view["result"]),
        final=tuple(view["final"] or ()),
    )


def _kept(view: Mapping[str, Any], allocation: Mapping[str, Any]) -> dict[str, str]:
    """The choices sealed this round: the viewer's own, and a stand-in for each choice the
    view says another seat has sealed."""
    kept = dict(allocation["kept"])
    seats = {c["colour"]: c["seat"] for c in view["colours"]}
    for kind, colour in allocation["choosers"].items():
        if seats[colour] in allocation["sealed"]:
            kept.setdefault(kind, HIDDEN)
    return kept


def _turn(turn: Mapping[str, Any]) -> Turn:
    invasion, overrun = turn["invasion"], turn["overrun"]
    return Turn(
        colour=turn["colour"],
        empire=turn["empire"],
        phase=Phase(turn["phase"]),
        forces=tuple(
            Force(
                f["raised_by"],
                f["event"],
                f["array"],
                f["barbarian"],
                f["feature"],
                f["dial"],
                tuple(f["lands"]),
                f["stopped"],
            )
            for f in turn["forces"]
        ),
        fleets=tuple(turn["fleets"]),
        leader=turn["leader"],
        weaponry=turn["weaponry"],
        astronomy=turn["astronomy"],
        crossings=turn["crossings"],
        invasion=None
        if invasion is None
        else Invasion(invasion["land"], invasion["defender"], invasion["via"]),
        overrun=None
        if overrun is None
        else Overrun(overrun["land"], overrun["defender"], overrun["points"]),
        monuments_due=turn["monuments_due"],
    )


class BriefStrategy:
    """The greedy evaluation of A Brief History of the World."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.ahead = Lookahead(rules)
        self.tables: BriefTables = rules.tables
        self.token_values = {t.id: t.value for t in self.tables.bonus_tokens}

    def position(self, given: Any, seat: int) -> BriefState:
        if isinstance(given, BriefState):
            return state_from_view(self.tables, self.rules.view(given, seat))
        if isinstance(given, Mapping):
            return state_from_view(self.tables, given)
        raise TypeError(f"not a Brief History of the World position: {type(given).__name__}")

    def outcomes(
        self, state: BriefState, seat: int, command: Command
    ) -> list[tuple[float, BriefState]]:
        played = self.ahead.play(state, seat, command, ())
        if played is None:
            return []
        after, events = played
        roll = next((e for e in events if isinstance(e, InvasionRolled)), None)
        if roll is None:
            return [(1.0, after)]
        attack, defence = len(roll.attack), len(roll.defence)
        sure = self.could_be_sure(state, roll)
        chance = success_chance(attack, defence, roll.dial + roll.leader, roll.needed, sure)
        return self.ahead.won_or_lost(state, seat, command, (attack, defence), chance, after)

    def could_be_sure(self, state: BriefState, roll: InvasionRolled) -> bool:
        turn = state.turn
        force = turn.active if turn is not None else None
        return force is not None and force.feature == "atlantic-crossing" and roll.via == "sea"

    def value(self, state: BriefState, seat: int) -> float:
        mine = state.colours_of(seat)
        value = float(sum(state.colours[c].gold for c in mine))
        if state.stage is Stage.OVER:
            return float(state.final[seat]) if state.final else value
        value += sum(self.token_values.get(t, 0) for c in mine for t in state.colours[c].bonus)
        turn = state.turn
        if state.stage is Stage.TURNS and turn is not None and turn.colour in mine:
            value += sum(gold for _, gold in self.collectable(state, turn.colour))
        return value

    def collectable(self, state: BriefState, colour: int) -> list[tuple[str, int]]:
        board = self.tables.board
        armies = {land: c.colour for land, c in state.lands.items() if c.colour is not None}
        return collection(
            colour,
            armies,
            {land: c.buildings for land, c in state.lands.items()},
            {land: board.lands[land].area for land in armies},
            self.tables.spiral,
            state.area_values,
            self.tables.numbers.gold,
            friends_of(self.tables, state, colour),
        )

    def preference(
        self, before: BriefState, after: BriefState, seat: int, command: Command
    ) -> float:
        kind = command.type
        if kind == "select_empire_card":
            return float(self.tables.empire(str(command.arg("card"))).strength)
        if kind == "select_event_card":
            card = self.tables.card(str(command.arg("card")))
            return card.armies - card.price / 2
        if kind == "keep_bonus_token":
            return float(self.tables.token(str(command.arg("token"))).value)
        if kind == "play_event":
            return -0.5  # keep cards for when they pay
        mine = set(after.colours_of(seat))
        return float(sum(1 for cell in after.lands.values() if cell.colour in mine))
