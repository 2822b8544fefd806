"""Who is calling: a game's admin, one of its seats, or a spectator (contracts §5).

The token decides the role; a seat acts only as itself, so no request names the seat it acts for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.auth import ADMIN, Credential, game_named_by, role_of, seat_role, token_hash
from store.credentials import TokenHashes
from store.errors import GameNotFound


class NotAuthenticated(Exception):
    """No token where one is needed, or a token nobody issued (401)."""


class Forbidden(Exception):
    """A valid token that may not do this (403)."""


@dataclass(frozen=True)
class Caller:
    """The role a request acts in. `seat` is None for the admin and for spectators."""

    role: str
    seat: int | None = None

    @property
    def is_admin(self) -> bool:
        return self.role == ADMIN

    @property
    def viewer(self) -> int | None:
        """Whose hidden information the caller may see: its own seat's, or nobody's."""
        return self.seat


SPECTATOR = Caller("spectator")


PlayerSeat = Callable[[str, str], int | None]
"""The seat a player's key holds in a game (None: none)."""


class Access:
    def __init__(self, tokens: TokenHashes, player_seat: PlayerSeat | None = None) -> None:
        self.tokens = tokens
        self.player_seat = player_seat

    def identify(self, game_id: str, token: str | None) -> Caller:
        """The caller a token makes (a spectator without one). Unknown tokens are refused."""
        hashes = self.tokens.of(game_id)
        if not hashes:
            raise GameNotFound(game_id)
        if token is None:
            return SPECTATOR
        role = role_of(token, hashes)
        if role is None and self.player_seat is not None:
            seat = self.player_seat(game_id, token)
            if seat is not None:
                return Caller("seat", seat)
        if role is None:
            other = game_named_by(token)
            if other and other != game_id and role_of(token, self.tokens.of(other)):
                raise Forbidden("this token belongs to another game")
            raise NotAuthenticated("unknown token")
        if role == ADMIN:
            return Caller(ADMIN)
        return Caller("seat", int(role.split(":", 1)[1]))

    def seat(self, game_id: str, token: str | None) -> Caller:
        """A caller that must be a seat of this game (to act or to list its actions)."""
        if token is None:
            raise NotAuthenticated("a seat token is required (Authorization: Bearer <token>)")
        caller = self.identify(game_id, token)
        if caller.seat is None:
            raise Forbidden("the admin token cannot act as a seat; use that seat's token")
        return caller

    def seat_to_confirm(self, game_id: str, token: str | None) -> tuple[Caller, Credential | None]:
        """A seat caller, found among the token hashes this process last read when the token
        is one of them (no read), and the credential that the write it makes must confirm
        (`EventStore.append(credential=...)`: refused there if the token has been re-issued).
        Whatever else the request answers (a refusal, a repeat) must `seat` the token afresh
        first. Read afresh, and refused as `seat` refuses, when the token is none of them. A
        player's key (issue 35) holds its seat through the table's seating, not a token hash:
        it has no credential for the append to confirm (None)."""
        if token is not None:
            remembered = self.tokens.remembered_of(game_id)
            role = role_of(token, remembered) if remembered else None
            if role is not None and role != ADMIN:
                return Caller("seat", int(role.split(":", 1)[1])), (role, token_hash(token))
        caller = self.seat(game_id, token)
        assert caller.seat is not None and token is not None
        hashes = self.tokens.remembered_of(game_id) or {}
        if role_of(token, hashes) is None:  # a player's key: its seat is the table's to check
            return caller, None
        return caller, (seat_role(caller.seat), token_hash(token))

    def forget(self, game_id: str) -> None:
        """Drop what this process remembers of the game's token hashes."""
        self.tokens.forget(game_id)

    def admin(self, game_id: str, token: str | None) -> Caller:
        """A caller that must be this game's admin."""
        if token is None:
            raise NotAuthenticated("the game's admin token is required")
        caller = self.identify(game_id, token)
        if not caller.is_admin:
            raise Forbidden("only the game's admin may do this")
        return caller
