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
    with serving(
        redis_url, CHRONICLE_RULESET_MODULES="tests.support.toy", **DEFAULT_LIMITS
    ) as base:
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


def to_lobby(driver: Any, server: str) -> None:
    driver.get(server + "/#")
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

        Select(driver.find_element(By.CSS_SELECTOR, field)).select_by_value(str(value))


def configurations(info: dict[str, Any]) -> list[dict[str, Any]]:
    """Each option of the ruleset changed on its own (some go only with others' defaults: Option 3
    of hotw-2024 needs the dice), or the defaults where it has none."""
    defaults = {option["name"]: option["default"] for option in info["options"]}
    changed = [{**defaults, o["name"]: not_default(o)} for o in info["options"]]
    return changed or [defaults]


def test_every_option_ticked_in_the_lobby_reaches_the_games_against_bots_and_public_tables(
    server, browser
) -> None:
    listed = requests.get(f"{server}/rulesets", timeout=10).json()["rulesets"]
    rulesets = [info for info in listed if not info["name"].startswith("toy-")]  # the shipped
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


# --- the page holds its pace: a 429 waited out, a dropped stream opened again -------------------

TOY = "toy-sealed-bids"


@pytest.fixture(scope="module")
def tight_server(redis_url: str) -> Iterator[str]:
    """A server whose token limit a table trips at once: four requests a second."""
    with serving(
        redis_url,
        CHRONICLE_RULESET_MODULES="tests.support.toy",
        CHRONICLE_LIMIT_TOKEN="4/second",
        **DEFAULT_LIMITS,
    ) as base:
        yield base


def pace_note(driver: Any) -> str:
    return str(
        js(
            driver,
            "const n = document.getElementById('pace'); return n.hidden ? '' : n.textContent",
        )
    )


def test_a_429_is_waited_out_by_the_page_which_says_so_and_plays_on_to_the_end(
    tight_server, browser
) -> None:
    from selenium.webdriver.support.select import Select

    fresh_lobby(browser, tight_server)
    Select(browser.find_element("css selector", f"#rs-{TOY}-option-rounds")).select_by_value("2")
    click_css(browser, f'button.play-bots[data-ruleset="{TOY}"]')
    notes: set[str] = set()

    def my_turn_or_the_end(d: Any) -> str | None:
        if note := pace_note(d):
            notes.add(note)
        state = dataset(d)
        if state.get("view") != "table" or state.get("ready") != "true":
            return None
        if state.get("status") == "finished":
            return "finished"
        return "mine" if state.get("yourTurn") == "true" else None

    clicks = 0
    while wait_until(browser, my_turn_or_the_end, 60, "my turn or the end") == "mine":
        before = int(dataset(browser)["version"])
        click_css(browser, "#actions button.action:not(.table)")
        wait_until(
            browser,
            lambda d, before=before: my_turn_or_the_end(d) and int(dataset(d)["version"]) > before,
            60,
            "the move",
        )
        clicks += 1
        assert clicks < 30
    game_id = game_in_hash(browser)
    assert (
        requests.get(f"{tight_server}/games/{game_id}", timeout=10).json()["status"] == "finished"
    )
    assert int(dataset(browser).get("waitedFor", "0")) >= 1, "the server never refused the page"
    assert any("slow down" in note for note in notes), notes
    assert not browser.find_elements("css selector", "#message .error")
    wait_until(browser, lambda d: not pace_note(d), 10, "the pace note gone")


def another_player(server: str) -> dict[str, str]:
    made = requests.post(f"{server}/players", json={"name": "Bob"}, timeout=10).json()
    return {"Authorization": f"Bearer {made['player_key']}"}


def open_a_table_and_go_to_it(driver: Any, server: str) -> tuple[str, dict[str, str]]:
    """A public toy table opened in the lobby, Bob (through the API) in its other seat, and the
    browser at the table: the game's id and Bob's seat token header."""
    fresh_lobby(driver, server)
    click_css(driver, f'button.open-table[data-ruleset="{TOY}"]')
    wait_until(driver, lambda d: d.find_elements("css selector", ".opened a"), what="the table")
    link = js(driver, "return document.querySelector('.opened a').hash")
    game_id = link.split("game=")[1].split("&")[0]
    claimed = requests.post(
        f"{server}/games/{game_id}/claims", json={}, headers=another_player(server), timeout=10
    )
    assert claimed.status_code == 201, claimed.text
    click_css(driver, ".opened a")
    wait_until(driver, lambda d: dataset(d).get("stream") == "open", what="the stream open")
    return game_id, {"Authorization": f"Bearer {claimed.json()['seat_token']}"}


def drop_connections_to(server: str) -> None:
    """Cut every TCP connection to the server's port, the stream's among them, as a network
    that drops does (`ss -K`: the kernel aborts the sockets; the browser sees them fail)."""
    import subprocess
    from urllib.parse import urlsplit

    port = str(urlsplit(server).port)
    cut = subprocess.run(
        ["ss", "-K", "dst", "127.0.0.1", "dport", "=", port], capture_output=True, text=True
    )
    assert cut.returncode == 0 and "ESTAB" in cut.stdout, cut.stdout + cut.stderr


def bob_bids(server: str, game_id: str, bob: dict[str, str]) -> int:
    legal = requests.get(f"{server}/games/{game_id}/legal-actions", headers=bob, timeout=10).json()
    action = legal["actions"][0]
    played = requests.post(
        f"{server}/games/{game_id}/commands",
        json=action,
        headers={**bob, "Idempotency-Key": game_id + str(action["expected_version"])},
        timeout=10,
    )
    assert played.status_code == 201, played.text
    return int(played.json()["version"])


def test_a_dropped_stream_is_opened_again_by_the_page_which_shows_the_moves_made_meanwhile(
    server, browser
) -> None:
    game_id, bob = open_a_table_and_go_to_it(browser, server)
    streams = int(dataset(browser)["streams"])
    drop_connections_to(server)
    wait_until(browser, lambda d: dataset(d).get("stream") == "reconnecting", 20, "the drop")
    assert "reconnecting" in pace_note(browser)
    version = bob_bids(server, game_id, bob)  # while the page is between two streams
    wait_until(browser, lambda d: int(dataset(d).get("version", "0")) >= version, 20, "Bob's bid")
    wait_until(browser, lambda d: dataset(d).get("stream") == "open", 20, "the stream again")
    assert int(dataset(browser)["streams"]) > streams
    assert not pace_note(browser)
    handed = requests.post(
        f"{server}/games/{game_id}/bot", json={"strategy": "greedy"}, headers=bob, timeout=10
    )
    assert handed.status_code < 300, handed.text
    wait_until(  # heard on the stream opened again: no refresh of the page's own brings it
        browser,
        lambda d: "(bot: greedy)" in d.find_element("css selector", "#seating").text,
        10,
        "Bob's seat handed to a bot",
    )


# --- resigning does what the confirm says -------------------------------------------------------

CONFIRM_JS = "window.confirm = (words) => { window.confirmed = words; return true; };"


def says_your_turn(driver: Any) -> list[str]:
    """Where the page says it is the seat's turn, or offers it a move."""
    found = []
    if dataset(driver).get("yourTurn") == "true":
        found.append("the header")
    if "Your turn" in driver.title:
        found.append("the tab's title")
    if "Your turn" in driver.find_element("css selector", "#dashboard").text:
        found.append("the dashboard")
    if driver.find_elements("css selector", "#actions button.action"):
        found.append("live action buttons")
    return found


def resign(driver: Any) -> str:
    js(driver, CONFIRM_JS)
    click_css(driver, "#resign")
    wait_until(driver, lambda d: js(d, "return window.confirmed"), what="the confirm")
    return str(js(driver, "return window.confirmed"))


def test_resigning_against_bots_ends_the_game_as_the_confirm_says_and_no_turn_is_offered_after(
    server, browser
) -> None:
    fresh_lobby(browser, server)
    click_css(browser, f'button.play-bots[data-ruleset="{TOY}"]')
    wait_until(browser, lambda d: dataset(d).get("yourTurn") == "true", what="my turn")
    game_id = game_in_hash(browser)
    words = resign(browser)
    assert "the game ends now" in words and "you rank last" in words, words
    wait_until(browser, lambda d: dataset(d).get("status") == "finished", what="the end")
    result = requests.get(f"{server}/games/{game_id}/result", timeout=10).json()
    assert result["ranking"][-1]["seat"] == 0 and result["ranking"][-1]["place"] > 1
    for when in ("after resigning", "after a reload"):
        assert not says_your_turn(browser), (when, says_your_turn(browser))
        assert "you resigned" in browser.find_element("css selector", "#actions").text, when
        browser.refresh()
        wait_ready(browser, "table")
    the_end_is_told_at_the_top(browser)
    explain_opens_in_view(browser, server, game_id)


IN_VIEW_JS = """
window.scrollTo(0, 0);
const r = document.querySelector(arguments[0]).getBoundingClientRect();
return r.height > 0 && r.top >= 0 && r.top < window.innerHeight - 40;
"""


def the_end_is_told_at_the_top(driver: Any) -> None:
    """The end screen names the winner, and its result table is above the fold."""
    wait_until(driver, lambda d: d.find_elements("css selector", "#result:not([hidden]) tbody tr"))
    said = driver.find_element("css selector", "#dash-awaited").text
    assert said.startswith("The game is over: Bot 1 won") and "you came 2nd of 2" in said, said
    assert js(driver, IN_VIEW_JS, "#result"), "the result is below the fold"
    assert "to play" not in driver.find_element("css selector", "#dashboard").text


def explain_opens_in_view(driver: Any, server: str, game_id: str) -> None:
    click_css(driver, "#replay-link")
    wait_ready(driver, "replay")
    js(driver, "window.scrollTo(0, 0)")
    driver.find_element("css selector", "#explain").click()
    wait_until(driver, lambda d: "Why event" in d.find_element("css selector", "#explanation").text)
    seen = js(
        driver,
        "const r = document.getElementById('explanation').getBoundingClientRect();"
        " return r.top >= 0 && r.top < window.innerHeight - 40;",
    )
    assert seen, "Explain opened out of view"


def test_resigning_at_a_table_with_people_hands_the_pieces_to_a_bot_as_the_confirm_says(
    server, browser
) -> None:
    game_id, bob = open_a_table_and_go_to_it(browser, server)
    wait_until(browser, lambda d: dataset(d).get("yourTurn") == "true", what="my turn")
    words = resign(browser)
    assert "A bot plays your pieces to the end, Bob plays on" in words, words
    wait_until(browser, lambda d: "resigned" in d.find_element("css selector", "#seating").text)
    seating = requests.get(f"{server}/games/{game_id}/seating", timeout=10).json()
    assert seating["status"] == "active"
    assert seating["seats"][0]["left"] == "resigned" and seating["seats"][0]["bot"]
    browser.refresh()
    wait_ready(browser, "table")
    assert not says_your_turn(browser), says_your_turn(browser)
    legal = requests.get(f"{server}/games/{game_id}/legal-actions", headers=bob, timeout=10)
    assert legal.json()["seat"] == 1  # Bob plays on


# --- focus stays where the player was -----------------------------------------------------------

FOCUSED_JS = """
const n = document.activeElement;
if (!n || n === document.body) return {where: 'body'};
return {where: n.closest('#board') ? 'board' : n.closest('#actions-panel') ? 'actions' : n.id,
        place: n.dataset ? (n.dataset.land || n.dataset.water || null) : null, tag: n.tagName};
"""


def test_after_a_move_the_focus_stays_on_the_land_clicked_and_in_the_actions_pressed(
    server, browser
) -> None:
    from selenium.webdriver.support.select import Select

    from tests.support.table_page import click_place, targets

    fresh_lobby(browser, server)
    Select(browser.find_element("css selector", "#rs-brief-2009-count")).select_by_value("2")
    click_css(browser, 'button.play-bots[data-ruleset="brief-2009"]')

    def my_turn_on_the_map(d: Any) -> list[str] | None:
        state = dataset(d)
        if state.get("ready") != "true" or state.get("yourTurn") != "true":
            return None
        return targets(d) or None

    def my_turn(d: Any) -> bool:
        return dataset(d).get("ready") == "true" and dataset(d).get("yourTurn") == "true"

    for _ in range(20):  # the first turns choose cards and Empires: to the map, by buttons
        wait_until(browser, my_turn, 60, "my turn")
        if places := my_turn_on_the_map(browser):
            break
        before = int(dataset(browser)["version"])
        click_css(browser, "#actions button.action:not(.table)")
        wait_until(browser, lambda d, v=before: int(dataset(d)["version"]) > v, 30)
    assert places, "no land to click in the first turns"
    legend = browser.find_element("css selector", "#marks-legend").text
    for mark in ("a place you may click now", "pointed at or focused", "dotted brown outline"):
        assert mark in legend, legend
    before = int(dataset(browser)["version"])
    click_place(browser, places[0])
    wait_until(browser, lambda d: int(dataset(d)["version"]) > before and wait_ready(d), 30)
    focused = js(browser, FOCUSED_JS)
    assert focused["where"] == "board" and focused["place"] == places[0], focused

    wait_until(browser, lambda d: dataset(d).get("yourTurn") == "true" and wait_ready(d), 60)
    before = int(dataset(browser)["version"])
    click_css(browser, "#actions button.action:not(.table)")
    wait_until(browser, lambda d: int(dataset(d)["version"]) > before and wait_ready(d), 30)
    focused = js(browser, FOCUSED_JS)
    assert focused["where"] == "actions", focused


# --- "My games" tells each game apart -----------------------------------------------------------

MY_GAMES_JS = """
return Array.from(document.querySelectorAll('#my-games li[data-game]')).map((li) => ({
  game: li.dataset.game, status: li.dataset.status, text: li.textContent,
  when: (li.querySelector('time') || {}).textContent || ''}));
"""


def test_my_games_shows_each_game_with_its_opponents_date_status_and_result(
    server, browser
) -> None:
    fresh_lobby(browser, server)
    click_css(browser, f'button.play-bots[data-ruleset="{TOY}"]')  # one ended by resigning
    wait_until(browser, lambda d: dataset(d).get("yourTurn") == "true", what="my turn")
    ended = game_in_hash(browser)
    resign(browser)
    wait_until(browser, lambda d: dataset(d).get("status") == "finished", what="the end")
    to_lobby(browser, server)
    click_css(browser, f'button.play-bots[data-ruleset="{TOY}"]')  # one under way
    wait_until(browser, lambda d: dataset(d).get("view") == "table", what="the table")
    going = game_in_hash(browser)
    to_lobby(browser, server)
    click_css(browser, f"#rs-{TOY} button.create")  # and one made with "Create a game"
    wait_until(browser, lambda d: d.find_elements("css selector", "#created [data-game]"))
    created = js(browser, "return document.querySelector('#created [data-game]').dataset.game")
    browser.refresh()
    wait_ready(browser, "lobby")
    wait_until(browser, lambda d: len(js(d, MY_GAMES_JS)) == 3, what="three games in my games")
    listed = {entry["game"]: entry for entry in js(browser, MY_GAMES_JS)}
    assert set(listed) == {ended, going, created}
    texts = [entry["text"] for entry in listed.values()]
    assert len(set(texts)) == 3, texts
    assert all(entry["when"] for entry in listed.values()), texts
    assert "against Bot 1 (a bot)" in listed[ended]["text"]
    assert "finished: Bot 1 won; you came 2nd of 2" in listed[ended]["text"]
    assert "under way" in listed[going]["text"]
    assert "against bob" in listed[created]["text"] and "under way" in listed[created]["text"]
