"""What each viewer may see (contracts §5), summaries, results, and precise refusals.

Hidden: other players' Area tokens (Paired ones included) and face-down Event cards, every
Honor stack's order (known to nobody), the counted-out cards of later epochs, face-down Endgame
tokens (known only to the player who left them), the bag's contents, the tokens and cards on
offer to another player, and under Option 2 the Empire cards chosen in secret until their turn.
"""

from __future__ import annotations

from typing import Any

from domain.hotw.editions.hotw_2024.model import (
    ConquestTask,
    EffectTask,
    HotwState,
    Pool,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack
from domain.hotw.editions.hotw_2024.rules import actions
from domain.hotw.editions.hotw_2024.rules.endgame import final_standing
from domain.hotw.editions.hotw_2024.rules.gold import circuits, track_space


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
