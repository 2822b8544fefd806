"""`chronicle replay GAME --verify/--export` and `chronicle audit GAME` against real Redis."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from domain.core.messages import Command
from service.codec import canonical_json, state_hash
from service.wiring import game_service
from tests.support.toy import SealedBids


@pytest.fixture()
def finished_toy(redis_url):
    service = game_service(redis_url)
    created = service.create_game("toy-sealed-bids", ["a", "b", "c"], {"rounds": 3})
    rules = SealedBids()
    service.handle(created.game_id, 0, Command.of("bid", chips=2))
    service.write_snapshot(created.game_id)
    while True:
        _, game = service.load(created.game_id)
        if rules.is_over(game.state):
            return service, created.game_id
        seat = min(rules.awaited_seats(game.state))
        service.handle(created.game_id, seat, list(rules.legal_actions(game.state, seat))[-1])


def test_replay_verify_exits_zero_on_a_sound_game(finished_toy, redis_url, capsys):
    _, game_id = finished_toy
    code = main(["replay", game_id, "--verify", "--json", "--quiet", "--redis-url", redis_url])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["ok"] is True and report["snapshots_checked"] == 1


def test_replay_verify_exits_nonzero_and_names_the_first_divergence(
    finished_toy, redis_url, capsys
):
    service, game_id = finished_toy
    snapshot = service.store.snapshot(game_id, 3)
    body = json.loads(snapshot.state)
    body["state"]["chips"][1] = 42
    service.store.save_snapshot(game_id, 3, canonical_json(body), state_hash(body))
    code = main(["replay", game_id, "--verify", "--quiet", "--redis-url", redis_url])
    out = capsys.readouterr().out
    assert code == 1
    assert "DIVERGENCE at version 3" in out


def test_replay_export_writes_a_self_contained_page(finished_toy, redis_url, tmp_path, capsys):
    _, game_id = finished_toy
    target = tmp_path / "replay.html"
    code = main(["replay", game_id, "--export", str(target), "--quiet", "--redis-url", redis_url])
    assert code == 0
    assert target.read_text().startswith("<!DOCTYPE html>")


def test_audit_reports_the_outcomes_checked_and_exits_zero_when_clean(
    finished_toy, redis_url, capsys
):
    _, game_id = finished_toy
    code = main(["audit", game_id, "--json", "--redis-url", redis_url])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["outcomes_checked"] >= 2 and report["mismatches"] == []


def test_audit_of_an_unknown_game_or_an_unrevealed_seed_exits_two(redis_url, capsys):
    assert main(["audit", "no-such-game", "--redis-url", redis_url]) == 2
    service = game_service(redis_url)
    created = service.create_game("toy-sealed-bids", ["a", "b"])
    assert main(["audit", created.game_id, "--redis-url", redis_url]) == 2
    assert "not revealed" in capsys.readouterr().err
