"""`chronicle bench --quick --json`: one run of every measurement on this machine (its own
redis-server, a gunicorn-served API and an RQ worker). Speeds are never asserted here (they are
benchmarks, not timed tests); that every field is there and means what it says is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.measure import TARGETS, combined, summary, whole_answer
from cli.http import retry_wait

ROOT = Path(__file__).resolve().parents[2]
FIELDS = (
    "fold_events_per_s",
    "selfplay_4p_game_s",
    "redis_append_per_s",
    "api_single_client_cmds_per_s",
    "api_p50_ms",
    "api_p99_ms",
    "api_saturated_cmds_per_s",
    "api_floor_cmds_per_s",
    "api_saturated_vs_floor",
    "api_half_load_offered_cmds_per_s",
    "api_half_load_p99_ms",
    "state_at_version_ms",
    "redis_bytes_per_game",
)


@pytest.fixture(scope="module")
def bench() -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, "-m", "cli.main", "bench", "--quick", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result: dict[str, Any] = json.loads(run.stdout)
    return result


def test_bench_json_prints_every_field_the_issue_names_as_a_positive_number(bench):
    for field in FIELDS:
        assert isinstance(bench[field], int | float) and bench[field] > 0, field
    assert bench["api_p50_ms"] <= bench["api_p99_ms"]
    assert bench["api_half_load_p50_ms"] <= bench["api_half_load_p99_ms"]


def test_the_half_load_is_half_the_saturated_rate_measured_in_the_same_run(bench):
    assert bench["api_half_load_offered_cmds_per_s"] == pytest.approx(
        bench["api_saturated_cmds_per_s"] / 2, rel=0.01
    )
    assert bench["api_saturated_vs_floor"] == pytest.approx(
        bench["api_saturated_cmds_per_s"] / bench["api_floor_cmds_per_s"], abs=0.001
    )
    assert bench["ruleset"] == "hotw-2024"


def test_bench_judges_every_target_from_the_numbers_it_printed(bench):
    assert set(bench["targets"]) == set(TARGETS)
    for field, (op, bound) in TARGETS.items():
        met = bench[field] >= bound if op == ">=" else bench[field] <= bound
        assert bench["targets"][field] is met, field
    lines = bench["target_lines"]
    assert len(lines) == len(TARGETS)
    for line, field in zip(lines, TARGETS, strict=True):
        assert line.split()[:2] == ["met" if bench["targets"][field] else "MISSED", field]


def test_bench_refuses_a_ruleset_that_is_not_registered():
    run = subprocess.run(
        [sys.executable, "-m", "cli.main", "bench", "--ruleset", "chess", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "no ruleset 'chess'" in run.stderr
    assert "hotw-2024" in run.stderr


def test_bench_measures_a_durable_store_and_a_long_game_served_from_snapshots(bench):
    assert bench["redis_fsync"] == "always"
    assert bench["long_game_snapshots"] >= 1
    assert bench["long_game_events"] > 1000
    assert bench["api_single_client_commands"] > 100
    assert bench["machine"]["cpus"] >= 1


def test_bench_shows_where_a_commands_cpu_goes_and_the_floor_of_the_stack(bench):
    """The saturated run's CPU per command, process by process, beside the same clients
    against a bare Flask app doing one Lua append a command: the machine's ceiling for any
    Flask + gunicorn + redis-py service."""
    for name in ("api_saturated_cpu_ms_per_cmd", "api_floor_cpu_ms_per_cmd"):
        spent = bench[name]
        parts = {k: v for k, v in spent.items() if k != "total"}
        assert {"web", "redis", "clients"} <= set(parts), name
        assert all(v >= 0 for v in parts.values()) and spent["web"] > 0, name
        assert spent["total"] == pytest.approx(sum(parts.values()), abs=0.01), name
    assert "worker" in bench["api_saturated_cpu_ms_per_cmd"]
    assert bench["api_floor_cmds_per_s"] > 0


def test_cpu_a_command_is_judged_against_the_floors_without_the_load_generator(bench):
    served, floor = bench["api_saturated_cpu_ms_per_cmd"], bench["api_floor_cpu_ms_per_cmd"]
    ratio = (served["web"] + served["worker"] + served["redis"]) / (floor["web"] + floor["redis"])
    assert bench["api_cpu_vs_floor"] == pytest.approx(ratio, rel=0.01)
    line = next(x for x in bench["target_lines"] if "api_cpu_vs_floor" in x)
    assert line.startswith("met" if bench["targets"]["api_cpu_vs_floor"] else "MISSED")


def test_the_saturated_line_says_how_many_cpus_each_server_kept_busy_at_most_the_machines(bench):
    cpus = bench["machine"]["cpus"]
    for name in ("api_saturated_cpus_busy", "api_floor_cpus_busy"):
        assert 0 < bench[name] <= cpus * 1.05, name
    line = next(x for x in bench["target_lines"] if "api_saturated_vs_floor" in x)
    assert f"{bench['api_saturated_cpus_busy']:.2f} / {bench['api_floor_cpus_busy']:.2f}" in line


def test_a_target_whose_measurement_was_not_taken_is_not_judged() -> None:
    from bench.measure import target_lines, targets

    only_fold = {"fold_events_per_s": 200_000.0}
    assert targets(only_fold) == {"fold_events_per_s": True}
    assert len(target_lines({**only_fold, "targets": targets(only_fold)})) == 1


def test_turns_taken_in_alternation_count_as_one_run_their_commands_over_their_summed_time():
    first = summary([0.001, 0.003], elapsed=0.5)
    second = summary([0.002, 0.002, 0.010], elapsed=1.5)
    whole = combined([first, second])
    assert whole["commands"] == 5
    assert whole["cmds_per_s"] == pytest.approx(5 / 2.0)
    assert whole["p50_ms"] == pytest.approx(2.0)
    assert whole["p99_ms"] > 9.0


def test_an_answer_is_whole_only_once_its_body_has_arrived():
    buffer = bytearray(b'HTTP/1.1 201 CREATED\r\nContent-Length: 7\r\n\r\n{"a":')
    assert whole_answer(buffer) is None
    buffer += b"1}HTTP/1.1 409 CONFLICT\r\ncontent-length: 2\r\n\r\n{}"
    assert whole_answer(buffer) == (201, {"content-length": "7"}, b'{"a":1}')
    assert whole_answer(buffer) == (409, {"content-length": "2"}, b"{}")
    assert buffer == bytearray()


def test_an_answer_hands_on_its_retry_after_for_the_crowd_to_wait_out():
    buffer = bytearray(b"HTTP/1.1 429 TOO MANY REQUESTS\r\nRetry-After: 2\r\n")
    buffer += b"Content-Length: 2\r\n\r\n{}"
    status, headers, _ = whole_answer(buffer)
    assert retry_wait(status, headers, 0) == 2
