"""What a seat or spectator sees of A Brief History of the World, the result (brief.end.ties),
the printed or reconstructed data an event names, and the invariants a state keeps."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.hotw.editions.brief2009.conclusion import ranked
from domain.hotw.editions.brief2009.context import KINDS
from domain.hotw.editions.brief2009.model import BriefState, Stage
from domain.hotw.editions.brief2009.organisation import sealed
from domain.hotw.editions.brief2009.tables import BriefTables
from domain.hotw.provenance import ids_in, item


def result(state: BriefState) -> dict[str, Any]:
    """Each player's gold (Bonus tokens added at the end; both colours' in the two-player
    variant); ties share a place (brief.end.ties)."""
    if state.final:
        scores = list(state.final)
    else:
        scores = [
            sum(state.colours[c].gold for c in state.colours_of(seat))
            for seat in range(len(state.players))
        ]
    ranking = state.result or ranked(tuple(scores))
    rows = []
    place = 1
    for group in ranking:
        for seat in group:
            rows.append({"seat": seat, "place": place, "score": scores[seat], "tie_break": {}})
        place += len(group)
    return {
        "scores": scores,
        "ranking": rows,
        "tie_breaks": [],
        "details": {"final": state.result is not None, "winners": list(ranking[0])},
    }


def data_used(tables: BriefTables, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The lands, waters, Empire and Event cards and Bonus tokens an event names, each
    printed in the manual or reconstructed (its entry's provenance)."""
    board = tables.board
    found: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()

    def add(what: str, entry_id: str, name: str, provenance: str) -> None:
        if (what, entry_id) not in seen:
            seen.add((what, entry_id))
            found.append(item(what, entry_id, name, provenance))

    for value in ids_in(data, ("land", "lands", "target")):
        if value in board.lands:
            land = board.lands[value]
            add("land", value, land.name, land.provenance)
    for value in ids_in(data, ("target", "fleets")):
        if value in board.waters:
            water = board.waters[value]
            add("water", value, water.name, water.provenance)
    for value in ids_in(data, ("empire", "card", "cards")):
        if value in tables.events_by_id:
            card = tables.events_by_id[value]
            add("event card", value, card.name, card.provenance)
        elif any(e.id == value for e in tables.empires):
            empire = tables.empire(value)
            add("empire card", value, empire.name, empire.provenance)
    for value in ids_in(data, ("token", "tokens")):
        if any(t.id == value for t in tables.bonus_tokens):
            add("bonus token", value, value, tables.token(value).provenance)
    return found


def seat_view(
    tables: BriefTables, state: BriefState, viewer: int | None, awaited: frozenset[int]
) -> dict[str, Any]:
    """The table as `viewer` sees it: another player's cards, Bonus tokens, sealed choices and
    the cards in front of another chooser are hidden (null, or counted)."""

    def mine(colour: int) -> bool:
        return viewer is not None and state.owner(colour) == viewer

    return {
        "epoch": state.epoch,
        "stage": state.stage.value,
        "players": [
            {
                "seat": seat,
                "name": p.name,
                "colours": list(state.colours_of(seat)),
                "hand": list(p.hand) if seat == viewer else None,
                "hand_count": len(p.hand),
            }
            for seat, p in enumerate(state.players)
        ],
        "colours": colours_view(tables, state, mine),
        "lands": {
            land: {"colour": c.colour, "standing": c.standing, "buildings": sorted(c.buildings)}
            for land, c in sorted(state.lands.items())
        },
        "area_values": dict(state.area_values),
        "call_index": state.call_index,
        "allocation": allocation_view(state, mine),
        "turn": turn_view(state),
        "bonus": bonus_view(state, mine),
        "bonus_tokens_left": sum(len(space) for space in state.bonus_spaces),
        "supply": dict(state.supply),
        "awaiting": sorted(awaited),
        "final": list(state.final) if state.final else None,
        "result": None if state.result is None else [list(g) for g in state.result],
    }


def colours_view(
    tables: BriefTables, state: BriefState, mine: Callable[[int], bool]
) -> list[dict[str, Any]]:
    return [
        {
            "colour": c,
            "seat": colour.seat,
            "gold": colour.gold,
            "arrived": colour.arrived,
            "track_space": colour.gold % tables.numbers.gold["track"],
            "stacked_on": sum(
                1
                for other in state.colours
                if other.gold == colour.gold and other.arrived < colour.arrived
            ),
            "supply": colour.supply,
            "empire": colour.empire if mine(c) else None,
            "bonus": list(colour.bonus) if mine(c) or state.stage is Stage.OVER else None,
            "bonus_count": len(colour.bonus),
        }
        for c, colour in enumerate(state.colours)
    ]


def allocation_view(state: BriefState, mine: Callable[[int], bool]) -> dict[str, Any] | None:
    allocation = state.allocation
    if allocation is None:
        return None
    return {
        "round": allocation.round,
        "empire_order": list(allocation.empire_order),
        "event_order": list(allocation.event_order),
        "choosers": {kind: allocation.picker(kind) for kind in KINDS},
        "pile": {
            kind: list(allocation.pools.get(kind, ()))
            for kind in KINDS
            if mine(allocation.picker(kind))
        },
        "kept": {
            kind: card for kind, card in allocation.chosen.items() if mine(allocation.picker(kind))
        },
        "sealed": sorted(sealed(state)),
    }


def turn_view(state: BriefState) -> dict[str, Any] | None:
    turn = state.turn
    if turn is None:
        return None
    return {
        "colour": turn.colour,
        "empire": turn.empire,
        "phase": turn.phase.value,
        "forces": [
            {
                "raised_by": f.card,
                "event": f.event,
                "array": f.array,
                "dial": f.dial,
                "barbarian": f.barbarian,
                "feature": f.feature,
                "lands": list(f.lands),
                "stopped": f.stopped,
            }
            for f in turn.forces
        ],
        "fleets": list(turn.fleets),
        "leader": turn.leader,
        "weaponry": turn.weaponry,
        "astronomy": turn.astronomy,
        "crossings": turn.crossings,
        "invasion": None
        if turn.invasion is None
        else {
            "land": turn.invasion.land,
            "defender": turn.invasion.defender,
            "via": turn.invasion.via,
        },
        "overrun": None
        if turn.overrun is None
        else {
            "land": turn.overrun.land,
            "defender": turn.overrun.defender,
            "points": turn.overrun.points,
        },
        "monuments_due": turn.monuments_due,
        "armies_left": sum(f.array for f in turn.forces if not f.stopped),
    }


def bonus_view(state: BriefState, mine: Callable[[int], bool]) -> dict[str, Any] | None:
    bonus = state.bonus
    if bonus is None:
        return None
    return {
        "order": list(bonus.order),
        "position": bonus.position,
        "offered": list(bonus.offered)
        if bonus.position < len(bonus.order) and mine(bonus.order[bonus.position])
        else None,
        "offered_count": len(bonus.offered),
    }


def invariant_failures(tables: BriefTables, state: BriefState) -> list[str]:
    """Armies, buildings and fleets conserved; standing armies only the active Empires';
    gold never negative."""
    failures: list[str] = []
    turn = state.turn
    per_colour = tables.numbers.supply["armies_per_colour"]
    for c, colour in enumerate(state.colours):
        placed = sum(1 for cell in state.lands.values() if cell.colour == c)
        held = 0
        if turn is not None and turn.colour == c:
            held = sum(f.array for f in turn.forces) + (1 if turn.invasion is not None else 0)
        if placed + colour.supply + held != per_colour:
            failures.append(
                f"colour {c}: {placed} placed + {colour.supply} in supply + {held} in Arrays "
                f"is not {per_colour}"
            )
        if colour.gold < 0:
            failures.append(f"colour {c} has {colour.gold} gold")
    buildings = [b for cell in state.lands.values() for b in cell.buildings]
    totals = tables.numbers.supply
    for key, kinds in (
        ("capitals_and_cities", ("capital", "city")),
        ("monuments", ("monument",)),
        ("forts", ("fort",)),
    ):
        out = sum(b in kinds for b in buildings)
        if out + state.supply.get(key, 0) != totals[key]:
            failures.append(
                f"{key}: {out} on the board + {state.supply.get(key)} is not {totals[key]}"
            )
    fleets = len(turn.fleets) if turn is not None else 0
    if fleets + state.supply.get("fleets", 0) != totals["fleets"]:
        failures.append(
            f"fleets: {fleets} out + {state.supply.get('fleets')} is not {totals['fleets']}"
        )
    standing = {land for land, cell in state.lands.items() if cell.standing}
    active = {land for f in (turn.forces if turn else ()) for land in f.lands}
    if standing - active:
        failures.append(f"standing armies outside an active Empire: {sorted(standing - active)}")
    for land in standing:
        if turn is None or state.land(land).colour != turn.colour:
            failures.append(f"{land}: a standing army of another colour than the active one")
    failures += [
        f"{player.name}'s hand holds the Event card {card!r}, which the pack does not have"
        for player in state.players
        for card in player.hand
        if card not in tables.events_by_id
    ]
    return failures
