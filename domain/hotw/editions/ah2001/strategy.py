"""How a one-move-ahead bot values Avalon Hill 2001 moves (`domain.core.strategy.Strategy`).

A move is played on the position with the ruleset's own `decide` and `evolve`; the result is
worth, to the seat, its Victory Points plus what its pieces would score if its turn were scored
now (while one of its Empires is playing). An attack is played twice - the attacker's dice all
sixes, then all ones - weighted by the chance that the attacker's highest die beats the
defender's (ties count as lost: they cost the attacking army). Equal values prefer expanding over
ending a move.

The strategy plays on what its seat may know: a domain state is cut down to the seat's view and
rebuilt; a view (the API's `/state` answer or its `view`) is rebuilt the same way, so a bot plays
on the same facts in-process as over HTTP. Pure: no I/O, no randomness.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol

from domain.core.chance import Chance
from domain.core.messages import Command, Event
from domain.core.strategy import Lookahead
from domain.hotw.editions.ah2001 import events as ev
from domain.hotw.editions.ah2001.model import Ah2001State, Cell, Player, SeaHeld, Stage, Turn
from domain.hotw.editions.ah2001.scoring import points_now
from domain.hotw.editions.ah2001.tables import Ah2001Tables


class Rules(Protocol):
    """What the strategy reads of the ruleset (`engine.Rules`)."""

    @property
    def tables(self) -> Ah2001Tables: ...

    def view(self, state: Ah2001State, viewer: int | None) -> dict[str, Any]: ...

    def decide(
        self, state: Ah2001State, seat: int, command: Command, chance: Chance
    ) -> list[Event]: ...

    def evolve(self, state: Ah2001State, event: Event) -> Ah2001State: ...


ENDINGS = frozenset({"end_expansion", "end_round", "terminate_empire", "stop_targeting"})


@cache
def win_chance(attack: int, defence: int, bonus: int = 0) -> float:
    """The attacker's highest die (plus `bonus`) beats the defender's highest."""
    wins = total = 0
    for roll in itertools.product(range(1, 7), repeat=attack + defence):
        total += 1
        wins += max(roll[:attack]) + bonus > max(roll[attack:])
    return wins / total


def state_from_view(view: Mapping[str, Any]) -> Ah2001State:
    """An Ah2001State holding what a view shows (hidden cards and card effects left out)."""
    view = view.get("view", view) if "view" in view else view
    players = tuple(
        Player(
            name=str(p["name"]),
            points=int(p["points"]),
            hand=tuple(p.get("hand") or ()),
            empires=tuple(p.get("empires") or ()),
        )
        for p in view["players"]
    )
    lands = {
        land: Cell(
            body.get("owner"),
            int(body.get("figure") or 0),
            frozenset(body.get("buildings") or ()),
            int(body.get("armies") or 1),
        )
        for land, body in (view.get("lands") or {}).items()
    }
    raw = view.get("turn")
    turn = None
    if isinstance(raw, Mapping):
        turn = Turn(
            int(raw["seat"]),
            str(raw["empire"]),
            pool=int(raw["pool"]),
            fleets=tuple(raw.get("fleets") or ()),
            lands=tuple(raw.get("lands") or ()),
            monuments_due=int(raw.get("monuments_due") or 0),
            card=raw.get("card_empire"),
            pending=raw.get("pending"),
            picks=tuple(raw.get("picks") or ()),
            expanding=True,
        )
    return Ah2001State(
        epoch=int(view["epoch"]),
        stage=Stage(str(view["stage"])),
        players=players,
        lands=lands,
        turn=turn,
        supply=dict(view.get("supply") or {}),
        seas={
            water: SeaHeld(int(held["owner"]), int(held["figure"]))
            for water, held in (view.get("seas") or {}).items()
        },
        options=frozenset(view.get("options") or ()),
    )


class Ah2001Strategy:
    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.ahead = Lookahead(rules)

    def position(self, given: Any, seat: int) -> Ah2001State:
        """A domain state keeps its own turn (whose card effects are public: the cards were
        played face up) but loses what the seat may not see; a view is rebuilt."""
        if isinstance(given, Ah2001State):
            seen = state_from_view(self.rules.view(given, seat))
            return Ah2001State(
                epoch=given.epoch,
                stage=given.stage,
                players=seen.players,
                lands=given.lands,
                turn=given.turn,
                supply=given.supply,
                seas=given.seas,
                options=given.options,
                parked=given.parked,
                slot=given.slot,
                cursor=given.cursor,
                holders={c: s for c, s in given.holders.items() if s == seat},
                call_index=given.call_index,
            )
        if isinstance(given, Mapping):
            return state_from_view(given)
        raise TypeError(f"not an Avalon Hill 2001 position: {type(given).__name__}")

    def outcomes(
        self, state: Ah2001State, seat: int, command: Command
    ) -> list[tuple[float, Ah2001State]]:
        played = self.ahead.play(state, seat, command, ())
        if played is None:
            return []
        after, events = played
        battle = next((e for e in events if isinstance(e, ev.BattleFought) and e.attack_dice), None)
        if battle is None:
            return [(1.0, after)]
        attack, defence = len(battle.attack_dice), len(battle.defence_dice)
        bonus = battle.attack - max(battle.attack_dice)
        chance = win_chance(attack, defence, max(0, bonus))
        return self.ahead.won_or_lost(state, seat, command, (attack, defence), chance, after)

    def value(self, state: Ah2001State, seat: int) -> float:
        value = float(state.players[seat].points)
        turn = state.turn
        if turn is not None and turn.seat == seat and state.stage is not Stage.OVER:
            value += sum(points_now(self.rules.tables, state, seat).values())
        return value

    def preference(
        self, before: Ah2001State, after: Ah2001State, seat: int, command: Command
    ) -> float:
        if command.type in ENDINGS:
            return -1.0
        return 1.0 if command.type in ("place_army", "play_event", "build_monument") else 0.0
