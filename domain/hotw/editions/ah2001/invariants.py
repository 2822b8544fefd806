"""What a position of the Avalon Hill 2001 rules must hold to be played from (a sandbox's loaded
position is refused when it does not; selfplay and the conformance kit check it after every
event): every card it names is a card of this revision's decks, every Empire card one of the
Statistics table's."""

from __future__ import annotations

from collections.abc import Iterator

from domain.hotw.editions.ah2001.model import Ah2001State
from domain.hotw.editions.ah2001.tables import Ah2001Tables


def invariant_failures(tables: Ah2001Tables, state: Ah2001State) -> list[str]:
    return list(unknown_cards(tables, state))


def unknown_cards(tables: Ah2001Tables, state: Ah2001State) -> Iterator[str]:
    """The cards named that the pack does not know at the game's revision, each in a sentence
    naming the card and where it is (ah2001.events.lesser-kinds: a card printed later is in
    no earlier revision's decks)."""
    known = tables.events_by_id
    for player in state.players:
        for where, cards in (("hand holds", player.hand), ("played", player.played_cards)):
            for card in dict.fromkeys(cards):
                if card not in known:
                    yield (
                        f"{player.name}'s {where} the Event card {card!r}, which the decks of "
                        f"revision {tables.revision} do not have"
                    )
    turn = state.turn
    while turn is not None:
        for card in (*turn.played, *([turn.pending] if turn.pending else [])):
            if card not in known:
                yield f"the turn plays the Event card {card!r}, which the decks do not have"
        if turn.empire not in tables.empires_by_id:
            yield f"the turn is of the Empire {turn.empire!r}, which no Empire card shows"
        turn = turn.outer
    empire_cards = {e.card for e in tables.empires}
    drawing = state.drawing
    named = [*state.holders]
    if drawing is not None:
        named += [*drawing.deck, *drawing.holders, *([drawing.drawn] if drawing.drawn else [])]
    for card in dict.fromkeys(named):
        if card not in empire_cards:
            yield f"the Empire card {card!r} is not one of the Statistics table's"
