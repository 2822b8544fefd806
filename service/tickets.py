"""Short-lived stream tickets: a seat follows its private feed from a browser's `EventSource`,
which cannot send an Authorization header, with a ticket in the URL instead of its token.

A ticket reads `<payload>.<signature>`: the payload names the game, the seat and the expiry
(base64url JSON), the signature is HMAC-SHA256 under a key derived from the game's secret seed
(`stream-ticket` as the message), so every API process can check it with nothing stored. Once the
seed is revealed at the end of the game every event is public anyway, so nothing a forged ticket
could open is secret then.

A ticket is used once: it opens one stream, within `TICKET_SECONDS` of its issue, and a second
opening of the same ticket is refused. What may follow is that stream's own EventSource
reconnecting to the same URL (with `Last-Event-ID`), for `RECONNECT_GRACE_SECONDS` after the
ticket's expiry, and only as that stream going on: from the client address that opened it,
resuming no earlier than the last event the ticket's stream sent, and in its place (the stream
it replaces ends at its next write), so that a ticket never follows two streams at once. Each
use is recorded in Redis under the ticket's hash (`TicketUses`) until the grace ends; so an
expired ticket, or a ticket's URL read from a log, reopens nothing from the start, for nobody
else, and never twice at once.

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
import contextlib
import hashlib
import hmac
import json
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import redis

from store.keys import PREFIX

T = TypeVar("T")

TICKET_SECONDS = 60
RECONNECT_GRACE_SECONDS = 3600
"""How long after its expiry a ticket still reopens its stream on a reconnect (a request with
`Last-Event-ID`, as a browser's EventSource sends when it reconnects to the same URL): the
stream a seat opened in time goes on across network drops (as `TicketUses` lets it), and a
token re-issued by the admin still ends it (the binding). A first opening needs a ticket that
has not expired, and has not been used."""


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


CLAIM = """
local key, mode, me, address, after, now, until_ = KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4],
  tonumber(ARGV[5]), tonumber(ARGV[6])
local function parts(id)
  local head, tail = string.match(id, '^(%d+)-?(%d*)$')
  return tonumber(head) or -1, tonumber(tail) or 0
end
local function before(a, b)
  local ah, at = parts(a)
  local bh, bt = parts(b)
  return ah < bh or (ah == bh and at < bt)
end
if redis.call('EXISTS', key) == 0 then
  if mode ~= 'fresh' then return 'unknown' end
  redis.call('HSET', key, 'holder', me, 'sent', after, 'address', address)
  redis.call('EXPIREAT', key, math.ceil(until_))
  return 'opened'
end
if ARGV[7] == '' then return 'used' end
if redis.call('HGET', key, 'address') ~= address then return 'elsewhere' end
if before(ARGV[7], redis.call('HGET', key, 'sent')) then return 'behind' end
redis.call('HSET', key, 'holder', me)
return 'reopened'
"""

SENT = """
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[1] then return 0 end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'sent', ARGV[2]) end
return 1
"""

REFUSALS = {
    "used": "this stream ticket has been used: ask for a new one",
    "unknown": "the stream ticket has expired: ask for a new one",
    "elsewhere": "the stream ticket was opened from another address: ask for a new one",
    "behind": "a reconnection with this stream ticket cannot go back before what its stream "
    "sent: ask for a new ticket",
}


class TicketUses:
    """Where each ticket's one stream is (see the module's text), in Redis: per ticket its
    holder (the stream now following it), the last id it sent, and the address that opened it,
    kept until the ticket's reconnection grace ends."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._claim = client.register_script(CLAIM)
        self._sent = client.register_script(SENT)

    @staticmethod
    def key_of(ticket: str) -> str:
        return f"{PREFIX}:ticket-use:{hashlib.sha256(ticket.encode()).hexdigest()[:32]}"

    def claim(
        self,
        ticket: str,
        expires_at: float,
        address: str,
        after: str,
        resume: str | None,
        now: float | None = None,
    ) -> str:
        """Let the stream of `ticket` (from `address`, starting after `after`) follow it: a
        first opening (`resume` None) of a ticket unused and not expired, or a reconnection
        resuming after `resume`. Its holder id, for `followed`; TicketRefused otherwise."""
        now = time.time() if now is None else now
        fresh = now <= expires_at
        holder = uuid.uuid4().hex
        answer = self._claim(
            keys=[self.key_of(ticket)],
            args=[
                "fresh" if fresh else "late",
                holder,
                address,
                after,
                now,
                expires_at + RECONNECT_GRACE_SECONDS,
                resume or "",
            ],
        )
        if answer not in ("opened", "reopened"):
            raise TicketRefused(REFUSALS[str(answer)])
        return holder

    def followed(
        self,
        ticket: str,
        holder: str,
        items: Iterator[T],
        id_of: Callable[[T], str | None],
        settled_of: Callable[[T], str | None] | None = None,
    ) -> Iterator[T]:
        """`items` while this stream holds its ticket: each id sent is recorded (a reconnection
        resumes no earlier); once a reconnection took the ticket over, this stream ends.

        An item may be a page of frames sent in one write (`id_of`: its last id; `settled_of`:
        the id before that one, which the page's earlier frames reach): one record per page,
        claiming the page's frames but its last, as a record per frame would by then."""
        key = self.key_of(ticket)
        sent = ""  # recorded once written: with the next item, or at the end
        try:
            for item in items:
                settled = (settled_of(item) if settled_of is not None else None) or sent
                if not self._sent(keys=[key], args=[holder, settled]):
                    return
                yield item
                sent = id_of(item) or settled
        finally:
            if sent:
                with contextlib.suppress(redis.exceptions.RedisError):  # the record lapses anyway
                    self._sent(keys=[key], args=[holder, sent])
