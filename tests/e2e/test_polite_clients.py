"""Our own clients are polite: against `chronicle serve` with its default rate limits (the
suite switches them off everywhere else), `chronicle selfplay --via-api` plays a whole game of
every ruleset to the end, waiting out each 429's `Retry-After`, and `chronicle audit --url` and
`chronicle replay --verify --url` find each game clean (the suite's whole games of selfplay over
the API, but for the variant with more options and a greedy bot and a 2-player Brief, in
tests/e2e/test_selfplay_via_api.py); and a request refused by the real server's limiter is sent
again only once the delay it announced has passed."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from cli.http import polite_session
from cli.main import main
from tests.support.http import REPO_ROOT, serving

GAMES = [
    ("hotw-2024", 3, []),
    ("hotw-ah2001", 4, []),
    ("hotw-ah2001", 5, ["--option", "simultaneous_empires=true"]),
    ("brief-2009", 3, []),
    ("patchistory", 3, []),
]
SELFPLAY = [sys.executable, "-m", "cli.main", "selfplay", "--games", "1", "--seed", "polite"]
SELFPLAY += ["--json", "--quiet", "--via-api"]


@pytest.fixture(scope="module")
def limited(redis_url: str) -> Iterator[str]:
    """A server with the limits it ships with (CHRONICLE_RATE_LIMITS on, no limit overridden)."""
    with serving(redis_url, CHRONICLE_RATE_LIMITS="on") as base:
        yield base


def test_selfplay_via_the_api_plays_every_ruleset_to_the_end_under_the_default_limits(
    limited, capsys
):
    """One `chronicle selfplay --via-api` process a ruleset, all at once from one address (as a
    bot operator runs them), so that together they meet the address's 100 requests a second
    even on a slow host; each plays its game to the end, waiting out what it is refused, and
    its game audits (every roll and draw) and replays (the replay-verify job) clean."""
    runs = [
        subprocess.Popen(
            [*SELFPLAY, limited, "--ruleset", ruleset, "--players", str(players), *options],
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for ruleset, players, options in GAMES
    ]
    outputs = [run.communicate(timeout=900) for run in runs]
    summaries = []
    for run, (out, err), (ruleset, _, _) in zip(runs, outputs, GAMES, strict=True):
        assert run.returncode == 0, (ruleset, out[-2000:], err[-2000:])
        summary = json.loads(out)
        assert summary["completed"] == 1 and summary["failures"] == [], summary
        (game_id,) = summary["game_ids"]
        state = requests.get(f"{limited}/games/{game_id}", timeout=10)
        assert (state.json()["ruleset"], state.json()["status"]) == (ruleset, "finished")
        audited_and_replayed(limited, game_id, summary["admin_tokens"][0], capsys)
        print(
            f"\n{ruleset}: {summary['mean_events_per_game']} events, {summary['seconds']} s, "
            f"waited out {summary['waited_out']}"
        )
        summaries.append(summary)
    refused = sum(n for s in summaries for n in s["waited_out"].values())
    assert refused > 0  # the limits were met, and the games still ended


def audited_and_replayed(server: str, game_id: str, admin_token: str, capsys: Any) -> None:
    capsys.readouterr()
    assert main(["audit", game_id, "--url", server, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["clean"] is True and report["outcomes_checked"] > 0, report
    verify = ["replay", game_id, "--verify", "--url", server, "--token", admin_token, "--json"]
    assert main(verify) == 0 and json.loads(capsys.readouterr().out)["ok"] is True


@pytest.fixture(scope="module")
def strict(redis_url: str) -> Iterator[str]:
    """The real limiter, made small enough that one client meets it at once: 3 requests a
    second from an address."""
    with serving(redis_url, CHRONICLE_RATE_LIMITS="on", CHRONICLE_LIMIT_ADDRESS="3/second") as base:
        yield base


def test_a_429_is_sent_again_only_after_the_retry_after_it_announced(strict, caplog):
    caplog.set_level(logging.INFO, logger="chronicle.client")
    rude = requests.Session()
    while rude.get(f"{strict}/rulesets", timeout=10).status_code != 429:
        pass  # the window filled
    session = polite_session()
    asked = time.monotonic()
    answer = session.get(f"{strict}/rulesets", timeout=10)
    took = time.monotonic() - asked
    assert answer.status_code == 200
    statuses = [step.status for step in answer.raw.retries.history]
    assert statuses and set(statuses) == {429}
    waits = [r.wait_s for r in caplog.records if r.name == "chronicle.client"]
    assert len(waits) == len(statuses) and min(waits) >= 1  # whole seconds, as the server says
    assert took >= sum(waits)
    print(f"\nrefused {len(statuses)} time(s), waited {waits} s, answered in {took:.2f} s")


def test_a_retry_after_past_the_longest_wait_is_handed_back_not_waited():
    """The day's quota answers with a Retry-After of hours: a client reports it at once."""
    from cli.http import MAX_WAIT_S, retry_wait

    assert retry_wait(429, {"Retry-After": str(int(MAX_WAIT_S) + 1)}, 0) is None
    assert retry_wait(429, {"Retry-After": "2"}, 0) == 2
    assert retry_wait(409, {"Retry-After": "1"}, 0) is None  # game_busy is the caller's to read


def test_a_503_without_retry_after_backs_off_doubling_with_jitter_and_then_gives_up():
    from cli.http import BACKOFF_MAX_S, BACKOFF_S, RETRIES, retry_wait

    for tries in range(RETRIES):
        doubled = min(BACKOFF_MAX_S, BACKOFF_S * 2**tries)
        waits = {retry_wait(503, {}, tries) for _ in range(20)}
        assert all(w is not None and doubled / 2 <= w <= doubled for w in waits), (tries, waits)
        assert len(waits) > 1  # drawn, not fixed
    assert retry_wait(503, {}, RETRIES) is None
