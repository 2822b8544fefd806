"""Notifications are derived from the game's log (issue 35, durable notifications): what the
request sends right after an append is exactly what the worker's catch-up derives from the log
when that request never got to it, and a notification id reaches a player's inbox once however
often either runs."""

from __future__ import annotations

import json
import logging
import time

import pytest

from domain.core.errors import UnknownRuleset
from domain.core.messages import Command
from service import tables
from service.games import GameService
from store import keys
from store.players import NOTIFY_DUE, PlayerStore, player_key
from tests.support.open_tables import joined_toy_table
from tests.support.toy import SealedBids


@pytest.fixture()
def service(store, vault) -> GameService:
    rules = SealedBids()
    return GameService(store, vault, rulesets=lambda name: rules)


def inbox(service: GameService, player_id: str) -> list[tuple[str, str]]:
    """(kind, notification id) of each notification in the player's inbox, oldest first."""
    entries = PlayerStore(service.store.redis).inbox(player_id, "0", None, count=1000)
    return [(kind, json.loads(body).get("notification_id", "")) for _, kind, body in entries]


def a_played_table(service: GameService) -> tuple[str, str, str]:
    """Ada's public table, joined by Bob (it starts), then a round of bids that Ada wins (her
    turn again, to roll): (game, Ada, Bob)."""
    ada, _ = tables.create_player(service, "Ada")
    bob, _ = tables.create_player(service, "Bob")
    game_id = joined_toy_table(service, ada, bob, listing="public").created.game_id
    service.handle(game_id, 0, Command.of("bid", chips=2))
    service.handle(game_id, 1, Command.of("bid", chips=1))  # Ada wins the bids: her roll
    return game_id, ada.player_id, bob.player_id


def test_a_played_table_leaves_nothing_to_catch_up(service) -> None:
    game_id, ada, bob = a_played_table(service)
    store = PlayerStore(service.store.redis)
    assert store.notified_up_to(game_id) == service.store.version(game_id)
    assert service.store.redis.zscore(NOTIFY_DUE, game_id) is None
    assert [kind for kind, _ in inbox(service, ada)] == ["game_started", "your_turn", "your_turn"]
    assert [kind for kind, _ in inbox(service, bob)] == ["game_started", "your_turn"]
    ids = [n for p in (ada, bob) for _, n in inbox(service, p)]
    assert len(set(ids)) == len(ids) and all(n.startswith(f"{game_id}:") for n in ids)


def test_the_catch_up_derives_from_the_log_the_notifications_sent_as_it_was_played(
    service,
) -> None:
    game_id, ada, bob = a_played_table(service)
    sent = {p: inbox(service, p) for p in (ada, bob)}
    assert all(sent.values())
    client = service.store.redis
    for p in (ada, bob):  # as if no notification of this game had ever been written
        client.delete(*(player_key(p, part) for part in ("inbox", "delivered", "delivered-at")))
    client.hset(keys.meta(game_id), "notified", 0)
    derived = tables.catch_up_notifications(service, game_id)
    assert {p: inbox(service, p) for p in (ada, bob)} == sent
    assert derived >= sum(len(v) for v in sent.values())  # and the game's own webhooks' ones
    assert PlayerStore(client).notified_up_to(game_id) == service.store.version(game_id)


def test_a_catch_up_over_notifications_already_sent_sends_none_again(service) -> None:
    game_id, ada, bob = a_played_table(service)
    sent = {p: inbox(service, p) for p in (ada, bob)}
    service.store.redis.hset(keys.meta(game_id), "notified", 0)
    for _ in range(2):
        tables.catch_up_notifications(service, game_id)
    assert {p: inbox(service, p) for p in (ada, bob)} == sent


def test_the_catch_up_leaves_a_gone_game_and_a_game_marked_again_meanwhile(service) -> None:
    game_id, _, _ = a_played_table(service)
    store = PlayerStore(service.store.redis)
    mark = store.mark_unnotified(game_id, service.store.version(game_id))
    newer = store.mark_unnotified(game_id, service.store.version(game_id))  # another append
    assert newer != mark
    tables.catch_up_notifications(service, game_id, mark)
    assert store.notify_mark(game_id) == newer  # the later append's own settling removes it
    tables.catch_up_notifications(service, game_id, newer)
    assert store.notify_mark(game_id) is None
    store.mark_unnotified("no-such-game", 0)
    assert (
        tables.catch_up_notifications(service, "no-such-game", store.notify_mark("no-such-game"))
        == 0
    )
    assert store.notify_mark("no-such-game") is None
    assert not service.store.redis.exists(keys.meta("no-such-game"))


def test_a_game_of_a_ruleset_this_server_lacks_waits_on_the_list_without_a_traceback(
    service, store, vault, caplog
) -> None:
    game_id, _, _ = a_played_table(service)
    players = PlayerStore(service.store.redis)
    mark = players.mark_unnotified(game_id, service.store.version(game_id))
    service.store.redis.hset(keys.meta(game_id), "notified", 0)

    def no_ruleset(name: str) -> SealedBids:
        raise UnknownRuleset(name)

    elsewhere = GameService(store, vault, rulesets=no_ruleset)
    now = time.time()
    with caplog.at_level(logging.WARNING, logger="chronicle.tables"):
        assert tables.catch_up_or_wait(elsewhere, game_id, mark, now) == 0
    assert players.notify_mark(game_id) == str(float(f"{now + tables.UNKNOWN_RULESET_WAIT_S:.6f}"))
    assert [(r.getMessage(), r.exc_info) for r in caplog.records] == [
        (f"game {game_id}'s notifications wait 300 s: no ruleset named 'toy-sealed-bids'", None)
    ]
    waited = players.notify_mark(game_id)
    assert waited is not None
    assert tables.catch_up_or_wait(service, game_id, waited, now + 300) > 0  # a server with it
    assert players.notify_mark(game_id) is None
    assert players.notified_up_to(game_id) == service.store.version(game_id)
