"""Who a token makes the caller: admin, a seat, or refused (401 unknown, 403 another game's)."""

from __future__ import annotations

import pytest

from service.access import Access, Forbidden, NotAuthenticated
from service.auth import game_named_by
from service.games import GameService
from store.credentials import TokenHashes
from store.errors import GameNotFound
from tests.support.toy import SealedBids


@pytest.fixture()
def service(store, vault) -> GameService:
    return GameService(store, vault, rulesets=lambda name: SealedBids())


@pytest.fixture()
def access(client) -> Access:
    return Access(TokenHashes(client))


def test_tokens_name_their_game_and_carry_at_least_128_random_bits(service):
    created = service.create_game("toy-sealed-bids", ["a", "b"])
    for token in (created.tokens.admin, *created.tokens.seats):
        assert game_named_by(token) == created.game_id
        random_part = token.rsplit(".", 1)[1]
        assert len(random_part) * 6 >= 128
    assert game_named_by("no-separator") is None


def test_each_token_makes_its_caller_and_no_token_a_spectator(service, access):
    created = service.create_game("toy-sealed-bids", ["a", "b", "c"])
    game_id = created.game_id
    assert access.identify(game_id, None).role == "spectator"
    assert access.identify(game_id, created.tokens.admin).is_admin
    assert [access.identify(game_id, t).seat for t in created.tokens.seats] == [0, 1, 2]
    assert access.seat(game_id, created.tokens.seats[2]).seat == 2
    assert access.admin(game_id, created.tokens.admin).viewer is None


def test_an_unknown_token_is_unauthenticated_and_another_games_is_forbidden(service, access):
    one = service.create_game("toy-sealed-bids", ["a", "b"])
    two = service.create_game("toy-sealed-bids", ["a", "b"])
    admin = one.tokens.admin
    altered = admin[:-1] + ("A" if admin[-1] != "A" else "B")
    with pytest.raises(NotAuthenticated):
        access.identify(one.game_id, altered)
    with pytest.raises(NotAuthenticated):
        access.identify(one.game_id, f"{two.game_id}.forged")
    with pytest.raises(Forbidden):
        access.identify(one.game_id, two.tokens.seats[0])
    with pytest.raises(Forbidden):
        access.seat(one.game_id, one.tokens.admin)
    with pytest.raises(Forbidden):
        access.admin(one.game_id, one.tokens.seats[0])
    with pytest.raises(NotAuthenticated):
        access.seat(one.game_id, None)
    with pytest.raises(GameNotFound):
        access.identify("no-such-game", None)
