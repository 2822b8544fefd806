"""The Patchistory table as a seat (or a spectator) may see it: everything in front of the
Player Screens (Reference Boards, territories, Trade Routes, the Auction), and behind them only
the viewer's own Goods, Building Tiles and Prosperity Cards (patchistory.hidden.screen). A
sealed choice shows as made, not as what it is, until the rules reveal it."""

from __future__ import annotations

from typing import Any

from domain.core.frozen import evolved
from domain.patchistory import territory as terr
from domain.patchistory.model import Civ, Cover, Pending, PState, encode
from domain.patchistory.pack import PatchPack
from domain.patchistory.rounds import awaited

GOODS_KEPT = ("coin", "food", "resource", "culture", "votes")


UNCITED_RULES = ("patchistory.hidden.screen",)
"""The clauses this module decides that no event or refusal carries."""


def seat_state(state: PState, viewer: int | None) -> PState:
    """The state with what `viewer` may not know blanked: other players' Goods (0), Building
    Tiles and Prosperity Cards (none), the Building supply's order (none), the Wasteland
    sides' Building Tiles of others (''), others' sealed choices (()), the Goods of an Aid
    awaiting its answer unless the viewer gives or is offered it (0)."""

    def cut(seat: int, civ: Civ) -> Civ:
        if seat == viewer:
            return civ
        return evolved(
            civ,
            coin=0,
            food=0,
            resource=0,
            culture=0,
            votes=0,
            hand=(),
            prosperity=(),
            covers=tuple(evolved(c, building="") if c.wasteland else c for c in civ.covers),
        )

    civs = tuple(cut(s, c) for s, c in enumerate(state.civs))
    return evolved(
        state,
        civs=tuple(
            evolved(
                c,
                covers=tuple(_cover_seen(cover, viewer, state, s) for cover in c.covers),
            )
            for s, c in enumerate(civs)
        ),
        stack=(),
        removed=tuple("" for _ in state.removed),
        sealed=tuple((s, v if s == viewer else ()) for s, v in state.sealed),
        pending=tuple(_pending_seen(p, viewer) for p in state.pending),
    )


def _pending_seen(pending: Pending, viewer: int | None) -> Pending:
    """An Aid offered goes from behind one screen to behind another: the Goods offered are
    seen by the two players alone (patchistory.diplomacy.aid, patchistory.hidden.screen)."""
    if pending.kind != "aid" or viewer in (pending.seat, pending.numbers[0]):
        return pending
    giver, *goods = pending.numbers
    return evolved(pending, numbers=(giver, *(0 for _ in goods)))


def _cover_seen(cover: Cover, viewer: int | None, state: PState, owner: int) -> Cover:
    """A Wasteland side hides its Building Tile: shown to nobody, not even the territory's
    owner (a Stealth Aircraft's player laid it there, unseen by the owner), as no later rule
    turns it over."""
    if not cover.wasteland:
        return cover
    return evolved(cover, building="")


def player_seen(
    pack: PatchPack, state: PState, seen: PState, seat: int, viewer: int | None
) -> dict[str, Any]:
    """One player's civilization as `viewer` sees it (`seen`: the position the viewer may
    know): the territory and statuses in front of the screen, what is behind it only for the
    player's own seat."""
    civ = seen.civs[seat]
    mine = seat == viewer
    board = terr.statuses(pack, state, seat) if civ.capital else {}
    return {
        "seat": seat,
        "name": state.names[seat],
        "capital": civ.capital,
        "tiles": [
            {"tile": t.tile, "side": t.side, "row": t.row, "col": t.col, "z": t.z}
            for t in civ.tiles
        ],
        "covers": [
            {
                "row": c.row,
                "col": c.col,
                "building": c.building or None,
                "wasteland": c.wasteland,
            }
            for c in civ.covers
        ],
        "workers": [list(w) for w in civ.workers],
        "born": civ.born,
        "resting": len(civ.resting),
        "statuses": board,
        "political_points": state.pp[seat] if state.pp else 0,
        "goods": {g: civ.goods(g) for g in GOODS_KEPT} if mine else None,
        "building_tiles": list(civ.hand) if mine else None,
        "building_tile_count": len(state.civs[seat].hand),
        "prosperity": list(civ.prosperity) if mine else None,
        "prosperity_count": len(state.civs[seat].prosperity),
        "sealed": seat in dict(state.sealed),
    }


def view(pack: PatchPack, state: PState, viewer: int | None) -> dict[str, Any]:
    seen = seat_state(state, viewer)
    players = [player_seen(pack, state, seen, seat, viewer) for seat in range(len(seen.civs))]
    pending = seen.pending[0] if seen.pending else None
    mine_sealed = dict(state.sealed).get(viewer) if viewer is not None else None
    return {
        "era": state.era,
        "round": state.round,
        "serial": state.serial,
        "phase": state.phase,
        "start_player": state.start,
        "awaiting": sorted(awaited(state)),
        "capital_side": state.capital_side,
        "players": players,
        "routes": [
            {
                "id": r.id,
                "kind": r.kind,
                "a": r.a,
                "b": r.b,
                "workers": [list(w) for w in r.workers],
                "declared": r.declared,
                "aggressors": list(r.aggressors),
            }
            for r in state.routes
        ],
        "auction": {
            "offered": [{"tile": o.tile, "side": o.side} for o in state.offered],
            "bids": [
                {"seat": s, "tile": state.bids[s], "amount": state.amounts[s]}
                for s in range(state.players)
                if state.bids and state.bids[s] >= 0
            ],
            "participants": list(state.participants),
        },
        "won": [{"seat": w.seat, "tile": w.tile, "side": w.side} for w in state.won],
        "pending": None
        if pending is None
        else {"kind": pending.kind, "seat": pending.seat, "numbers": list(pending.numbers)},
        "sealing": list(state.sealing),
        "my_sealed": None if mine_sealed is None else list(mine_sealed),
        "negotiations": list(state.negotiations),
        "wars": list(state.wars),
        "vote": {
            "cards": list(state.vote_cards),
            "index": state.vote_index,
            "votes_on": list(state.votes_on),
        },
        "supply": {
            "general_routes": pack.general.count
            - sum(1 for r in state.routes if r.kind == "general"),
            "allied_routes": pack.allied.count - sum(1 for r in state.routes if r.kind == "allied"),
            "building_tiles": len(state.stack),
            "terrain_tiles": len(state.tiles_left),
            "buildings_removed": len(state.removed),
        },
        "final": list(state.final) if state.final else None,
        "position": counted(position_seen(seen, viewer), state),
    }


HIDDEN_BEHIND_SCREEN = (*GOODS_KEPT, "hand", "prosperity")
"""What another player's screen hides in the position (patchistory.hidden.screen): shown as
`null`, with the counts the table shows (`hand_count`, `prosperity_count`) beside them."""


def position_seen(seen: PState, viewer: int | None) -> dict[str, Any]:
    """The position `viewer` may know, encoded: another player's Goods, Building Tiles and
    Prosperity Cards are `null` (hidden, not none), and how many Tiles and Cards they hold is
    given, as the table shows it."""
    position: dict[str, Any] = encode(seen)
    for seat, civ in enumerate(position["civs"]):
        if seat == viewer:
            continue
        for name in HIDDEN_BEHIND_SCREEN:
            civ[name] = None
    return position


def counted(position: dict[str, Any], state: PState) -> dict[str, Any]:
    """The position with each player's count of Building Tiles and Prosperity Cards."""
    for seat, civ in enumerate(position["civs"]):
        civ["hand_count"] = len(state.civs[seat].hand)
        civ["prosperity_count"] = len(state.civs[seat].prosperity)
    return position


def known_position(position: dict[str, Any]) -> dict[str, Any]:
    """A position as a viewer got it, ready to decode: what is hidden takes its blank value
    (the cut `seat_state` makes), the counts go."""
    civs = [
        {
            name: value
            for name, value in civ.items()
            if value is not None and name not in ("hand_count", "prosperity_count")
        }
        for civ in position["civs"]
    ]
    return {**position, "civs": civs}
