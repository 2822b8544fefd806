"""Tables of the toy ruleset opened and joined through `service.tables`, as the lobby does."""

from __future__ import annotations

from service import tables
from service.games import GameService
from service.tables import CreatedTable, Player
from tests.support.abuse import TOY


def joined_toy_table(
    service: GameService,
    creator: Player,
    joiner: Player,
    *,
    listing: str,
    seats: tuple[str, str] = ("A", "B"),
    rounds: int = 2,
) -> CreatedTable:
    """A two-seat table of the toy sealed bids (`rounds` rounds, no clock, a bot for a seat
    that times out) that `creator` opened holding seat 0 and `joiner` then took the other seat
    of (by its invitation when the table is private), so the game has started."""
    made = tables.create_table(
        service,
        TOY,
        list(seats),
        {"rounds": rounds},
        listing=listing,
        creator=creator,
        creator_seat=0,
        clock={"kind": "none"},
        on_timeout="bot",
    )
    tables.claim_seat(service, made.created.game_id, joiner, None, made.invitation)
    return made
