"""What each viewer may see (contracts §5), summaries, results, and precise refusals.

Hidden: other players' Area tokens (Paired ones included) and face-down Event cards, every
Honor stack's order (known to nobody), the counted-out cards of later epochs, face-down Endgame
tokens (known only to the player who left them), the bag's contents, the tokens and cards on
offer to another player, and under Option 2 the Empire cards chosen in secret until their turn.

And back (`state_from_view`): a state rebuilt from one seat's view (the API's `/state`
answer), so that a bot playing over HTTP can simulate its candidate moves with the same rules
code as in-process (`domain.hotw.editions.hotw_2024.strategy`; pure, no I/O).

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
from domain.hotw.editions.hotw_2024 import actions
from domain.hotw.editions.hotw_2024.cards import Building, Phase
from domain.hotw.editions.hotw_2024.effects import effects_of, needs_area
from domain.hotw.editions.hotw_2024.endgame import epoch_five_order, final_standing
from domain.hotw.editions.hotw_2024.gold import circuits, track_space
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


def _pool(pool: Pool) -> dict[str, int]:
    return {"people": pool.people, "fleets": pool.fleets, "great_wall_forts": pool.great_wall_forts}


def known_empire_card(state: HotwState, card: str, viewer: int | None) -> bool:
    """option2.secret: a secretly chosen Empire card is known to its holder only until
    its turn comes."""
    return card not in state.unrevealed or (
        viewer is not None and state.empire_choices.get(card) == viewer
    )


def view_of(pack: HotwPack, state: HotwState, viewer: int | None) -> dict[str, Any]:
    """The table as `viewer` may see it (None: a spectator): the players, the map, the epoch's
    organization and the turn being played."""
    players = players_seen(pack, state, viewer)
    choosing_now = state.choosing[0] if state.choosing else None
    body: dict[str, Any] = {
        "epoch": state.epoch,
        "stage": state.stage.value,
        "dice": state.dice,
        "options": sorted(option.value for option in state.options),
        "step": state.step.value if state.step else None,
        "players": players,
        "gold_order": list(state.gold_order()),
        "lands": {
            land: {
                "owner": value.owner,
                "army": value.standing,
                "buildings": sorted(b.value for b in value.buildings),
                "great_wall": value.great_wall,
            }
            for land, value in sorted(state.lands.items())
        },
        "supply": dict(state.supply),
        "bag": len(state.bag),
        "active_areas": sorted(state.active_areas),
        "endgame_tokens": [
            {
                "epoch": t.epoch,
                "face_up": t.face_up,
                "token": t.token if t.face_up or viewer in t.known_by else None,
            }
            for t in state.endgame_tokens
        ],
        "offer": list(state.offer) if viewer is not None and viewer == choosing_now else None,
        "offer_count": len(state.offer),
        "choosing": list(state.choosing),
        "displayed": list(state.displayed),
        "empire_choices": {
            card: seat
            for card, seat in state.empire_choices.items()
            if known_empire_card(state, card, viewer)
        },
        "turn_order": [c for c in state.turn_order if known_empire_card(state, c, viewer)],
        "turn_index": state.turn_index,
        "cards_to_come": {
            str(e): len(cards) for e, cards in state.empire_decks.items() if e > state.epoch
        },
        "great_wall_on_map": list(state.great_wall_on_map),
        "awaiting": sorted(actions.awaited_seats(pack, state)),
        "pending": _pending(pack, state),
        "result": result_of(pack, state) if state.result is not None else None,
    }
    body["turn"] = turn_seen(state, viewer)
    return body


def players_seen(pack: HotwPack, state: HotwState, viewer: int | None) -> list[dict[str, Any]]:
    """Each player's gold, pieces and Honors; their Area tokens and Event card to themselves,
    their Empire cards to whoever may know them."""
    players = []
    spaces = pack.cards.pieces.gold_track_spaces
    for seat, p in enumerate(state.players):
        own = seat == viewer
        empire_cards = [c for c in p.empire_cards if known_empire_card(state, c, viewer)]
        players.append(
            {
                "seat": seat,
                "name": p.name,
                "gold": p.gold,
                "space": track_space(p.gold, spaces),
                "circuits": circuits(p.gold, spaces),
                "arrival": p.arrival,
                "supply": p.supply,
                "honor_track": list(p.honor_track),
                "pool_honors": list(p.pool_honors),
                "honor_stack": len(p.honor_stack),
                "area_tokens": list(p.area_tokens) if own else None,
                "area_token_count": len(p.area_tokens),
                "leader": p.leader,
                "event_card": p.event_card if own else None,
                "has_event_card": p.event_card is not None,
                "empire_cards": empire_cards,
                "hidden_empire_cards": len(p.empire_cards) - len(empire_cards),
                "event_cards": list(p.event_cards),
            }
        )
    return players


def turn_seen(state: HotwState, viewer: int | None) -> dict[str, Any] | None:
    """The turn being played (its Event card once revealed, or to its player), or None."""
    turn = state.turn
    if turn is None:
        return None
    revealed = turn.event_card in state.players[turn.seat].event_cards
    return {
        "seat": turn.seat,
        "card": turn.card,
        "event_card": turn.event_card if revealed or viewer == turn.seat else None,
        "empire_index": turn.empire_index,
        "phase": turn.phase.value,
        "pool": _pool(turn.pool),
        "event_pool": _pool(turn.event_pool),
        "armies_left": turn.pool.people + turn.event_pool.people,
        "fleets": list(turn.fleets),
        "event_fleets": list(turn.event_fleets),
        "leader_active": turn.leader_active,
        "leader_ignores": turn.leader_ignores,
        "invasion_modifier": (
            {"land": turn.modifier_land, "modifier": turn.invasion_modifier}
            if turn.modifier_land is not None
            else None
        ),
    }


def _pending(pack: HotwPack, state: HotwState) -> dict[str, Any] | None:
    if not state.agenda:
        return None
    task = state.agenda[-1]
    choice = actions.task_choice(pack, state, task)
    body: dict[str, Any] = {"task": type(task).__name__, "seat": task.seat}
    if isinstance(task, EffectTask):
        body |= {"source": task.source, "source_id": task.source_id, "effect": task.index}
    if isinstance(task, ConquestTask):
        body |= {
            "enemy": task.enemy,
            "conquest_points": task.points,
            "lands": list(task.lands),
            "pool": task.pool,
            "barbarian": task.barbarian,
        }
    if choice is not None:
        body |= {"command": choice.command, "options": list(choice.options)}
    return body


def summary_of(pack: HotwPack, state: HotwState) -> dict[str, Any]:
    return {
        "epoch": state.epoch,
        "stage": state.stage.value,
        "phase": state.turn.phase.value if state.turn else None,
        "current_seat": state.current_seat,
        "awaiting": sorted(actions.awaited_seats(pack, state)),
        "gold": [p.gold for p in state.players],
    }


TIE_BREAKS = (
    "most gold (chests on one space are tied)",
    "fewest people pieces shown on the player's Empire cards",
    "most Honor icons on the player's Event cards",
)


def result_of(pack: HotwPack, state: HotwState) -> dict[str, Any]:
    """Final gold, ranking (tied seats share a place) and the tie-breaks (p9 Winning); before
    the end, the standing as it would be now (`details.final` false)."""
    spaces = pack.cards.pieces.gold_track_spaces
    if state.result is not None:
        gold, ranking = state.result.gold, state.result.ranking
        people, icons = state.result.people_shown, state.result.honor_icons
    else:
        gold, ranking, people, icons = final_standing(pack, state)
    rows = []
    place = 1
    for group in ranking:
        for seat in group:
            rows.append(
                {
                    "seat": seat,
                    "place": place,
                    "score": gold[seat],
                    "tie_break": {"people_shown": people[seat], "honor_icons": icons[seat]},
                }
            )
        place += len(group)
    return {
        "scores": list(gold),
        "ranking": rows,
        "tie_breaks": list(TIE_BREAKS),
        "details": {
            "final": state.result is not None,
            "winners": list(ranking[0]) if ranking else [],
            "space": [track_space(g, spaces) for g in gold],
            "circuits": [circuits(g, spaces) for g in gold],
        },
    }


# --- a state rebuilt from a seat's view ----------------------------------------------------------


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


def _pool_of(body: Mapping[str, Any] | None) -> Pool:
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
        pool=_pool_of(body.get("pool")),
        event_pool=_pool_of(body.get("event_pool")),
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
