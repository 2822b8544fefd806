"""What a web table reads of the public API besides the play itself: a ruleset's commands, names
and whether it draws its table; the table drawn as the caller may see it; the events in words
with their rule, page and draws; and an explanation's sentence."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from service.games import GameService
from service.rulesets import ruleset
from tests.support.api import bearer, create_toy, play_one

SVG = "{http://www.w3.org/2000/svg}"


def test_a_ruleset_lists_its_commands_names_and_whether_it_draws_its_table(api):
    hotw = api.get("/rulesets/hotw-2024").get_json()
    assert hotw["name"] == "hotw-2024" and hotw["board"] is True
    types = {c["type"] for c in hotw["commands"]}
    assert {"place_army", "end_phase", "undo", "propose_rewind", "accept_rewind"} <= types
    assert hotw["names"]["levant"] == "Levant" and hotw["names"]["arabian-sea"] == "Arabian Sea"
    (place,) = [c for c in hotw["commands"] if c["type"] == "place_army"]
    assert place["args"][0]["name"] == "land" and "levant" in place["args"][0]["allowed"]
    toy = api.get("/rulesets/toy-sealed-bids").get_json()
    assert toy["board"] is False and toy["names"] == {}
    assert {c["type"] for c in toy["commands"]} >= {"bid", "roll", "undo"}
    missing = api.get("/rulesets/monopoly")
    assert missing.status_code == 404 and missing.get_json()["code"] == "ruleset_not_found"


def test_the_board_is_drawn_as_the_caller_may_see_it_and_a_toy_has_none(api, store, vault):
    created = api.post(
        "/games", json={"ruleset": "hotw-2024", "players": ["ann", "bob", "cy"]}
    ).get_json()
    game_id = created["game_id"]
    response = api.get(f"/games/{game_id}/board")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    as_bytes = api.get(f"/games/{game_id}/board", headers={"Accept": "application/octet-stream"})
    assert as_bytes.mimetype == "application/octet-stream" and as_bytes.data == response.data
    root = ET.fromstring(response.get_data(as_text=True))
    lands = {g.get("data-land") for g in root.iter(f"{SVG}g") if g.get("class") == "land"}
    assert lands == set(ruleset("hotw-2024").pack.board.lands)
    assert "ann (red)" in response.get_data(as_text=True)
    mine = api.get(f"/games/{game_id}/board?at=2", headers=bearer(created["seat_tokens"][0]))
    assert mine.status_code == 200 and "no-store" in mine.headers["Cache-Control"]
    assert api.get(f"/games/{game_id}/board?at=100000").status_code == 404
    assert api.get(f"/games/{game_id}/board?at=x").status_code == 400
    assert api.get(f"/games/{game_id}/board", headers=bearer("nope")).status_code == 401
    toy = create_toy(api)
    none = api.get(f"/games/{toy['game_id']}/board")
    assert none.status_code == 404 and none.get_json()["code"] == "no_board"


def test_the_narrative_tells_each_event_with_its_rule_page_and_draws(api):
    game = create_toy(api, players=2)
    rng = random.Random(4)
    for _ in range(6):
        play_one(api, game, rng)
    game_id = game["game_id"]
    public = api.get(f"/games/{game_id}/narrative?from=1&limit=500").get_json()
    assert public["players"] == ["ann", "bob"] and public["next"] is None
    entries = public["entries"]
    assert [e["version"] for e in entries] == list(range(1, public["version"] + 1))
    assert entries[0]["words"].startswith("The game was created for ann and bob")
    rolled = [e for e in entries if e["type"] == "ToyDieRolled"]
    assert rolled and all(e["draws"] and e["draws"][0]["result"] >= 0 for e in rolled)
    assert all(e["rule"] == "toy.roll" for e in rolled)
    bids = [e for e in entries if e["type"] == "ToyBidSealed"]
    assert bids and all(e["redacted"] and "hidden from you" in e["words"] for e in bids)
    paged = api.get(f"/games/{game_id}/narrative?from=2&limit=2").get_json()
    assert [e["version"] for e in paged["entries"]] == [2, 3] and paged["next"] == 4
    assert api.get(f"/games/{game_id}/narrative?limit=0").status_code == 400


def test_hotw_events_read_in_words_with_the_rulebook_page_and_the_dice(api, store, vault):
    service = GameService(store, vault)
    created = service.create_game("hotw-2024", ["ann", "bob", "cy"], seed=b"w" * 32)
    rules, rng = ruleset("hotw-2024"), random.Random(5)
    invasions: list[int] = []
    while not invasions:
        service.run_system_steps(created.game_id)
        _, game = service.load(created.game_id)
        seat = min(rules.awaited_seats(game.state))
        outcome = service.handle(
            created.game_id, seat, rng.choice(list(rules.legal_actions(game.state, seat)))
        )
        invasions = [r.version for r in outcome.events if "Invasion" in r.event.type]
    version = invasions[0]
    (entry,) = api.get(f"/games/{created.game_id}/narrative?from={version}&limit=1").get_json()[
        "entries"
    ]
    data = entry["data"]
    names = rules.names()
    assert names[data["land"]] in entry["words"]
    assert ["ann", "bob", "cy"][data["seat"]] in entry["words"]
    if data["empire_dice"]:
        faces = " and ".join(str(f) for f in data["empire_dice"])
        assert f"the Empire rolled {faces}" in entry["words"]
        assert [d["result"] + 1 for d in entry["draws"]][: len(data["empire_dice"])] == data[
            "empire_dice"
        ]
    assert entry["page"] and entry["rule"].startswith("hotw24.invasion")
    explained = api.get(f"/games/{created.game_id}/events/{version}/explain").get_json()
    assert explained["words"] == entry["words"]
