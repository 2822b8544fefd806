"""The web table at `/`, in a real browser: headless Debian Chromium driven by Selenium through
Debian's chromedriver (installed from Debian's packages when missing; nothing is downloaded by
Selenium), against `chromium serve`.

- A whole 3-player hotw-2024 game is played by clicking through the page: created in the lobby,
  each seat in its own window opened from its join link, every move a click on a button or on
  the land of the map the action names (one by keyboard alone), an undo, a refused proposal
  shown with its rule's text, and a rewind proposed in one window and accepted in the others as
  the live stream brings it; to the result.
- A replay is stepped (event list, then arrow keys) to a disputed invasion whose dice and rule
  are read from the page and checked against the log; its explanation and the audit verdict.
- A ruleset without a board is played from its state and buttons; the admin re-issues a lost
  seat link.
- axe-core (vendored, test side) finds no WCAG 2 A/AA violation on any page; every control the
  keyboard reaches shows its focus; the map's names overlap nothing (no name, piece or line of
  the map) as drawn by the browser.
- On the way, as in every ruleset's whole game (tests/support/table_page.py): every action that
  names a land or sea drawn is clickable there; words, not ids; the dashboard names the Empire
  being played.

A screenshot of every step is kept in $CHRONICLE_ARTIFACTS/web-* (else tests/artifacts/).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from service.games import GameService
from service.rulesets import ruleset
from tests.support.a11y import axe_violations, tab_stops
from tests.support.browser import (
    browser_session,
    sent_requests,
)
from tests.support.http import serving
from tests.support.table_page import (
    Shots,
    action_selector,
    actions,
    artifacts_dir,
    assert_words_not_ids,
    choices,
    click_css,
    click_place,
    dashboard_faults,
    dataset,
    empires_named,
    overlapping_names,
    pack_ids,
    playing,
    resized_to,
    settled_after,
    targets,
    unclickable,
    wait_ready,
    wait_until,
    whose_turn,
)

pytestmark = pytest.mark.slow

HOTW = "hotw-2024"
NAMES = ["ann", "bob", "cy"]
RULES = ruleset(HOTW)


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with serving(redis_url, web_workers=2, CHRONICLE_RULESET_MODULES="tests.support.toy") as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with browser_session(network_log=True) as driver:  # sent_requests reads it
        yield driver


def by_css(driver: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, selector))


def text_of(driver: Any, selector: str) -> str:
    return str(driver.execute_script(f"return document.querySelector({selector!r}).textContent"))


# --- accessibility and drawing, checked in the page -------------------------------------------


def assert_accessible(driver: Any, where: str, reach: tuple[str, ...] = ()) -> None:
    """No axe-core WCAG 2 A/AA violation (contrast included); Tab reaches every control named
    by `reach` (CSS selectors) and each stop shows its focus."""
    violations = axe_violations(driver)
    assert violations == [], f"{where}: {json.dumps(violations, indent=1)}"
    stops = tab_stops(driver)
    assert stops, f"{where}: the keyboard reaches nothing"
    hidden = [stop for stop in stops if not stop["outline"]]
    assert hidden == [], f"{where}: focus not shown on {hidden[:5]}"
    for selector in reach:
        wanted = driver.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0])).map((e) => e.id ||"
            " e.getAttribute('aria-label') || e.textContent.trim().slice(0, 60))",
            selector,
        )
        assert wanted, f"{where}: nothing matches {selector}"
        names = {stop["id"] or stop["name"] for stop in stops}
        assert set(wanted) & names, f"{where}: the keyboard never reaches {selector}"


def assert_names_overlap_nothing(driver: Any) -> int:
    """As the browser draws them: no two names overlap, no name covers a piece, no line of the
    map crosses a name (tests.support.table_page.overlapping_names); the pieces counted."""
    assert overlapping_names(driver) == [], "names overlap, cover a piece or are crossed"
    labels = driver.execute_script("return document.querySelectorAll('#board text.label').length")
    assert labels >= len(RULES.pack.board.lands)
    return int(
        driver.execute_script("return document.querySelectorAll('#board .pieces .piece').length")
    )


# --- the game ----------------------------------------------------------------------------------


def place_of(action: dict[str, Any], on_map: list[str]) -> str | None:
    for value in action["args"].values():
        if isinstance(value, str) and value in on_map:
            return value
    return None


NARROW_WINDOWS = ((1024, 768), (800, 900))


def play_by_mouse(driver: Any, action: dict[str, Any], on_map: list[str]) -> str:
    """Click the land the action names (choosing the action where the land offers several),
    or the action's button."""
    place = place_of(action, on_map)
    if place is None:
        click_css(driver, action_selector(action["key"]))
        return "button"
    click_place(driver, place)
    if by_css(driver, "#chooser"):
        click_css(driver, action_selector(action["key"], "#chooser"))
        return "map+choice"
    return "map"


def play_by_keyboard(driver: Any, place: str) -> None:
    """Tab to a land of the map and press Enter (and Enter again on a choice)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.execute_script("document.getElementById('main').focus()")
    for _ in range(300):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        focused = driver.execute_script(
            "const e = document.activeElement; return e && (e.dataset.land || e.dataset.water)"
        )
        if focused == place:
            break
    else:
        raise AssertionError(f"Tab never reaches {place} on the map")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    if by_css(driver, "#chooser"):
        assert driver.execute_script("return document.activeElement.closest('#chooser') !== null")
        ActionChains(driver).send_keys(Keys.ENTER).perform()


def test_a_whole_3_player_game_is_played_by_clicking_through_the_page(server, browser):
    from selenium.webdriver.support.select import Select

    driver, shots, rng = browser, Shots(artifacts_dir("web-game")), random.Random(24)
    driver.get(server + "/")
    wait_ready(driver, "lobby")
    shots.take(driver, "lobby")
    assert_accessible(driver, "the lobby", reach=('form[data-ruleset="hotw-2024"] button.create',))
    form = 'form[data-ruleset="hotw-2024"]'
    Select(by_css(driver, f"{form} select[name=count]")[0]).select_by_value("3")
    for seat, name in enumerate(NAMES):
        field = by_css(driver, f'{form} input[data-seat="{seat}"]')[0]
        field.clear()
        field.send_keys(name)
    click_css(driver, f"{form} button.create")
    wait_until(driver, lambda d: by_css(d, "#created a.join-link"), what="the join links")
    shots.take(driver, "created")
    links = [a.get_attribute("href") for a in by_css(driver, "#created a.join-link")]
    assert len(links) == 3
    for link in links:  # the token is in the fragment, never in the query string
        parts = urlsplit(link)
        assert parts.query == "" and "token=" in parts.fragment
    game_id = parse_qs(urlsplit(links[0]).fragment)["game"][0]
    admin_link = by_css(driver, "#created a.admin-link")[0].get_attribute("href")
    tokens = [parse_qs(urlsplit(link).fragment)["token"][0] for link in links]
    tokens.append(parse_qs(urlsplit(admin_link).fragment)["admin"][0])

    handles = [driver.current_window_handle]
    for seat, link in enumerate(links):
        if seat:
            driver.switch_to.new_window("window")
            handles.append(driver.current_window_handle)
        driver.get(link)
        wait_ready(driver, "table")
        shots.take(driver, f"seat {seat} joins")
    assert assert_names_overlap_nothing(driver) == 0, "nothing is placed yet"

    done: dict[str, int] = {}
    moves: dict[str, int] = {}
    ids, said = pack_ids(RULES), set[str]()
    while (seat := whose_turn(driver, handles)) is not None:
        before = int(dataset(driver)["version"])
        step = len(shots.taken)
        assert step < 3000, "the game does not end"
        if "a11y" not in done and targets(driver):
            shots.take(driver, f"seat {seat} to play")
            assert_accessible(
                driver, "the table", reach=("#board .target", "#actions button.action")
            )
            click_css(driver, "#view-details summary")  # the seat's whole view, on demand
            wait_until(driver, lambda d: by_css(d, "#view-details .state-view dl"), what="view")
            shots.take(driver, f"seat {seat} reads its view")
            click_css(driver, "#view-details summary")
            done["a11y"] = step
        if "undo" not in done and by_css(driver, "#undo") and sum(moves.values()) >= 3:
            click_css(driver, "#undo")
            assert settled_after(driver, before) == "played"
            assert by_css(driver, '#log li[data-type="ActionsUndone"]')
            done["undo"] = step
            shots.take(driver, f"seat {seat} undoes")
            continue
        if "refused" not in done and by_css(driver, "#propose-rewind") and "undo" in done:
            field = by_css(driver, "#rewind-to")[0]
            field.clear()
            field.send_keys("2")  # inside the game's creation: not the end of a command
            click_css(driver, "#propose-rewind")
            assert settled_after(driver, before) == "message"
            error = by_css(driver, "#message .error")[0]
            rule = error.get_attribute("data-rule")
            assert rule == RULES.undo_rule
            assert text_of(driver, "#message .error .rule-text") == RULES.pack.rules.get(rule).text
            done["refused"] = step
            shots.take(driver, f"seat {seat} refused with the rule")
            continue
        if "rewind" not in done and by_css(driver, "#propose-rewind") and sum(moves.values()) >= 12:
            target = int(by_css(driver, "#rewind-to")[0].get_attribute("value"))
            click_css(driver, "#propose-rewind")
            assert settled_after(driver, before) == "played"
            shots.take(driver, f"seat {seat} proposes a rewind to {target}")
            for other, handle in enumerate(handles):
                if other == seat:
                    continue
                driver.switch_to.window(handle)  # told by the stream, without a reload
                wait_until(driver, lambda d: by_css(d, "#accept-rewind"), what="the proposal")
                now = int(dataset(driver)["version"])
                click_css(driver, "#accept-rewind")
                assert settled_after(driver, now) == "played"
                shots.take(driver, f"seat {other} accepts the rewind")
            wait_until(driver, lambda d: by_css(d, '#log li[data-type="GameRewound"]'))
            done["rewind"] = step
            continue
        narrow = "narrow" not in done and "a11y" in done and len(targets(driver)) > 1
        if narrow:  # issue 34, point 3: the dashboard in view on a narrow window, lands clear
            for width, height in NARROW_WINDOWS:
                resized_to(driver, width, height)
                faults = dashboard_faults(driver)
                shots.take(driver, f"seat {seat} at {width}x{height}")
                assert not faults, (width, height, faults)
            done["narrow"] = step
        found = choices(driver)
        assert found, "a seat whose turn it is has actions"
        missed = unclickable(found)  # every land or sea an action names is a target
        assert not missed, f"drawn but not clickable: {missed[:3]}"
        if len(shots.taken) % 5 == 0:  # what the dashboard says is being played (a sample)
            said.add(playing(driver))
        on_map = targets(driver)
        action = rng.choice(found)
        if narrow:  # and a land is clicked there, under the dashboard kept in view
            action = rng.choice([a for a in found if place_of(a, on_map)] or found)
        place = place_of(action, on_map)
        if "keyboard" not in done and place is not None and not narrow:
            play_by_keyboard(driver, place)
            how = "keyboard"
            done["keyboard"] = step
        else:
            how = play_by_mouse(driver, action, on_map)
        outcome = settled_after(driver, before)
        if outcome == "message":  # the epoch is closing, or another seat moved first: again
            assert not by_css(driver, "#message .error"), text_of(driver, "#message")
        moves[how] = moves.get(how, 0) + 1
        if sum(moves.values()) % 40 == 0:  # and keeps the browser's network log short
            assert_tokens_only_in_headers(driver, tokens)
        if sum(moves.values()) % 25 == 1:
            assert_words_not_ids(driver, ids, f"after {sum(moves.values())} moves")
        args = " ".join(str(v) for v in action["args"].values())
        shots.take(driver, f"seat {seat} {how} {action['type']} {args}")
        if narrow:
            driver.set_window_size(1400, 1000)

    assert set(done) == {"a11y", "undo", "refused", "rewind", "keyboard", "narrow"}, done
    assert moves.get("map", 0) + moves.get("map+choice", 0) > 20, moves
    assert moves.get("button", 0) > 20, moves
    result = requests.get(f"{server}/games/{game_id}/result", timeout=10).json()
    for handle in handles:
        driver.switch_to.window(handle)
        wait_until(driver, lambda d: by_css(d, "#result:not([hidden]) tbody tr"), what="result")
        shown = driver.execute_script(
            "return Array.from(document.querySelectorAll('#result tbody tr')).map((r) =>"
            " [Number(r.dataset.seat), ...Array.from(r.cells).map((c) => c.textContent)])"
        )
        assert shown == [
            [row["seat"], str(row["place"]), row["player"], str(row["score"])]
            for row in result["ranking"]
        ]
        assert_words_not_ids(driver, ids, "the end")
    empires = empires_named(said)  # the dashboard says which Empire is being played, by name
    assert empires, f"no window said which Empire is being played: {sorted(said)[:5]}"
    assert empires <= set(RULES.names().values()), empires - set(RULES.names().values())
    shots.take(driver, "the result")
    assert assert_names_overlap_nothing(driver) > 10, "a finished game has pieces on the map"
    for handle in handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(handles[0])


# --- the replay ----------------------------------------------------------------------------------


def finished_game(service: GameService, seed: bytes, pick: int) -> str:
    """A 3-player hotw-2024 game with dice played to the end in process (random legal moves)."""
    created = service.create_game(HOTW, NAMES, seed=seed)
    rng = random.Random(pick)
    while True:
        service.run_system_steps(created.game_id)
        _, game = service.load(created.game_id)
        if RULES.is_over(game.state):
            return created.game_id
        seat = min(RULES.awaited_seats(game.state))
        service.handle(
            created.game_id, seat, rng.choice(list(RULES.legal_actions(game.state, seat)))
        )


def wait_at(driver: Any, version: int) -> None:
    wait_until(
        driver,
        lambda d: (
            (state := dataset(d)).get("ready") == "true"
            and state.get("at") == str(version)
            and state.get("boardAt") == str(version)
        ),
        what=f"the replay at event {version}",
    )


def test_a_replay_is_stepped_to_a_disputed_invasion_whose_dice_and_rule_are_read_from_the_page(
    server, browser, store, vault
):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver, shots = browser, Shots(artifacts_dir("web-replay"))
    service = GameService(store, vault)
    game_id = finished_game(service, b"d" * 32, 7)
    events = service.events(game_id)
    disputed = [
        r
        for r in events
        if r.event.type == "hotw.InvasionFrustrated" and r.event.data()["enemy_dice"]
    ]
    assert disputed, "the game has a frustrated invasion"
    invasion = disputed[len(disputed) // 2]
    version, data = invasion.version, invasion.event.data()
    total = service.store.version(game_id)

    driver.get(f"{server}/#game={game_id}&replay=1")
    wait_at(driver, 1)
    shots.take(driver, "replay at 1")
    click_css(driver, f'#event-list li[data-version="{version - 3}"] button')
    wait_at(driver, version - 3)
    shots.take(driver, f"replay at {version - 3}")
    for at in range(version - 2, version + 1):
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
        wait_at(driver, at)
        shots.take(driver, f"replay at {at}")

    assert text_of(driver, "#event-version") == str(version)
    assert text_of(driver, "#event-rule") == invasion.event.rule
    entry = RULES.pack.rules.get(invasion.event.rule)
    assert text_of(driver, "#event-page").strip() == f"rulebook p. {entry.page}"
    assert text_of(driver, "#event-rule-text") == entry.text
    dice = driver.execute_script(
        "return Object.fromEntries(Array.from(document.querySelectorAll('#event-dice .dice'))"
        ".map((e) => [e.dataset.key, e.dataset.faces.split(' ').map(Number)]))"
    )
    assert dice == {"empire_dice": data["empire_dice"], "enemy_dice": data["enemy_dice"]}
    draws = driver.execute_script(
        "return Array.from(document.querySelectorAll('#event-draws li')).map((e) =>"
        " [Number(e.dataset.k), Number(e.dataset.n), Number(e.dataset.result)])"
    )
    assert draws == [[d.k, d.n, d.result] for d in invasion.event.draws]
    assert [r + 1 for _, _, r in draws] == [*data["empire_dice"], *data["enemy_dice"]]
    words = text_of(driver, "#event-words")
    land = RULES.names()[data["land"]]
    assert land in words and NAMES[data["seat"]] in words and "frustrated" in words
    _, at_invasion = service.load_at(game_id, version)
    held = RULES.view(at_invasion.state, None)["lands"].get(data["land"], {"owner": None})
    owner = driver.execute_script(
        "const g = document.querySelector(`#board .pieces[data-place='${arguments[0]}']`);"
        " return g ? g.dataset.owner : null",
        data["land"],
    )
    assert (owner or "") == ("" if held["owner"] is None else str(held["owner"]))
    assert by_css(driver, f'#board .land.happened[data-land="{data["land"]}"]')

    click_css(driver, "#explain")
    wait_until(driver, lambda d: by_css(d, "#explanation .rule-entry"), what="the explanation")
    explained = driver.execute_script(
        "return Array.from(document.querySelectorAll('#explanation .rule-entry'))"
        ".map((e) => e.dataset.rule)"
    )
    assert explained == [invasion.event.rule, *invasion.event.cites]
    shots.take(driver, f"explanation of {version}")

    audit = requests.get(f"{server}/games/{game_id}/audit", timeout=10).json()
    assert audit["clean"]
    verdict = by_css(driver, "#audit-verdict")[0]
    assert verdict.get_attribute("data-verdict") == "clean"
    assert f"all {audit['outcomes_checked']} chance outcomes" in verdict.text

    driver.execute_script("document.getElementById('main').focus()")
    ActionChains(driver).send_keys(Keys.END).perform()
    wait_at(driver, total)
    shots.take(driver, "replay at the end")
    slider = by_css(driver, "#slider")[0]
    slider.send_keys(Keys.ARROW_LEFT)
    wait_at(driver, total - 1)
    shots.take(driver, f"replay at {total - 1} by the slider")
    assert assert_names_overlap_nothing(driver) > 10
    assert_accessible(driver, "the replay", reach=("#slider", "#explain", "#next"))


# --- a ruleset without a board, and the admin's page --------------------------------------------


def create(server: str, ruleset_name: str, players: list[str]) -> dict[str, Any]:
    response = requests.post(
        f"{server}/games", json={"ruleset": ruleset_name, "players": players}, timeout=10
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def assert_tokens_only_in_headers(driver: Any, tokens: list[str]) -> None:
    """No request the page sent carries a token in its URL; the seat's token went in the
    Authorization header of the API calls."""
    sent = sent_requests(driver)
    assert sent, "the page sent requests"
    for request in sent:
        url = request["url"]
        assert urlsplit(url).fragment == "" or url.startswith("data:"), url
        for token in tokens:
            assert token not in url, f"a token in {url}"
    authorised = [r for r in sent if r["headers"].get("Authorization", "").startswith("Bearer ")]
    assert authorised, "the page sends its token in Authorization headers"


def test_a_ruleset_without_a_board_is_played_from_its_state_and_buttons(server, browser):
    driver, shots = browser, Shots(artifacts_dir("web-toy"))
    game = create(server, "toy-sealed-bids", ["ann", "bob"])
    sent_requests(driver)  # forget what earlier tests sent
    driver.get(f"{server}/#game={game['game_id']}&token={game['seat_tokens'][0]}")
    wait_ready(driver, "table")
    assert not by_css(driver, "#board svg") and by_css(driver, "#board dl")
    assert dataset(driver)["yourTurn"] == "true"
    assert text_of(driver, "#your-turn") == "Your turn, ann"
    shots.take(driver, "toy table")
    assert_accessible(driver, "a table without a board", reach=("#actions button.action",))
    before = int(dataset(driver)["version"])
    bids = [a for a in actions(driver) if a["type"] == "bid"]
    click_css(driver, action_selector(bids[2]["key"]))
    assert settled_after(driver, before) == "played"
    shots.take(driver, "toy bid sealed")
    assert dataset(driver)["yourTurn"] == "false"
    assert by_css(driver, '#log li[data-type="ToyBidSealed"]')
    assert_tokens_only_in_headers(driver, [*game["seat_tokens"], game["admin_token"]])


def test_the_admin_page_reissues_a_lost_seat_link_and_the_old_one_stops_working(server, browser):
    driver, shots = browser, Shots(artifacts_dir("web-admin"))
    game = create(server, "toy-sealed-bids", ["ann", "bob"])
    game_id, old = game["game_id"], game["seat_tokens"][1]
    sent_requests(driver)  # forget what earlier tests sent
    driver.get(f"{server}/#game={game_id}&admin={game['admin_token']}")
    wait_ready(driver, "admin")
    shots.take(driver, "admin page")
    assert_accessible(driver, "the admin page", reach=("button.reissue",))
    click_css(driver, 'button.reissue[data-seat="1"]')
    wait_until(driver, lambda d: by_css(d, 'a.join-link[data-seat="1"]'), what="the new link")
    shots.take(driver, "new link for bob")
    new_link = by_css(driver, 'a.join-link[data-seat="1"]')[0].get_attribute("href")
    assert parse_qs(urlsplit(new_link).fragment)["token"][0] != old
    driver.get(f"{server}/#game={game_id}&token={old}")
    wait_ready(driver, "table")
    assert "does not work" in text_of(driver, "#message")
    assert by_css(driver, "#log li") and not actions(driver), "it goes on as a spectator"
    shots.take(driver, "the old link refused")
    driver.get(new_link)
    wait_ready(driver, "table")
    assert not by_css(driver, "#message .error")
    assert dataset(driver)["yourTurn"] == "true" and actions(driver)
    shots.take(driver, "the new link plays")
    new = parse_qs(urlsplit(new_link).fragment)["token"][0]
    assert_tokens_only_in_headers(driver, [*game["seat_tokens"], game["admin_token"], new])


# --- Patchistory at the same table -------------------------------------------------------------


def page_text(driver: Any) -> str:
    """Everything the page holds as text, the collapsed view and the log included."""
    return str(driver.execute_script("return document.documentElement.textContent"))


def test_patchistory_rounds_are_played_by_clicking_through_the_page(server, browser):
    """Three windows, one a seat, play the first two Rounds of a Patchistory game by its action
    buttons (the first Auction, patching, the first Workers, Diplomacy, Management, Movement);
    the table's picture shows every civilization and grows with the Tiles patched; no window
    ever holds another seat's Building Tiles or Prosperity Cards."""
    driver, shots, rng = browser, Shots(artifacts_dir("web-patchistory")), random.Random(23)
    game = create(server, "patchistory", NAMES)
    handles = [driver.current_window_handle]
    for seat, token in enumerate(game["seat_tokens"]):
        if seat:
            driver.switch_to.new_window("window")
            handles.append(driver.current_window_handle)
        driver.get(f"{server}/#game={game['game_id']}&token={token}")
        wait_ready(driver, "table")
    assert len(by_css(driver, "#board svg g.civ")) == 3
    squares_at_start = len(by_css(driver, "#board svg g.civ rect.square"))

    def view_of(seat: int) -> dict[str, Any]:
        answer = requests.get(
            f"{server}/games/{game['game_id']}/state",
            headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"},
            timeout=10,
        )
        return dict(answer.json()["view"])

    clicks, checked, watched = 0, False, 0
    while view_of(0)["serial"] < 3:
        assert clicks < 400, "two Rounds take fewer clicks"
        seat = whose_turn(driver, handles)
        assert seat is not None
        before = int(dataset(driver)["version"])
        if not checked:
            shots.take(driver, f"seat {seat} to play")
            assert_accessible(driver, "the Patchistory table", reach=("#actions button.action",))
            checked = True
        choices = actions(driver)
        assert choices, "a seat whose turn it is has actions"
        action = rng.choice(choices)
        click_css(driver, action_selector(action["key"]))
        outcome = settled_after(driver, before)
        if outcome == "message":
            assert not by_css(driver, "#message .error"), text_of(driver, "#message")
        clicks += 1
        if clicks % 10 == 0:
            shots.take(driver, f"seat {seat} {action['type']}")
            hidden: dict[int, set[str]] = {}
            for other in range(3):
                own = view_of(other)["players"][other]
                hidden[other] = {*own["building_tiles"], *own["prosperity"]}
                assert len(hidden[other]) >= 4, "each seat holds Building Tiles and cards"
            for watcher, handle in enumerate(handles):
                driver.switch_to.window(handle)
                text = page_text(driver)
                for other, secrets in hidden.items():
                    if other != watcher:
                        shown = sorted(s for s in secrets if s in text)
                        assert shown == [], f"seat {watcher} sees seat {other}'s {shown}"
            watched += 1
    assert watched >= 3 and clicks > 30, (watched, clicks)
    players = view_of(0)["players"]
    patched = [len(p["tiles"]) for p in players]
    assert sum(patched) > 3, f"Tiles were patched: {patched}"
    driver.switch_to.window(handles[0])
    wait_until(
        driver,
        lambda d: len(by_css(d, "#board svg g.civ rect.square")) > squares_at_start,
        what="the picture of the table, grown by the Tiles patched",
    )
    shots.take(driver, "after two Rounds")
    for handle in handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(handles[0])
