"""What follows an append runs as the subscribers wired in service/subscribers.py, around the
store's append: each one's part before it sees the game not yet moved, its part after it sees
the events stored, a repeat of a command (its idempotency key's first answer) runs no part
after, and the game's creation is published too."""

from __future__ import annotations

from typing import Any

from domain.core.messages import Command
from service.bus import Change, CommandPlayed, GameCreated, Subscribers
from service.games import GameService
from service.settling import table_settling
from service.subscribers import ON_APPEND, SUBSCRIBERS, seed_reveal, status_index
from tests.support.toy import SealedBids


def recording(seen: list[tuple[Any, ...]]) -> Subscribers:
    def watch(service: Any, change: Change) -> Any:
        stored = service.store.version(change.game_id) if change.before is not None else 0
        seen.append(("before", change.after.version, stored))
        return lambda: seen.append(("after", service.store.version(change.game_id)))

    def published(service: Any, message: Any) -> None:
        seen.append((type(message).__name__, message.version))

    handlers = {GameCreated: (published,), CommandPlayed: (published,)}
    return Subscribers((*ON_APPEND, watch), {**SUBSCRIBERS.handlers, **handlers})


def test_every_append_runs_each_subscriber_before_and_after_it_and_a_repeat_runs_none_after(
    store, vault
):
    seen: list[tuple[Any, ...]] = []
    service = GameService(
        store, vault, rulesets=lambda name: SealedBids(), subscribers=recording(seen)
    )
    created = service.create_game("toy-sealed-bids", ["a", "b", "c"], {"rounds": 2})
    v = created.version
    assert seen == [("before", v, 0), ("after", v), ("GameCreated", v)]
    seen.clear()
    service.play(created.game_id, 0, Command.of("bid", chips=1), idempotency_key="once")
    assert seen == [("before", v + 1, v), ("after", v + 1), ("CommandPlayed", v + 1)]
    seen.clear()
    again = service.play(created.game_id, 0, Command.of("bid", chips=1), idempotency_key="once")
    assert again.duplicate and seen == []


def test_the_wiring_runs_the_status_index_then_the_table_then_the_seed_reveal():
    assert (status_index, table_settling, seed_reveal) == ON_APPEND
    assert GameService.__init__.__defaults__ is not None
    assert SUBSCRIBERS in GameService.__init__.__defaults__
