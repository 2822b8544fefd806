"""What of the data pack an event used, and whether the rulebook prints it or it is
reconstructed: the lands, waters, areas, tokens, cards and Honors its data names, and the
edition's numbers that decided it (the explain endpoint shows them beside the rules)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from domain.hotw.editions.hotw_2024.pack import HotwPack

NUMBERS_BY_EVENT: Mapping[str, tuple[str, ...]] = {
    "hotw.InvasionSucceeded": ("invasion_dice",),
    "hotw.InvasionFrustrated": ("invasion_dice",),
    "hotw.InvasionRepulsed": ("conquest",),
    "hotw.InvasionModifierSet": ("conquest",),
    "hotw.LandConquered": ("conquest",),
    "hotw.BuildingsPlundered": ("building_gold",),
    "hotw.GoldCollected": ("revenue", "building_gold"),
}
"""The edition's numbers (edition.yaml) each kind of event is decided by."""

LANDS = ("land", "lands", "source")
WATERS = ("water", "waters")
AREAS = ("area", "areas")
TOKENS = ("token", "tokens")
CARDS = ("card", "cards", "empire_cards", "event_cards")
HONORS = ("honor",)


def item(what: str, entry_id: str, name: str, provenance: str) -> dict[str, Any]:
    lowered = provenance.lower()
    return {
        "what": what,
        "id": entry_id,
        "name": name,
        "provenance": provenance,
        "printed": lowered.startswith("text"),
        "reconstructed": "reconstructed" in lowered,
    }


def ids_in(data: Mapping[str, Any], keys: tuple[str, ...]) -> Iterator[str]:
    for key in keys:
        value = data.get(key)
        if isinstance(value, str):
            yield value
        elif isinstance(value, list | tuple):
            yield from (v for v in value if isinstance(v, str))


def entries_used(pack: HotwPack, data: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    board, cards = pack.board, pack.cards
    for land in ids_in(data, LANDS):
        if land in board.lands:
            entry = board.lands[land]
            yield item("land", land, entry.name, entry.provenance)
    for water in ids_in(data, WATERS):
        if water in board.seas:
            sea = board.seas[water]
            yield item("water", water, sea.name, sea.provenance)
    for area in ids_in(data, AREAS):
        if area in board.areas:
            yield item("area", area, board.areas[area].name, board.areas[area].provenance)
    for token in ids_in(data, TOKENS):
        if token in board.paired_area_tokens:
            paired = board.paired_area_tokens[token]
            yield item("paired area token", token, token, paired.provenance)
        elif token in board.area_tokens:
            holder = board.areas[board.area_tokens[token].area]
            yield item("area token", token, token, holder.provenance)
    empires: dict[str, Any] = {card.id: card for card in cards.all_empires()}
    events: dict[str, Any] = {card.id: card for card in cards.all_events()}
    for card_id in ids_in(data, CARDS):
        if card_id in empires:
            yield item("empire card", card_id, empires[card_id].name, empires[card_id].provenance)
        elif card_id in events:
            yield item("event card", card_id, events[card_id].name, events[card_id].provenance)
    honors: dict[str, Any] = {honor.id: honor for honor in cards.honors}
    for honor_id in ids_in(data, HONORS):
        if honor_id in honors:
            yield item("honor", honor_id, honors[honor_id].name, honors[honor_id].provenance)


def numbers_used(pack: HotwPack, event_type: str) -> Iterator[dict[str, Any]]:
    edition = pack.edition
    for group in NUMBERS_BY_EVENT.get(event_type, ()):
        rule = edition.cites.get(group, "")
        provenance = f"{edition.provenance}; printed in {rule}" if rule else edition.provenance
        yield item("numbers", group, f"{edition.name} {group.replace('_', ' ')}", provenance) | {
            "rule": rule
        }


def provenance_of(pack: HotwPack, event_type: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each entry of the pack and each group of the edition's numbers the event used."""
    return [*entries_used(pack, data), *numbers_used(pack, event_type)]
