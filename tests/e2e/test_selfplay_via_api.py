"""`chronicle selfplay --via-api` against a real server (`chronicle serve`: gunicorn, and an RQ
worker that closes the epochs, on the session's redis-server), then `chronicle audit --url` and
`chronicle replay --url` on the game it played (the whole games of every ruleset under the
shipped limits are tests/e2e/test_polite_clients.py's)."""

from __future__ import annotations

import contextlib
import io
import json
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
    """One 3-player History of the World game, a greedy bot against two random ones."""
    out = io.StringIO()
    bots = [arg for name in SEATS for arg in ("--bot", name)]
    args = ["--via-api", server, "--players", "3", "--games", "1", "--seed", "e2e"]
    with contextlib.redirect_stdout(out):
        code = main(["selfplay", *args, *bots, "--json", "--quiet"])
    summary: dict[str, Any] = json.loads(out.getvalue())
    summary["exit_code"] = code
    return summary


def test_selfplay_via_the_api_completes_a_three_player_game_and_lists_its_id(played, server):
    assert played["exit_code"] == 0, played["failures"]
    assert played["completed"] == 1 and played["failures"] == []
    assert played["ruleset"] == "hotw-2024" and played["bots"] == SEATS
    (game_id,) = played["game_ids"]
    summary = requests.get(f"{server}/games/{game_id}", timeout=10).json()
    assert summary["status"] == "finished"
    assert summary["version"] == played["mean_events_per_game"]
    result = requests.get(f"{server}/games/{game_id}/result", timeout=10).json()
    first = [row["seat"] for row in result["ranking"] if row["place"] == 1]
    assert played["winners"] == [first]
    assert played["greedy_win_rate"] == (1.0 if 0 in first else 0.0)
    assert played["greedy_baseline"] == pytest.approx(1 / 3, abs=1e-3)


def test_audit_over_the_api_checks_every_outcome_of_that_game(played, server, capsys):
    (game_id,) = played["game_ids"]
    code = main(["audit", game_id, "--url", server, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["clean"] is True and report["mismatches"] == []
    assert report["outcomes_checked"] > 0


def test_replay_verify_over_the_api_runs_the_job_and_exits_zero(played, server, capsys):
    (game_id,) = played["game_ids"]
    (token,) = played["admin_tokens"]
    code = main(["replay", game_id, "--verify", "--url", server, "--token", token, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["ok"] is True and report["events"] == played["mean_events_per_game"]


def test_replay_export_over_the_api_downloads_the_page(played, server, tmp_path):
    (game_id,) = played["game_ids"]
    (token,) = played["admin_tokens"]
    target = tmp_path / "replay.html"
    code = main(["replay", game_id, "--export", str(target), "--url", server, "--token", token])
    assert code == 0
    page = target.read_text()
    assert page.startswith("<!DOCTYPE html>") and game_id in page


def test_replay_over_the_api_without_a_token_of_the_game_exits_two(played, server, capsys):
    (game_id,) = played["game_ids"]
    assert main(["replay", game_id, "--verify", "--url", server]) == 2
    assert main(["replay", game_id, "--verify", "--url", server, "--token", "nope"]) == 2
    assert "401" in capsys.readouterr().err


def test_audit_over_the_api_of_an_unknown_game_exits_two(server, capsys):
    assert main(["audit", "no-such-game", "--url", server]) == 2
    assert "404" in capsys.readouterr().err


def test_a_whole_simultaneous_empires_game_plays_over_the_api_and_audits_and_replays_clean(
    server, capsys
):
    """The simultaneous-empires variant (with Minor Empires dealt and Multiple Armies) through
    every HTTP layer: five seats, a greedy bot among random ones, then audit and replay-verify."""
    args = ["--via-api", server, "--ruleset", "hotw-ah2001", "--players", "5", "--games", "1"]
    args += ["--option", "simultaneous_empires=true", "--option", "minor_empires=true"]
    args += ["--option", "multiple_armies=true", "--bot", "greedy"]
    args += ["--bot", "random"] * 4
    assert main(["selfplay", *args, "--seed", "simultaneous", "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["completed"] == 1 and summary["failures"] == []
    (game_id,) = summary["game_ids"]
    (token,) = summary["admin_tokens"]
    events = requests.get(f"{server}/games/{game_id}/events?limit=500", timeout=10).json()
    kinds = {e["type"] for e in events["events"]}
    assert {"ah2001.EmpireParked", "ah2001.EmpireActivated", "ah2001.EmpireTerminated"} <= kinds
    assert main(["audit", game_id, "--url", server, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["clean"] is True
    code = main(["replay", game_id, "--verify", "--url", server, "--token", token, "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["ok"] is True


def test_a_whole_two_player_brief_history_game_plays_over_the_api_and_audits_and_replays_clean(
    server, capsys
):
    """brief-2009 through every HTTP layer: random seats to the end (sealed, simultaneous card
    choices; two players, two colours each), then the audit of every roll and shuffle and the
    replay-verify job. The 3-player Brief and the Avalon Hill edition with four seats play,
    audit and replay the same way under the default limits (tests/e2e/test_polite_clients.py)."""
    players = 2
    args = ["--via-api", server, "--ruleset", "brief-2009", "--players", str(players)]
    assert main(["selfplay", *args, "--games", "1", "--seed", "brief", "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["completed"] == 1 and summary["failures"] == []
    (game_id,) = summary["game_ids"]
    (token,) = summary["admin_tokens"]
    state = requests.get(f"{server}/games/{game_id}", timeout=10).json()
    assert (state["ruleset"], state["status"]) == ("brief-2009", "finished")
    result = requests.get(f"{server}/games/{game_id}/result", timeout=10).json()
    assert len(result["scores"]) == players and result["ranking"][0]["place"] == 1
    assert main(["audit", game_id, "--url", server, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["clean"] is True and report["outcomes_checked"] > 0
    code = main(["replay", game_id, "--verify", "--url", server, "--token", token, "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["ok"] is True
