"""Every ruleset at the web table, to the end, by clicking only (issue 34, point 6): headless
Debian Chromium creates a game in the lobby, opens each seat's join link in its own window and
plays the whole game there - every move a click: on the land, water or square of the drawing
the action names, on the card of the hand, on the player of the dashboard, else on the action's
button - until every window shows the result (the simultaneous-empires variant through its
first two Epochs: its map, result and replay are the Avalon Hill game's). On the way it checks
what a newcomer relies on:

- the drawing (Brief's map with its Gold track and Invasion dial, Patchistory's territories and
  the Tiles at auction, the Avalon Hill map) and the dashboard always in view (the epoch, era or
  round, whose turn, each player's score, the seat's goods and hand);
- words, not ids: no button, log line or dashboard shows a pack id, a bare seat number, -1,
  an empty field or "p. ?";
- axe-core finds no WCAG 2 A/AA violation on the table of each seat and on the replay;
- the browser's console logs no error.

- no line of the map (link, strait, sea link, leader) crosses a name, and no name overlaps
  another or covers a piece, at the end of each game.

hotw-2024 plays its whole game in tests/e2e/test_web_table.py, with the same checks (the helpers
are in tests/support/table_page.py). One position per ruleset, hotw-2024's included, is also
looked at on its own: every text of the board at least 11 px at a 1400 px window, and at
1024x768 and 800x900 the dashboard in view and covering no place to click.

Screenshots of the steps are kept in $CHRONICLE_ARTIFACTS/web-whole-<ruleset>/ and
web-board-<ruleset>/ (else tests/artifacts/).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from service.rulesets import ruleset
from tests.support.a11y import axe_violations
from tests.support.browser import (
    browser_session,
)
from tests.support.http import serving
from tests.support.table_page import (
    Shots,
    action_selector,
    artifacts_dir,
    assert_words_not_ids,
    choices,
    click_css,
    click_place,
    dashboard_faults,
    dataset,
    empires_named,
    overlapping_names,
    overlapping_texts,
    pack_ids,
    playing,
    resized_to,
    settled_after,
    smallest_board_text,
    unclickable,
    wait_ready,
    wait_until,
    whose_turn,
)

pytestmark = pytest.mark.slow

UNTIL_EPOCH = 3
"""The simultaneous-empires variant is clicked through its first two Epochs, not to the end: its
own moves (the Empires drawn and taken up at once, the expansion attempts) all come in every
Epoch, while its map, its result and its replay are the Avalon Hill game's, which is played to
the result just before it on the same drawing."""

GAMES = [
    pytest.param("brief-2009", ["ann", "bob"], {}, None, id="brief-2009"),
    pytest.param("hotw-ah2001", ["ann", "bob", "cy"], {}, None, id="hotw-ah2001"),
    pytest.param(
        "hotw-ah2001",
        ["ann", "bob", "cy"],
        {"simultaneous_empires": True},
        UNTIL_EPOCH,
        id="hotw-ah2001-simultaneous",
    ),
    pytest.param("patchistory", ["ann", "bob"], {}, None, id="patchistory"),
]
"""Each ruleset's game, and the Epoch it is clicked until (None: to the result)."""


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(redis_url, web_workers=2) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with browser_session(1400, 1000) as driver:
        yield driver


def by_css(driver: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, selector))


PREVIEW_JS = """
const node = document.querySelector(`#board .target[data-square="${arguments[0]}"]`);
node.focus();
const note = document.getElementById('patch-note');
return {rects: document.querySelectorAll('#board .patch-preview rect').length,
        note: note ? note.textContent : ''};
"""


def console_errors(driver: Any) -> list[str]:
    return [
        entry["message"]
        for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE" and "favicon" not in entry["message"]
    ]


def assert_no_axe_violation(driver: Any, where: str) -> None:
    violations = axe_violations(driver)
    assert violations == [], f"{where}: {json.dumps(violations, indent=1)}"


LAYOUT_JS = """
window.scrollTo(0, document.documentElement.scrollHeight);
const box = (s) => {
  const n = document.querySelector(s);
  return n ? n.getBoundingClientRect() : null;
};
const dash = box('#dashboard'), area = box('#board-area');
const pieces = Array.from(document.querySelectorAll('#board .piece'))
  .map((p) => p.getBoundingClientRect());
window.scrollTo(0, 0);
return {dash: dash && dash.bottom, area: area && area.top,
        piece: pieces.length ? Math.min(...pieces.map((r) => Math.max(r.width, r.height))) : null};
"""


def assert_dashboard_leaves_the_board_clear(driver: Any, where: str) -> None:
    """Scrolled to the bottom of the page, the dashboard (kept in view) ends above the board;
    every piece drawn is at least 12 px across at 1400 px wide."""
    found = driver.execute_script(LAYOUT_JS)
    assert found["dash"] is not None and found["area"] is not None, where
    assert found["dash"] <= found["area"], f"{where}: the dashboard covers the board: {found}"
    assert found["piece"] is None or found["piece"] >= 12, f"{where}: pieces too small: {found}"


def play_by_click(driver: Any, choice: dict[str, Any]) -> str:
    """The click a person makes for this action: on the drawing, the hand or the dashboard
    (then on the choice offered, where the spot offers several), else on its button."""
    if choice["place"] is not None:
        click_place(driver, choice["place"])
        how = "map"
    elif choice["square"] is not None:
        click_css(driver, f'#board .target[data-square="{choice["square"]}"]')
        how = "square"
    elif choice["offer"] is not None:
        click_css(driver, f'#board .offer.target[data-offer="{choice["offer"]}"]')
        how = "tile"
    elif choice["card"] is not None:
        click_css(driver, f'#dashboard .hand-card.target[data-card="{choice["card"]}"]')
        how = "hand"
    elif choice["seat"] is not None:
        click_css(driver, f'#dashboard .dash-player.target[data-seat="{choice["seat"]}"]')
        how = "player"
    else:
        click_css(driver, action_selector(choice["key"]))
        return "button"
    if by_css(driver, "#chooser"):
        click_css(driver, action_selector(choice["key"], "#chooser"))
        how += "+choice"
    return how


def create_in_lobby(
    driver: Any, server: str, name: str, players: list[str], options: dict[str, Any]
) -> list[str]:
    from selenium.webdriver.support.select import Select

    driver.get(server + "/")
    wait_ready(driver, "lobby")
    form = f'form[data-ruleset="{name}"]'
    Select(by_css(driver, f"{form} select[name=count]")[0]).select_by_value(str(len(players)))
    for seat, player in enumerate(players):
        field = by_css(driver, f'{form} input[data-seat="{seat}"]')[0]
        field.clear()
        field.send_keys(player)
    for option, value in options.items():
        box = by_css(driver, f'{form} input[name="option-{option}"]')[0]
        if box.is_selected() != value:
            click_css(driver, f'{form} input[name="option-{option}"]')
    click_css(driver, f"{form} button.create")
    wait_until(driver, lambda d: by_css(d, "#created a.join-link"), what="the join links")
    return [a.get_attribute("href") for a in by_css(driver, "#created a.join-link")]


def epoch_of(server: str, game_id: str) -> int:
    return int(requests.get(f"{server}/games/{game_id}/state", timeout=10).json()["view"]["epoch"])


@pytest.mark.parametrize(("name", "players", "options", "until_epoch"), GAMES)
def test_a_whole_game_is_played_to_the_end_by_clicking_only(
    server, browser, name, players, options, until_epoch
):
    driver, rng = browser, random.Random(34)
    shots = Shots(artifacts_dir(f"web-whole-{name}" + ("-simultaneous" if options else "")))
    rules = ruleset(name)
    ids = pack_ids(rules)
    links = create_in_lobby(driver, server, name, players, options)
    game_id = parse_qs(urlsplit(links[0]).fragment)["game"][0]
    handles = [driver.current_window_handle]
    for seat, link in enumerate(links):
        if seat:
            driver.switch_to.new_window("window")
            handles.append(driver.current_window_handle)
        driver.get(link)
        wait_ready(driver, "table")
        assert by_css(driver, "#board svg"), f"{name} draws its table"
        assert by_css(driver, "#dashboard .dash-player"), "the dashboard shows the players"
    checked: set[int] = set()
    said: set[str] = set()
    moves: dict[str, int] = {}
    clicks = 0
    while (seat := whose_turn(driver, handles)) is not None:
        if until_epoch and clicks % 10 == 0 and epoch_of(server, game_id) >= until_epoch:
            break
        clicks += 1
        assert clicks < 1500, f"the game does not end: {moves}"
        before = int(dataset(driver)["version"])
        if seat not in checked:
            shots.take(driver, f"seat {seat} to play")
            assert_no_axe_violation(driver, f"{name}: the table of seat {seat}")
            assert_dashboard_leaves_the_board_clear(driver, f"{name}: the table of seat {seat}")
            checked.add(seat)
        if clicks % 5 == 1:  # what the dashboard says is being played (a sample of the turns)
            said.add(playing(driver))
        found = choices(driver)
        if not found:  # a rewind to answer, or nothing but the dashboard's answer
            buttons = by_css(driver, "#dashboard .dash-answer")
            assert buttons, "a seat whose turn it is has something to do"
            buttons[0].click()
            settled_after(driver, before)
            continue
        missed = unclickable(found)
        assert not missed, f"{name}: drawn or held but not clickable: {missed[:3]}"
        clickable = [
            c
            for c in found
            if c["place"] or c["card"] or c["seat"] is not None or c["square"] or c["offer"]
        ]
        pool = clickable if clickable and rng.random() < 0.8 else found
        choice = rng.choice(pool)
        if choice["type"] == "patch" and choice["square"] and "preview" not in moves:
            shown = driver.execute_script(PREVIEW_JS, choice["square"])  # issue 34, point 2
            sides = {a["args"].get("side") for a in found if a["square"] == choice["square"]}
            assert shown["rects"] > 0, f"pointing at a square shows no patch: {shown}"
            for side in sides:
                assert f"the {side.title()} side" in shown["note"], (sides, shown)
            shots.take(driver, f"seat {seat} previews a patch at {choice['square']}")
            moves["preview"] = 0
        how = play_by_click(driver, choice)
        outcome = settled_after(driver, before)
        if outcome == "message":
            assert not by_css(driver, "#message .error"), driver.find_element(
                "css selector", "#message"
            ).text
        moves[how] = moves.get(how, 0) + 1
        if clicks % 25 == 1:
            assert_words_not_ids(driver, ids, f"{name} after {clicks} clicks")
            shots.take(driver, f"seat {seat} {how} {choice['label'][:40]}")
    if until_epoch:
        assert epoch_of(server, game_id) >= until_epoch, f"the game ended before: {moves}"
    result = requests.get(f"{server}/games/{game_id}/result", timeout=10).json()
    for seat, handle in enumerate(handles):
        driver.switch_to.window(handle)
        if not until_epoch:
            wait_until(driver, lambda d: by_css(d, "#result:not([hidden]) tbody tr"), what="result")
            shown = driver.execute_script(
                "return Array.from(document.querySelectorAll('#result tbody tr')).map((r) =>"
                " Array.from(r.cells).map((c) => c.textContent))"
            )
            assert shown == [
                [str(row["place"]), row["player"], str(row["score"])] for row in result["ranking"]
            ]
        assert_words_not_ids(driver, ids, f"{name}: the end, seat {seat}")
        assert console_errors(driver) == []
    shots.take(driver, "the result" if not until_epoch else f"at Epoch {until_epoch}")
    if name != "patchistory":
        assert overlapping_names(driver) == [], "names overlap nothing, pieces of the end included"
    else:
        assert overlapping_texts(driver) == [], "no two texts of the board meet, at the end"
    if name != "patchistory":  # the dashboard says which Empire is being played, by name
        empires = empires_named(said)
        assert empires, f"no window said which Empire is being played: {sorted(said)[:5]}"
        assert empires <= set(rules.names().values()), empires - set(rules.names().values())
    if name == "patchistory":
        assert "preview" in moves, "a won Tile's place is previewed before it is patched"
    drawn = sum(n for how, n in moves.items() if how != "button")
    assert drawn > 10, f"most moves are clicks on the drawing, hand or players: {moves}"
    if not until_epoch:
        driver.get(f"{server}/#game={game_id}&replay=1")
        wait_until(driver, lambda d: dataset(d).get("boardAt") == "1", what="the replay")
        shots.take(driver, "replay")
        assert_no_axe_violation(driver, f"{name}: the replay")
    for handle in handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(handles[0])


BOARDS = [
    pytest.param("hotw-2024", ["ann", "bob", "cy"], id="hotw-2024"),
    pytest.param("brief-2009", ["ann", "bob"], id="brief-2009"),
    pytest.param("hotw-ah2001", ["ann", "bob", "cy"], id="hotw-ah2001"),
    pytest.param("patchistory", ["ann", "bob"], id="patchistory"),
]
NARROW_WINDOWS = ((1024, 768), (800, 900))
SMALLEST_TEXT = 11.0
"""The smallest a board's text may be drawn at a 1400 px wide window, in CSS pixels."""


@pytest.mark.parametrize(("name", "players"), BOARDS)
def test_each_board_reads_at_1400_px_and_leaves_room_on_narrow_windows(
    server, browser, name, players
):
    """One position per ruleset (its first), at the table of its first seat: at 1400 px wide
    every text of the board is drawn at least 11 px high and no line of the drawing crosses a
    name; at 1024x768 and 800x900 the dashboard stays in view and covers no place to click."""
    driver, shots = browser, Shots(artifacts_dir(f"web-board-{name}"))
    answer = requests.post(
        f"{server}/games", json={"ruleset": name, "players": players}, timeout=10
    )
    assert answer.status_code == 201, answer.text
    game = answer.json()
    driver.set_window_size(1400, 1000)
    driver.get(f"{server}/#game={game['game_id']}&token={game['seat_tokens'][0]}")
    wait_ready(driver, "table")
    wait_until(driver, lambda d: by_css(d, "#board svg"), what="the drawing")
    shots.take(driver, "at 1400 px")
    by_css(driver, "#board svg")[0].screenshot(str(shots.directory / "board.png"))  # all of it
    found = smallest_board_text(driver)
    assert found["count"] > 10, f"{name}: the board has texts: {found}"
    small = [t for t in found["smallest"] if t["size"] < SMALLEST_TEXT]
    assert not small, f"{name}: texts under {SMALLEST_TEXT} px at 1400 px wide: {found}"
    if name != "patchistory":
        assert overlapping_names(driver) == [], f"{name}: names overlap or are crossed"
    else:  # its drawing names no places (territories are squares): no two of its texts meet
        assert overlapping_texts(driver) == [], f"{name}: texts of the board overlap"
    try:
        for width, height in NARROW_WINDOWS:
            resized_to(driver, width, height)
            faults = dashboard_faults(driver)
            shots.take(driver, f"at {width}x{height}")
            assert not faults, (name, width, height, faults)
    finally:
        driver.set_window_size(1400, 1000)


TAG_BOARD_JS = "document.querySelector('#board svg').dataset.taggedAt = arguments[0];"
BOARD_NOW_JS = """
const svg = document.querySelector('#board svg');
const places = Array.from(svg.querySelectorAll('[data-land], [data-water]'));
const id = (n) => n.dataset.land || n.dataset.water;
return {
  tagged: svg.dataset.taggedAt || null,
  places: places.map(id),
  targets: Array.from(svg.querySelectorAll('.target')).map(id),
  stale: Array.from(svg.querySelectorAll(
    '[tabindex]:not(.target), [role="button"]:not(.target), [data-actions]:not(.target)'
  )).map(id),
};
"""


def test_a_move_that_leaves_the_board_as_it_was_keeps_the_drawing_with_only_the_new_choices(
    server, browser
):
    """The table redraws its board only when the drawing changed: after a move that leaves it as
    it was (about a third of Brief's), the page keeps the drawing it shows (no parse, no
    repaint, the focus and the pointer's hover kept) and moves its clickable places to the new
    position - exactly the places the seat's legal actions name, none left over from before -
    and a click on one of them plays it."""
    driver, rng = browser, random.Random(7)
    game = requests.post(
        f"{server}/games", json={"ruleset": "brief-2009", "players": ["ann", "bob"]}, timeout=10
    ).json()
    base, tokens = f"{server}/games/{game['game_id']}", game["seat_tokens"]
    seats = [{"Authorization": f"Bearer {token}"} for token in tokens]
    driver.get(f"{server}/#game={game['game_id']}&token={tokens[0]}")
    wait_ready(driver, "table")
    kept = redrawn = clicked = 0
    for move in range(200):
        if kept >= 4 and redrawn >= 4 and clicked:
            break
        board = requests.get(f"{base}/board", headers=seats[0], timeout=10).text
        driver.execute_script(TAG_BOARD_JS, str(move))
        legal = [requests.get(f"{base}/legal-actions", headers=h, timeout=10).json() for h in seats]
        seat = next(s for s, found in enumerate(legal) if found["actions"])
        played = requests.post(
            f"{base}/commands", json=rng.choice(legal[seat]["actions"]), headers=seats[seat]
        )
        assert played.status_code == 201, played.text
        version = requests.get(base, timeout=10).json()["version"]
        wait_until(
            driver,
            lambda d, at=version: (
                dataset(d).get("ready") == "true" and int(dataset(d)["version"]) == at
            ),
            what=f"the page at version {version}",
        )
        now = driver.execute_script(BOARD_NOW_JS)
        same = requests.get(f"{base}/board", headers=seats[0], timeout=10).text == board
        assert (now["tagged"] == str(move)) == same, f"kept {now['tagged']}, unchanged {same}"
        kept, redrawn = kept + same, redrawn + (not same)
        mine = requests.get(f"{base}/legal-actions", headers=seats[0], timeout=10).json()
        named = {
            value
            for action in mine["actions"]
            for value in action["command"].values()
            if isinstance(value, str) and value in set(now["places"])
        }
        assert sorted(now["targets"]) == sorted(named), f"move {move}"
        assert now["stale"] == [], f"marks left from an earlier position: {now['stale']}"
        if same and named and not clicked:
            click_place(driver, sorted(named)[0])
            if by_css(driver, "#chooser"):  # the place offers several actions: the first
                click_css(driver, "#chooser button.action")
            assert settled_after(driver, version) == "played", "a kept board's place plays"
            assert not by_css(driver, "#message .error")
            clicked += 1
    assert kept >= 4 and redrawn >= 4 and clicked, (kept, redrawn, clicked)
