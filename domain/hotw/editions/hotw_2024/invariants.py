"""Invariants every History of the World state keeps (checked after every event in random
play): pieces are conserved, supplies never exceeded, no army in a wasteland, gold never
negative, Honors neither lost nor duplicated. One pass over the map, cheap enough to run after
every event."""

from __future__ import annotations

from domain.hotw.editions.hotw_2024.cards import Building
from domain.hotw.editions.hotw_2024.model import FLEET, GREAT_WALL, HotwState, Stage
from domain.hotw.editions.hotw_2024.pack import HotwPack

_KINDS = tuple(Building)


def invariant_failures(pack: HotwPack, state: HotwState) -> list[str]:
    failures: list[str] = []
    lands = pack.board.lands
    pieces = pack.cards.pieces
    turn = state.turn
    current = turn.seat if turn is not None else None
    people = [0] * len(state.players)
    placed = dict.fromkeys(_KINDS, 0)
    walls: list[str] = []
    for land, value in state.lands.items():
        if land not in lands:
            failures.append(f"{land} is not a land (an army in a wasteland?)")
        owner = value.owner
        if owner is not None:
            people[owner] += 1
            if value.standing and owner != current:
                failures.append(f"army of seat {owner} in {land} outside its turn")
        for building in value.buildings:
            placed[building] += 1
        if value.great_wall:
            walls.append(land)
            placed[Building.FORT] -= 1
            if Building.FORT not in value.buildings:
                failures.append(f"Great Wall flag without a fort in {land}")
    honors = frozenset(h.id for h in pack.cards.honors)
    for seat, player in enumerate(state.players):
        pooled = 0
        if seat == current and turn is not None:
            pooled = turn.pool.people + turn.event_pool.people
        if player.supply < 0:
            failures.append(f"seat {seat} supply negative")
        total = player.supply + people[seat] + pooled
        if total != pieces.per_player.people:
            failures.append(f"seat {seat} has {total} people pieces, not 30")
        if player.gold < 0:
            failures.append(f"seat {seat} gold negative")
        held = player.honor_stack + player.honor_track + player.pool_honors
        if state.stage is not Stage.SETUP and (len(held) != len(honors) or set(held) != honors):
            failures.append(f"seat {seat} Honors {sorted(held)}")
        if len(player.honor_track) > pack.edition.honor_track_spaces:
            failures.append(f"seat {seat} Honor track overfull")
    for building in _KINDS:
        in_supply = state.supply.get(building.value, 0)
        if in_supply < 0 or placed[building] + in_supply != pieces.shared.count(building):
            failures.append(f"{building.value}: {placed[building]} placed + {in_supply} in supply")
    pool_walls = turn.pool.great_wall_forts if turn else 0
    if len(walls) + pool_walls + state.supply.get(GREAT_WALL, 0) != pieces.shared.great_wall_forts:
        failures.append("Great Wall forts not conserved")
    if sorted(state.great_wall_on_map) != sorted(walls):
        failures.append("Great Wall register differs from the map")
    fleets = state.supply.get(FLEET, 0)
    if fleets < 0:
        failures.append("fleet supply negative")
    if turn is not None:
        fleets += (
            len(turn.fleets) + len(turn.event_fleets) + turn.pool.fleets + turn.event_pool.fleets
        )
    if fleets != pieces.shared.fleets:
        failures.append(f"fleets not conserved ({fleets})")
    if state.stage is Stage.OVER and state.result is None:
        failures.append("game over without a result")
    return failures + unknown_cards(pack, state)


def unknown_cards(pack: HotwPack, state: HotwState) -> list[str]:
    """An Event or Empire card in a hand that the pack does not have (a sandbox's position is
    refused naming it, rather than failing on a later request)."""
    events: set[str] = {card.id for card in pack.cards.all_events()}
    empires: set[str] = {card.id for card in pack.cards.all_empires()}
    found = []
    for player in state.players:
        held = [("Event", c, events) for c in (player.event_card, *player.event_cards) if c]
        held += [("Empire", c, empires) for c in player.empire_cards]
        found += [
            f"{player.name}'s hand holds the {kind} card {card!r}, which the pack does not have"
            for kind, card, known in held
            if card not in known
        ]
    return found
