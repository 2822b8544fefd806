"""A person alone plays a real ruleset against bots from the lobby to the end, by clicking
only (issue 35, "done when"): headless Chromium, on `chronicle serve` (gunicorn and its RQ
worker, where the greedy bots play), clicks "Play against bots" for Brief History of the World
(2 players), then plays each of its own turns by a click on the drawing, the hand, the
dashboard or an action's button, until the table shows the result.

It plays at the pace of a quick player on a server with its default limits and bot pace (issue
48): every click as soon as the page allows it, and not one request is refused 429; the browser's
DevTools log counts the requests, well under 600 in any minute."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.e2e.test_web_table_rulesets import by_css, play_by_click
from tests.support.browser import (
    browser_session,
    most_in_a_minute,
    network_traffic,
)
from tests.support.http import serving
from tests.support.table_page import (
    choices,
    click_css,
    dataset,
    settled_after,
    wait_ready,
    wait_until,
)

pytestmark = pytest.mark.slow

RULESET = "brief-2009"
BUDGET_S = 90.0
"""A game against bots, from the lobby's click to the result on screen."""
BRISK = ("end_expansion", "end_overrun", "abandon_invasion")
"""What a person in a hurry mostly clicks when it is offered: the turn moves on sooner."""
PER_MINUTE = 600
"""Requests a minute a quick player's page stays under (the server allows 1,200 per token)."""


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(redis_url, CHRONICLE_RATE_LIMITS="on") as base:  # limits and bots as shipped
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with browser_session(network_log=True) as driver:  # network_traffic reads it
        yield driver


def my_turn_or_the_end(driver: Any) -> str | None:
    state = dataset(driver)
    if state.get("ready") != "true":
        return None
    if state.get("status") == "finished":
        return "finished"
    return "mine" if state.get("yourTurn") == "true" and choices(driver) else None


def test_a_person_alone_plays_brief_against_bots_from_the_lobby_to_the_result(
    server, browser
) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.select import Select

    driver, rng = browser, random.Random(35)
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.refresh()
    wait_ready(driver, "lobby")
    network_traffic(driver)  # forget the lobby's first load
    started = time.monotonic()
    Select(by_css(driver, f"#rs-{RULESET}-count")[0]).select_by_value("2")
    click_css(driver, f'button.play-bots[data-ruleset="{RULESET}"]')
    wait_until(driver, lambda d: dataset(d).get("view") == "table", what="the table")
    game_id = driver.execute_script(
        "return new URLSearchParams(location.hash.slice(1)).get('game')"
    )
    seating = requests.get(f"{server}/games/{game_id}/seating", timeout=10).json()
    assert [s["bot"] for s in seating["seats"]] == [None, "greedy"]
    clicks = 0
    while wait_until(driver, my_turn_or_the_end, 30, "my turn or the end") == "mine":
        clicks += 1
        assert clicks < 400, "the game does not end"
        before = int(dataset(driver)["version"])
        found = choices(driver)
        brisk = [c for c in found if c["type"] in BRISK]
        drawn = [c for c in found if c["place"] or c["card"] or c["seat"] is not None]
        if brisk and rng.random() < 0.8:
            pool = brisk
        else:
            pool = drawn if drawn and rng.random() < 0.7 else found
        try:
            play_by_click(driver, rng.choice(pool))
        except StaleElementReferenceException:
            continue  # the table drew itself again (the bot's move came in): look again
        assert settled_after(driver, before) == "played" or not by_css(driver, "#message .error")
    wait_until(driver, lambda d: by_css(d, "#result:not([hidden]) tbody tr"), what="the result")
    elapsed = time.monotonic() - started
    sent, answered = network_traffic(driver)
    refused = [r for r in answered if r["status"] in (429, 503)]
    assert not refused, f"{len(refused)} requests refused, the first {refused[0]}"
    per_minute = most_in_a_minute([r["at"] for r in sent if r["url"].startswith(server)])
    print(f"{len(sent)} requests, at most {per_minute} in a minute")
    assert per_minute < PER_MINUTE, f"{per_minute} requests in a minute ({clicks} clicks)"
    result = requests.get(f"{server}/games/{game_id}/result", timeout=10).json()
    shown = driver.execute_script(
        "return Array.from(document.querySelectorAll('#result tbody tr')).map((r) =>"
        " Array.from(r.cells).map((c) => c.textContent))"
    )
    assert shown == [
        [str(row["place"]), row["player"], str(row["score"])] for row in result["ranking"]
    ]
    actors: set[Any] = set()
    page = {"events": [{"version": 0}]}
    while page["events"]:
        after = page["events"][-1]["version"] + 1
        url = f"{server}/games/{game_id}/events?from={after}&limit=500"
        page = requests.get(url, timeout=10).json()
        actors |= {e["actor"] for e in page["events"]}
    assert {0, 1} <= actors, "the person and the bot both played"
    assert clicks > 0
    print(f"played in {elapsed:.1f} s with {clicks} clicks")
    assert elapsed < BUDGET_S, f"{elapsed:.1f} s for a game against bots ({clicks} clicks)"
