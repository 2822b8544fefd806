"""What a mid-game History of the World table reads like in Chromium (issue 48): the log names
the Empire that fought ("Bot 1's Mongols attacked Cy in ..."), and "Everything your seat may
see" reads in words from the view's schema: a land by its name, who holds it by player ("Held
by Cy", never "Owner 0"), an AH2001 army by its epoch ("an Epoch 2 army", never "Figure 2").
Screenshots in $CHRONICLE_ARTIFACTS/web-view-words-* (else tests/artifacts/)."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from service.rulesets import ruleset
from tests.support.browser import browser_session
from tests.support.http import serving
from tests.support.table_page import artifacts_dir, wait_ready, wait_until

pytestmark = pytest.mark.slow

PLAYERS = ["Ann", "Bot 1", "Cy"]
FIGHTS = {
    "hotw-2024": {"hotw.InvasionSucceeded", "hotw.InvasionFrustrated", "hotw.LandConquered"},
    "hotw-ah2001": {"ah2001.BattleFought"},
}


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(redis_url, web_workers=1) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with browser_session() as driver:
        yield driver


def mid_game(server: str, name: str, fights: int) -> dict[str, Any]:
    """A game played through the API by random legal moves until `fights` battles are logged."""
    made = requests.post(f"{server}/games", json={"ruleset": name, "players": PLAYERS}, timeout=10)
    assert made.status_code == 201, made.text
    game = made.json()
    url, rng, seen = f"{server}/games/{game['game_id']}", random.Random(7), 0
    while seen < fights:
        summary = requests.get(url, timeout=10).json()
        assert summary["status"] != "finished"
        if not summary["awaiting"]:  # a step of the rules' own, taken by the worker
            time.sleep(0.05)
            continue
        seat = rng.choice(summary["awaiting"])
        head = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
        legal = requests.get(f"{url}/legal-actions", headers=head, timeout=10).json()
        move = rng.choice([a for a in legal["actions"] if a["command"]["type"] != "resign"])
        posted = requests.post(f"{url}/commands", json=move, headers=head, timeout=10)
        assert posted.status_code == 201, posted.text
        seen += sum(e["type"] in FIGHTS[name] for e in posted.json()["events"])
    return game


@pytest.mark.parametrize("name", ["hotw-2024", "hotw-ah2001"])
def test_a_mid_game_table_names_empires_in_its_log_and_reads_its_view_in_words(
    server, browser, name
):
    driver, shots = browser, artifacts_dir(f"web-view-words-{name}")
    game = mid_game(server, name, fights=4)
    driver.set_window_size(1400, 1000)
    driver.get(f"{server}/#game={game['game_id']}&token={game['seat_tokens'][0]}")
    wait_ready(driver, "table")
    wait_until(driver, lambda d: d.execute_script("return !!document.querySelector('#board svg')"))
    log = driver.execute_script(
        "return Array.from(document.querySelectorAll('#log li')).map((e) => e.textContent)"
    )
    # the log names whose Empire acted (the verb depends on the dice: attacked, plundered...)
    assert any(re.search(r"(Ann|Bot 1|Cy)'s [A-Z]\w+ [a-z]+", t) for t in log), log
    driver.execute_script("document.querySelector('#log').scrollIntoView()")
    driver.save_screenshot(str(shots / "1-the-log.png"))
    driver.execute_script("document.querySelector('#board svg .legend').scrollIntoView()")
    driver.save_screenshot(str(shots / "2-the-legend.png"))
    driver.execute_script(
        "const d = document.querySelector('#view-details details'); d.open = true;"
        " d.scrollIntoView()"
    )
    wait_until(driver, lambda d: d.execute_script(
        "return document.querySelectorAll('#view-details .state-view dt').length > 0"))  # fmt: skip
    driver.save_screenshot(str(shots / "3-everything-your-seat-may-see.png"))
    driver.execute_script(
        "const held = Array.from(document.querySelectorAll('#view-details dt'))"
        ".find((e) => e.textContent === 'Held by'); held.scrollIntoView({block: 'center'})"
    )
    driver.save_screenshot(str(shots / "4-the-lands-held.png"))
    terms = driver.execute_script(
        "return Array.from(document.querySelectorAll('#view-details dt')).map((e) => e.textContent)"
    )
    said = driver.execute_script(
        "return Array.from(document.querySelectorAll('#view-details dd')).map((e) => e.textContent)"
    )
    assert "Held by" in terms and not {"Owner", "Figure"} & set(terms)
    lands = {land.name for land in _lands(name)}
    held = [t for t in terms if t in lands]
    assert held, "the lands held, each by its name"
    assert not [t for t in terms if t.lower() in {n.lower() for n in lands} and t not in lands]
    assert any(s in PLAYERS for s in said), "who holds a land, by player"
    assert "hidden from you" in said, "another player's secret said so, not 'none'"
    if name == "hotw-ah2001":
        assert any(re.fullmatch(r"an Epoch \d army", s) for s in said), said[:40]
    if name == "hotw-2024":  # an Empire card in the hand says what it brings
        cards = driver.execute_script(
            "const g = document.querySelector("
            "'#dash-hand .hand-group[aria-label=\"Empire cards\"]');"
            " return g ? Array.from(g.querySelectorAll('.hand-card')).map((c) => c.textContent)"
            " : []"
        )
        assert cards and all(re.search(r"\d+ people, starts in ", c) for c in cards), cards


def _lands(name: str) -> Any:
    rules: Any = ruleset(name)
    board = rules.pack.board if name == "hotw-2024" else rules.tables.board
    return board.lands.values()
