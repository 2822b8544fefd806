"""The Optional rules of hotw-2024 over the API: declared with their defaults, refused where the
text does not give them, and played by seats through legal actions; `chronicle selfplay
--option` for each of them and for all four."""

from __future__ import annotations

import json
import re

import pytest

from cli.main import main
from domain.hotw.editions.hotw_2024 import Option
from tests.support.api import bearer

HOTW = "hotw-2024"
OPTIONAL_RULES = tuple(option.value for option in Option)


def test_the_rulesets_endpoint_lists_the_four_optional_rules_off_by_default(api):
    (hotw,) = [r for r in api.get("/rulesets").get_json()["rulesets"] if r["name"] == HOTW]
    options = {o["name"]: o for o in hotw["options"]}
    assert options["dice"]["default"] is True
    for name in OPTIONAL_RULES:
        assert (options[name]["type"], options[name]["default"]) == ("boolean", False)
        described = options[name]["description"]  # in words: the rule's number, not its id
        assert re.match(r"Option \d: \w", described) and "hotw24." not in described, described


def test_invasion_and_conquest_without_dice_is_refused_citing_option_three(api):
    body = {
        "ruleset": HOTW,
        "players": ["a", "b", "c"],
        "options": {"invasion_and_conquest": True, "dice": False},
    }
    before = api.get("/games?limit=100").get_json()["games"]
    refused = api.post("/games", json=body)
    assert refused.status_code == 422
    error = refused.get_json()
    assert (error["code"], error["rule"]) == ("invalid_options", "hotw24.option3.dice")
    assert api.get("/games?limit=100").get_json()["games"] == before  # nothing was created


def test_with_all_four_options_each_seat_sees_only_its_own_secrets_and_chooses_an_event_card(api):
    body = {
        "ruleset": HOTW,
        "players": ["a", "b", "c", "d"],
        "options": dict.fromkeys(OPTIONAL_RULES, True),
    }
    created = api.post("/games", json=body)
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    url = f"/games/{game['game_id']}"
    summary = api.get(url).get_json()
    assert all(summary["options"][name] is True for name in OPTIONAL_RULES)

    views = [
        api.get(f"{url}/state", headers=bearer(token)).get_json()["view"]
        for token in game["seat_tokens"]
    ]
    assert views[0]["options"] == sorted(OPTIONAL_RULES)
    paired = set()
    for seat, view in enumerate(views):
        mine = view["players"][seat]["area_tokens"]
        paired |= {t for t in mine if "+" in t}  # a Paired Area token names two areas
        assert all(p["area_tokens"] is None for p in view["players"] if p["seat"] != seat)
    assert len(paired) == 4  # one each, all different

    richest = views[0]["gold_order"][0]
    assert summary["awaiting"] == [richest]
    token = game["seat_tokens"][richest]
    actions = api.get(f"{url}/legal-actions", headers=bearer(token)).get_json()["actions"]
    assert {a["command"]["type"] for a in actions} == {"choose_event_card"}
    assert len(actions) == 4
    posted = api.post(f"{url}/commands", json=actions[0], headers=bearer(token))
    assert posted.status_code == 201, posted.get_json()
    chosen = actions[0]["command"]["card"]
    mine = api.get(f"{url}/state", headers=bearer(token)).get_json()["view"]
    assert mine["players"][richest]["event_card"] == chosen
    spectator = api.get(f"{url}/state").get_json()["view"]
    assert spectator["players"][richest]["event_card"] is None
    assert chosen not in json.dumps(spectator)


@pytest.mark.parametrize("options", [*((o,) for o in OPTIONAL_RULES), OPTIONAL_RULES])
def test_selfplay_with_an_option_reports_every_game_completed_without_failures(options, capsys):
    flags = [arg for name in options for arg in ("--option", f"{name}=true")]
    code = main(["selfplay", "--ruleset", HOTW, "--games", "2", *flags, "--json", "--quiet"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (report["completed"], report["failures"]) == (2, [])
    assert all(report["options"][name] is True for name in options)


def test_selfplay_refuses_option_three_without_dice_before_playing(capsys):
    flags = ["--option", "invasion_and_conquest=true", "--option", "dice=false"]
    assert main(["selfplay", "--ruleset", HOTW, "--games", "3", *flags, "--quiet"]) == 2
    assert "hotw24.option3.dice" in capsys.readouterr().err
