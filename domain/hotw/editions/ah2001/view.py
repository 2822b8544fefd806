"""What a seat or spectator sees of an Avalon Hill 2001 game, and its result with the values
that broke ties (ah2001.winning.*)."""

from __future__ import annotations

from typing import Any

from domain.hotw.editions.ah2001.empires import drawer
from domain.hotw.editions.ah2001.model import Ah2001State, Stage
from domain.hotw.editions.ah2001.pre_eminence import final_ranking, records
from domain.hotw.editions.ah2001.tables import Ah2001Tables


def view(state: Ah2001State, viewer: int | None, awaited: frozenset[int]) -> dict[str, Any]:
    """The state as `viewer` may see it: its own hand and Empire card, public facts."""
    drawing = state.drawing
    handed_out = state.stage is not Stage.DRAWING
    return {
        "epoch": state.epoch,
        "stage": state.stage.value,
        "players": [
            {
                "seat": seat,
                "name": p.name,
                "points": p.points,
                "hand": list(p.hand) if seat == viewer else None,
                "hand_count": len(p.hand),
                "empires": list(p.empires),
                "pre_eminence_markers": len(p.pre_eminence),
                "pre_eminence": sum(p.pre_eminence) if state.stage is Stage.OVER else None,
            }
            for seat, p in enumerate(state.players)
        ],
        "lands": {
            land: {
                "owner": c.owner,
                "figure": c.figure,
                "armies": c.armies if c.owner is not None else 0,
                "buildings": sorted(c.buildings),
            }
            for land, c in sorted(state.lands.items())
        },
        "drawing": None
        if drawing is None
        else {
            "order": list(drawing.order),
            "position": drawing.position,
            "cards_left": len(drawing.deck),
            "drawn": drawing.drawn if viewer == drawer(state) else None,
            "holding": sorted(set(drawing.holders.values())),
        },
        "my_empire": next(
            (card for card, seat in state.holders.items() if seat == viewer and handed_out),
            None,
        ),
        "turn": None
        if state.turn is None
        else {
            "seat": state.turn.seat,
            "empire": state.turn.empire,
            "pool": state.turn.pool,
            "armies_left": state.turn.pool,
            "fleets": list(state.turn.fleets),
            "lands": list(state.turn.lands),
            "monuments_due": state.turn.monuments_due,
            "card_empire": state.turn.card,
            "pending": state.turn.pending,
            "picks": list(state.turn.picks),
        },
        "seas": {
            water: {"owner": held.owner, "figure": held.figure}
            for water, held in sorted(state.seas.items())
        },
        "empires": [
            {
                "seat": t.seat,
                "empire": t.empire,
                "card_empire": t.card,
                "pool": t.pool,
                "started": t.started,
                "terminated": t.terminated,
            }
            for t in state.parked
        ],
        "options": sorted(state.options),
        "supply": dict(state.supply),
        "markers_left": len(state.markers),
        "awaiting": sorted(awaited),
        "result": None if state.result is None else [list(g) for g in state.result],
    }


def result(tables: Ah2001Tables, state: Ah2001State) -> dict[str, Any]:
    """Final points (pre-eminence added) and the ranking with the values that broke ties;
    before the end, the standing as it would be now."""
    standing = records(tables, state)
    ranking = state.result or final_ranking(standing)
    scores = [p.points for p in state.players]
    rows = []
    place = 1
    for group in ranking:
        for seat in group:
            rows.append(
                {
                    "seat": seat,
                    "place": place,
                    "score": scores[seat],
                    "tie_break": {
                        "combined_strength": sum(standing[seat].strengths),
                        "pre_eminence": standing[seat].pre_eminence,
                        "epoch_seven_strength": (standing[seat].strengths or (0,))[-1],
                    },
                }
            )
        place += len(group)
    return {
        "scores": scores,
        "ranking": rows,
        "tie_breaks": [
            "most Victory Points (pre-eminence markers added)",
            "lower combined strength of the seven Empires",
            "more pre-eminence points",
            "lower strength in Epoch VII",
        ],
        "details": {"final": state.result is not None, "winners": list(ranking[0])},
    }
