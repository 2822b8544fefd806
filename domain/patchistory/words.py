"""Patchistory in words: the names people read for the pack's ids (Terrain Tiles by their Era
and number, Building Tiles, Prosperity Cards, Heroes and Wonders by their names), squares of a
territory by where they lie from the Capital (by the compass, north up the table), a Worker's
move by its step ("two squares west"), and each legal action as its button says it.

Pure string building: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.core.narration import Namer, humanised, listed, plain_words
from domain.core.narration import action_words as generic_words
from domain.patchistory.pack import PatchPack

ROMAN = {1: "I", 2: "II", 3: "III"}
SEAT_KEYS = frozenset({"seat", "to", "owner", "winner", "next", "start", "start_player", "by"})
SEATS_KEYS = frozenset({"order", "known_by", "winners", "seats", "participants"})
GOODS = {"coin": "Coin", "food": "Food", "resource": "Resources", "culture": "Culture",
         "votes": "Votes"}  # fmt: skip


def tile_name(pack: PatchPack, tile: str) -> str:
    """`Tile 18 of Era I`; a Capital by its side's name."""
    known = pack.tiles.get(tile)
    if known is None:
        return f"{tile.title()} Capital" if tile else "no Tile"
    number = tile.rsplit("-", 1)[-1].lstrip("0") or "0"
    return f"Tile {number} of Era {ROMAN.get(known.era, known.era)}"


def names_of(pack: PatchPack) -> dict[str, str]:
    names: dict[str, str] = {tile: tile_name(pack, tile) for tile in pack.tiles}
    names[pack.equality.id] = tile_name(pack, pack.equality.id)
    for capital in pack.liberty:
        names[capital.id] = tile_name(pack, capital.id)
    names.update({b.id: b.name for b in pack.buildings.values()})
    names.update({c.id: c.name for c in pack.prosperity.values()})
    for tile in pack.tiles.values():
        for side in (tile.white, tile.black):
            for feature in side.features:
                names[feature.id] = feature.name
                if feature.ability:
                    names.setdefault(feature.ability, feature.name)
    names.update({"white": "White", "black": "Black", "frm": "from"})
    names.update(GOODS)
    return names


NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(n: int, noun: str = "") -> str:
    """`one square`, `two squares`, `12 squares`; without a noun, the number alone."""
    said = NUMBERS[n] if n < len(NUMBERS) else str(n)
    return f"{said} {noun}{'s' if n != 1 else ''}" if noun else said


def compass(rows: int, cols: int) -> str:
    """A step across a territory by the compass (north is up the table): `one square west`,
    `two squares northeast`, `two squares north and one west`."""
    north_south = "north" if rows < 0 else "south"
    east_west = "west" if cols < 0 else "east"
    if rows and cols and abs(rows) == abs(cols):
        return f"{_count(abs(rows), 'square')} {north_south}{east_west}"
    if rows and cols:
        return f"{_count(abs(rows), 'square')} {north_south} and {_count(abs(cols))} {east_west}"
    if rows:
        return f"{_count(abs(rows), 'square')} {north_south}"
    if cols:
        return f"{_count(abs(cols), 'square')} {east_west}"
    return "no step"


def where(row: int, col: int) -> str:
    """A square of a territory by where it lies from the Capital's top left square, by the
    compass: `the Capital's top left square`, `the square one west of the Capital's top left
    square`, `the square two north and one west of the Capital's top left square`."""
    if not row and not col:
        return "the Capital's top left square"
    step = compass(row, col).replace(" squares ", " ").replace(" square ", " ")
    return f"the square {step} of the Capital's top left square"


def _namer(rules: Any, players: Sequence[str]) -> Namer:
    return Namer(players, rules.names(), SEAT_KEYS, SEATS_KEYS)


def narrate(rules: Any, event: Mapping[str, Any], players: Sequence[str]) -> str:
    data = event.get("data")
    if isinstance(data, Mapping) and not event.get("redacted"):
        cleaned: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("at", "frm", "to") and _cell(value):
                cleaned["square" if key == "at" else key] = where(*value)
            elif key in ("row", "col") and "row" in data and "col" in data:
                cleaned.setdefault("square", where(int(data["row"]), int(data["col"])))
            elif (key == "side" and value == "") or (
                key == "sides" and isinstance(value, list) and not any(value)
            ):
                continue
            elif key == "owner" and value == -1:
                cleaned[key] = None
            elif key == "next" and value == -1:
                cleaned["next"] = None
            elif (key == "text" and not value) or key == "z":  # z: the layer, said by "over"
                continue
            elif event.get("type") == "BidSealed" and key in ("number", "offer"):
                # the Tile bid on counts from 0 in the event, from #1 at the Auction on the table
                cleaned.update({"tile": f"#{int(value) + 1} at the Auction"} if key == "number"
                               else {"coin": value})  # fmt: skip
            else:
                cleaned[key] = value
        event = {**event, "data": cleaned}
    return plain_words(event, players, _names_with(rules.names()), TELLERS, _namer(rules, players))


def route_worker_moved(event: Mapping[str, Any], namer: Namer) -> str:
    """`Route worker moved: Ann's Worker along Trade Route 1, from its space 1 to its space 2`
    (the spaces counted from 1 along the route, as on the table), or onto the route's Rest
    space, or home from its far end."""
    data = event["data"]
    route = f"Trade Route {int(data['route'])}"
    if data.get("home"):
        way = f"home from the far end of {route}"
    elif data.get("rest"):
        way = f"onto the Rest space of {route}"
    else:
        spaces = f"from its space {int(data['frm']) + 1} to its space {int(data['to']) + 1}"
        way = f"along {route}, {spaces}"
    forced = " (a forced move)" if data.get("forced") else ""
    return f"Route worker moved: {namer.seat(data['seat'])}'s Worker {way}{forced}."


PLACES = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def prosperity_scored(event: Mapping[str, Any], namer: Namer) -> str:
    """`Prosperity scored: Highest Food production, 3 Votes (3 Culture for first place): Ann
    first, gains 3 Culture; Bob second, no Culture; Cy fourth, loses 1 Culture`."""
    data = event["data"]
    told = []
    for seat, (place, gain) in enumerate(zip(data["ranks"], data["culture"], strict=True)):
        change = (
            "no Culture" if not gain else f"{'gains' if gain > 0 else 'loses'} {abs(gain)} Culture"
        )
        told.append(f"{namer.seat(seat)} {PLACES[int(place) - 1]}, {change}")
    votes = f"{data['votes']} Votes ({data['value']} Culture for first place)"
    head = f"{namer.thing(data['card'])}, {votes}"
    return f"Prosperity scored: {head}: {'; '.join(told)}."


def worker_crowded_out(event: Mapping[str, Any], namer: Namer) -> str:
    """`Worker crowded out: Ann's Worker on the square one east of the Capital's top left
    square still shared its space when no move could part them; it comes home to a free space
    of Ann's choice`."""
    data = event["data"]
    who = namer.seat(data["seat"])
    row, col = data["at"]
    return (
        f"Worker crowded out: {who}'s Worker on {where(int(row), int(col))} still shared its "
        f"space when no move could part them; it comes home to a free space of {who}'s choice."
    )


TELLERS = {
    "patchistory.RouteWorkerMoved": route_worker_moved,
    "patchistory.WorkerCrowdedOut": worker_crowded_out,
    "patchistory.ProsperityScored": prosperity_scored,
}
"""Events whose fields the generic sentence would misread (a route's space index as a seat) or
list bare (each seat's place and Culture as two lists of numbers)."""


def _names_with(names: Mapping[str, str]) -> Mapping[str, str]:
    return names


def _cell(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def action_words(
    rules: Any, state: Any, command: Mapping[str, Any], players: Sequence[str]
) -> tuple[str, str]:
    """A command in words (the generic words for a shape these do not know)."""
    try:
        return _action_words(rules, state, command, players)
    except (KeyError, TypeError, ValueError, IndexError):
        return generic_words(command, _namer(rules, players))


def _action_words(
    rules: Any, state: Any, command: Mapping[str, Any], players: Sequence[str]
) -> tuple[str, str]:
    kind = str(command.get("type", ""))
    namer = _namer(rules, players)
    head = humanised(kind)
    short = None
    offered = [o.tile for o in getattr(state, "offered", ())]
    if "tile" in command and isinstance(command["tile"], int):
        index = int(command["tile"])
        tile = offered[index] if 0 <= index < len(offered) else ""
        what = f"{tile_name(rules.pack, tile)} (#{index + 1} at the Auction)" if tile else "a Tile"
        coin = command.get("coin")
        short = what + (f", {coin} Coin" if coin is not None else "")
    elif kind == "patch":
        side = rules.names().get(str(command.get("side")), str(command.get("side"))) + " side"
        layer = "over" if command.get("layer") == "over" else "under"
        short = (
            f"{side}, its top left square on {where(int(command['row']), int(command['col']))}"
            f", {layer} the squares it overlaps"
        )
    elif kind == "move_worker":
        row, col = int(command["row"]), int(command["col"])
        rows, cols = int(command["to_row"]) - row, int(command["to_col"]) - col
        short = f"{compass(rows, cols)}, the Worker on {where(row, col)}"
    elif "row" in command and "col" in command:
        rest = {k: v for k, v in command.items() if k not in ("row", "col", "type")}
        square = where(int(command["row"]), int(command["col"]))
        extra = generic_words({"type": kind, **rest}, namer)[1] if rest else ""
        short = square + (f", {extra}" if extra and extra != head else "")
    elif kind == "retire_worker" and isinstance(command.get("worker"), str):
        worker = str(command["worker"])
        ability = namer.thing(command.get("ability"))
        if worker.startswith("route-"):
            spot = f"the Worker on Trade Route {worker.split('-', 1)[1]}"
        else:
            row, col = (int(v) for v in worker.split(","))
            spot = f"the Worker on {where(row, col)}"
        short = spot + (f", for {ability}" if ability else "")
    elif kind == "exchange":
        give = GOODS.get(str(command.get("give")), str(command.get("give")))
        got = [f"{command[k]} {GOODS[k]}" for k in ("food", "coin", "resource") if command.get(k)]
        short = f"{command.get('amount')} {give} for {listed(got) or 'nothing'}"
    if short is None:
        return generic_words(command, namer)
    return f"{head}: {short}", short


def _goods(yields: Mapping[str, int]) -> str:
    return listed([f"{n} {k.replace('_', ' ').title()}" for k, n in yields.items()]) or "nothing"


def card_texts(pack: PatchPack) -> dict[str, str]:
    """Building Tiles and Prosperity Cards in a line: what a hand shows."""
    texts: dict[str, str] = {}
    for b in pack.buildings.values():
        texts[b.id] = (
            f"Building Tile: build it on a square of your territory for {b.cost} Resources; "
            f"yields {_goods(b.yields)}. Its back reclaims a Wasteland."
        )
    for c in pack.prosperity.values():
        texts[c.id] = (
            f"Prosperity Card: at a Vote, players are ranked on {c.name.lower()}; "
            "the best gain the most Culture."
        )
    return texts
