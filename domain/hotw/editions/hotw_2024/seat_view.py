"""A History of the World state rebuilt from one seat's view (the API's `/state` answer), so
that a bot playing over HTTP can simulate its candidate moves with the same rules code as
in-process (`domain.hotw.editions.hotw_2024.strategy`; pure, no I/O).

Everything public comes over exactly: the map, gold, supplies, honors on tracks and in pools,
the current turn and its pools, the Empire cards on display. What the view hides is filled in
with placeholders that do not move gold this turn: other players' Area tokens are empty, Honor
stacks hold the right number of Honors in pack order (their order is secret to everyone), the
bag, later epochs' decks and face-down Endgame tokens are left empty. The pending choice, if
any, becomes its agenda task with the details the view gives (a simulation that needs more
fails, and the bot then scores the move without simulating it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from domain.core.frozen import evolved
from domain.hotw.editions.hotw_2024.cards import Building, Phase
from domain.hotw.editions.hotw_2024.model import (
    ConquestTask,
    EffectTask,
    EndgameToken,
    GreatWallRemovalTask,
    HotwState,
    LandState,
    MonumentTask,
    OrganizationStep,
    Player,
    Pool,
    Stage,
    StartLandTask,
    Task,
    Turn,
    Variant,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack
from domain.hotw.editions.hotw_2024.rules.effects import effects_of, needs_area
from domain.hotw.editions.hotw_2024.rules.endgame import epoch_five_order


def view_body(position: Mapping[str, Any]) -> Mapping[str, Any]:
    """The view itself, given either the `/state` answer (which wraps it) or the view."""
    inner = position.get("view")
    return inner if isinstance(inner, Mapping) else position


def state_from_view(pack: HotwPack, position: Mapping[str, Any]) -> HotwState:
    view = view_body(position)
    honors = tuple(h.id for h in pack.cards.honors)
    players = tuple(_player(p, honors) for p in view["players"])
    turn_body = view.get("turn")
    stage = Stage(view["stage"])
    step = view.get("step")
    state = HotwState(
        epoch=int(view["epoch"]),
        stage=stage,
        players=players,
        dice=bool(view.get("dice", True)),
        options=frozenset(Variant(o) for o in view.get("options") or ()),
        lands={land: _land(body) for land, body in (view.get("lands") or {}).items()},
        arrivals=max((p.arrival for p in players), default=0),
        supply=dict(view.get("supply") or {}),
        active_areas=frozenset(view.get("active_areas") or ()),
        endgame_tokens=tuple(
            EndgameToken(int(t["epoch"]), str(t["token"]), bool(t["face_up"]))
            for t in view.get("endgame_tokens") or ()
            if t.get("token")
        ),
        step=OrganizationStep(step) if step else None,
        offer=tuple(view.get("offer") or ()),
        choosing=tuple(int(s) for s in view.get("choosing") or ()),
        displayed=tuple(view.get("displayed") or ()),
        empire_choices={str(c): int(s) for c, s in (view.get("empire_choices") or {}).items()},
        turn_order=tuple(view.get("turn_order") or ()),
        turn_index=int(view.get("turn_index") or 0),
        turn=_turn(turn_body) if turn_body else None,
        great_wall_on_map=tuple(view.get("great_wall_on_map") or ()),
    )
    event_card = (turn_body or {}).get("event_card")
    agenda = _agenda(pack, view.get("pending"), stage is Stage.ENDGAME, event_card)
    endgame_order = epoch_five_order(state) if stage is Stage.ENDGAME else ()
    return evolved(state, agenda=agenda, endgame_order=endgame_order)


def _player(body: Mapping[str, Any], honors: tuple[str, ...]) -> Player:
    face_up = set(body.get("honor_track") or ()) | set(body.get("pool_honors") or ())
    hidden = [h for h in honors if h not in face_up] or list(honors)
    count = int(body.get("honor_stack") or 0)
    return Player(
        name=str(body.get("name", "")),
        gold=int(body["gold"]),
        arrival=int(body.get("arrival") or 0),
        supply=int(body.get("supply") or 0),
        honor_stack=tuple(hidden[i % len(hidden)] for i in range(count)),
        honor_track=tuple(body.get("honor_track") or ()),
        pool_honors=tuple(body.get("pool_honors") or ()),
        area_tokens=tuple(body.get("area_tokens") or ()),
        leader=bool(body.get("leader", True)),
        event_card=body.get("event_card"),
        empire_cards=tuple(body.get("empire_cards") or ()),
        event_cards=tuple(body.get("event_cards") or ()),
    )


def _land(body: Mapping[str, Any]) -> LandState:
    owner = body.get("owner")
    return LandState(
        owner=None if owner is None else int(owner),
        standing=bool(body.get("army")),
        buildings=frozenset(Building(b) for b in body.get("buildings") or ()),
        great_wall=bool(body.get("great_wall")),
    )


def _pool(body: Mapping[str, Any] | None) -> Pool:
    body = body or {}
    return Pool(
        int(body.get("people") or 0),
        int(body.get("fleets") or 0),
        int(body.get("great_wall_forts") or 0),
    )


def _turn(body: Mapping[str, Any]) -> Turn:
    phase = Phase(body["phase"])
    modifier = body.get("invasion_modifier") or {}
    return Turn(
        seat=int(body["seat"]),
        card=str(body["card"]),
        event_card=body.get("event_card"),
        empire_index=int(body.get("empire_index") or 0),
        phase=phase,
        pool=_pool(body.get("pool")),
        event_pool=_pool(body.get("event_pool")),
        fleets=tuple(body.get("fleets") or ()),
        event_fleets=tuple(body.get("event_fleets") or ()),
        # a seat acts in phase A only while its Event expands as if an Empire
        event_expand=phase is Phase.REVEAL,
        leader_active=bool(body.get("leader_active")),
        leader_ignores=body.get("leader_ignores"),
        modifier_land=modifier.get("land"),
        invasion_modifier=int(modifier.get("modifier") or 0),
    )


def _agenda(
    pack: HotwPack, pending: Mapping[str, Any] | None, endgame: bool, event_card: str | None
) -> tuple[Task, ...]:
    if not pending:
        return ()
    seat = int(pending["seat"])
    task = pending.get("task")
    if task == "EffectTask":
        effect_task = EffectTask(
            seat,
            str(pending.get("source", "")),
            str(pending.get("source_id", "")),
            endgame=endgame,
            index=int(pending.get("effect") or 0),
        )
        options = list(pending.get("options") or ())
        if pending.get("command") == "choose_land" and options:
            # lands offered after an area was chosen all lie in that area
            try:
                effect = effects_of(pack, effect_task)[effect_task.index]
            except (KeyError, IndexError):
                return (effect_task,)
            if needs_area(effect, effect_task):
                effect_task = replace(effect_task, area=pack.board.area_of(str(options[0])))
        return (effect_task,)
    if task == "MonumentTask":
        return (MonumentTask(seat, 1),)
    if task == "GreatWallRemovalTask":
        return (GreatWallRemovalTask(seat, 1),)
    if task == "ConquestTask":
        return (
            ConquestTask(
                seat,
                int(pending["enemy"]),
                int(pending["conquest_points"]),
                tuple(pending.get("lands") or ()),
                str(pending.get("pool", "empire")),
                bool(pending.get("barbarian")),
            ),
        )
    if task == "StartLandTask" and event_card:
        return (StartLandTask(seat, event_card),)
    return ()
