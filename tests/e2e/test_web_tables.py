"""The web table's side of tables that run themselves (issue 35), in headless Chromium against
`chronicle serve` (gunicorn and its RQ worker): "play against bots" in one click from the lobby,
the seats and the clock on screen, a bot playing for you and resigning; a public table opened
from the lobby, listed there, and joined from another browser; "my games"."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import (
    browser_session,
    sent_requests,
)
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
    with browser_session(network_log=True) as driver:  # sent_requests reads it
        yield driver


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


def wait_for(driver: Any, selector: str, what: str) -> None:
    """Wait until a node of the page matches `selector` (failing as `wait_until` does)."""
    wait_until(
        driver,
        lambda d: d.execute_script("return !!document.querySelector(arguments[0])", selector),
        what=what,
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
    wait_for(browser, ".opened a", what="the table opened")
    owner = js(browser, "return localStorage.getItem('chronicle.player')")
    link = js(browser, "return document.querySelector('.opened a').getAttribute('href')")
    game_id = link.split("game=")[1].split("&")[0]
    # another person: a browser with no player yet
    fresh_lobby(browser, server)
    join = f'#open-tables li[data-game="{game_id}"] button.join'
    wait_for(browser, join, what="the table in the lobby")
    click_css(browser, join)
    wait_until(browser, lambda d: d.execute_script("return document.body.dataset.view") == "table")
    wait_until(browser, lambda d: "left to play" in text(d, "#seating"), what="the clock on screen")
    assert "per move" in text(browser, "#seating")
    joiner = js(browser, "return localStorage.getItem('chronicle.player')")
    assert joiner and joiner != owner


def another_player_joins(server: str, game_id: str) -> None:
    import requests

    made = requests.post(f"{server}/players", json={"name": "Bob"}, timeout=10).json()
    claimed = requests.post(
        f"{server}/games/{game_id}/claims",
        json={},
        headers={"Authorization": f"Bearer {made['player_key']}"},
        timeout=10,
    )
    assert claimed.status_code == 201, claimed.text


def open_my_table(browser: Any, server: str) -> tuple[str, str]:
    """In a fresh lobby: open a public table (becoming a player); its game id and the key."""
    fresh_lobby(browser, server)
    click_css(browser, f'button.open-table[data-ruleset="{TOY}"]')
    wait_for(browser, "#my-games li[data-game]", what="the table in my games")
    game_id = js(browser, "return document.querySelector('#my-games li[data-game]').dataset.game")
    key = js(browser, "return JSON.parse(localStorage.getItem('chronicle.player')).key")
    return str(game_id), str(key)


def awaits_me(game_id: str):
    return lambda d: d.execute_script(
        "return !!document.querySelector(arguments[0])",
        f'#my-games li[data-game="{game_id}"] .awaits-you',
    )


def test_my_games_follow_the_players_stream_and_show_your_turn_when_someone_joins(
    server, browser
) -> None:
    """No polling: the lobby opens the player's notification stream with a ticket (the key in
    no URL), and the join's `your_turn` lists "My games" again within seconds, well before a
    poll (every 15 s) would."""
    game_id, key = open_my_table(browser, server)
    wait_until(
        browser,
        lambda d: d.execute_script("return document.body.dataset.notices") == "stream",
        what="the notification stream open",
    )
    assert not awaits_me(game_id)(browser)
    sent_requests(browser)  # forget what came before
    another_player_joins(server, game_id)
    wait_until(browser, awaits_me(game_id), timeout=8, what="your turn, from the stream")
    urls = [r["url"] for r in sent_requests(browser)]
    assert not any(key in url for url in urls)
    assert any("/players/me/games" in url for url in urls)  # listed again on the notification
    assert js(browser, "return document.body.dataset.notices") == "stream"


def test_without_an_event_source_the_lobby_polls_my_games_instead(server, browser) -> None:
    added = browser.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.EventSource;"}
    )
    try:
        game_id, _ = open_my_table(browser, server)
        wait_until(
            browser,
            lambda d: d.execute_script("return document.body.dataset.notices") == "polling",
            what="the lobby polling",
        )
        another_player_joins(server, game_id)
        wait_until(browser, awaits_me(game_id), timeout=25, what="your turn, from a poll")
    finally:
        browser.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]}
        )
