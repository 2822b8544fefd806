"""The web table's side of tables that run themselves (issue 35), in headless Chromium against
`chronicle serve` (gunicorn and its RQ worker): "play against bots" in one click from the lobby,
the seats and the clock on screen, a bot playing for you and resigning; a public table opened
from the lobby, listed there, and joined from another browser; "my games"."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import chromedriver_binary, chromium_binary, selenium_driver
from tests.support.http import serving
from tests.support.table_page import click_css, wait_ready, wait_until

pytestmark = pytest.mark.slow

TOY = "toy-sealed-bids"


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(
        redis_url,
        CHRONICLE_RULESET_MODULES="tests.support.toy",
        CHRONICLE_BOT_DELAY_S="0.05",
        CHRONICLE_TABLE_WATCH_S="0.2",
    ) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        chromium_binary()
        chromedriver_binary()
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"the browser tests need Debian's chromium and chromium-driver ({exc})")
    driver = selenium_driver()
    try:
        yield driver
    finally:
        driver.quit()


def js(driver: Any, script: str, *args: Any) -> Any:
    return driver.execute_script(script, *args)


def text(driver: Any, selector: str) -> str:
    return str(
        js(
            driver,
            "const n = document.querySelector(arguments[0]); return n ? n.textContent : ''",
            selector,
        )
    )


def fresh_lobby(driver: Any, server: str) -> None:
    driver.get(server + "/")
    js(driver, "localStorage.clear()")
    driver.get(server + "/#")
    driver.refresh()
    wait_ready(driver, "lobby")


def test_play_against_bots_in_one_click_then_a_bot_plays_for_you_and_my_games(
    server, browser
) -> None:
    fresh_lobby(browser, server)
    click_css(browser, f'button.play-bots[data-ruleset="{TOY}"]')
    wait_until(browser, lambda d: d.execute_script("return document.body.dataset.view") == "table")
    wait_until(
        browser,
        lambda d: "(bot: greedy)" in text(d, "#seating"),
        what="the seats show the bots",
    )
    assert text(browser, "#seating").count("(bot: greedy)") >= 1
    assert js(browser, "return !!document.querySelector('#hand-to-bot')")
    assert js(browser, "return !!document.querySelector('#resign')")
    wait_until(
        browser,
        lambda d: d.execute_script("return !!document.querySelector('#actions button.action')"),
        what="your actions",
    )
    click_css(browser, "#actions button.action")
    wait_ready(browser, "table")
    click_css(browser, "#hand-to-bot")
    wait_until(
        browser,
        lambda d: d.execute_script("return document.body.dataset.status") == "finished",
        timeout=60,
        what="the bots finish the game",
    )
    game_id = js(browser, "return new URLSearchParams(location.hash.slice(1)).get('game')")
    browser.get(server + "/#")
    wait_ready(browser, "lobby")
    wait_until(
        browser,
        lambda d: (
            game_id
            in (d.execute_script("return document.querySelector('#my-games').innerHTML") or "")
        ),
        what="my games",
    )


def test_a_public_table_opened_in_the_lobby_is_joined_from_another_browser_and_shows_its_clock(
    server, browser
) -> None:
    fresh_lobby(browser, server)
    js(browser, f"document.querySelector('#rs-{TOY}-clock').value = '5'")
    click_css(browser, f'button.open-table[data-ruleset="{TOY}"]')
    wait_until(
        browser,
        lambda d: d.execute_script("return !!document.querySelector('.opened a')"),
        what="the table opened",
    )
    owner = js(browser, "return localStorage.getItem('chronicle.player')")
    link = js(browser, "return document.querySelector('.opened a').getAttribute('href')")
    game_id = link.split("game=")[1].split("&")[0]
    # another person: a browser with no player yet
    fresh_lobby(browser, server)
    wait_until(
        browser,
        lambda d: d.execute_script(
            "return !!document.querySelector(arguments[0])",
            f'#open-tables li[data-game="{game_id}"] button.join',
        ),
        what="the table in the lobby",
    )
    click_css(browser, f'#open-tables li[data-game="{game_id}"] button.join')
    wait_until(browser, lambda d: d.execute_script("return document.body.dataset.view") == "table")
    wait_until(browser, lambda d: "left to play" in text(d, "#seating"), what="the clock on screen")
    assert "per move" in text(browser, "#seating")
    joiner = js(browser, "return localStorage.getItem('chronicle.player')")
    assert joiner and joiner != owner
