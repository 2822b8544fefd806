"""Replay verification against snapshots, and the chance audit from a revealed seed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from domain.core.chance import Draw
from domain.core.kernel import SeedRevealed, replay
from domain.core.messages import Command, Recorded
from service.audit import SeedNotRevealed, audit_events
from service.codec import canonical_json, state_hash
from service.games import GameService
from service.loading import StateCache
from service.replays import verify_game
from tests.support.toy import SealedBids


@pytest.fixture()
def service(store, vault) -> GameService:
    return GameService(store, vault, rulesets=lambda name: SealedBids())


def play_out(service: GameService, game_id: str) -> None:
    rules = SealedBids()
    while True:
        _, game = service.load(game_id)
        if rules.is_over(game.state):
            return
        seat = min(rules.awaited_seats(game.state))
        service.handle(game_id, seat, next(iter(rules.legal_actions(game.state, seat))))


def test_verify_folds_every_event_and_agrees_with_honest_snapshots(service):
    created = service.create_game("toy-sealed-bids", ["a", "b", "c"], {"rounds": 3})
    service.handle(created.game_id, 0, Command.of("bid", chips=2))
    service.write_snapshot(created.game_id)
    play_out(service, created.game_id)
    service.write_snapshot(created.game_id)
    seen: list[tuple[int, int]] = []
    report = verify_game(
        service, created.game_id, progress=lambda done, total: seen.append((done, total))
    )
    assert report.ok
    assert report.snapshots_checked == 2
    assert report.events == service.store.version(created.game_id)
    assert seen[-1] == (report.events, report.events)


def test_verify_reports_the_first_snapshot_that_disagrees_with_the_replay(service, store):
    created = service.create_game("toy-sealed-bids", ["a", "b"], {"rounds": 2})
    service.handle(created.game_id, 0, Command.of("bid", chips=1))
    version = service.write_snapshot(created.game_id)
    snapshot = store.snapshot(created.game_id, version)
    body = json.loads(snapshot.state)
    body["state"]["chips"][0] = 99
    store.save_snapshot(created.game_id, version, canonical_json(body), state_hash(body))
    fresh = GameService(store, service.vault, rulesets=lambda n: SealedBids(), cache=StateCache())
    report = verify_game(fresh, created.game_id)
    assert not report.ok
    assert report.first_divergence.version == version
    assert report.first_divergence.snapshot_hash == state_hash(body)
    assert store.untrusted_snapshots(created.game_id) == {version}
    trusting = GameService(
        store, service.vault, rulesets=lambda n: SealedBids(), cache=StateCache()
    )
    _, loaded = trusting.load(created.game_id)
    assert loaded.state.chips[0] != 99, "the disagreeing snapshot is never loaded again"
    assert loaded == replay(SealedBids(), service.events(created.game_id))


def revealed_log(service: GameService, game_id: str) -> list[Recorded]:
    log = service.events(game_id)
    seed = service.vault.seed(game_id).hex()
    log.append(Recorded(log[-1].version + 1, SeedRevealed(rule="toy.end", seed=seed), "system"))
    return log


def test_the_audit_recomputes_every_outcome_from_the_revealed_seed(service):
    created = service.create_game("toy-sealed-bids", ["a", "b", "c"], {"rounds": 4})
    play_out(service, created.game_id)
    report = audit_events(created.game_id, revealed_log(service, created.game_id))
    assert report.commitment_verified
    assert report.outcomes_checked >= 2
    assert report.mismatches == ()
    assert report.clean


def test_the_audit_catches_a_tampered_outcome_and_names_its_version(service):
    created = service.create_game("toy-sealed-bids", ["a", "b", "c"], {"rounds": 2})
    play_out(service, created.game_id)
    log = revealed_log(service, created.game_id)
    index = next(i for i, r in enumerate(log) if r.event.draws)
    original = log[index].event.draws[0]
    forged = Draw(original.k, original.n, (original.result + 1) % original.n)
    log[index] = replace(
        log[index], event=replace(log[index].event, draws=(forged, *log[index].event.draws[1:]))
    )
    report = audit_events(created.game_id, log)
    assert not report.clean
    assert [(m.version, m.k, m.recorded) for m in report.mismatches] == [
        (log[index].version, original.k, forged.result)
    ]


def test_the_audit_refuses_to_run_before_the_seed_is_revealed(service):
    created = service.create_game("toy-sealed-bids", ["a", "b"])
    with pytest.raises(SeedNotRevealed):
        audit_events(created.game_id, service.events(created.game_id))


def test_a_wrong_revealed_seed_fails_the_commitment(service):
    created = service.create_game("toy-sealed-bids", ["a", "b"])
    log = service.events(created.game_id)
    log.append(
        Recorded(log[-1].version + 1, SeedRevealed(rule="toy.end", seed="00" * 32), "system")
    )
    assert not audit_events(created.game_id, log).commitment_verified
