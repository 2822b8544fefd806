"""Hidden information never leaks: no response shows another seat's sealed bid, nor the seed.

Two checks. A sweep plays random toy games and asks every endpoint, at every version, as every
seat, the admin and a spectator, then looks for sealed bids the caller may not see. A
non-interference check plays two games that differ only in one seat's sealed bid and requires
every other caller's responses to be identical.
"""

from __future__ import annotations

import json
import random
import re
from itertools import islice
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.games import GameService
from tests.support.api import bearer, create_toy, sse_frames, toy_bids_seen
from tests.support.toy import SealedBids


class Probe:
    """Asks the API as one caller and checks each answer for what that caller may not see."""

    def __init__(self, api, game: dict[str, Any], seed_hex: str, viewer: int | None, token):
        self.api = api
        self.game = game
        self.game_id = game["game_id"]
        self.seed_hex = seed_hex
        self.viewer = viewer
        self.headers = bearer(token)
        own = {token} if token else set()
        self.foreign_tokens = {game["admin_token"], *game["seat_tokens"]} - own
        self.answers = 0
        self.open_book = False
        """Set once the game is finished and its seed revealed: every event then reads in full."""

    def check_text(self, text: str) -> None:
        self.answers += 1
        published = re.sub(r'"seed":\s*"[0-9a-f]{64}"', "", text.lower())
        assert self.seed_hex not in published, "the seed leaked outside its SeedRevealed event"
        for token in self.foreign_tokens:
            assert token not in text, "another caller's token leaked"

    def check_body(self, body: Any) -> None:
        self.check_text(json.dumps(body))
        for bid in toy_bids_seen(body):
            data = bid["data"] if "data" in bid else bid["inputs"]["data"]  # event or explanation
            if self.open_book:
                assert "chips" in data and not bid.get("redacted"), "hidden after the end"
            elif data["seat"] != self.viewer:
                assert "chips" not in data, f"seat {data['seat']}'s bid shown to {self.viewer}"
                assert bid["redacted"] is True and "draws" not in bid
        views = [body.get("view")] if isinstance(body, dict) and "view" in body else []
        for view in views:
            allowed = set() if self.viewer is None else {str(self.viewer)}
            assert set(view["sealed"]) <= allowed, f"sealed bids {view['sealed']} shown"

    def get(self, url: str) -> Any:
        response = self.api.get(url, headers=self.headers)
        self.check_text(response.get_data(as_text=True))
        body = response.get_json(silent=True)
        if body is not None:
            self.check_body(body)
        return response

    def now(self) -> None:
        """Everything this caller can ask about the game as it stands."""
        self.get(f"/games/{self.game_id}")
        self.get(f"/games/{self.game_id}/state")
        self.get(f"/games/{self.game_id}/legal-actions")
        self.get(f"/games/{self.game_id}/events?limit=500")
        self.get(f"/games/{self.game_id}/result")
        self.get(f"/games/{self.game_id}/position")

    def history(self, version: int) -> None:
        """Everything this caller can ask about the past, once the game has ended (when every
        event reads in full to everyone)."""
        for at in range(1, version + 1):
            self.get(f"/games/{self.game_id}/state?at={at}")
            self.get(f"/games/{self.game_id}/events/{at}/explain")
        page = self.get(f"/games/{self.game_id}/events?from=1&limit=3").get_json()
        assert len(page["events"]) == 3
        export = self.get(f"/games/{self.game_id}/export").get_data(as_text=True)
        for line in export.splitlines():
            self.check_body(json.loads(line))
        response = self.api.get(
            f"/games/{self.game_id}/stream", headers=self.headers, buffered=False
        )
        frames = list(sse_frames(response.response))
        response.close()
        assert len([f for f in frames if f.is_event]) == version
        for frame in frames:
            self.check_body(frame.data)


def act(api, game, seat, body, probes) -> dict:
    response = api.post(
        f"/games/{game['game_id']}/commands", json=body, headers=bearer(game["seat_tokens"][seat])
    )
    probes[seat].check_text(response.get_data(as_text=True))
    probes[seat].check_body(response.get_json())
    return response


def test_no_endpoint_shows_another_seats_sealed_bid_or_the_seed(api, vault):
    rng = random.Random(2024)
    answers = 0
    for players in (2, 3, 4, 3):
        game = create_toy(api, players=players, rounds=2)
        seed_hex = vault.seed(game["game_id"]).hex()
        probes: dict[Any, Probe] = {
            seat: Probe(api, game, seed_hex, seat, token)
            for seat, token in enumerate(game["seat_tokens"])
        }
        probes["spectator"] = Probe(api, game, seed_hex, None, None)
        probes["admin"] = Probe(api, game, seed_hex, None, game["admin_token"])
        while True:
            summary = api.get(f"/games/{game['game_id']}").get_json()
            if summary["status"] == "finished":
                break
            for probe in probes.values():
                probe.now()
            seat = rng.choice(summary["awaiting"])
            legal = probes[seat].get(f"/games/{game['game_id']}/legal-actions").get_json()
            act(api, game, seat, rng.choice(legal["actions"]), probes)
            # refusals must not leak either: bidding again, or bidding what one does not have
            act(api, game, seat, {"command": {"type": "bid", "chips": 99}}, probes)
        for probe in probes.values():
            probe.open_book = True  # finished, its seed revealed: nothing is hidden any more
            probe.history(summary["version"])
            answers += probe.answers
    assert answers > 1000


def normalised(value: Any, game_id: str) -> Any:
    """A response with what legitimately differs between two games removed."""
    if isinstance(value, dict):
        return {
            k: normalised(v, game_id)
            for k, v in value.items()
            if k not in ("recorded_at", "command_id", "game_id", "created_at")
        }
    if isinstance(value, list):
        return [normalised(v, game_id) for v in value]
    if isinstance(value, str):
        return value.replace(game_id, "GAME")
    return value


def everything_seen(api, game: dict, token: str | None, version: int) -> list[Any]:
    headers = bearer(token)
    game_id = game["game_id"]
    urls = [f"/games/{game_id}", f"/games/{game_id}/events?limit=500", f"/games/{game_id}/result"]
    urls += [f"/games/{game_id}/state?at={v}" for v in range(1, version + 1)]
    urls += [f"/games/{game_id}/events/{v}/explain" for v in range(1, version + 1)]
    if token in game["seat_tokens"]:
        urls.append(f"/games/{game_id}/legal-actions")
    seen = [normalised(api.get(url, headers=headers).get_json(), game_id) for url in urls]
    export = api.get(f"/games/{game_id}/export", headers=headers).get_data(as_text=True)
    seen += [normalised(json.loads(line), game_id) for line in export.splitlines()]
    response = api.get(f"/games/{game_id}/stream", headers=headers, buffered=False)
    frames = list(islice((f for f in sse_frames(response.response) if f.is_event), version))
    response.close()
    seen += [(f.id, f.event, normalised(f.data, game_id)) for f in frames]
    return seen


@pytest.fixture()
def service(store, vault) -> GameService:
    return GameService(store, vault, rulesets=lambda name: SealedBids())


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    players=st.integers(2, 4),
    bids=st.lists(st.integers(0, 5), min_size=2, max_size=2, unique=True),
    seed=st.binary(min_size=32, max_size=32),
)
def test_what_others_see_does_not_depend_on_a_sealed_bid(api, service, players, bids, seed):
    """Seat 0 seals a different bid in each of two otherwise identical games; until the bids
    are revealed every other seat, the admin and spectators must see exactly the same."""
    worlds = []
    for chips in bids:
        created = service.create_game("toy-sealed-bids", ["p"] * players, {}, seed=seed)
        game = {
            "game_id": created.game_id,
            "admin_token": created.tokens.admin,
            "seat_tokens": list(created.tokens.seats),
        }
        response = api.post(
            f"/games/{game['game_id']}/commands",
            json={"command": {"type": "bid", "chips": chips}},
            headers=bearer(game["seat_tokens"][0]),
        )
        assert response.status_code == 201
        worlds.append(game)
    assert api.get(f"/games/{worlds[0]['game_id']}").get_json()["awaiting"] == list(
        range(1, players)
    )
    others = [None, "admin", *range(1, players)]
    for who in others:
        seen = []
        for game in worlds:
            token = game["admin_token"] if who == "admin" else None
            if isinstance(who, int):
                token = game["seat_tokens"][who]
            seen.append(everything_seen(api, game, token, 3))
        assert seen[0] == seen[1], f"caller {who} can tell the bids apart"
    mine = [everything_seen(api, game, game["seat_tokens"][0], 3) for game in worlds]
    assert mine[0] != mine[1], "the bidder itself does see its own bid"


def test_the_seed_hex_pattern_never_appears_in_a_created_games_documents(api, vault):
    game = create_toy(api, players=2)
    seed_hex = vault.seed(game["game_id"]).hex()
    assert re.fullmatch(r"[0-9a-f]{64}", seed_hex)
    for url in ("/openapi.yaml", "/docs", "/games?limit=200", f"/games/{game['game_id']}"):
        assert seed_hex not in api.get(url).get_data(as_text=True)
