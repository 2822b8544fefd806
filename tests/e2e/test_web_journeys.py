"""A person's journeys at the web table (issue 48), in headless Chromium against `chronicle
serve` with its default limits (rate limits on: 50 a second and 1,200 a minute per token, 100 a
second per address; the bots at their default pace):

- every option of every ruleset ticked in the lobby reaches the game made by "Play against
  bots" and by "Open a public table" (read back through the API);
- a quick player clicks a whole game against bots without one 429, well under 600 requests a
  minute (counted from the browser's DevTools log);
- a 429 (a server with a tight limit) and a dropped stream are recovered from by the page;
- resigning does what the confirm says, and the page stops saying "Your turn";
- focus stays where the player was after a move;
- "My games" tells each game by its opponents, date, status and result.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.support.browser import browser_session
from tests.support.http import serving
from tests.support.table_page import click_css, dataset, wait_ready, wait_until

pytestmark = pytest.mark.slow

DEFAULT_LIMITS = {"CHRONICLE_RATE_LIMITS": "on"}
"""The server as shipped: its limits on (the suite turns them off for its other servers)."""


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(redis_url, **DEFAULT_LIMITS) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with browser_session(network_log=True) as driver:
        yield driver


def js(driver: Any, script: str, *args: Any) -> Any:
    return driver.execute_script(script, *args)


def fresh_lobby(driver: Any, server: str) -> None:
    driver.get(server + "/#")
    js(driver, "localStorage.clear()")
    driver.refresh()
    wait_ready(driver, "lobby")


def game_in_hash(driver: Any) -> str:
    return str(js(driver, "return new URLSearchParams(location.hash.slice(1)).get('game')"))


# --- the lobby's options reach the game --------------------------------------------------------


def not_default(option: dict[str, Any]) -> Any:
    """The value a person changes the option to: a box ticked the other way, the first choice
    that is not the default."""
    if option["type"] == "boolean":
        return not option["default"]
    return next(v for v in option["allowed"] if v != option["default"])


def tick(driver: Any, ruleset: str, option: dict[str, Any], value: Any) -> None:
    field = f"#rs-{ruleset}-option-{option['name']}"
    if option["type"] == "boolean":
        if bool(js(driver, "return document.querySelector(arguments[0]).checked", field)) != value:
            click_css(driver, field)
    else:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.select import Select

        Select(driver.find_element(By.CSS_SELECTOR, field)).select_by_value(value)


def configurations(info: dict[str, Any]) -> list[dict[str, Any]]:
    """Each option of the ruleset changed on its own (some go only with others' defaults: Option 3
    of hotw-2024 needs the dice), or the defaults where it has none."""
    defaults = {option["name"]: option["default"] for option in info["options"]}
    changed = [{**defaults, o["name"]: not_default(o)} for o in info["options"]]
    return changed or [defaults]


def test_every_option_ticked_in_the_lobby_reaches_the_games_against_bots_and_public_tables(
    server, browser
) -> None:
    rulesets = requests.get(f"{server}/rulesets", timeout=10).json()["rulesets"]
    checked = []
    for info in rulesets:
        name, options = info["name"], info["options"]
        for wanted in configurations(info):
            for button in ("play-bots", "open-table"):
                fresh_lobby(browser, server)
                for option in options:
                    tick(browser, name, option, wanted[option["name"]])
                click_css(browser, f'button.{button}[data-ruleset="{name}"]')
                if button == "play-bots":
                    wait_until(browser, lambda d: dataset(d).get("view") == "table", what="table")
                    game_id = game_in_hash(browser)
                else:
                    wait_until(browser, lambda d: d.find_elements("css selector", ".opened a"))
                    link = js(browser, "return document.querySelector('.opened a').hash")
                    game_id = link.split("game=")[1].split("&")[0]
                made = requests.get(f"{server}/games/{game_id}", timeout=10).json()
                assert made["ruleset"] == name
                assert {k: made["options"].get(k) for k in wanted} == wanted, (name, button)
                checked.append((name, button))
    offered = sum(max(1, len(info["options"])) for info in rulesets)
    assert len(checked) == 2 * offered
