"""Patchistory in words: the names people read for the pack's ids (Terrain Tiles by their Era
and number, Building Tiles, Prosperity Cards, Heroes and Wonders by their names), squares of a
territory by where they lie from the Capital (by the compass, north up the table), a Worker's
move by its step ("two squares west"), and each legal action as its button says it.

Pure string building: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.core.narration import (
    Namer,
    fields_in_words,
    humanised,
    listed,
    plain_words,
    sentence_tellers,
)
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


def near_capital(row: int, col: int) -> str:
    """Where a Tile's top left square goes, briefly, for its button: `the Capital`, `one
    southeast of the Capital`, `two north and one west of the Capital`."""
    if not row and not col:
        return "the Capital"
    step = compass(row, col).replace(" squares", "").replace(" square", "")
    return f"{step} of the Capital"


def _namer(rules: Any, players: Sequence[str]) -> Namer:
    return Namer(players, rules.names(), SEAT_KEYS, SEATS_KEYS)


def narrate(rules: Any, event: Mapping[str, Any], players: Sequence[str]) -> str:
    event = _cleaned(event)
    return plain_words(event, players, _names_with(rules.names()), TELLERS, _namer(rules, players))


def data_words(
    rules: Any, event: Mapping[str, Any], players: Sequence[str]
) -> list[dict[str, str]]:
    """An event's data as Explain shows it: squares by where they lie, seats by name, a Trade
    Route's spaces counted from 1 along it."""
    data = event.get("data")
    if str(event.get("type")).endswith("RouteWorkerMoved") and isinstance(data, Mapping):
        spaces = {k: f"its space {int(data[k]) + 1}" for k in ("frm", "to") if k in data}
        event = {**event, "data": {**data, **spaces}}
    return fields_in_words(_cleaned(event), _namer(rules, players))


def _cleaned(event: Mapping[str, Any]) -> Mapping[str, Any]:
    """The event with its squares in words and the fields that say nothing left out."""
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
            elif str(event.get("type")).endswith("BidSealed") and key in ("number", "offer"):
                # the Tile bid on counts from 0 in the event, from #1 at the Auction on the table
                cleaned.update({"tile": f"#{int(value) + 1} at the Auction"} if key == "number"
                               else {"coin": value})  # fmt: skip
            else:
                cleaned[key] = value
        event = {**event, "data": cleaned}
    return event


def route_worker_moved(event: Mapping[str, Any], namer: Namer) -> str:
    """`Ann's Worker moved along Trade Route 1, from its space 1 to its space 2`
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
    return f"{namer.seat(data['seat'])}'s Worker moved {way}{forced}."


PLACES = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def prosperity_scored(event: Mapping[str, Any], namer: Namer) -> str:
    """`The Vote on Highest Food production, 3 Votes (3 Culture for first place), was scored:
    Ann first, gains 3 Culture; Bob second, no Culture; Cy fourth, loses 1 Culture`."""
    data = event["data"]
    told = []
    for seat, (place, gain) in enumerate(zip(data["ranks"], data["culture"], strict=True)):
        change = (
            "no Culture" if not gain else f"{'gains' if gain > 0 else 'loses'} {abs(gain)} Culture"
        )
        told.append(f"{namer.seat(seat)} {PLACES[int(place) - 1]}, {change}")
    votes = f"{data['votes']} Votes ({data['value']} Culture for first place)"
    head = f"{namer.thing(data['card'])}, {votes},"
    return f"The Vote on {head} was scored: {'; '.join(told)}."


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
        layer = "on top" if command.get("layer") == "over" else "underneath"
        short = f"{side} at {near_capital(int(command['row']), int(command['col']))}, {layer}"
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


PHASE_NAMES = {
    "vasco": "Vasco Da Gama's choice",
    "auction": "the Auction",
    "auction-sealed": "the sealed Auction",
    "patching": "Patching",
    "diplomacy": "Diplomacy",
    "negotiation": "Negotiation",
    "war": "War",
    "management": "Management",
    "movement": "Movement",
    "chichen": "Chichen-Itza's choice",
    "vote-card": "the choice of Prosperity Cards",
    "vote": "the Vote",
    "over": "the end of the game",
}
DECISIONS = {
    "place-new": "where a new Worker goes",
    "war-order": "which War is resolved next",
    "alliance-propose": "whether to propose an Alliance",
    "stealth": "whether to use the Stealth Aircraft",
    "aid": "whether to accept the Aid offered",
    "alliance-accept": "whether to accept the Alliance",
    "return": "where a Worker coming home goes",
}
WHAT = {"heroes-wonders": "Heroes and Wonders", "heroes": "Heroes", "workers": "Workers",
        "wonders": "Wonders", "buildings": "Buildings"}  # fmt: skip
"""What an upkeep or an honour is paid for, in words."""
SENTENCES: dict[str, str] = {
    "CapitalsDealt": "Each player was dealt a Capital: {capitals_each}.",
    "SuppliesTaken": "Each player took their starting supplies: {food} Food, {coin} Coin and "
    "{culture} Culture.",
    "BuildingTilesShuffled": "The {count_order} Building Tiles were shuffled into a supply, face "
    "down.",
    "EraTilesShuffled": "The {count_tiles} Terrain Tiles of Era {era_roman} were shuffled into "
    "the stack.",
    "ProsperityDealt": "{seat} was dealt the Prosperity Cards {hand}.",
    "RoundBegan": "Round {round} of Era {era_roman} began; {start} starts.",
    "PhaseBegan": "{phase_words} began{who_acts}.",
    "TurnPassed": "{seat} is done{next_words}.",
    "DecisionAwaited": "The rules wait for {seat} to decide {decision}.",
    "DecisionDeclined": "{seat} let the choice of {decision} go.",
    "TilesDrawn": "The Tiles {tiles} were drawn for the Auction.",
    "TileTakenBeforeAuction": "{seat} took {tile} out of the Auction with Vasco Da Gama.",
    "VascoDeclined": "{seat} left the Auction's Tiles where they were.",
    "BidPlaced": "{seat} bid {amount} Coin on {auction_tile} ({added} more){next_words}.",
    "BidPassed": "{seat} passed in the Auction{next_words}.",
    "BidSealed": "{seat} sealed a bid: {coin} Coin on Tile {tile}.",
    "BidsRevealed": "The sealed bids were turned up: {bids}.",
    "TileWon": "{seat} won {tile} for {paid} Coin.",
    "TileForfeited": "{seat} forfeited {tile}: it did not fit.",
    "CoinBoughtWithCulture": "{seat} bought {coin} Coin for {culture} Culture.",
    "TilePatched": "{seat} patched {tile}, {side} side up, its top left square on {square}, "
    "{layer_words}{removed_words}.",
    "PointsSet": "Political Points for the Round: {points_each}.",
    "AidOffered": "{seat} offered {to} Aid: {goods} (for {count_points}).",
    "AidAnswered": "{seat} {accepted_words} the Aid of {giver}: {goods}{culture_words}.",
    "Threatened": "{seat} threatened {to} for {demand_words} ({count_points}): military "
    "{military}{bonus_words} against {against}; {threat_outcome}.",
    "TradeRouteOpened": "{seat} opened Trade Route {route}, {route_kind} (for {count_points}"
    "{resources_words}).",
    "TradeRouteForfeited": "{seat}'s Trade Route {route} went back to the supply (for "
    "{count_points}{votes_words}).",
    "CultureFromTiles": "{ability} {culture_change} {seat}.",
    "GameFinished": "The game is over. Culture: {culture_each}. {winners_words}.",
    "WorkerMoved": "{seat} moved a Worker from {frm} to {to}.",
    "WorkerPlaced": "{seat} placed a Worker on {square}{food_words}{points_words}.",
    "WorkerCameHome": "{seat}'s Worker came home to {square}.",
    "WorkerBackToTrack": "{seat}'s Worker went back to the Descendant Track{from_square}"
    "{back_costs}.",
    "BuildingTilesDrawn": "{seat} drew the Building Tiles {drawn}.",
    "SquareReclaimed": "{seat} reclaimed {square} with the back of {tile_used} ({resources} "
    "Resources, {count_points}).",
    "BuildingConstructed": "{seat} built {building} on {square} ({resources} Resources, "
    "{count_points}).",
    "TradeBegun": "{seat} sent a Worker from {square} to the Start space of Trade Route "
    "{route}{food_words}{points_words}.",
    "GoodsExchanged": "{seat} exchanged {amount} {give} for {got} ({count_points}).",
    "Honored": "{seat} honoured their {what}: {paid_words} ({count_points}).",
    "Campaigned": "{seat} campaigned, turning {count_points} into Votes.",
    "RestOver": "{seat}'s {count_workers} came home from Rest.",
    "ProsperityChosen": "{seat} chose a Prosperity Card for the Vote.",
    "ProsperityRevealed": "The Prosperity Cards of the Vote were turned up: {cards}.",
    "VotesCommitted": "{seat} put {count} Votes on {card}.",
    "VotesRevealed": "The Votes on {card} were turned up: {votes_each} ({total} in all).",
    "ProsperityDiscarded": "{card} was discarded with {votes} Votes on it.",
    "VotesForfeited": "Votes left over were forfeited: {votes_each}.",
    "GoodsProduced": "{seat} produced {produced}.",
    "Maintained": "{seat} paid the upkeep of their {what}: {upkeep}.",
    "WarChosen": "{seat} chose the War on Trade Route {route} to be resolved next.",
    "ConflictsFound": "Conflicts this Round: {conflicts}.",
    "SideChosen": "{seat} chose a side on Trade Route {route}.",
    "SidesRevealed": "The sides on Trade Route {route} were turned up: {sides}.",
    "WarDeclared": "War was declared on Trade Route {route} by {aggressors}{paid_words}.",
    "AllianceAnswered": "{seat} {agree_words} the Alliance on Trade Route {route}.",
    "WorkerLeftRoute": "{seat}'s Worker left Trade Route {route} to come home.",
    "StrengthCommitted": "{seat} committed strength to the War on Trade Route {route}: "
    "{spent_resources} Resources and {spent_votes} Votes.",
    "WarResolved": "The War on Trade Route {route} was resolved: {strengths}; {war_outcome}.",
    "NegotiationSkipped": "Allies do not negotiate on Trade Route {route}: the Worker goes home.",
    "WarCalledOff": "The War on Trade Route {route} was called off.",
}


def _each(values: Any, namer: Namer, unit: str = "") -> str:
    said = f" {unit}" if unit else ""
    return listed([f"{namer.seat(s)} {v}{said}" for s, v in enumerate(values or [])])


def sentence_fields(data: Mapping[str, Any], namer: Namer) -> dict[str, str]:
    """The derived words a sentence may use beside each field in words."""
    said: dict[str, str] = {}
    for words in (_turn_words, _trade_words, _culture_words, _conflict_words):
        words(data, namer, said)
    return said


def _turn_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Eras, phases, who acts and the Auction."""
    if "giver" in data:
        said["giver"] = namer.seat(data["giver"])
    era = data.get("era")
    said["era_roman"] = ROMAN.get(era, str(era)) if isinstance(era, int) else str(era)
    for key in ("order", "tiles"):
        if isinstance(data.get(key), list):
            said[f"count_{key}"] = str(len(data[key]))
    phase = str(data.get("phase", ""))
    said["phase_words"] = PHASE_NAMES.get(phase, phase.replace("-", " "))
    seats = data.get("seats")
    said["who_acts"] = (
        f" for {listed([namer.seat(s) for s in seats])}"
        if isinstance(seats, list) and seats and "phase" in data
        else ""
    )
    nxt = data.get("next")
    said["next_words"] = (
        f"; {namer.seat(nxt)} goes next" if isinstance(nxt, int) and nxt >= 0 else ""
    )
    kind = str(data.get("kind", ""))
    said["decision"] = DECISIONS.get(kind, kind.replace("-", " "))
    tile = data.get("tile")
    if isinstance(tile, int) and not isinstance(tile, bool):
        said["auction_tile"] = f"Tile #{tile + 1} at the Auction"
    if isinstance(data.get("coins"), list) and isinstance(data.get("tiles"), list):
        said["bids"] = listed(
            [
                f"{namer.seat(s)} {c} Coin on Tile #{t + 1}"
                for s, (t, c) in enumerate(zip(data["tiles"], data["coins"], strict=False))
            ]
        )


def _trade_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Patching, points, goods, Aid, threats and routes."""
    said["layer_words"] = (
        "over the squares it overlaps" if data.get("layer") == "over" else "under them"
    )
    removed = data.get("removed") or 0
    said["removed_words"] = f", removing {_count(removed, 'Worker')}" if removed else ""
    said["count_points"] = (
        f"{data.get('points')} Political Point{'s' if data.get('points') != 1 else ''}"
    )
    said["points_words"] = f", for {said['count_points']}" if data.get("points") else ""
    said["food_words"] = f", paying {data['food']} Food" if data.get("food") else ""
    if isinstance(data.get("points"), list):
        said["points_each"] = _each(data["points"], namer)
    goods = [f"{data[k]} {GOODS[k]}" for k in ("food", "coin", "resource") if data.get(k)]
    said["goods"] = listed(goods) or "nothing"
    said["accepted_words"] = "accepted" if data.get("accepted") else "refused"
    giver = namer.seat(data["giver"]) if "giver" in data else ""
    said["culture_words"] = (
        f"; {giver} gains {data['culture']} Culture" if data.get("culture") and giver else ""
    )
    said["demand_words"] = GOODS.get(str(data.get("demand")), str(data.get("demand")))
    said["bonus_words"] = f" (+{data['bonus']})" if data.get("bonus") else ""
    said["threat_outcome"] = (
        f"the threat worked, {data.get('taken', 0)} {said['demand_words']} taken"
        if data.get("success")
        else "the threat failed"
    )
    if data.get("kind") in ("general", "allied"):
        said["route_kind"] = (
            f"a General route from {namer.seat(data.get('a'))} to {namer.seat(data.get('b'))}"
            if data["kind"] == "general"
            else f"an Allied route between {namer.seat(data.get('a'))} and "
            f"{namer.seat(data.get('b'))}"
        )
    said["resources_words"] = f", {data['resources']} Resources" if data.get("resources") else ""
    said["votes_words"] = f", {data['votes']} Votes" if data.get("votes") else ""


def _culture_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Culture given or taken, the winners, costs and production."""
    culture = data.get("culture")
    if isinstance(culture, int) and not isinstance(culture, bool):
        said["culture_change"] = (
            f"gave {culture} Culture to" if culture >= 0 else f"took {-culture} Culture from"
        )
    if isinstance(culture, list):
        said["culture_each"] = _each(culture, namer)
    winners = data.get("winners")
    if isinstance(winners, list):
        said["winners_words"] = (
            f"{listed([namer.seat(s) for s in winners])} "
            f"{'wins' if len(winners) == 1 else 'share the win'}"
            if winners
            else "Nobody wins"
        )
    square = data.get("square")
    said["from_square"] = f" from {square}" if square else ""
    costs = []
    if data.get("culture") and isinstance(culture, int):
        costs.append(f"{culture} Culture")
    if data.get("food"):
        costs.append(f"{data['food']} Food")
    if data.get("votes"):
        costs.append(f"{data['votes']} Votes")
    said["back_costs"] = f" ({listed(costs)})" if costs else ""
    got = [f"{data[k]} {GOODS[k]}" for k in ("food", "coin", "resource") if data.get(k)]
    said["got"] = listed(got) or "nothing"
    said["give"] = GOODS.get(str(data.get("give")), str(data.get("give")))
    said["what"] = WHAT.get(str(data.get("what")), str(data.get("what", "")).replace("-", " "))
    paid = [f"{data[k]} {GOODS[k]}" for k in ("food", "resource", "culture") if data.get(k)]
    said["paid_words"] = listed(paid) or "nothing paid"
    said["upkeep"] = (
        listed([f"{data[k]} {GOODS[k]}" for k in ("food", "resource") if data.get(k)]) or "nothing"
    ) + (f", and {data['culture']} Culture for what was short" if data.get("culture") else "")
    if "routes" in data:
        made = [f"{data[k]} {GOODS[k]}" for k in ("coin", "food", "resource", "culture")
                if data.get(k)]  # fmt: skip
        routes = sum(int(r) for r in data.get("routes") or [])
        if routes:
            made.append(f"{routes} from Trade Routes")
        said["produced"] = listed(made) or "nothing"


def _conflict_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Workers, votes, Negotiations and Wars, and the capitals."""
    seats = data.get("seats")
    said["count_workers"] = _count(int(data.get("count", 0) or 0), "Worker")
    if isinstance(data.get("votes"), list):
        said["votes_each"] = _each(data["votes"], namer)
    said["conflicts"] = listed(
        [
            _count(len(data.get("negotiations") or []), "Negotiation"),
            _count(len(data.get("wars") or []), "War"),
        ]
    )
    if isinstance(data.get("blue"), list) and isinstance(seats, list):
        said["sides"] = listed(
            [
                f"{namer.seat(s)} {'blue (peace)' if b else 'red (war)'}"
                for s, b in zip(seats, data["blue"], strict=False)
            ]
        )
    aggressors = data.get("aggressors")
    if isinstance(aggressors, list):
        said["aggressors"] = listed([namer.seat(s) for s in aggressors]) or "nobody"
        said["paid_words"] = f", paying {data['paid']}" if data.get("paid") else ""
    said["agree_words"] = "agreed to" if data.get("agree") else "refused"
    if isinstance(data.get("totals"), list) and isinstance(seats, list):
        said["strengths"] = listed(
            [f"{namer.seat(s)} {t}" for s, t in zip(seats, data["totals"], strict=False)]
        )
        won = data.get("winners") or []
        said["war_outcome"] = f"{listed([namer.seat(s) for s in won])} won" if won else "nobody won"
    capitals = data.get("capitals")
    if isinstance(capitals, list):
        said["capitals_each"] = listed(
            [f"{namer.seat(s)} the {namer.thing(c)}" for s, c in enumerate(capitals)]
        )


TELLERS.update(sentence_tellers("patchistory", SENTENCES, sentence_fields))
