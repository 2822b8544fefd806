"""Commit–reveal (contracts §4): the seed is published once, when the game ends (or earlier on
the admin's order), and then every recorded outcome re-verifies."""

from __future__ import annotations

import random

import pytest

from domain.core.kernel import SeedRevealed
from service.audit import audit_events
from service.chance import commitment
from service.games import GameService
from service.rulesets import ruleset
from tests.support.toy import SealedBids


@pytest.fixture()
def toy_service(store, vault) -> GameService:
    return GameService(store, vault, rulesets=lambda name: SealedBids())


def play_toy_to_the_end(service: GameService, game_id: str) -> None:
    rules = SealedBids()
    while True:
        _, game = service.load(game_id)
        if rules.is_over(game.state):
            return
        seat = min(rules.awaited_seats(game.state))
        service.handle(game_id, seat, list(rules.legal_actions(game.state, seat))[-1])


def test_the_seed_is_revealed_once_when_the_game_ends_and_not_before(toy_service, vault):
    created = toy_service.create_game("toy-sealed-bids", ["a", "b", "c"], {"rounds": 2})
    seed = vault.seed(created.game_id).hex()
    play_toy_to_the_end(toy_service, created.game_id)
    log = toy_service.events(created.game_id)
    reveals = [r for r in log if isinstance(r.event, SeedRevealed)]
    assert [r.version for r in reveals] == [log[-1].version]
    assert reveals[0].event.seed == seed and reveals[0].event.early is False
    assert all(seed not in str(r.as_dict()) for r in log[:-1])
    assert toy_service.reveal_seed(created.game_id) is None, "never twice"
    assert toy_service.store.meta(created.game_id).status == "finished"


def test_the_admin_may_reveal_the_seed_early_and_the_log_says_so(toy_service):
    created = toy_service.create_game("toy-sealed-bids", ["a", "b"])
    outcome = toy_service.reveal_seed(created.game_id, early=True)
    assert outcome is not None and outcome.events[0].event.early is True
    play_toy_to_the_end(toy_service, created.game_id)
    log = toy_service.events(created.game_id)
    assert sum(isinstance(r.event, SeedRevealed) for r in log) == 1
    assert audit_events(created.game_id, log).clean


def test_a_whole_hotw_game_ends_with_its_seed_revealed_and_a_clean_audit(store, vault):
    service = GameService(store, vault)
    created = service.create_game("hotw-2024", ["ann", "bob", "cy"], seed=b"q" * 32)
    rules, rng = ruleset("hotw-2024"), random.Random(7)
    while True:
        service.run_system_steps(created.game_id)
        _, game = service.load(created.game_id)
        if rules.is_over(game.state):
            break
        seat = min(rules.awaited_seats(game.state))
        service.handle(
            created.game_id, seat, rng.choice(list(rules.legal_actions(game.state, seat)))
        )
    report = audit_events(created.game_id, service.events(created.game_id))
    assert report.seed == (b"q" * 32).hex()
    assert report.seed_commitment == commitment(b"q" * 32)
    assert report.clean
    assert report.outcomes_checked > 100


def test_a_history_of_the_world_seed_is_revealed_citing_the_chance_procedure(store, vault):
    """The seed's reveal is the table's chance procedure (hotw24.table.chance), not the rule
    that decides the winner."""
    service = GameService(store, vault, rulesets=ruleset)
    created = service.create_game("hotw-2024", ["a", "b", "c"], {})
    outcome = service.reveal_seed(created.game_id, early=True)
    assert outcome is not None
    (revealed,) = [r for r in service.events(created.game_id) if isinstance(r.event, SeedRevealed)]
    assert revealed.event.rule == "hotw24.table.chance"
    assert revealed.event.early is True
