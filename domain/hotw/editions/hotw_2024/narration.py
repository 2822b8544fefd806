"""History of the World's events in words: one sentence per event type, with seats named by their
players and lands, waters, areas, cards, honors and tokens by their names in the data pack, and
the dice rolled shown face by face. Types without a sentence here (or an event whose data does
not fit it) read generically (`domain.core.narration`).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from domain.core.narration import Namer, Teller, counted, listed, ranked
from domain.hotw.editions.hotw_2024.pack import HotwPack

PHASES = {
    "reveal": "Reveal the Empire card",
    "establish": "Establish the Empire",
    "expand": "Expand",
    "monuments": "Build monuments",
    "revenue": "Collect revenue",
    "conclude": "Conclude the turn",
}

SENTENCES: dict[str, str] = {
    "GoldChestsPlaced": "The gold chests were placed on the track in the order {order}.",
    "HonorStackShuffled": "{seat}'s Honor stack was shuffled.",
    "HonorTurnedUp": "{seat} turned up the Honor {honor}.",
    "CardsCountedOut": "The cards of Epoch {epoch} were counted out: Empires {empire_cards}; "
    "Events {event_cards}.",
    "EpochBegan": "Epoch {epoch} began.",
    "EpochEnded": "Epoch {epoch} ended.",
    "AreasActivated": "Epoch {epoch} activated {areas}.",
    "AreaTokenDrawn": "{seat} drew the Area token {token}.",
    "AreaTokensDrawn": "{seat} drew the Area tokens {tokens}.",
    "AreaTokenChosen": "{seat} kept the Area token {token}.",
    "AreaTokensPassed": "{from_seat} passed the Area tokens {tokens} to {to_seat}.",
    "PairedAreaTokenDrawn": "{seat} drew the Paired Area token {token}.",
    "EndgameTokenPlaced": "The Endgame token {token} of Epoch {epoch} was placed{face}.",
    "EndgameTokenRevealed": "The Endgame token of Epoch {epoch} was turned up: {token}.",
    "EventCardDealt": "{seat} was dealt the Event card {card}.",
    "EventCardsTaken": "{seat} took the Event cards {cards}.",
    "EventCardChosen": "{seat} kept an Event card: {card}.",
    "EventCardsPassed": "{from_seat} passed the Event cards {cards} to {to_seat}.",
    "EmpireCardsDisplayed": "The Empire cards of Epoch {epoch} were displayed: {cards}.",
    "EmpireCardChosen": "{seat} chose the Empire {card}.",
    "EmpireCardsTaken": "{seat} took the Empire cards {cards}.",
    "HiddenEmpireCardChosen": "{seat} secretly kept the Empire {card}.",
    "EmpireCardsPassed": "{from_seat} passed the Empire cards {cards} to {to_seat}.",
    "EmpireCardRevealed": "{seat}'s secret Empire is revealed: {card}.",
    "TurnBegan": "{seat} began a turn with the Empire {card}.",
    "TurnEnded": "{seat}'s turn with {card} ended.",
    "PhaseBegan": "{seat}'s turn: {phase}.",
    "EventRevealed": "{seat} revealed the Event card {card}.",
    "EventCarriedOut": "{seat} carried out the Event {card}.",
    "EventConcluded": "{seat}'s Event {card} is over.",
    "EventPoolFilled": "{seat}'s Event pool was filled: {pool_words}.",
    "EmpirePoolFilled": "{seat}'s Empire pool was filled: {pool_words}{wall}.",
    "PoolCleared": "{seat}'s unused pool went back: {pool_words}.",
    "StartLandChoiceOffered": "{seat} chooses where {card} starts.",
    "MonumentsDue": "{seat} may build {count_monuments}.",
    "MonumentsUnbuilt": "{seat} could not build {count_monuments}.",
    "AreaTokenPlayed": "{seat} played the Area token {token}.",
    "ArmiesLaidDown": "{seat}'s armies were laid down as garrisons in {lands}.",
    "FleetsRemoved": "{seat}'s fleets left {waters}.",
    "FleetPlaced": "{seat} placed a fleet in {water}{pool}.",
    "GreatWallFortPlaced": "{seat} placed a Great Wall fort in {land}.",
    "GreatWallFortsPooled": "{seat} took {count_forts} into the pool.",
    "GreatWallLimitReached": "{seat} reached the Great Wall's limit of {count_forts}.",
    "GreatWallFortRemoved": "{seat}'s Great Wall fort in {land} was removed.",
    "ArmyPlaced": "{side} placed an army in {land}{pool}.",
    "GarrisonRemoved": "{owner}'s garrison was removed from {land}.",
    "GarrisonSurrendered": "The garrison in {land} surrendered to {side}.",
    "InvasionSucceeded": "{side} invaded {land}, held by {enemy}{pool}, and took it{roll}.",
    "InvasionFrustrated": "{side} invaded {land}, held by {enemy}{pool}, and the invasion"
    " was frustrated{roll}.",
    "InvasionRepulsed": "The invasion of {land} (held by {enemy}) by {side} was repulsed{roll}"
    "{modifier_words}.",
    "InvasionModifierSet": "{seat}'s Invasion modifier for {land} is now +{modifier}.",
    "InvasionModifierRemoved": "{seat}'s Invasion modifier for {land} was removed.",
    "ConquestPointsAwarded": "{side} earned {points_words} in {land} against {enemy}.",
    "LandConquered": "{side} conquered {land} from {enemy} for {cost_words}.",
    "ConquestEnded": "{seat} ended the conquest with {unspent_words} unspent.",
    "LeaderUsed": "{seat} used the Leader{ignores}.",
    "LeaderRemoved": "{seat}'s Leader was removed.",
    "BuildingPlaced": "A {building} was built in {land}.",
    "BuildingNotPlaced": "No {building} could be built in {land}.",
    "BuildingRemoved": "The {building} in {land} was removed.",
    "BuildingReduced": "The {removed} in {land} was reduced{city}.",
    "BuildingTaken": "{seat} took the {building} in {land}{city}.",
    "BuildingsPlundered": "{side} plundered the buildings of {land} for {gold} gold.",
    "BuildingSupplyExhausted": "{seat} has no {building} left to build in {land}.",
    "FortBuilt": "{seat} built a fort in {land}.",
    "GoldCollected": "{seat} collected {amount} gold{reason}.",
    "GoldLost": "{seat} lost {amount} gold.",
    "PeopleRecruited": "{seat} recruited {count_people}.",
    "AreaChosen": "{seat} chose the area {area}.",
    "LandChosen": "{seat} chose {land}.",
    "WaterChosen": "{seat} chose {water}.",
    "EffectCompleted": "{seat} completed an effect{lands_in}.",
    "EffectsEnded": "{seat}'s effects of {source_id} ended.",
    "HonorAwarded": "{seat} was awarded the Honor {honor}.",
    "HonorPlayed": "{seat} played the Honor {honor}{how}.",
    "EndgameBegan": "The Endgame began, in the order {order}.",
    "GameEnded": "The game ended. Gold: {gold}. Ranking: {ranking}.",
}


def dice(value: Any) -> str:
    """Faces rolled, as `[5, 4]` reads: `5 and 4` (with `no dice` for none)."""
    if not isinstance(value, list | tuple) or not value:
        return "no dice"
    return listed([str(v) for v in value])


class _Fields(dict[str, str]):
    """The values a sentence fills in; unknown fields raise KeyError (the generic form then)."""


def _fields(data: Mapping[str, Any], namer: Namer) -> _Fields:
    fields = _Fields({key: namer.field(key, value) for key, value in data.items()})
    if "seat" in data:  # the Empire in play, unless an Event card's pieces act
        seat = data["seat"]
        fields["side"] = namer.seat(seat) if data.get("pool") == "event" else namer.side(seat)
    for key in ("empire_dice", "enemy_dice"):
        if key in data:
            fields[key] = dice(data[key])
    if data.get("empire_dice") or data.get("enemy_dice"):
        fields["roll"] = (
            f": the Empire rolled {dice(data.get('empire_dice'))} against the Enemy's"
            f" {dice(data.get('enemy_dice'))}"
        )
    else:
        fields["roll"] = " (without dice)"
    pool = data.get("pool")
    fields["pool"] = f" (from the {pool.title()} pool)" if pool in ("event", "empire") else ""
    fields["pool_words"] = f"{counted(data.get('people', 0), 'person', 'people')}, " + counted(
        data.get("fleets", 0), "fleet"
    )
    fields["count_monuments"] = counted(data.get("count", 0), "monument")
    fields["count_people"] = counted(data.get("count", 0), "person", "people")
    fields["count_forts"] = counted(data.get("count", 0), "Great Wall fort")
    fields["unspent_words"] = counted(data.get("unspent", 0), "point")
    fields["points_words"] = counted(data.get("points", 0), "conquest point")
    fields["cost_words"] = counted(data.get("cost", 0), "conquest point")
    modifier = data.get("modifier")
    fields["modifier_words"] = f" (the Invasion modifier +{modifier})" if modifier else ""
    fields["face"] = " face up" if data.get("face_up") else " face down"
    gw = data.get("great_wall_forts")
    fields["wall"] = f", {gw} Great Wall forts" if gw else ""
    fields["phase"] = PHASES.get(str(data.get("phase")), str(data.get("phase")))
    ignores = data.get("ignores")
    fields["ignores"] = f" (ignoring {namer.thing(ignores)})" if ignores else ""
    fields["city"] = ", leaving a city" if data.get("city_added") else ""
    reason = str(data.get("reason") or "")
    fields["reason"] = f" ({namer.thing(reason.split(':')[-1])})" if reason else ""
    lands = data.get("lands")
    fields["lands_in"] = f" in {namer.thing(lands)}" if lands else ""
    endgame = " in the Endgame" if data.get("endgame") else ""
    fields["how"] = (" for its effect" if data.get("for_effect") else "") + endgame
    ranking = data.get("ranking")
    if isinstance(ranking, list):
        fields["ranking"] = ranked(ranking, namer)
    gold = data.get("gold")
    if isinstance(gold, list):
        fields["gold"] = listed([f"{namer.seat(i)} {g}" for i, g in enumerate(gold)])
    return fields


def _teller(template: str) -> Teller:
    keys = {name for _, name, _, _ in string.Formatter().parse(template) if name}

    def tell(event: Mapping[str, Any], namer: Namer) -> str:
        data = event.get("data")
        if not isinstance(data, Mapping):
            raise ValueError("no data")
        fields = _fields(data, namer)
        missing = keys - set(fields)
        if missing:
            raise KeyError(sorted(missing))
        return template.format_map(fields)

    return tell


TELLERS: dict[str, Teller] = {f"hotw.{kind}": _teller(text) for kind, text in SENTENCES.items()}


def names_of(pack: HotwPack) -> dict[str, str]:
    """Every id of the pack that commands and events name, with the name people read."""
    board = pack.board
    names: dict[str, str] = {}
    names.update({area.id: area.name for area in board.areas.values()})
    for area in board.areas.values():
        for number, token in enumerate(area.area_tokens, start=1):
            names[token] = f"{area.name} {number}"
    for paired in board.paired_area_tokens.values():
        names[paired.id] = " + ".join(board.areas[a].name for a in paired.areas)
    names.update({land.id: land.name for land in board.lands.values()})
    names.update({water.id: water.name for water in board.seas.values()})
    names.update({waste.id: waste.name for waste in board.wastelands.values()})
    names.update({card.id: card.name for card in pack.cards.all_empires()})
    names.update({card.id: card.name for card in pack.cards.all_events()})
    names.update({honor.id: honor.name for honor in pack.cards.honors})
    return names


def card_texts(pack: HotwPack, names: Mapping[str, str]) -> dict[str, str]:
    """Each Empire card, Event card and Honor in a line: what a hand shows."""
    texts: dict[str, str] = {}
    roman = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}
    for card in pack.cards.all_empires():
        parts = []
        for spec in card.empires:
            lands = listed([names.get(land, land) for land in spec.start_lands]) or "a land chosen"
            line = f"{spec.name}: {spec.people} people, starts in {lands}"
            if spec.fleets:
                line += f", {spec.fleets} fleet{'s' if spec.fleets > 1 else ''}"
            if spec.power_icon is not None:
                line += f", {spec.power_icon.value} icon"
            parts.append(line)
        texts[card.id] = f"Empire of Epoch {roman.get(card.epoch, card.epoch)}. " + "; ".join(parts)
    for event in pack.cards.all_events():
        text = event.text or (
            f"an Empire-like card: {event.pieces.people} people"
            if event.pieces is not None
            else str(event.kind.value).replace("_", " ")
        )
        texts[event.id] = f"Event of Epoch {roman.get(event.epoch, event.epoch)}: {text}"
    for honor in pack.cards.honors:
        texts[honor.id] = f"Honor: {honor.text}"
    return texts


def empire_card_brief(pack: HotwPack, names: Mapping[str, str], card_id: str) -> str:
    """What an Empire card brings, for the button that chooses it: `4 people, starts in Tigris`
    (each Empire of a card with two, by its name)."""
    card = next((c for c in pack.cards.all_empires() if c.id == card_id), None)
    if card is None:
        return ""
    parts = []
    for spec in card.empires:
        lands = listed([names.get(land, land) for land in spec.start_lands]) or "a land chosen"
        line = f"{spec.people} people, starts in {lands}"
        if spec.fleets:
            line += f", {spec.fleets} fleet{'s' if spec.fleets > 1 else ''}"
        parts.append(line if len(card.empires) == 1 else f"{spec.name}: {line}")
    return "; ".join(parts)
