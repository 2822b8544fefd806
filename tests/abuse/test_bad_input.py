"""Bad input over real HTTP (gunicorn, as `chronicle serve` runs it) and on the command line:
a body over the limit is a 413 with the one error body before anything is parsed, whether it
declares its length or comes in chunks; seats with one name are refused; `chronicle selfplay`
refuses a player count the ruleset does not allow as a usage error; `chronicle bench` prints a
breakdown instead of crashing on it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest
import requests

from api.app import MAX_BODY_BYTES
from cli.bench import report_lines
from tests.support.abuse import REPO_ROOT, TOY, Gunicorn, error_body, gunicorn


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[Gunicorn]:
    with gunicorn(redis_url, workers=1, threads=4) as running:
        yield running


def oversized_game() -> bytes:
    return json.dumps({"ruleset": TOY, "players": ["a" * (MAX_BODY_BYTES + 10)]}).encode()


def test_a_body_declared_over_the_limit_is_a_413_with_the_error_body_and_the_limit(server):
    response = requests.post(
        f"{server.base}/games",
        data=oversized_game(),
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    body = error_body(response, 413, "body_too_large")
    assert body["details"]["max_bytes"] == MAX_BODY_BYTES
    assert requests.get(f"{server.base}/healthz", timeout=10).status_code == 200


def test_a_chunked_body_that_runs_over_the_limit_is_a_413_not_a_truncated_400(server):
    whole = oversized_game()

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(whole), 256 * 1024):
            yield whole[start : start + 256 * 1024]

    response = requests.post(
        f"{server.base}/games",
        data=chunks(),
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    error_body(response, 413, "body_too_large")


@pytest.mark.parametrize(
    ("headers", "path", "status", "code"),
    [
        ({}, "/games?limit=" + "9" * 5000, 414, "uri_too_long"),
        ({f"X-Filler-{n}": "x" * 100 for n in range(120)}, "/games", 431, "headers_too_large"),
    ],
)
def test_a_request_too_long_to_read_is_refused_in_the_one_json_error_body(
    server, headers, path, status, code
):
    response = requests.get(f"{server.base}{path}", headers=headers, timeout=30)
    assert response.status_code == status
    assert response.headers["Content-Type"] == "application/json"
    assert response.json()["code"] == code and response.json()["message"]
    assert requests.get(f"{server.base}/healthz", timeout=10).status_code == 200


def test_a_chunked_body_under_the_limit_is_read_whole(server):
    whole = json.dumps({"ruleset": TOY, "players": ["ann", "bob", "cy"]}).encode()
    response = requests.post(
        f"{server.base}/games",
        data=iter([whole[:10], whole[10:]]),
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert response.status_code == 201, response.text[:300]


def test_a_large_body_on_a_route_that_takes_none_is_a_413_too(server):
    response = requests.get(f"{server.base}/rulesets", data=b"x" * (MAX_BODY_BYTES + 1), timeout=30)
    error_body(response, 413, "body_too_large")


@pytest.mark.parametrize("names", [["ann", "bob", "ann"], ["ann", "Bob", " bob "]])
def test_two_seats_with_one_name_are_refused_with_a_422_naming_the_field(server, names):
    response = requests.post(
        f"{server.base}/games", json={"ruleset": TOY, "players": names}, timeout=10
    )
    body = error_body(response, 422, "invalid_names")
    assert "players" in body["details"]["fields"]
    listed = requests.get(f"{server.base}/games?ruleset={TOY}&limit=1", timeout=10).json()
    assert not listed["games"] or listed["games"][0]["players"] != names, "nothing created"


def selfplay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "selfplay", "--quiet", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_selfplay_with_a_player_count_the_ruleset_does_not_allow_is_a_usage_error():
    run = selfplay("--players", "7", "--games", "1")
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert "invariant" not in run.stdout + run.stderr
    assert "--players 7" in run.stderr and "3–6" in run.stderr, run.stderr


def test_selfplay_of_an_unknown_ruleset_is_a_usage_error():
    run = selfplay("--ruleset", "no-such-game", "--games", "1")
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert "no-such-game" in run.stderr and "Traceback" not in run.stderr


def test_bench_without_json_prints_a_per_process_breakdown_on_one_line():
    from bench.measure import TARGETS

    results: dict[str, object] = {"machine": {"cpus": 2}, "ruleset": "hotw-2024"}
    results.update({key: 1.5 for key in TARGETS})
    results["targets"] = {key: True for key in TARGETS}
    results["target_lines"] = [f"met    {key}" for key in TARGETS]
    results["api_saturated_cpu_ms_per_cmd"] = {"web": 2.5, "worker": 0.4, "total": 2.9}
    lines = report_lines(results)
    # the ruleset, one line per target, a blank line, then one line per measurement
    assert lines[0] == "ruleset hotw-2024"
    assert lines[1 : 1 + len(TARGETS)] == results["target_lines"]
    assert len(lines) == 1 + len(TARGETS) + 1 + len(TARGETS) + 1
    (breakdown,) = [line for line in lines if "api_saturated_cpu_ms_per_cmd" in line]
    assert "web 2.5, worker 0.4, total 2.9" in breakdown
