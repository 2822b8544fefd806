"""`chronicle soak`: the stack served with its default settings, bots on their player streams
with idle gaps, people at a human pace, spectators reconnecting with Last-Event-ID, webhooks to
a receiver on loopback; two minutes of it end with nothing cut, lost or answered 5xx.

Two minutes give the bots idle gaps of 12 s (past the 5 s socket timeout that cut player streams
in issue 47, which the soak found within seconds of an idle spell) and the spectators a drop every
20 s; the half-hour runs are `chronicle soak --minutes 30` (BENCHMARKS.md). That a stream held
idle past the heartbeat schedule stays up is tests/abuse/test_streams_stay_up.py's to prove."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cli.soak import StreamError, minutes_arg, ndjson_items, sse_items
from service.queries import HEARTBEAT_LINE, Frame, error_line, opening_line
from tests.support.http import REPO_ROOT

SOAK_MINUTES = 2


@pytest.mark.slow
def test_a_two_minute_soak_cuts_no_stream_answers_no_5xx_and_loses_no_command():
    run = subprocess.run(
        [sys.executable, "-m", "cli.main", "soak", "--minutes", str(SOAK_MINUTES), "--json"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=SOAK_MINUTES * 60 + 300,
    )
    report = json.loads(run.stdout)
    print("\n" + json.dumps({k: v for k, v in report.items() if k != "memory"}, indent=1))
    for row in report["memory"]:
        print(f"{row['process']}: {row['rss_start_kb']} -> {row['rss_end_kb']} KiB")
    assert report["stream_cuts"] == 0, report["cuts"]
    assert report["server_errors"] == 0, report["server_error_samples"]
    assert report["commands_lost"] == 0 and report["commands_twice"] == 0, report["lost_samples"]
    assert report["stream_events_lost"] == [] and report["stream_events_twice"] == []
    assert report["webhooks_missing"] == 0 and report["webhook_bad_signatures"] == 0
    assert report["actor_errors"] == []
    assert run.returncode == 0 and report["ok"] is True
    # what was soaked: commands acknowledged, streams resumed, heartbeats through idle gaps,
    # webhooks delivered, and every served process measured at both ends
    assert report["commands_acknowledged"] > 50
    assert report["reconnects"] > 0 and report["heartbeats"] > 0
    assert report["idle_gap_s"] > 2 * 5  # longer than the 5 s socket timeout that cut streams
    assert report["webhooks_delivered"] > 0
    measured = {row["process"] for row in report["memory"] if row["rss_end_kb"]}
    assert {"serve", "redis-server", "rq-worker", "gunicorn"} <= measured


def test_the_soak_reads_heartbeats_and_items_of_both_stream_formats():
    sse = [": stream of g", "id: 0", "", "id: 1", "event: GameCreated", 'data: {"a": 1}', ""]
    sse += [": keep-alive", ""]
    assert list(sse_items(iter(sse))) == [None, ("1", "GameCreated", '{"a": 1}'), None]
    lines = [opening_line("0").strip(), '{"id": "17-0", "kind": "your_turn", "game_id": "g"}']
    lines += [HEARTBEAT_LINE.strip(), ""]
    assert list(ndjson_items(iter(lines))) == [
        ("17-0", "your_turn", {"id": "17-0", "kind": "your_turn", "game_id": "g"}),
        None,
        None,
    ]
    with pytest.raises(StreamError):
        list(ndjson_items(iter([error_line('{"code": "store_unavailable"}', 1000).strip()])))
    failed = Frame.error('{"code": "store_unavailable"}', 1000).text
    with pytest.raises(StreamError):
        list(sse_items(iter(failed.split("\n"))))


def test_a_soak_is_bounded():
    assert minutes_arg("0.5") == 0.5
    for refused in ("0", "-1", "121"):
        with pytest.raises(Exception, match="between 0 and 120 minutes"):
            minutes_arg(refused)
