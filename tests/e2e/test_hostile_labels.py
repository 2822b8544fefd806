"""Stored script injection: a player named with markup, and a land and a card (or hero) whose
names in the data pack are markup, in every built-in ruleset, shown by every page this server
makes, in headless Chromium: the web table (the seat's table and the replay) and the exported
HTML replay (served, and opened from disk). Nothing they carry runs; they show as text.

The server runs with `tests.support.hostile` loaded (through $CHRONICLE_RULESET_MODULES), which
renames one entity of each kind in every built-in data pack to markup that marks the document
(`data-pwned`) if it is ever parsed as HTML.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.support.browser import (
    browser_session,
    chromium_binary,
    dump_dom,
)
from tests.support.http import serving
from tests.support.table_page import wait_ready

pytestmark = pytest.mark.slow

NAME = "<img src=x onerror=document.body.dataset.pwned=1>"
"""A player name (at most 64 characters) that marks the page if parsed as HTML."""
RULESETS = {
    "hotw-2024": ["ann", NAME, "cy"],
    "hotw-ah2001": ["ann", NAME, "cy"],
    "brief-2009": ["ann", NAME, "cy"],
    "patchistory": ["ann", NAME, "cy"],
}
PWNED_JS = """
const found = document.querySelector('[data-pwned], img[src="x"], svg[onload]');
return found ? found.outerHTML.slice(0, 200) : null;
"""
"""A mark the markup set, or an element it made (the page's policy may stop it running, but
it must not become markup in the first place)."""


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(redis_url, CHRONICLE_RULESET_MODULES="tests.support.hostile") as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with browser_session() as driver:
        yield driver


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def played_game(base: str, ruleset: str, commands: int) -> dict[str, Any]:
    """A game of `ruleset` with the hostile player name, `commands` random commands in."""
    http = requests.Session()
    created = http.post(f"{base}/games", json={"ruleset": ruleset, "players": RULESETS[ruleset]})
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    rng = random.Random(7)
    played = 0
    deadline = time.monotonic() + 120
    while played < commands and time.monotonic() < deadline:
        summary = http.get(f"{base}/games/{game['game_id']}").json()
        if summary["status"] == "finished":
            break
        if not summary["awaiting"]:
            time.sleep(0.05)
            continue
        seat = min(summary["awaiting"])
        token = game["seat_tokens"][seat]
        legal = http.get(f"{base}/games/{game['game_id']}/legal-actions", headers=auth(token))
        action = rng.choice(legal.json()["actions"])
        answer = http.post(
            f"{base}/games/{game['game_id']}/commands", json=action, headers=auth(token)
        )
        assert answer.status_code in (201, 409), answer.text
        played += answer.status_code == 201
    return game


def exported(base: str, game_id: str, token: str) -> requests.Response:
    started = requests.post(
        f"{base}/games/{game_id}/replays", json={"kind": "export"}, headers=auth(token)
    )
    assert started.status_code == 202, started.text
    status_url = base + started.json()["status_url"]
    deadline = time.monotonic() + 120
    while True:
        job = requests.get(status_url).json()
        if job["status"] == "finished":
            break
        assert job["status"] not in ("failed", "stopped", "canceled"), job
        assert time.monotonic() < deadline, job
        time.sleep(0.2)
    return requests.get(base + job["result"]["html_url"])


def assert_shown_as_text(driver: Any, where: str) -> None:
    assert driver.execute_script(PWNED_JS) is None, f"{where}: a label ran as markup"
    text = driver.execute_script("return document.body.innerText")
    assert NAME in text, f"{where}: the player's name is not shown as it is"


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_hostile_names_and_labels_run_nowhere(
    server: str, browser: Any, ruleset: str, tmp_path: Path
) -> None:
    game = played_game(server, ruleset, commands=12)
    game_id, token = game["game_id"], game["seat_tokens"][1]
    names = requests.get(f"{server}/rulesets/{ruleset}").json().get("names", {})
    hostile_labels = [i for i, label in names.items() if "data-pwned" in label]
    if names:  # a ruleset that names its ids (the others show them as they are)
        assert hostile_labels, "the hostile pack is not loaded"

    browser.get(f"{server}/#game={game_id}&token={token}")
    wait_ready(browser, timeout=60)
    time.sleep(0.5)
    assert_shown_as_text(browser, f"{ruleset}: the seat's table")

    browser.get(f"{server}/#game={game_id}&replay=1")
    wait_ready(browser, timeout=60)
    time.sleep(0.5)
    assert browser.execute_script(PWNED_JS) is None, f"{ruleset}: the web table's replay"

    page = exported(server, game_id, token)
    assert page.status_code == 200
    policy = page.headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert "<img src=x" not in page.text, "the name went into the page as markup"

    browser.get(page.url)
    time.sleep(1.0)
    assert_shown_as_text(browser, f"{ruleset}: the served HTML replay")
    total = browser.execute_script("return document.getElementById('total').textContent")
    assert int(total) > 1, "the replay's own script did not run under its policy"

    on_disk = tmp_path / "replay.html"
    on_disk.write_text(page.text, encoding="utf-8")
    dom = dump_dom(chromium_binary(), on_disk.as_uri())
    assert 'data-pwned="' not in dom, f"{ruleset}: the replay opened from disk ran a label"
    assert '<img src="x"' not in dom, f"{ruleset}: a label became markup in the replay"
    assert "&lt;img src=x onerror=" in dom, f"{ruleset}: the name is not shown as text"
