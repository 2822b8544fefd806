"""The exported HTML replay, opened from disk in headless Chromium, shows the right state at
every version it is stepped to."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from service.games import GameService
from service.replay_html import export_html
from service.rulesets import ruleset
from tests.support.browser import chromium_binary, dump_dom, screenshot

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PIECE = re.compile(
    r'<g class="land-pieces" data-land="([^"]+)" data-owner="([^"]*)" data-kind="([^"]*)" '
    r'data-buildings="([^"]*)"'
)
GOLD = re.compile(r'<span id="gold-(\d+)" data-gold="(\d+)"')


@pytest.fixture(scope="module")
def chromium() -> str:
    return chromium_binary()


@pytest.fixture()
def finished_game(store, vault):
    service = GameService(store, vault)
    created = service.create_game("hotw-2024", ["ann", "bob", "cy"], seed=b"r" * 32)
    rules, rng = ruleset("hotw-2024"), random.Random(11)
    while True:
        service.run_system_steps(created.game_id)
        _, game = service.load(created.game_id)
        if rules.is_over(game.state):
            return service, created.game_id
        seat = min(rules.awaited_seats(game.state))
        service.handle(
            created.game_id, seat, rng.choice(list(rules.legal_actions(game.state, seat)))
        )


def expected_at(service: GameService, game_id: str, version: int):
    rules, game = service.load_at(game_id, version)
    view = rules.view(game.state, None)
    pieces = {
        land: (
            "" if v["owner"] is None else str(v["owner"]),
            "" if v["owner"] is None else ("army" if v["army"] else "garrison"),
            " ".join(v["buildings"]),
        )
        for land, v in view["lands"].items()
    }
    gold = {seat: p["gold"] for seat, p in enumerate(view["players"])}
    return pieces, gold


def shown(dom: str):
    pieces = {land: (owner, kind, buildings) for land, owner, kind, buildings in PIECE.findall(dom)}
    gold = {int(seat): int(amount) for seat, amount in GOLD.findall(dom)}
    version = int(re.search(r'<span id="version">(\d+)</span>', dom).group(1))
    return version, pieces, gold


def test_the_replay_page_shows_the_board_and_gold_of_every_version_it_is_stepped_to(
    finished_game, chromium, tmp_path
):
    service, game_id = finished_game
    total = service.store.version(game_id)
    page = export_html(service, game_id, tmp_path / "replay.html")
    url = page.as_uri()
    for fragment, version in [
        ("v=40", 40),
        (f"v={total // 2}", total // 2),
        ("v=300&next=3", 303),
        ("v=300&prev=2", 298),
        ("", total),
    ]:
        dom = dump_dom(chromium, f"{url}#{fragment}")
        at, pieces, gold = shown(dom)
        assert at == version
        want_pieces, want_gold = expected_at(service, game_id, version)
        assert pieces == want_pieces, f"board at version {version}"
        assert gold == want_gold, f"gold at version {version}"
        assert f"{service.events(game_id, version, version)[0].event.rule}" in dom
    assert len(pieces) > 10, "a finished game has pieces on the map"
    picture = screenshot(chromium, f"{url}#v={total}", ARTIFACTS / "replay.png")
    assert picture.stat().st_size > 10_000


def test_the_replay_file_needs_no_server_and_hides_what_spectators_may_not_see(
    finished_game, tmp_path
):
    service, game_id = finished_game
    text = export_html(service, game_id, tmp_path / "replay.html").read_text()
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in text
    private = [r for r in service.events(game_id) if not r.event.visibility.is_public]
    assert private, "a hotw game has hidden information"
    hidden_tokens = {
        token
        for r in private
        for key in ("token", "tokens", "card")
        for token in (
            [r.event.data()[key]]
            if isinstance(r.event.data().get(key), str)
            else r.event.data().get(key) or []
        )
        if key in r.event.data()
    }
    seen_public = str([r.seen_by(None) for r in service.events(game_id)])
    for token in hidden_tokens - {t for t in hidden_tokens if f"'{t}'" in seen_public}:
        assert f'"{token}"' not in text, f"{token} is hidden but the replay shows it"
