"""A whole 3-player Patchistory game over HTTP (`chronicle selfplay --via-api` against `chronicle
serve`: a greedy bot reading its seat's view, two random bots), then `chronicle audit --url`
and `chronicle replay --verify --url` on it, its result, its feed as another seat sees it (no
sealed choice, hand or Building Tile of another seat) and the picture of its table."""

from __future__ import annotations

import contextlib
import io
import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from cli.main import main
from tests.support.http import serving

SEATS = ["greedy", "random", "random"]


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(redis_url) as base:
        yield base


@pytest.fixture(scope="module")
def played(server: str) -> dict[str, Any]:
    out = io.StringIO()
    bots = [arg for name in SEATS for arg in ("--bot", name)]
    args = ["--via-api", server, "--ruleset", "patchistory", "--players", "3", "--games", "1"]
    with contextlib.redirect_stdout(out):
        code = main(["selfplay", *args, "--seed", "e2e-patch", *bots, "--json", "--quiet"])
    summary: dict[str, Any] = json.loads(out.getvalue())
    summary["exit_code"] = code
    return summary


def test_a_three_player_patchistory_game_plays_to_its_end_over_http(played, server):
    assert played["exit_code"] == 0, played["failures"]
    assert played["completed"] == 1 and played["failures"] == []
    assert played["ruleset"] == "patchistory"
    (game_id,) = played["game_ids"]
    summary = requests.get(f"{server}/games/{game_id}", timeout=10).json()
    assert summary["status"] == "finished"
    result = requests.get(f"{server}/games/{game_id}/result", timeout=10).json()
    assert len(result["scores"]) == 3
    first = [row["seat"] for row in result["ranking"] if row["place"] == 1]
    assert played["winners"] == [first]


def test_audit_and_replay_of_that_game_are_clean(played, server, capsys):
    (game_id,) = played["game_ids"]
    code = main(["audit", game_id, "--url", server, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["clean"] is True and report["mismatches"] == []
    assert report["outcomes_checked"] > 0
    (token,) = played["admin_tokens"]
    code = main(["replay", game_id, "--verify", "--url", server, "--token", token, "--json"])
    replayed = json.loads(capsys.readouterr().out)
    assert code == 0 and replayed["ok"] is True


def test_after_the_end_the_feed_is_an_open_book_of_every_sealed_choice_and_hand(played, server):
    """Before the end the conformance kit holds every sealed choice and hand hidden; once the
    game is finished and its seed revealed, everything reads in full (the service's rule)."""
    (game_id,) = played["game_ids"]
    events: list[dict[str, Any]] = []
    start: int | None = 1
    while start is not None:
        page = requests.get(
            f"{server}/games/{game_id}/events", params={"from": start, "limit": 500}, timeout=30
        ).json()
        events += page["events"]
        start = page["next"]
    secret = ("patchistory.VotesCommitted", "patchistory.ProsperityChosen")
    sealed = [e for e in events if e["type"] in secret]
    assert sealed and not any(e.get("redacted") for e in sealed)
    assert all("count" in e["data"] for e in sealed if e["type"] == "patchistory.VotesCommitted")
    dealt = [e for e in events if e["type"] == "patchistory.ProsperityDealt"]
    assert len(dealt) == 3 and all(len(e["data"]["hand"]) == 3 for e in dealt)


def test_the_table_picture_is_served(played, server):
    (game_id,) = played["game_ids"]
    answer = requests.get(f"{server}/games/{game_id}/board", timeout=10)
    assert answer.status_code == 200, answer.text[:300]
    root = ET.fromstring(answer.text)
    assert len(root.findall(".//{http://www.w3.org/2000/svg}g[@class='civ']")) == 3
