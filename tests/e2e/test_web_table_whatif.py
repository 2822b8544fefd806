"""The rulings view's what-if, in a real browser (headless Chromium, as test_web_table.py): at
a disputed invasion the invader lost, a person enters other dice ("what if I had rolled
sixes?"), a sandbox starts from the position just before the event with those dice scripted,
the move is played again from the page, and the page shows what would have happened, marked
scripted, and an audit saying the sandbox's chance was scripted rather than committed."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import requests

from service.games import CreatedGame, GameService
from tests.e2e.test_web_table import (  # noqa: F401  (fixtures)
    HOTW,
    NAMES,
    RULES,
    assert_accessible,
    browser,
    by_css,
    server,
    text_of,
    wait_at,
)
from tests.support.table_page import Shots, artifacts_dir, click_css, dataset, wait_until

pytestmark = pytest.mark.slow


def finished_game(service: GameService, seed: bytes, pick: int) -> CreatedGame:
    """A 3-player hotw-2024 game played to the end in process (random legal moves)."""
    created = service.create_game(HOTW, NAMES, seed=seed)
    rng = random.Random(pick)
    while True:
        service.run_system_steps(created.game_id)
        _, game = service.load(created.game_id)
        if RULES.is_over(game.state):
            return created
        seat = min(RULES.awaited_seats(game.state))
        service.handle(
            created.game_id, seat, rng.choice(list(RULES.legal_actions(game.state, seat)))
        )


def set_value(driver: Any, selector: str, value: int) -> None:
    element = by_css(driver, selector)[0]
    element.clear()
    element.send_keys(str(value))


def test_a_what_if_replays_a_lost_invasion_on_sixes_and_shows_it_scripted(
    server,  # noqa: F811  (the fixture imported above)
    browser,  # noqa: F811
    store,
    vault,
):
    driver, shots = browser, Shots(artifacts_dir("web-whatif"))
    service = GameService(store, vault)
    created = finished_game(service, b"d" * 32, 7)
    game_id = created.game_id
    lost = [
        r
        for r in service.events(game_id)
        if r.event.type == "hotw.InvasionFrustrated" and r.event.data()["enemy_dice"]
    ]
    assert lost, "the game has an invasion the invader lost"
    invasion = lost[len(lost) // 2]
    version, data = invasion.version, invasion.event.data()
    empire, enemy = len(data["empire_dice"]), len(data["enemy_dice"])
    assert len(invasion.event.draws) == empire + enemy

    driver.get(f"{server}/#game={game_id}&replay={version}&admin={created.tokens.admin}")
    wait_at(driver, version)
    wait_until(driver, lambda d: by_css(d, "#whatif-form"), what="the what-if form")
    inputs = by_css(driver, "#whatif-form input[data-n]")
    assert [int(i.get_attribute("value")) for i in inputs] == [
        *data["empire_dice"],
        *data["enemy_dice"],
    ]  # the dice as rolled, to be changed
    labels = [by_css(driver, f'label[for="{i.get_attribute("id")}"]')[0].text for i in inputs]
    assert labels == [
        *(f"Empire die{f' {k + 1}' if empire > 1 else ''} (1 to 6)" for k in range(empire)),
        *(f"Enemy die{f' {k + 1}' if enemy > 1 else ''} (1 to 6)" for k in range(enemy)),
    ]  # whose each die is, as the event's dice say
    for i in range(empire):
        set_value(driver, f"#whatif-draw-{i}", 6)
    for i in range(empire, empire + enemy):
        set_value(driver, f"#whatif-draw-{i}", 1)
    shots.take(driver, "the what-if's dice entered")
    assert_accessible(driver, "the what-if form", reach=("#whatif-try",))
    click_css(driver, "#whatif-try")
    wait_until(
        driver,
        lambda d: by_css(d, ".whatif-action") or by_css(d, "#whatif-result .error"),
        what="the sandbox's moves",
    )
    assert not by_css(driver, "#whatif-result .error"), text_of(driver, "#whatif-result")
    sandbox_id = by_css(driver, "#whatif-made")[0].get_attribute("data-sandbox")
    buttons = by_css(driver, ".whatif-action")
    again = [
        b
        for b in buttons
        if json.loads(b.get_attribute("data-args")).get("land") == data["land"]
        and b.get_attribute("data-likely") == "true"
    ]
    assert again, "the move against the same land is offered first"
    shots.take(driver, "the sandbox's moves")
    again[0].click()
    wait_until(
        driver,
        lambda d: by_css(d, "#whatif-events li") or by_css(d, "#whatif-outcome .error"),
        what="the what-if's outcome",
    )
    assert not by_css(driver, "#whatif-outcome .error"), text_of(driver, "#whatif-outcome")
    shots.take(driver, "what would have happened")

    told = driver.execute_script(
        "return Array.from(document.querySelectorAll('#whatif-events li')).map((e) => ({"
        " type: e.dataset.type, scripted: e.dataset.scripted === 'true',"
        " dice: Object.fromEntries(Array.from(e.querySelectorAll('.dice'))"
        "  .map((d) => [d.dataset.key, d.dataset.faces.split(' ').map(Number)])) }))"
    )
    rolled = [e for e in told if e["dice"]]
    assert rolled and rolled[0]["scripted"]
    assert rolled[0]["dice"] == {"empire_dice": [6] * empire, "enemy_dice": [1] * enemy}
    assert rolled[0]["type"] != "hotw.InvasionFrustrated"  # sixes against ones: it succeeds
    audit = by_css(driver, "#whatif-audit")[0]
    assert audit.get_attribute("data-chance") == "scripted"
    assert "Chance scripted, not committed" in audit.text

    # the server says the same: the sandbox's log holds the dice given, marked scripted
    served = requests.get(f"{server}/games/{sandbox_id}/audit", timeout=10).json()
    assert (served["chance"], served["commitment_verified"], served["clean"]) == (
        "scripted",
        False,
        True,
    )
    assert served["outcomes_checked"] == empire + enemy
    sandbox_log = service.events(sandbox_id)
    assert sandbox_log[2].event.type == "ChanceScripted"
    drawn = [d for r in sandbox_log for d in r.event.draws]
    assert [d.result + 1 for d in drawn] == [6] * empire + [1] * enemy
    assert all(d.scripted for d in drawn)

    # the sandbox's own replay says its chance was scripted
    click_css(driver, "#whatif-outcome a")
    wait_until(
        driver,
        lambda d: (
            dataset(d).get("ready") == "true"
            and by_css(d, "#audit-verdict")
            and by_css(d, "#audit-verdict")[0].get_attribute("data-verdict") != "pending"
            and by_css(d, "#event-version")
        ),
        what="the sandbox's replay",
    )
    wait_until(
        driver,
        lambda d: by_css(d, "#audit-verdict")[0].get_attribute("data-verdict") == "scripted",
        what="the scripted audit verdict",
    )
    assert by_css(driver, "#event-scripted")
    shots.take(driver, "the sandbox's replay")
    assert_accessible(driver, "the what-if sandbox's replay", reach=("#slider",))
