"""Brief History of the World (2009) in words: one sentence per event type, in the rulebook's
voice. A colour (a player's set of pieces; two each in the two-player game) is told by its
player and its colour, `bob (blue)`; lands, seas, cards and Bonus tokens by their names in the
data pack; dice face by face and each outcome said. A type without a sentence here (or whose
data does not fit it) reads generically (`domain.core.narration`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.narration import (
    COLOUR_NAMES,
    Namer,
    counted,
    dice,
    listed,
    ranked,
    sentence_tellers,
)

SENTENCES: dict[str, str] = {
    "StartingPlayerDrawn": "Each player drew gold to see who starts ({gold_each}): {first} starts.",
    "StarterCardsDealt": "Each player was dealt the starter cards {cards}.",
    "BonusTokensShuffled": "The Bonus tokens were shuffled face down onto the spaces of the "
    "gold track, {spaces_count}.",
    "EpochBegan": "Epoch {epoch} began. Areas are worth: {area_values_words}.",
    "AllocationBegan": "The cards are allocated: Empires in the order {empire_order}; Events "
    "in the order {event_order}.",
    "AllocationRoundEnded": "Round {round_number} of the allocation is over.",
    "CardChosen": "{seat} chose the {kind} card {card} for {colour}.",
    "CardsPassed": "{colour} passed the {kind} cards {cards} on.",
    "LastCardTaken": "{colour} took the last {kind} card, {card}.",
    "RedCardsDiscarded": "{seat} discarded the red cards {cards}.",
    "EmpireSkipped": "Nobody plays {empire} this Epoch: it is set aside.",
    "TurnBegan": "The turn of {colour}, with {empire}.",
    "EmpireEstablished": "{colour} established {empire} in {land} with {count_armies}"
    "{capital}{fleets_at}{removed_words}.",
    "EventCardPlayed": "{seat} played {card} for {colour}{target_words}{price_words}.",
    "EventEmpireRaised": "{colour} raised {barbarian_words}{card} in {land} with {count_armies}"
    "{capital}{removed_words}.",
    "EventEmpireResigned": "{card} of {colour} stood down, leaving {lands}.",
    "ArmyExpanded": "{side} expanded into {land} {via_words}{crossing_words}.",
    "Surrendered": "{land}, held by {from_colour}, surrendered to {side} {via_words}"
    "{crossing_words}.",
    "InvasionRolled": "{side} invaded {land}, held by {defender}, {via_words}"
    "{crossing_words}: {rolled}; {invasion_outcome}.",
    "InvasionAbandoned": "{side} gave up the invasion of {land}.",
    "LandOverrun": "{side} overran {land}, held by {defender}, for {count_cost}.",
    "OverrunEnded": "The overrun of {colour} is over{unused_words}.",
    "LandReduced": "{side} took control of {land}: {reduced_words}{gold_words}.",
    "FortBuilt": "{colour} built a fort in {land}.",
    "MonumentBuilt": "{colour} built a monument in {land}.",
    "MonumentsUnbuilt": "{colour} had no room for {count_monuments}.",
    "ExpansionStopped": "{card} of {colour} stopped{returned_words}; {resources_words}"
    "{monuments_words}.",
    "EmpireReorganised": "{colour} reorganised {empire}, which holds {lands}{fleets_at}.",
    "GoldCollected": "{colour} collected {total} gold: {items_words}.",
    "GoldTrackAdjusted": "{track_words}",
    "BonusDrawBegan": "The Bonus draw of Epoch {epoch} began, in the order {order}.",
    "BonusTokensOffered": "{colour} was offered {tokens}.",
    "BonusTokenKept": "{colour} kept a Bonus token: {token}.",
    "BonusDrawEnded": "The Bonus draw of Epoch {epoch} is over.",
    "BonusTokensRevealed": "The Bonus tokens were turned up: {bonus_words}.",
    "GameEnded": "The game ended. {gold_words_end} Ranking: {ranking}.",
}

VIA = {"land": "by land", "sea": "by sea", "strait": "across a strait"}


def _who(colour: Any, namer: Namer) -> str:
    """A colour by its player and its colour name: `bob (blue)`."""
    if isinstance(colour, bool) or not isinstance(colour, int) or colour < 0:
        return "nobody"
    name = COLOUR_NAMES[colour % len(COLOUR_NAMES)]
    if not namer.players:
        return name
    return f"{namer.players[colour % len(namer.players)]} ({name})"


def _side(colour: Any, namer: Namer) -> str:
    """A colour with the Empire it plays now: `bob's Romans (blue)`; `bob (blue)` when it
    plays none."""
    empire = namer.empires.get(colour) if isinstance(colour, int) else None
    if not empire or not namer.players or isinstance(colour, bool) or colour < 0:
        return _who(colour, namer)
    name = COLOUR_NAMES[colour % len(COLOUR_NAMES)]
    return f"{namer.players[colour % len(namer.players)]}'s {empire} ({name})"


def _source(what: Any, namer: Namer) -> str:
    """What gold was collected for: its capital, its monuments, an area by its name."""
    return f"its {what}" if what in ("capital", "monument", "city") else namer.thing(what)


def fields(data: Mapping[str, Any], namer: Namer) -> dict[str, str]:
    """The derived words a sentence may use beside each field in words."""
    said: dict[str, str] = {}
    for words in (_who_words, _placing_words, _invasion_words, _building_words, _gold_words):
        words(data, namer, said)
    return said


def _who_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Colours, players and orders by name."""
    for key in ("colour", "from_colour", "defender", "first"):
        if key in data:
            said[key] = _who(data[key], namer)
    if "colour" in data:
        said["side"] = _side(data["colour"], namer)
    for key in ("order", "empire_order", "event_order"):
        if isinstance(data.get(key), list):
            said[key] = listed([_who(c, namer) for c in data[key]])
    said["kind"] = "Empire" if data.get("kind") == "empire" else "Event"
    said["round_number"] = str(int(data.get("round", 0) or 0) + 1)


def _placing_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Armies, capitals, fleets and what was removed or paid."""
    said["count_armies"] = counted(data.get("armies", 0), "army", "armies")
    said["capital"] = " and a capital" if data.get("capital") else ""
    fleets = data.get("fleets") or []
    said["fleets_at"] = (
        f", {counted(len(fleets), 'fleet')} in {listed([namer.thing(w) for w in fleets])}"
        if fleets
        else ""
    )
    removed = data.get("removed") or []
    removed_colour = data.get("removed_colour")
    if isinstance(removed_colour, int) and "buildings" not in data:
        said["removed_words"] = f", removing {_who(removed_colour, namer)}'s army there"
    elif removed and "buildings" not in data:
        said["removed_words"] = f", removing {listed([str(r) for r in removed])}"
    else:
        said["removed_words"] = ""
    said["barbarian_words"] = "the barbarian " if data.get("barbarian") else ""
    target = data.get("target")
    said["target_words"] = f", aimed at {namer.thing(target)}" if target else ""
    price = data.get("price") or 0
    said["price_words"] = f", paying {price} gold" if price else ""
    said["via_words"] = VIA.get(str(data.get("via")), "")
    said["crossing_words"] = " (a crossing)" if data.get("crossing") else ""


def _invasion_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """An invasion's dice and outcome."""
    if "attack" in data and isinstance(data["attack"], list):
        leader = data.get("leader") or 0
        dial = data.get("dial") or 0
        extra = []
        if leader:
            extra.append(f"the Leader adds {leader}")
        if dial:
            extra.append(f"the dial {dial}")
        if data.get("fear"):
            extra.append(f"fear {data['fear']}")
        said["rolled"] = (
            f"the invader rolled {dice(data['attack'])} against the defender's "
            f"{dice(data.get('defence'))}"
            + (f" ({', '.join(extra)})" if extra else "")
            + f": {counted(data.get('points', 0), 'point')}, {data.get('needed')} needed"
        )
        if data.get("sure"):
            said["rolled"] = "a 5 or 6 from the sea takes the land outright"
        said["invasion_outcome"] = (
            f"{said['colour']} took the land" if data.get("success") else "the land held"
        )
        if data.get("continued"):
            said["invasion_outcome"] += " (the invasion went on)"


def _building_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Costs, buildings reduced, gold earned, monuments and resources."""
    said["count_cost"] = counted(data.get("cost", 0), "army", "armies")
    unused = data.get("unused") or 0
    said["unused_words"] = f", {counted(unused, 'army', 'armies')} unused" if unused else ""
    buildings = [str(b) for b in data.get("buildings") or []]
    gone = [str(b) for b in data.get("removed") or []]
    if "buildings" in data:
        said["reduced_words"] = (
            f"its {listed(buildings)} {'was' if len(buildings) == 1 else 'were'} reduced"
            if buildings
            else "nothing stood there"
        ) + (f", and the {listed(gone)} removed" if gone else "")
    gold = data.get("gold")
    said["gold_words"] = f", earning {gold} gold" if isinstance(gold, int) and gold else ""
    said["count_monuments"] = counted(data.get("count", 0), "monument")
    returned = data.get("returned") or 0
    said["returned_words"] = (
        f", {counted(returned, 'army', 'armies')} going back to the supply" if returned else ""
    )
    resources = data.get("resources")
    said["resources_words"] = f"{counted(resources or 0, 'resource')} left"
    monuments = data.get("monuments") or 0
    said["monuments_words"] = (
        f", and {counted(monuments, 'monument')} may be built" if monuments else ""
    )


def _gold_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Gold: items, the track, areas, bonus tokens and the ending."""
    items = data.get("items") or []
    said["items_words"] = (
        listed([f"{n} for {_source(what, namer)}" for what, n in items]) or "nothing"
    )
    moves = data.get("moves")
    if isinstance(moves, list):
        said["track_words"] = (
            "Stacked gold markers moved forward: "
            + listed([f"{_who(c, namer)} from {a} to {b}" for c, a, b in moves])
            + "."
            if moves
            else "The gold track needed no adjusting."
        )
    if isinstance(data.get("area_values"), list):
        said["area_values_words"] = (
            listed([f"{namer.thing(area)} {value}" for area, value in data["area_values"] if value])
            or "nothing"
        )
    if isinstance(data.get("spaces"), list):
        said["spaces_count"] = f"{counted(len(data['spaces'][0]), 'token')} a space"
    if "values" in data and isinstance(data.get("tokens"), list):
        said["bonus_words"] = listed(
            [
                f"{_who(c, namer)} {value} gold (from {counted(len(group), 'token')})"
                for c, (group, value) in enumerate(
                    zip(data["tokens"], data["values"], strict=False)
                )
            ]
        )
    if isinstance(data.get("gold"), list) and "first" in data:
        said["gold_each"] = listed([f"{_who(c, namer)} {g}" for c, g in enumerate(data["gold"])])
    if "ranking" in data:
        said["ranking"] = ranked(data["ranking"], namer)
        colours = data.get("gold") or []
        scores = data.get("scores") or []
        per_colour = listed([f"{_who(c, namer)} {g}" for c, g in enumerate(colours)])
        said["gold_words_end"] = f"Gold by colour: {per_colour}."
        if len(scores) != len(colours):
            totals = listed([f"{namer.seat(s)} {g}" for s, g in enumerate(scores)])
            said["gold_words_end"] += f" Gold by player: {totals}."


TELLERS = sentence_tellers("brief", SENTENCES, fields)
