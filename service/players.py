"""Players: their keys and stream tickets, their games and their notifications' stream."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

from domain.core.kernel import Game
from domain.core.ruleset import Ruleset
from domain.core.seated import is_over
from service import following, tickets
from service.auth import token_hash
from service.games import GameService
from service.queries import iso_time, seats_that_left_last
from service.settling import players_of, started
from store.errors import GameNotFound
from store.players import Player

PLAYER_KEY_PREFIX = "pk_"


def create_player(service: GameService, name: str) -> tuple[Player, str]:
    key = PLAYER_KEY_PREFIX + secrets.token_urlsafe(24)
    player = players_of(service).create(uuid.uuid4().hex, name, token_hash(key))
    return player, key


def player_by_key(service: GameService, key: str | None) -> Player | None:
    if not key or not key.startswith(PLAYER_KEY_PREFIX):
        return None
    return players_of(service).by_key_hash(token_hash(key))


def player_stream_ticket(service: GameService, player: Player) -> tuple[str, float]:
    """A short-lived ticket that opens `player`'s notification stream where no Authorization
    header can be sent (a browser's EventSource), and when it expires."""
    store = players_of(service)
    secret = store.ticket_secret(player.player_id, secrets.token_urlsafe(32))
    key_hash = store.key_hash(player.player_id)
    if secret is None or key_hash is None:
        raise tickets.TicketRefused("no such player")
    return tickets.issue_player(secret, player.player_id, key_hash)


def player_by_ticket(
    service: GameService, ticket: str, reconnect: bool
) -> tuple[Player, tickets.PlayerTicket]:
    """The player a stream ticket names (on a reconnect, one up to an hour past its expiry),
    and the ticket; TicketRefused when it names none, is forged or expired, or the player's key
    changed."""
    store = players_of(service)
    grace = tickets.RECONNECT_GRACE_SECONDS if reconnect else 0.0
    named = tickets.check_player(ticket, store.ticket_secret, grace_s=grace)
    player = store.get(named.player_id)
    if player is None or named.binding != tickets.binding(store.key_hash(named.player_id) or ""):
        raise tickets.TicketRefused("the stream ticket's player key has changed: ask again")
    return player, named


def seat_of_player(service: GameService, game_id: str, player_id: str) -> int | None:
    _, game = service.load(game_id)
    seating = game.seating
    if seating is None or player_id not in seating.holders:
        return None
    return seating.holders.index(player_id)


def my_games(
    service: GameService,
    player: Player,
    offset: int,
    limit: int,
    after: tuple[float, str] | None = None,
) -> dict[str, Any]:
    """The player's games, newest first, a page of its index (after the cursor `after`, else
    from `offset`; `next_after` is the next page's, None on the last), each told apart by its
    players (bots named as such), when it was created, its status and, once over, its ranking."""

    page = players_of(service).games(player.player_id, offset, limit, after)
    ids, total = page.ids, page.total
    listed = []
    for game_id in ids:
        try:
            rules, game = service.load(game_id)
            meta = service.store.meta(game_id)
        except GameNotFound:  # expired unstarted (workers.scheduling.UNSTARTED_TTL_S)
            continue
        seat = seat_of_player(service, game_id, player.player_id)
        awaited = sorted(rules.awaited_seats(game.state)) if started(game) else []
        players = players_named(game)
        listed.append(
            {
                "game_id": game_id,
                "ruleset": rules.name,
                "title": rules.title,
                "status": service.status_of(rules, game),
                "seat": seat,
                "players": players,
                "bots": [s for s in range(len(players)) if seat_is_a_bot(game, s)],
                "created_at": iso_time(meta.created_at),
                "awaits_you": seat is not None and seat in awaited and not is_over(rules, game),
                "version": game.version,
                "ranking": ranking_of(rules, game, players),
            }
        )
    return {
        "games": listed,
        "total": total,
        "offset": offset,
        "limit": limit,
        "next_after": page.after,
    }


def players_named(game: Game[Any]) -> list[str]:
    """Each seat's name: its player's once claimed, else the label it was created with."""
    labels = list(game.setup.players)
    if game.seating is None:
        return labels
    return [name or label for name, label in zip(game.seating.names, labels, strict=True)]


def seat_is_a_bot(game: Game[Any], seat: int) -> bool:
    """A bot took the seat when the table started: no person ever held it."""
    return game.seating is not None and seat in game.seating.seated_bots


def ranking_of(
    rules: Ruleset[Any], game: Game[Any], players: Sequence[str]
) -> list[dict[str, Any]] | None:
    """The places once the game is over (the seats that left ranked last), else None."""

    if not is_over(rules, game):
        return None
    try:
        ranking = list(rules.result(game.state)["ranking"])
    except NotImplementedError:
        return None
    if game.seating is not None:
        ranking = seats_that_left_last(ranking, game.seating)
    return [
        {"seat": e["seat"], "player": players[e["seat"]], "place": e["place"], "score": e["score"]}
        for e in ranking
    ]


def player_notifications(
    service: GameService, player: Player, after: str, follow: bool, heartbeat_s: float
) -> Iterator[tuple[str, str, str] | None]:
    """(id, kind, JSON body) of each notification after `after`, then (when `follow`) each new
    one as it comes; None between them every `heartbeat_s` (a keep-alive)."""
    store = players_of(service)
    last = after

    def read(wait_ms: float | None) -> list[tuple[str, str, str]]:
        nonlocal last
        page = store.inbox(player.player_id, last, None if wait_ms is None else int(wait_ms))
        if page:
            last = page[-1][0]
        return page

    def entries() -> Iterator[tuple[str, str, str] | None]:
        for page in following.followed(read, heartbeat_s, ended=lambda: not follow):
            if page is None:
                yield None
            else:
                yield from page

    return entries()


def player_seat_finder(service: GameService) -> Any:
    """For `Access`: the seat a player's key holds in a game."""

    def seat(game_id: str, key: str) -> int | None:
        player = player_by_key(service, key)
        return None if player is None else seat_of_player(service, game_id, player.player_id)

    return seat
