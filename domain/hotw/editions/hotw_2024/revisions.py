"""The revision numbers of the 2024 rules as Chronicle plays them: a game is decided, folded and
scored under the revision it was created with, forever (README: "Changing a rule"). A revision that
changed the data pack lists what the pack read before it in data/hotw-2024/revisions.yaml
(`EarlierValue`), which `Hotw2024.pack_at` gives back to older games."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from domain.core.ruleset import FIRST_REVISION, Revision
from domain.hotw.editions.hotw_2024.cards import Cards, EventCard

LIBERATE_UP_TO_TWO = 2
"""Liberate IV and V, like Liberate III, read "Choose up to two": the player may stop early.
(The revisions themselves, which name catalogue ids, are the registered class's: `REVISIONS`
in the package's __init__.py.)"""

REVISIONS = (
    FIRST_REVISION,
    Revision(
        LIBERATE_UP_TO_TWO,
        'Liberate reads alike in Epochs III, IV and V: "Choose up to two Enemy lands next to '
        'your Friendly lands": with Liberate IV and V too the player may stop after one land or '
        "none (`stop_choosing`), so no other player gains an Honor it did not choose to give "
        "(before, only Liberate III's effect carried the card's \"up to\").",
        ("hotw24.events.effects",),
    ),
)
"""The revisions of the 2024 rules as Chronicle plays them (README "Changing a rule")."""


EarlierField = bool | int | str | None


@dataclass(frozen=True)
class EarlierValue:
    """What one field of an Event card's effect read before `revision` changed it."""

    revision: int
    event: str
    effect: int
    """The effect's place on the card (0: the first)."""
    field: str
    value: EarlierField


def cards_at(cards: Cards, revision: int, earlier: tuple[EarlierValue, ...]) -> Cards:
    """The cards as a game of `revision` reads them: every change of a later revision undone."""
    undone = [e for e in earlier if e.revision > revision]
    if not undone:
        return cards
    by_epoch = {
        epoch: tuple(_card_before(card, undone) for card in events)
        for epoch, events in cards.events_by_epoch.items()
    }
    return replace(cards, events_by_epoch=by_epoch)


def _card_before(card: EventCard, undone: list[EarlierValue]) -> EventCard:
    changes = [e for e in undone if e.event == card.id]
    if not changes:
        return card
    effects = list(card.effects)
    for change in changes:
        fields: dict[str, Any] = {change.field: change.value}
        effects[change.effect] = replace(effects[change.effect], **fields)
    return replace(card, effects=tuple(effects))
