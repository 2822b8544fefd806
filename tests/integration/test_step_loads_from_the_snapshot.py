"""The command that makes a step due (an epoch close) leaves a snapshot of its state there, and
the worker that takes the step loads that snapshot instead of folding every event since it last
saw the game; on a real redis-server."""

from __future__ import annotations

import random
import uuid

from domain.core.kernel import replay
from domain.core.messages import Command
from service.games import GameService
from service.jobs import QueueScheduler
from service.loading import TAIL_CHEAPER_THAN_SNAPSHOT, StateCache
from service.rulesets import ruleset
from service.wiring import InlineScheduler
from tests.support.toy import SealedBidsClosedBySystem

RULES = SealedBidsClosedBySystem()


def service(store, vault, scheduler=None) -> GameService:
    plain = GameService(store, vault, rulesets=lambda name: RULES, cache=StateCache())
    return plain if scheduler is None else plain.scheduled(scheduler, 0)


def bid_round(web: GameService, game_id: str) -> None:
    for seat in (0, 1):
        web.play(game_id, seat, Command.of("bid", chips=0))


def reads_of(store) -> list[tuple[int, int | None]]:
    """Record where each read of the events starts and ends, passing it on to the store."""
    started: list[tuple[int, int | None]] = []
    read = store.read

    def recording(game_id, from_version=1, to_version=None, *args, **kwargs):
        started.append((from_version, to_version))
        return read(game_id, from_version, to_version, *args, **kwargs)

    store.read = recording
    return started


def test_the_seat_whose_command_makes_the_round_close_due_leaves_a_snapshot_there(
    store, vault, redis_url
):
    web = service(store, vault, QueueScheduler(redis_url, f"q-{uuid.uuid4().hex[:8]}", 0))
    created = web.create_game(RULES.name, ["a", "b"], {"rounds": 3})
    bid_round(web, created.game_id)
    due_at = store.version(created.game_id)
    assert web.system_step_due(created.game_id)
    assert store.snapshot_versions(created.game_id) == [due_at]
    _, game = service(store, vault).load_at(created.game_id, due_at)
    assert game == replay(RULES, web.events(created.game_id))


def first_epoch_close_due(store, vault, redis_url):
    """A hotw-2024 game played by its seats up to its first epoch close, with a worker that last
    saw it at its start; the rules, the API's service, the worker's, the game, and the versions
    the worker holds and the close is due at."""
    rules = ruleset("hotw-2024")
    scheduler = QueueScheduler(redis_url, f"q-{uuid.uuid4().hex[:8]}", 0)
    web = GameService(store, vault, cache=StateCache()).scheduled(scheduler, 0)
    game_id = web.create_game(rules.name, ["ann", "bob", "cy"], seed=b"s" * 32).game_id
    worker = GameService(store, vault, cache=StateCache())
    worker.run_system_steps(game_id)
    choose = random.Random(7)
    while (game := web.load(game_id)[1]) and rules.system_action(game.state) is None:
        seat = min(rules.awaited_seats(game.state))
        web.play(game_id, seat, choose.choice(list(rules.legal_actions(game.state, seat))))
    held, due_at = worker.cache.get(game_id).version, store.version(game_id)
    assert due_at > held + TAIL_CHEAPER_THAN_SNAPSHOT
    return rules, web, worker, game_id, held, due_at


def test_a_worker_that_last_saw_the_game_at_its_start_loads_the_snapshot_to_close_the_epoch(
    store, vault, redis_url
):
    rules, web, worker, game_id, _, due_at = first_epoch_close_due(store, vault, redis_url)
    assert store.snapshot_versions(game_id) == [due_at]
    reads = reads_of(worker.store)
    assert worker.run_system_steps(game_id) >= 1
    assert reads[0][0] == due_at + 1, "read only what follows the snapshot"
    assert worker.cache.get(game_id) == replay(rules, web.events(game_id))
    assert store.snapshot_versions(game_id) == [due_at], "one snapshot for the close, not two"


def test_the_worker_finds_where_the_snapshot_is_once_for_the_close(store, vault, redis_url):
    _, _, worker, game_id, _, _ = first_epoch_close_due(store, vault, redis_url)
    asked: list[str] = []
    for name in ("newest_snapshot_version", "untrusted_snapshots", "snapshot"):
        read = getattr(worker.store, name)

        def counted(*args, _read=read, _name=name, **kwargs):
            asked.append(_name)
            return _read(*args, **kwargs)

        setattr(worker.store, name, counted)
    assert worker.run_system_steps(game_id) >= 1
    assert asked == ["newest_snapshot_version", "untrusted_snapshots", "snapshot"]


def test_a_snapshot_marked_untrusted_is_not_loaded_and_the_close_is_snapshotted_after_it(
    store, vault, redis_url
):
    rules, web, worker, game_id, held, due_at = first_epoch_close_due(store, vault, redis_url)
    store.mark_snapshot_untrusted(game_id, due_at)
    reads = reads_of(worker.store)
    assert worker.run_system_steps(game_id) >= 1
    assert reads[0][0] == held + 1, "the events since the worker last saw the game, folded"
    assert worker.cache.get(game_id) == replay(rules, web.events(game_id))
    assert store.snapshot_versions(game_id) == [due_at, store.version(game_id)]


def test_a_worker_a_few_events_behind_folds_them_instead_of_loading_a_snapshot(
    store, vault, redis_url
):
    web = service(store, vault, QueueScheduler(redis_url, f"q-{uuid.uuid4().hex[:8]}", 0))
    created = web.create_game(RULES.name, ["a", "b"], {"rounds": 3})
    worker = service(store, vault)
    bid_round(web, created.game_id)
    assert worker.run_system_steps(created.game_id) == 1
    held = worker.cache.get(created.game_id).version
    bid_round(web, created.game_id)
    reads = reads_of(worker.store)
    assert worker.run_system_steps(created.game_id) == 1
    assert reads[0][0] == held + 1
    assert worker.cache.get(created.game_id) == replay(RULES, web.events(created.game_id))


def test_a_round_closed_where_no_snapshot_was_left_is_snapshotted_after_the_close(store, vault):
    alone = service(store, vault, InlineScheduler(service(store, vault)))
    created = alone.create_game(RULES.name, ["a", "b"], {"rounds": 3})
    bid_round(alone, created.game_id)
    assert not alone.system_step_due(created.game_id)
    closed_at = store.version(created.game_id)
    assert store.snapshot_versions(created.game_id) == [closed_at]
    assert [r.event.type for r in alone.events(created.game_id, closed_at, closed_at)] == [
        "ToyRoundClosed"
    ]
