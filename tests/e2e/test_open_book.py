"""Hidden information after the end: once a game is finished and its seed revealed, every event
(secret choices, private draws and shuffles included) reads in full to everyone, and anyone can
re-verify every draw from the public export, without a token. Before that, nothing changes."""

from __future__ import annotations

import json
import random

from domain.core.messages import Command
from service.audit import EventsHidden, audit_export
from service.wiring import game_service
from tests.support.api import bearer, create_toy, play_one, play_to_the_end, sse_frames


def sealed_bids(events: list[dict]) -> list[dict]:
    return [e for e in events if e["type"] == "ToyBidSealed"]


def test_before_the_end_a_spectator_sees_sealed_bids_redacted_and_no_position(api):
    game = create_toy(api, players=3)
    play_one(api, game, random.Random(1))
    feed = api.get(f"/games/{game['game_id']}/events").get_json()["events"]
    (bid,) = sealed_bids(feed)
    assert bid["redacted"] is True and "chips" not in bid["data"]
    assert api.get(f"/games/{game['game_id']}/position").status_code == 409
    with_export = api.get(f"/games/{game['game_id']}/export").get_data(as_text=True)
    lines = [json.loads(line) for line in with_export.splitlines()]
    try:
        audit_export(game["game_id"], lines)
    except EventsHidden:
        pass
    else:
        raise AssertionError("an export with hidden events cannot be audited as whole")


def test_after_the_end_a_spectator_reads_every_sealed_bid_in_full_everywhere(api):
    game = create_toy(api, players=3)
    play_to_the_end(api, game, random.Random(2))
    game_id = game["game_id"]
    summary = api.get(f"/games/{game_id}").get_json()
    assert summary["status"] == "finished" and summary["seed_revealed"] is True
    feed = api.get(f"/games/{game_id}/events?limit=500").get_json()["events"]
    bids = sealed_bids(feed)
    assert len(bids) >= 3
    assert all("chips" in b["data"] and not b.get("redacted") for b in bids)
    export = api.get(f"/games/{game_id}/export").get_data(as_text=True)
    exported = [json.loads(line) for line in export.splitlines()]
    assert sealed_bids(exported) == bids
    explained = api.get(f"/games/{game_id}/events/{bids[0]['version']}/explain").get_json()
    assert explained["redacted"] is False and "chips" in explained["inputs"]["data"]
    response = api.get(f"/games/{game_id}/stream", buffered=False)
    frames = [f for f in sse_frames(response.response) if f.is_event]
    response.close()
    streamed = [f.data for f in frames if f.event == "ToyBidSealed"]
    assert streamed == bids
    seat = api.get(f"/games/{game_id}/events?limit=500", headers=bearer(game["seat_tokens"][1]))
    assert sealed_bids(seat.get_json()["events"]) == bids, "a seat reads the others' bids too"
    position = api.get(f"/games/{game_id}/position?at={bids[0]['version']}")
    assert position.status_code == 200, position.get_json()
    assert position.get_json()["state"]["sealed"], "the sealed bid in the whole position"


def play_hotw_to_the_end(service, game_id: str, rng: random.Random) -> None:
    rules = service.ruleset_of(game_id)
    for _ in range(20_000):
        service.run_system_steps(game_id)
        _, game = service.load(game_id)
        if rules.is_over(game.state):
            return
        seat = rng.choice(sorted(rules.awaited_seats(game.state)))
        command: Command = rng.choice(list(rules.legal_actions(game.state, seat)))
        service.handle(game_id, seat, command)
    raise AssertionError("the game did not end")


def test_after_the_end_anyone_re_verifies_the_draws_of_private_events_without_a_token(
    api, redis_url
):
    created = api.post("/games", json={"ruleset": "hotw-2024", "players": ["a", "b", "c"]})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["game_id"]
    service = game_service(redis_url)
    play_hotw_to_the_end(service, game_id, random.Random(3))
    export = api.get(f"/games/{game_id}/export").get_data(as_text=True)
    lines = [json.loads(line) for line in export.splitlines()]
    private_draws = [
        draw
        for line in lines
        if line["visibility"]["scope"] == "private"
        for draw in line.get("draws", [])
    ]
    assert private_draws, "the game drew chance in private events, now readable to anyone"
    assert not any(line.get("redacted") for line in lines)
    report = audit_export(game_id, lines)
    assert report.clean and report.commitment_verified
    assert report.outcomes_checked == sum(len(line.get("draws", [])) for line in lines)
    server = api.get(f"/games/{game_id}/audit").get_json()
    assert server["outcomes_checked"] == report.outcomes_checked, "nothing left out of the export"
    k, n, result = private_draws[0]
    tampered = [
        {
            **line,
            "draws": [
                [k, n, (result + 1) % n] if d == [k, n, result] else d for d in line["draws"]
            ],
        }
        if line.get("draws")
        else line
        for line in lines
    ]
    mismatched = audit_export(game_id, tampered)
    assert not mismatched.clean and [m.k for m in mismatched.mismatches] == [k]
