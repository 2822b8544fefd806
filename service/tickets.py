"""Short-lived stream tickets: a seat follows its private feed from a browser's `EventSource`,
which cannot send an Authorization header, with a ticket in the URL instead of its token.

A ticket reads `<payload>.<signature>`: the payload names the game, the seat and the expiry
(base64url JSON), the signature is HMAC-SHA256 under a key derived from the game's secret seed
(`stream-ticket` as the message), so every API process can check it with nothing stored. Once the
seed is revealed at the end of the game every event is public anyway, so nothing a forged ticket
could open is secret then.

A ticket opens a stream for `TICKET_SECONDS`; a reconnect (with `Last-Event-ID`) may reopen
it for `RECONNECT_GRACE_SECONDS` after that, so that an EventSource's automatic reconnection to
the same URL goes on.

A ticket is bound to the seat token it was issued for (the payload holds the first 16 hex digits
of that token's stored SHA-256, never the token): once the admin re-issues the seat's token, the
tickets of the old one open nothing either.

A player's ticket opens the player's notification stream (`GET /players/me/stream`): its payload
names the player (`p`) instead of a game and seat, it is signed under a key derived from a
secret of the player's own (kept beside the hash of its key, made at its first ticket), and it is
bound to the player's key as a seat's ticket is to its token. A game's ticket never opens a
player's stream, nor a player's a game's (each is checked against its own kind and key).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

TICKET_SECONDS = 60
RECONNECT_GRACE_SECONDS = 3600
"""How long after its expiry a ticket still reopens its stream on a reconnect (a request with
`Last-Event-ID`, as a browser's EventSource sends when it reconnects to the same URL): the
stream a seat opened in time goes on across network drops, and a token re-issued by the admin
still ends it (the binding). A first opening needs a ticket that has not expired."""


class TicketRefused(Exception):
    """The ticket is malformed, tampered with, expired, or for another game."""


@dataclass(frozen=True)
class Ticket:
    game_id: str
    seat: int
    expires_at: float
    binding: str = ""
    """`binding(token_hash)` of the seat token it was issued for."""


def binding(token_hash: str) -> str:
    """What a ticket holds of its seat token: a prefix of the token's stored hash."""
    return token_hash[:16]


def _key(seed: bytes) -> bytes:
    return hmac.new(seed, b"stream-ticket", hashlib.sha256).digest()


def _sign(seed: bytes, payload: str) -> str:
    return hmac.new(_key(seed), payload.encode(), hashlib.sha256).hexdigest()


def issue(
    seed: bytes, game_id: str, seat: int, token_hash: str = "", now: float | None = None
) -> tuple[str, float]:
    """A ticket for `seat` of `game_id` (bound to the seat token whose stored hash is
    `token_hash`), and when it expires (Unix seconds)."""
    expires_at = float(int((time.time() if now is None else now) + TICKET_SECONDS))
    body = json.dumps(
        {"g": game_id, "s": seat, "e": expires_at, "b": binding(token_hash)},
        separators=(",", ":"),
    )
    payload = base64.urlsafe_b64encode(body.encode()).decode().rstrip("=")
    return f"{payload}.{_sign(seed, payload)}", expires_at


def check(
    ticket: str,
    game_id: str,
    seed_of: Callable[[str], bytes],
    now: float | None = None,
    grace_s: float = 0.0,
) -> Ticket:
    """The seat a valid ticket of `game_id` names (`grace_s` past its expiry: a reconnect);
    TicketRefused otherwise."""
    payload, _, signature = ticket.partition(".")
    try:
        body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        named = Ticket(str(body["g"]), int(body["s"]), float(body["e"]), str(body.get("b", "")))
    except (ValueError, KeyError, TypeError) as exc:
        raise TicketRefused("the stream ticket is malformed") from exc
    if named.game_id != game_id:
        raise TicketRefused("the stream ticket is for another game")
    if not hmac.compare_digest(signature, _sign(seed_of(game_id), payload)):
        raise TicketRefused("the stream ticket's signature does not match")
    if (time.time() if now is None else now) > named.expires_at + grace_s:
        raise TicketRefused("the stream ticket has expired: ask for a new one")
    return named


@dataclass(frozen=True)
class PlayerTicket:
    player_id: str
    expires_at: float
    binding: str


def _player_key(secret: str) -> bytes:
    return hmac.new(secret.encode(), b"player-stream-ticket", hashlib.sha256).digest()


def _player_sign(secret: str, payload: str) -> str:
    return hmac.new(_player_key(secret), payload.encode(), hashlib.sha256).hexdigest()


def issue_player(
    secret: str, player_id: str, key_hash: str, now: float | None = None
) -> tuple[str, float]:
    """A ticket for the notification stream of `player_id` (bound to the player key whose stored
    hash is `key_hash`), and when it expires (Unix seconds)."""
    expires_at = float(int((time.time() if now is None else now) + TICKET_SECONDS))
    body = json.dumps(
        {"p": player_id, "e": expires_at, "b": binding(key_hash)}, separators=(",", ":")
    )
    payload = base64.urlsafe_b64encode(body.encode()).decode().rstrip("=")
    return f"{payload}.{_player_sign(secret, payload)}", expires_at


def check_player(
    ticket: str,
    secret_of: Callable[[str], str | None],
    now: float | None = None,
    grace_s: float = 0.0,
) -> PlayerTicket:
    """The player a valid player ticket names (`grace_s` past its expiry: a reconnect);
    TicketRefused otherwise (`secret_of`: the player's ticket secret, None for no player)."""
    payload, _, signature = ticket.partition(".")
    try:
        body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        named = PlayerTicket(str(body["p"]), float(body["e"]), str(body["b"]))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise TicketRefused("the stream ticket is malformed") from exc
    secret = secret_of(named.player_id)
    if secret is None or not hmac.compare_digest(signature, _player_sign(secret, payload)):
        raise TicketRefused("the stream ticket's signature does not match")
    if (time.time() if now is None else now) > named.expires_at + grace_s:
        raise TicketRefused("the stream ticket has expired: ask for a new one")
    return named
