"""Quotas bound storage (issue 50, 6): from one address in 20 s, 30 games then 429, but 1,846
tables and 2,000 players (never expiring). Now tables count as the games they are, and players,
webhooks and invitations against a quota of their own (`CHRONICLE_LIMIT_STORE`, 30 a minute and
500 a day), each per client address; and a player nobody uses is forgotten after
`CHRONICLE_PLAYER_TTL_S`. Against `chronicle serve` with its default settings."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator

import pytest
import redis

from tests.support.abuse import error_body
from tests.support.public import request, served_in_public

TOY = "toy-sealed-bids"
PER_MINUTE = 30
"""The default quotas' first figure (games and tables; players, webhooks and invitations)."""
PUBLIC_RECEIVER = "https://93.184.215.14/hook"
"""A public address (never called here: nothing is notified)."""


@pytest.fixture(scope="module")
def base(redis_url: str) -> Iterator[str]:
    with served_in_public(redis_url) as served:
        yield served


class Answer:
    """A `requests`-like view of an answer, for `error_body`."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status_code = status
        self.headers = {"Content-Type": headers.get("content-type", ""), **headers}
        self.text = body.decode()


def player(base: str, source: str) -> tuple[str, dict[str, str]]:
    status, _, body = request(base, "POST", "/players", body={"name": "Ada"}, source=source)
    assert status == 201, body
    answer = json.loads(body)
    return answer["player_id"], {"Authorization": f"Bearer {answer['player_key']}"}


def until_refused(post: Callable[[], tuple[int, dict[str, str], bytes]]) -> int:
    """How many posts were stored before the first 429 (which must be the one error body)."""
    for stored in range(PER_MINUTE + 5):
        status, headers, body = post()
        if status == 429:
            refused = error_body(Answer(status, headers, body), 429, "rate_limited")
            assert int(headers["retry-after"]) >= 1, refused
            return stored
        assert status == 201, body
    raise AssertionError("never refused")


def test_players_past_the_quota_are_refused(base: str) -> None:
    made = until_refused(
        lambda: request(base, "POST", "/players", body={"name": "Bot"}, source="127.0.0.21")
    )
    assert made == PER_MINUTE


def test_tables_count_as_games_against_the_creation_quota(base: str) -> None:
    _, key = player(base, "127.0.0.22")
    table = {"ruleset": TOY, "players": ["North", "South"], "options": {"rounds": 1}}
    made = until_refused(
        lambda: request(base, "POST", "/tables", body=table, headers=key, source="127.0.0.23")
    )
    assert made == PER_MINUTE
    game = {"ruleset": TOY, "players": ["North", "South"]}
    status, _, _ = request(base, "POST", "/games", body=game, source="127.0.0.23")
    assert status == 429, "tables and games share the one quota"


def test_webhooks_past_the_quota_are_refused(base: str) -> None:
    _, key = player(base, "127.0.0.24")
    hook = {"url": PUBLIC_RECEIVER}
    made = until_refused(
        lambda: request(
            base, "POST", "/players/me/webhooks", body=hook, headers=key, source="127.0.0.25"
        )
    )
    assert made == PER_MINUTE


def test_invitations_past_the_quota_are_refused(base: str) -> None:
    _, creator = player(base, "127.0.0.26")
    invitee, _ = player(base, "127.0.0.26")
    table = {"ruleset": TOY, "players": ["North", "South"], "options": {"rounds": 1}}
    status, _, body = request(base, "POST", "/tables", body=table, headers=creator)
    assert status == 201, body
    path = f"/games/{json.loads(body)['game_id']}/invitations"
    made = until_refused(
        lambda: request(
            base, "POST", path, body={"player_id": invitee}, headers=creator, source="127.0.0.27"
        )
    )
    assert made == PER_MINUTE


def test_a_player_nobody_uses_is_forgotten_and_one_in_use_is_kept(redis_url: str) -> None:
    with served_in_public(redis_url, CHRONICLE_PLAYER_TTL_S="3") as served:
        idle_id, idle = player(served, "127.0.0.28")
        used_id, used = player(served, "127.0.0.28")
        hook = {"url": PUBLIC_RECEIVER}
        status, _, body = request(served, "POST", "/players/me/webhooks", body=hook, headers=idle)
        assert status == 201, body
        for _ in range(5):  # 5 s of use, past the 3 s expiry
            time.sleep(1.0)
            assert request(served, "GET", "/players/me", headers=used)[0] == 200
        time.sleep(0.5)
        status, _, body = request(served, "GET", "/players/me", headers=idle)
        assert status == 401, body
        assert request(served, "GET", "/players/me", headers=used)[0] == 200
        client = redis.Redis.from_url(redis_url)
        assert list(client.scan_iter(match=f"*{idle_id}*", count=1000)) == []
        assert list(client.scan_iter(match=f"*player:{{{used_id}}}", count=1000)) != []


def test_the_default_expiry_is_ninety_days() -> None:
    from store.players import PLAYER_TTL_S, player_ttl_s

    assert PLAYER_TTL_S == 90 * 24 * 3600 and player_ttl_s() == PLAYER_TTL_S
