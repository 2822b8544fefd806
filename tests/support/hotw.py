"""Building History of the World positions for tests, and acting on them with chosen dice."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from domain.core.chance import Chance, ScriptedFaces
from domain.core.kernel import Game, decide
from domain.core.messages import Command, Event
from domain.core.ruleset import Setup
from domain.hotw.editions.hotw_2024.cards import Building, Phase
from domain.hotw.editions.hotw_2024.engine import Hotw2024
from domain.hotw.editions.hotw_2024.model import (
    HotwState,
    LandState,
    Player,
    Pool,
    Stage,
    Turn,
    evolved,
)
from service.rulesets import ruleset

RULES: Hotw2024 = ruleset("hotw-2024")  # type: ignore[assignment]
PACK = RULES.pack
RED, BLUE, GREEN = 0, 1, 2


ScriptedDice = ScriptedFaces
"""A chance source that rolls the die faces it is given, in order (then ones)."""


@dataclass(frozen=True)
class Held:
    owner: int
    army: bool = False
    buildings: tuple[str, ...] = ()


def army(owner: int, *buildings: str) -> Held:
    return Held(owner, True, buildings)


def garrison(owner: int, *buildings: str) -> Held:
    return Held(owner, False, buildings)


def empty(*buildings: str) -> Held:
    return Held(-1, False, buildings)


def position(
    lands: Mapping[str, Held],
    *,
    players: int = 3,
    epoch: int = 1,
    card: str = "sumeria",
    seat: int = RED,
    phase: Phase = Phase.EXPAND,
    people: int = 0,
    dice: bool = True,
    options: Iterable[str] = (),
    gold: Sequence[int] | None = None,
    area_tokens: Mapping[int, tuple[str, ...]] | None = None,
    honor_track: Mapping[int, tuple[str, ...]] | None = None,
    pool_honors: Mapping[int, tuple[str, ...]] | None = None,
    stage: Stage = Stage.TURNS,
    **turn_fields: object,
) -> HotwState:
    """A game in `epoch`, `seat` playing `card` in `phase` with `people` in its Empire pool."""
    chosen = {"dice": dice, **dict.fromkeys(options, True)}
    base = RULES.initial_state(
        Setup("hotw-2024", tuple(f"p{n}" for n in range(players)), chosen, "")
    )
    honors = tuple(h.id for h in PACK.cards.honors)
    land_states = {}
    supply = dict(base.supply)
    on_map = [0] * players
    for land, held in lands.items():
        buildings = frozenset(Building(b) for b in held.buildings)
        for building in buildings:
            supply[building.value] -= 1
        owner = None if held.owner < 0 else held.owner
        if owner is not None:
            on_map[owner] += 1
        land_states[land] = LandState(owner, held.army, buildings)
    gold = gold or [10 + n for n in range(players)]
    track = honor_track or {}
    pool = pool_honors or {}
    tokens = area_tokens or {}
    player_list = []
    for n in range(players):
        face_up = track.get(n, ()) + pool.get(n, ())
        player_list.append(
            Player(
                name=f"p{n}",
                gold=gold[n],
                arrival=n + 1,
                supply=30 - on_map[n] - (people if n == seat else 0),
                honor_stack=tuple(h for h in honors if h not in face_up),
                honor_track=track.get(n, ()),
                pool_honors=pool.get(n, ()),
                area_tokens=tokens.get(n, ()),
                empire_cards=(card,) if n == seat else (),
            )
        )
    turn = Turn(seat=seat, card=card, phase=phase, pool=Pool(people), **turn_fields)  # type: ignore[arg-type]
    return evolved(
        base,
        epoch=epoch,
        stage=stage,
        players=tuple(player_list),
        lands=land_states,
        arrivals=players,
        supply=supply,
        active_areas=PACK.board.areas_active_in(epoch),
        empire_choices={card: seat},
        turn_order=(card,),
        turn=turn if stage is Stage.TURNS else None,
    )


def act(
    state: HotwState,
    command: Command | str,
    dice: Iterable[int] = (),
    seat: int | None = None,
    **args: object,
) -> tuple[list[Event], HotwState]:
    """Decide `command` for the awaited seat (checked against legal_actions by the kernel) and
    fold its events."""
    if isinstance(command, str):
        command = Command.of(command, **args)
    game = Game(Setup("hotw-2024", (), {}, ""), 1, 0, state)
    actor = seat if seat is not None else min(RULES.awaited_seats(state))
    events = decide(RULES, game, actor, command, Chance(ScriptedDice(list(dice)), 0))
    for ev in events:
        state = RULES.evolve(state, ev)
    return events, state


def of_type(events: Iterable[Event], kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in events if isinstance(e, kind)]


def rules_of(events: Iterable[Event]) -> set[str]:
    return {e.rule for e in events}


def start_turn(state: HotwState, event_card: str | None) -> tuple[list[Event], HotwState]:
    """Begin the position's turn from its start: phase A reveals `event_card`."""
    from domain.hotw.editions.hotw_2024 import actions
    from domain.hotw.editions.hotw_2024.context import Ctx

    seat = state.turn.seat if state.turn else 0
    players = list(state.players)
    players[seat] = evolved(players[seat], event_card=event_card)
    fresh = evolved(state, players=tuple(players), turn=None, turn_index=0)
    ctx = Ctx(RULES, fresh, Chance(ScriptedDice([]), 0))
    actions.proceed(ctx)
    return ctx.events, ctx.state
