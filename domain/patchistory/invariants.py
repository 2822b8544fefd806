"""What must hold of every Patchistory state (checked by selfplay and the conformance kit
after every event): Goods never negative, Workers all accounted for and one to a space (but
during a seat's own Movement), Trade Routes and Building Tiles within their finite supplies, no
two Seas side by side."""

from __future__ import annotations

from domain.patchistory import territory as terr
from domain.patchistory.model import PState
from domain.patchistory.pack import PatchPack
from domain.patchistory.revisions import WORKERS_SHARE_DURING_MOVEMENT


def failures(pack: PatchPack, state: PState) -> list[str]:
    found: list[str] = vote_failures(pack, state) + unknown_cards(pack, state)
    if not state.civs or not state.civs[0].capital:
        return found
    total_workers = pack.number("start", "workers")
    for seat, civ in enumerate(state.civs):
        for good in ("coin", "food", "resource", "culture", "votes"):
            if civ.goods(good) < 0:
                found.append(f"seat {seat} has {civ.goods(good)} {good}")
        on_routes = sum(1 for r in state.routes for owner, _ in r.workers if owner == seat)
        out = len(civ.workers) + on_routes + len(civ.resting)
        waiting = sum(1 for p in state.pending if p.seat == seat and p.kind == "return")
        if out + waiting != civ.born:
            found.append(
                f"seat {seat}: {civ.born} Workers Birthed but {out} out and {waiting} coming home"
            )
        if not 0 <= civ.born <= total_workers:
            found.append(f"seat {seat}: {civ.born} Workers Birthed")
        anchor = terr.spaces(pack, civ)
        taken = [anchor.get(w) for w in civ.workers]
        if None in taken:
            found.append(f"seat {seat}: a Worker off the territory")
        if len(set(taken)) != len(taken) and not sharing_allowed(pack, state, seat):
            found.append(f"seat {seat}: two Workers on one space")
        view = terr.shown(pack, civ)
        seas = {cell for cell, item in view.items() if terr.is_sea(item)}
        if any((r + 1, c) in seas or (r, c + 1) in seas for r, c in seas):
            found.append(f"seat {seat}: two Seas side by side")
        for cover in civ.covers:
            if cover.at not in view:
                found.append(f"seat {seat}: a Building Tile off the territory")
    general = sum(1 for r in state.routes if r.kind == "general")
    allied = sum(1 for r in state.routes if r.kind == "allied")
    if general > pack.general.count or allied > pack.allied.count:
        found.append(f"{general} General and {allied} Allied Trade Routes on the table")
    for route in state.routes:
        owners = [owner for owner, _ in route.workers]
        if len(set(owners)) != len(owners):
            found.append(f"route {route.id}: two Workers of one player")
        if route.kind == "general" and len(owners) > 1:
            found.append(f"route {route.id}: more than one Worker on a General Trade Route")
    if state.stack or any(c.hand for c in state.civs):
        held = len(state.stack) + len(state.removed)
        held += sum(len(c.hand) + len(c.covers) for c in state.civs)
        if held != len(pack.buildings):
            found.append(f"{held} Building Tiles accounted for, not {len(pack.buildings)}")
    return found


def sharing_allowed(pack: PatchPack, state: PState, seat: int) -> bool:
    """patchistory.movement.one-per-space: only during its Movement (since revision 5) may a
    seat have two Workers on one space."""
    return (
        pack.since(WORKERS_SHARE_DURING_MOVEMENT)
        and state.phase == "movement"
        and state.turn == seat
    )


def vote_failures(pack: PatchPack, state: PState) -> list[str]:
    """The Vote's cards, tallies and place in them agree (a position loaded into a sandbox is
    checked too: a Vote on no card cannot be played)."""
    found: list[str] = []
    if len(state.civs) != state.players:
        found.append(f"{len(state.civs)} civilizations for {state.players} players")
    if len(state.votes_on) != len(state.vote_cards):
        found.append(f"{len(state.votes_on)} vote tallies for {len(state.vote_cards)} cards")
    if not 0 <= state.vote_index <= len(state.vote_cards):
        found.append(f"vote index {state.vote_index} of {len(state.vote_cards)} cards")
    if state.phase == "vote" and state.sealing and not state.vote_index < len(state.vote_cards):
        found.append("seats to vote, but no Prosperity Card left to vote on")
    unknown = [card for card in state.vote_cards if card not in pack.prosperity]
    if unknown:
        found.append(f"unknown Prosperity Cards in the Vote: {unknown}")
    return found


def unknown_cards(pack: PatchPack, state: PState) -> list[str]:
    """A Building Tile in a hand or a Prosperity card the pack does not have (a sandbox's
    position is refused naming it, rather than failing on a later request)."""
    found = []
    for seat, civ in enumerate(state.civs):
        name = state.names[seat] if seat < len(state.names) else f"player {seat + 1}"
        found += [
            f"{name}'s hand holds the Building Tile {tile!r}, which the pack does not have"
            for tile in civ.hand
            if tile not in pack.buildings
        ]
        found += [
            f"{name} holds the Prosperity card {card!r}, which the pack does not have"
            for card in civ.prosperity
            if card not in pack.prosperity
        ]
    return found
