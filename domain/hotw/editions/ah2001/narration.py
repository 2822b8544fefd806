"""Avalon Hill's History of the World (2001) in words: one sentence per event type, in the
rulebook's voice, players and Empires by name, lands, seas and cards by their names in the data
pack, dice face by face and each outcome said (who lost an army, what fell), never a bare
yes/no or a seat number. A type without a sentence here (or an event whose data does not fit
its sentence) reads generically (`domain.core.narration`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.narration import Namer, counted, dice, listed, ranked, sentence_tellers

SENTENCES: dict[str, str] = {
    "MarkersShuffled": "The Pre-eminence markers were shuffled and laid out: {markers}.",
    "DrawOrderRolled": "Each player rolled for the order of the draw ({rolled}): {order} draw "
    "in that order.",
    "EpochBegan": "Epoch {epoch} began; the players play in the order {order}.",
    "EventCardsDealt": "{seat} was dealt {count_cards}: {cards}.",
    "EmpireCardsHandedOut": "The Empire cards of Epoch {epoch} are all handed out.",
    "EmpireCardDrawn": "{seat} drew the Empire card {card}.",
    "EmpireCardGiven": "{given}",
    "EmpireCardLearned": "{seat} looked at the Empire card given to them: {card}.",
    "EmpireSkipped": "Nobody plays {empire} this Epoch: it is set aside.",
    "TurnBegan": "{seat}'s turn with {empire}: {count_armies}{capital}{fleets_at}.",
    "StartLandCleared": "{land} was cleared for the new Empire{owned}{fort_went}.",
    "ArmyPlaced": "{side} placed {figure_army} in {land}{how}.",
    "BattleFought": "{side} attacked {defender} in {land} {via_words}: {rolled}; "
    "{outcome}{leader}.",
    "FortBuilt": "{seat} built a fort in {land}.",
    "MonumentBuilt": "{seat} built a monument in {land}.",
    "MonumentsUnbuilt": "{seat} had no room for {count_monuments}.",
    "ExpansionBegan": "{side} begins to expand.",
    "ExpansionEnded": "{seat}'s expansion is over{unused_words}; {monuments_words}.",
    "TurnScored": "{seat} scored {total} points: {scored}.",
    "EventCardPlayed": "{seat} played {card}{gains}.",
    "CoinSpent": "{seat} spent a coin {coin_for}.",
    "FleetReallocated": "{seat} moved a fleet to {water}.",
    "FleetAdded": "{seat} added a fleet in {water}.",
    "KingdomPlaced": "{seat} placed a Kingdom in {land} ({figure_army}).",
    "CardEmpireBegan": "{card} take the stage for {seat}: {count_armies}{capital}{fleets_at}"
    "{at_sea_words}{bonus_words}.",
    "CardEmpireEnded": "{card} of {seat} have expanded{unused_words}; the turn goes back to the "
    "main Empire.",
    "CrusadersFortified": "The Crusaders took {land}: {fortified} placed there.",
    "TargetChosen": "{seat} aimed {card} at {target}.",
    "ArmiesStruck": "{card} struck{struck}.",
    "RevoltFought": "A revolt in {land} for {seat}, against {defender}: {rolled}; {revolt}.",
    "TreacheryNamed": "{seat} named {land} for Treachery.",
    "ArmiesLanded": "{side} landed {figure_armies} in {lands}.",
    "MonumentsDestroyed": "The monuments in {lands} were destroyed.",
    "CardResolved": "{seat}'s {card} is done.",
    "LandSacked": "{land} was sacked: its {buildings} fell.",
    "PreEminenceTaken": "{seat} took a Pre-eminence marker worth {marker} points.",
    "FleetManned": "{seat} manned a fleet in {water} with an Epoch {figure} army.",
    "FleetsReclaimed": "The fleets in {waters} went back to the supply.",
    "NavalBattleFought": "The fleet of {side} attacked {defender}'s in {water}: {rolled}; "
    "{naval_outcome}.",
    "ExpansionAttempted": "{side} tried to expand into {target}.",
    "MonumentsEarned": "{seat} may build {count_monuments}.",
    "MonumentsDone": "{seat} has built their monuments.",
    "EmpireActivated": "{seat}'s {empire} take their place in the round ({slot_words}).",
    "EmpireParked": "{seat}'s {empire} wait for their next move{card_words}.",
    "EmpireTerminated": "{seat}'s {empire} are over{card_words}: they scored {total} points "
    "({scored}).",
    "MinorEmpireWaits": "{seat}'s Minor Empire {empire} will move right after its main "
    "Empire{card_words}.",
    "GameEnded": "The game ended. Points: {totals}. Ranking: {ranking}.",
}

VIA = {"land": "by land", "sea": "from the sea", "strait": "across a strait"}
OUTCOMES = {
    "attacker_lost": "the attacker lost an army",
    "defender_lost": "the defender lost an army",
    "both_lost": "both sides lost an army",
    "fort_lost": "the defender's fort fell",
    "fort_and_attacker_lost": "the defender's fort fell and the attacker lost an army",
    "fort_and_defender_lost": "the defender's fort fell and the defender lost an army",
}
"""A round of combat's result in words (`combat.Result`)."""
REVOLT_OUTCOMES = {
    "attacker_lost": "the revolt was put down",
    "defender_lost": "the rebels took the land",
    "both_lost": "both sides lost an army",
}
ORDINAL_SLOTS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _fleets_at(data: Mapping[str, Any], namer: Namer) -> str:
    fleets = data.get("fleets") or []
    if not fleets:
        return ""
    return f", {counted(len(fleets), 'fleet')} in {listed([namer.thing(w) for w in fleets])}"


def _points(points: Any, namer: Namer) -> str:
    if not isinstance(points, Mapping) or not points:
        return "nothing"
    return listed(
        [
            f"{value} for {'buildings' if key == 'buildings' else namer.thing(key)}"
            for key, value in points.items()
        ]
    )


def _card_words(data: Mapping[str, Any], namer: Namer) -> str:
    card = data.get("card")
    return f" (with {namer.thing(card)})" if card else ""


def fields(data: Mapping[str, Any], namer: Namer) -> dict[str, str]:
    """The derived words a sentence may use beside each field in words."""
    said: dict[str, str] = {}
    for words in (_battle_words, _placing_words, _scoring_words, _event_card_words, _card_words_of):
        words(data, namer, said)
    return said


def _battle_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Dice, outcomes and who fought whom."""
    seat = data.get("seat")
    if isinstance(data.get("rolls"), list) and "order" in data:
        said["rolled"] = listed(
            [f"{namer.seat(s)} {sum(r)}" for s, r in enumerate(data["rolls"]) if r]
        )
    if "attack_dice" in data:
        said["rolled"] = (
            f"the attack rolled {dice(data['attack_dice'])}, the defence "
            f"{dice(data.get('defence_dice'))}"
        )
    result = str(data.get("result", ""))
    said["revolt"] = REVOLT_OUTCOMES.get(result, result.replace("_", " "))
    said["via_words"] = VIA.get(str(data.get("via")), "")
    said["leader"] = "; the Leader was killed" if data.get("leader_killed") else ""
    if "defender" in data:
        said["defender"] = namer.seat(data["defender"]) if data["defender"] is not None else ""
        if data["defender"] is None or (isinstance(data["defender"], int) and data["defender"] < 0):
            said["defender"] = "the natives"
    said["side"] = namer.side(seat)
    if "attack_dice" in data and "attack" in data and "defence" in data:
        whose = said.get("defender", "the defender")
        whose = f"{whose}'" if whose.endswith("s") and whose.startswith("the ") else f"{whose}'s"
        said["rolled"] += f" ({data['attack']} against {whose} {data['defence']})"
    attacker, defender = said["side"], said.get("defender", "the defender")
    said["outcome"] = (
        OUTCOMES.get(result, result.replace("_", " "))
        .replace("the attacker", attacker)
        .replace("the defender's", f"{defender}'s")
        .replace("the defender", defender)
    )
    said["naval_outcome"] = said["outcome"].replace("an army", "a fleet")


def _placing_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Armies, capitals, fleets and forts placed or lost."""
    said["count_armies"] = counted(data.get("armies", 0), "army", "armies")
    said["capital"] = " and a capital" if data.get("capital") else ""
    said["fleets_at"] = _fleets_at(data, namer)
    figure = data.get("figure")
    said["figure_army"] = f"an Epoch {figure} army" if figure else "an army"
    landed = len(data.get("lands") or [])
    said["figure_armies"] = f"{landed} Epoch {figure} armies" if figure else f"{landed} armies"
    how = []
    if data.get("capital") and "land" in data:
        how.append(" and raised its capital there")
    if data.get("replaced"):
        how.append(", replacing the army there")
    if data.get("stacked"):
        how.append(", on top of its own army")
    said["how"] = "".join(how)
    owner = data.get("owner")
    said["owned"] = (
        f" (it was {namer.seat(owner)}'s)" if isinstance(owner, int) and owner >= 0 else ""
    )
    said["fort_went"] = ", its fort going back to the supply" if data.get("fort") else ""


def _scoring_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Monuments, cards kept, points and coins."""
    seat = data.get("seat")
    said["count_monuments"] = counted(data.get("count", 0), "monument")
    said["count_cards"] = counted(len(data.get("cards") or []), "Event card")
    unused = data.get("unused") or 0
    said["unused_words"] = f", {counted(unused, 'army', 'armies')} unused" if unused else ""
    monuments = data.get("monuments") or 0
    said["monuments_words"] = (
        f"{seat_name(seat, namer)} may build {counted(monuments, 'monument')}"
        if monuments
        else "no monument is due"
    )
    said["scored"] = _points(data.get("points"), namer)
    gains = []
    if data.get("coins"):
        gains.append(counted(data["coins"], "coin"))
    if data.get("forts"):
        gains.append(counted(data["forts"], "fort"))
    said["gains"] = f", gaining {listed(gains)}" if gains else ""


def _event_card_words(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """What an Event card did."""
    said["coin_for"] = (
        "on a fort for the pool"
        if data.get("for_fort")
        else "to bring a lost army back to the pool"
    )
    at_sea = data.get("at_sea")
    said["at_sea_words"] = f", at sea in {namer.thing(at_sea)}" if at_sea else ""
    said["bonus_words"] = ", each die +1 (the Crusade)" if data.get("bonus") else ""
    said["fortified"] = (
        listed(
            [
                what
                for what, on in (("a fort", data.get("fort")), ("a city", data.get("city")))
                if on
            ]
        )
        or "nothing"
    )
    lands = data.get("lands") or []
    destroyed = data.get("destroyed") or []
    if lands:
        hit = f" {listed([namer.thing(x) for x in lands])}, rolling {_rolls(data.get('rolls'))}"
        lost = listed([namer.thing(x) for x in destroyed])
        said["struck"] = hit + (
            f": the armies in {lost} were lost" if destroyed else ": no army was lost"
        )
    else:
        said["struck"] = ", but no land was hit"
    said["buildings"] = listed([str(b) for b in data.get("buildings") or []]) or "nothing"


def _card_words_of(data: Mapping[str, Any], namer: Namer, said: dict[str, str]) -> None:
    """Empire cards, slots, markers, totals and the ranking."""
    said["card_words"] = _card_words(data, namer)
    slot = data.get("slot")
    said["slot_words"] = (
        f"the {ORDINAL_SLOTS[slot]} Empire of the Epoch"
        if isinstance(slot, int) and 0 <= slot < len(ORDINAL_SLOTS)
        else "in the Epoch"
    )
    said["markers"] = listed([str(m) for m in data.get("markers") or []])
    if "points" in data and isinstance(data["points"], list):
        markers = data.get("markers") or [0] * len(data["points"])
        said["totals"] = listed(
            [
                f"{namer.seat(s)} {p} ({m} from Pre-eminence markers)"
                for s, (p, m) in enumerate(zip(data["points"], markers, strict=False))
            ]
        )
    if "ranking" in data:
        said["ranking"] = ranked(data["ranking"], namer)
    if "given" not in said and "from_seat" in data:
        giver, taker = data["from_seat"], data.get("to_seat")
        card = namer.thing(data.get("card"))
        said["given"] = (
            f"{namer.seat(giver)} kept the Empire card {card}."
            if giver == taker
            else f"{namer.seat(giver)} gave an Empire card to {namer.seat(taker)}."
            if card in ("", "none")
            else f"{namer.seat(giver)} gave the Empire card {card} to {namer.seat(taker)}."
        )


def seat_name(seat: Any, namer: Namer) -> str:
    return namer.seat(seat)


def _rolls(rolls: Any) -> str:
    if not isinstance(rolls, list | tuple) or not rolls:
        return "no dice"
    return listed([dice(r) if isinstance(r, list | tuple) else str(r) for r in rolls])


TELLERS = sentence_tellers("ah2001", SENTENCES, fields)
